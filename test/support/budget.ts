/**
 * Budgets of the randomised tests (fuzzing, kill-at-random-moments crash tests): a short one in
 * `npm test`, a long one in `npm run fuzz` (run-tests --long sets TABIYA_BUDGET=long). A failing
 * case prints its seed, and TABIYA_SEED repeats it.
 */
export const LONG = process.env.TABIYA_BUDGET === 'long';

/** The short or the long figure. */
export function budget(short: number, long: number): number {
  return LONG ? long : short;
}

/** The seed of a randomised test: TABIYA_SEED when given, else a fixed one (short runs repeat) or a fresh one (long runs explore). */
export function seed(fixed: number): number {
  const s = process.env.TABIYA_SEED;
  if (s !== undefined && /^\d+$/.test(s)) return Number(s);
  return LONG ? Date.now() % 2147483647 : fixed;
}

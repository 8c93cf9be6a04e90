/**
 * Random picks shared by the policies, written so that each draw's probability is exact and
 * the sequence of `random()` calls is fixed (a seeded generator replays a choice exactly).
 */

/**
 * Terra's roulette wheel (seed 001): R = Random(0, U) with U the sum of the values; walk the
 * moves in random order adding each value to S, and take the move that carries S past R.
 * Taking the move when S > R (rather than S ≥ R) gives each move exactly v/U and never picks a
 * value of 0. Draws: one for R, then one per step while more than one move remains.
 * Returns an index into `values`, or -1 when they sum to 0.
 */
export function spinRoulette(values: readonly number[], random: () => number): number {
  let total = 0;
  for (const v of values) total += v;
  if (total <= 0) return -1;
  const r = random() * total;
  const order: number[] = [];
  for (let i = 0; i < values.length; i++) order.push(i);
  let sum = 0;
  let last = -1;
  while (order.length > 0) {
    const k = order.length === 1 ? 0 : Math.min(order.length - 1, Math.floor(random() * order.length));
    const i = order[k]!;
    order.splice(k, 1);
    if (values[i]! <= 0) continue;
    last = i;
    sum += values[i]!;
    if (sum > r) return i;
  }
  // Only rounding can leave S ≤ R after the whole wheel: the last positive move carried it.
  return last;
}

/**
 * PolyGlot's single-pass weighted reservoir pick (polyglot.md §5.1): running total T += w;
 * the candidate replaces the choice when rand_int(T) < w. One draw per positive weight;
 * probability w/Σw. Returns an index, or -1 when all weights are 0.
 */
export function reservoirPick(weights: readonly number[], random: () => number): number {
  let total = 0;
  let chosen = -1;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (w <= 0) continue;
    total += w;
    if (Math.floor(random() * total) < w) chosen = i;
  }
  return chosen;
}

/** A uniform index below n (n ≥ 1); no draw when n is 1. */
export function uniformIndex(n: number, random: () => number): number {
  return n === 1 ? 0 : Math.min(n - 1, Math.floor(random() * n));
}

/** The index of the first strictly largest value (-1 for an empty list). */
export function firstMax(values: readonly number[]): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) if (best < 0 || values[i]! > values[best]!) best = i;
  return best;
}

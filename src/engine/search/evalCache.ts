/**
 * A small cache of static evaluations by position key, per search thread. The hash table keeps
 * the evaluation of the positions it stores, but many evaluated positions never reach it (or are
 * overwritten): razoring and ProbCut search a node's quiescence before the node stores
 * anything, late-move re-searches and aspiration re-searches revisit children, and a null move
 * followed by a reply can transpose. About one evaluation in seven is a repeat.
 *
 * Two words per entry, indexed by the key's low bits: the key's high word, and the low word's
 * upper half joined with the 16-bit evaluation (evaluations are within ±EVAL_LIMIT < 2^15).
 * The cache is emptied at the start of every search, so evaluation weights changed between
 * searches (by a tuner) are never served stale.
 */
const BITS = 15;
const MASK = (1 << BITS) - 1;

export const EVAL_CACHE_WORDS = 2 << BITS;

/** Sentinel for "not cached" (outside the evaluation range). */
export const EVAL_MISS = 0x7fffffff;

/** The cached evaluation of the position with this key, or EVAL_MISS. */
export function probeEval(cache: Int32Array, keyLo: number, keyHi: number): number {
  const i = (keyLo & MASK) << 1;
  const w = cache[i + 1]!;
  if (cache[i] !== keyHi || ((w ^ keyLo) & 0xffff0000) !== 0 || w === 0) return EVAL_MISS;
  return (w << 16) >> 16;
}

export function storeEval(cache: Int32Array, keyLo: number, keyHi: number, v: number): void {
  const i = (keyLo & MASK) << 1;
  cache[i] = keyHi;
  cache[i + 1] = (keyLo & 0xffff0000) | (v & 0xffff);
}

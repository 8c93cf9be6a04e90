/**
 * Static evaluations by position key, two words per
 * entry indexed by the key's low bits (the key's high word; the low word's upper half joined
 * with the 16-bit evaluation). Emptied at the start of every search.
 */
const BITS = 15;
const MASK = (1 << BITS) - 1;

export const EVAL_CACHE_WORDS = 2 << BITS;

/** Sentinel for "not cached" (outside the evaluation range). */
export const EVAL_MISS = 0x7fffffff;

// @ts-ignore: decorator
@inline export function probeEval(cache: StaticArray<i32>, key: u64): i32 {
  const keyLo = <i32>key;
  const i = (keyLo & MASK) << 1;
  const w = unchecked(cache[i + 1]);
  if (unchecked(cache[i]) != <i32>(key >>> 32) || ((w ^ keyLo) & 0xffff0000) != 0 || w == 0) return EVAL_MISS;
  return (w << 16) >> 16;
}

// @ts-ignore: decorator
@inline export function storeEval(cache: StaticArray<i32>, key: u64, v: i32): void {
  const keyLo = <i32>key;
  const i = (keyLo & MASK) << 1;
  unchecked(cache[i] = <i32>(key >>> 32));
  unchecked(cache[i + 1] = (keyLo & 0xffff0000) | (v & 0xffff));
}

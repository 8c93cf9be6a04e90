/**
 * Reproducible random 64-bit keys (as uint32 halves) with values, for the retrieval
 * structure's tests and benchmark.
 */

/** xorshift32 (Marsaglia): uint32 numbers from a seed. */
export function xorshift32(seed: number): () => number {
  let s = seed | 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

export interface KeySet {
  hi: Uint32Array;
  lo: Uint32Array;
  values: Uint32Array;
}

/** `n` random keys with random values of `bits` bits (duplicates are unlikely: n²/2^65). */
export function randomKeys(n: number, bits: number, seed: number): KeySet {
  const r = xorshift32(seed);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const values = new Uint32Array(n);
  const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
  for (let i = 0; i < n; i++) {
    hi[i] = r();
    lo[i] = r();
    values[i] = r() & mask;
  }
  return { hi, lo, values };
}

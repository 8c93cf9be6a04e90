/**
 * 64-bit square sets as two int32 halves: `lo` holds a1..h4 (squares 0..31), `hi` holds
 * a5..h8 (32..63). No BigInt: XOR and AND on two int32s run about eight times faster than on
 * BigUint64 in V8, and nothing allocates.
 *
 * Iterate without allocation:
 *
 *     while (lo !== 0) { const sq = lsb32(lo); lo &= lo - 1; … }
 *     while (hi !== 0) { const sq = 32 + lsb32(hi); hi &= hi - 1; … }
 */

/** Index of the lowest set bit of a non-zero int32. */
export const lsb32 = (x: number): number => 31 - Math.clz32(x & -x);

/** Index of the highest set bit of a non-zero int32. */
export const msb32 = (x: number): number => 31 - Math.clz32(x);

/** Population count of an int32 (SWAR). */
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export const popcount = (lo: number, hi: number): number => popcount32(lo) + popcount32(hi);

/** Bit of `sq` in its half. */
export const bit = (sq: number): number => 1 << (sq & 31);

/** True if `sq` is in the set (lo, hi). */
export const has = (lo: number, hi: number, sq: number): boolean =>
  ((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) !== 0;

/** More than one bit set in (lo, hi). */
export const moreThanOne = (lo: number, hi: number): boolean =>
  (lo !== 0 && hi !== 0) || (lo & (lo - 1)) !== 0 || (hi & (hi - 1)) !== 0;

/** Squares of (lo, hi) as an array, for tests and cold code. */
export function squaresOf(lo: number, hi: number): number[] {
  const out: number[] = [];
  while (lo !== 0) {
    out.push(lsb32(lo));
    lo &= lo - 1;
  }
  while (hi !== 0) {
    out.push(32 + lsb32(hi));
    hi &= hi - 1;
  }
  return out;
}

export const DARK_LO = 0xaa55aa55 | 0;
export const DARK_HI = 0xaa55aa55 | 0;

/**
 * Square masks the evaluation needs (files, pawn spans, distances), built once at load, and
 * the scratch arrays its term modules share for one evaluation (attack maps by side and piece
 * type, king zones, trace coefficients). Sets are lo/hi int32 halves as everywhere in the core.
 */
import { NPAIRS } from './params.js';

export const FILE_A = 0x01010101;
export const FILE_H = 0x80808080 | 0;

/** Squares of a file (index 0..7), per half (the same in both halves). */
export const FILE_MASK = new Int32Array(8);
/** Files adjacent to a file, per half. */
export const ADJ_FILES = new Int32Array(8);
/** Squares strictly in front of sq on its file, for a pawn of color c: index c * 64 + sq. */
export const FRONT_LO = new Int32Array(128);
export const FRONT_HI = new Int32Array(128);
/** Squares in front of sq on the adjacent files (where enemy pawns could attack or stop it). */
export const SPAN_LO = new Int32Array(128);
export const SPAN_HI = new Int32Array(128);
/** FRONT | SPAN: no enemy pawn here means a passed pawn. */
export const PASSED_LO = new Int32Array(128);
export const PASSED_HI = new Int32Array(128);
/** Squares on the adjacent files at the same rank or behind (own pawns here can defend it later). */
export const BEHIND_ADJ_LO = new Int32Array(128);
export const BEHIND_ADJ_HI = new Int32Array(128);
/** King distance (Chebyshev) between two squares, at a * 64 + b. */
export const DIST = new Uint8Array(4096);
/** Distance of a square from the centre (0..3) and from the nearest edge. */
export const CENTER_DIST = new Uint8Array(64);

function set(lo: Int32Array, hi: Int32Array, i: number, sq: number): void {
  if (sq < 32) lo[i]! |= 1 << sq;
  else hi[i]! |= 1 << (sq - 32);
}

for (let f = 0; f < 8; f++) {
  FILE_MASK[f] = FILE_A << f;
  ADJ_FILES[f] = (f > 0 ? FILE_A << (f - 1) : 0) | (f < 7 ? FILE_A << (f + 1) : 0);
}
for (let c = 0; c < 2; c++) {
  for (let sq = 0; sq < 64; sq++) {
    const i = c * 64 + sq;
    const f = sq & 7;
    const r = sq >> 3;
    for (let s = 0; s < 64; s++) {
      const sf = s & 7;
      const sr = s >> 3;
      const ahead = c === 0 ? sr > r : sr < r;
      const notAhead = c === 0 ? sr <= r : sr >= r;
      if (ahead && sf === f) set(FRONT_LO, FRONT_HI, i, s);
      if (ahead && Math.abs(sf - f) === 1) set(SPAN_LO, SPAN_HI, i, s);
      if (ahead && Math.abs(sf - f) <= 1) set(PASSED_LO, PASSED_HI, i, s);
      if (notAhead && Math.abs(sf - f) === 1) set(BEHIND_ADJ_LO, BEHIND_ADJ_HI, i, s);
    }
  }
}
for (let a = 0; a < 64; a++) {
  for (let b = 0; b < 64; b++) DIST[a * 64 + b] = Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));
  const f = a & 7;
  const r = a >> 3;
  CENTER_DIST[a] = Math.max(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
}

// ----- per-evaluation scratch, shared by the term modules -----------------------------------

/** Attacks by side and piece type at c * 8 + type; c * 8 + 0 holds all of c's attacks. */
export const ATT_LO = new Int32Array(16);
export const ATT_HI = new Int32Array(16);
/** Squares attacked at least twice by side c. */
export const ATT2_LO = new Int32Array(2);
export const ATT2_HI = new Int32Array(2);
/** Zone around each side's king (king square and its neighbours). */
export const ZONE_LO = new Int32Array(2);
export const ZONE_HI = new Int32Array(2);
/** Squares of the enemy king zone attacked by side c's pieces of a type, at c * 8 + type. */
export const ZONE_HITS = new Int32Array(16);
/** Number of side c's pieces attacking the enemy king zone. */
export const ZONE_ATTACKERS = new Int32Array(2);

/**
 * The trace: when `on`, every term also adds its coefficient (count × side sign) to
 * `coef[pair]`, so a tuner can rebuild the evaluation as a dot product.
 */
export const TRACE = { on: false, coef: new Float64Array(NPAIRS) };

/** Popcount of a lo/hi set. */
export function popcnt(lo: number, hi: number): number {
  lo = lo - ((lo >>> 1) & 0x55555555);
  lo = (lo & 0x33333333) + ((lo >>> 2) & 0x33333333);
  hi = hi - ((hi >>> 1) & 0x55555555);
  hi = (hi & 0x33333333) + ((hi >>> 2) & 0x33333333);
  return (Math.imul(((lo + (lo >>> 4)) & 0x0f0f0f0f) + ((hi + (hi >>> 4)) & 0x0f0f0f0f), 0x01010101) >>> 24);
}

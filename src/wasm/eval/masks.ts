/**
 * Square masks (files, pawn spans, distances) built once at
 * instantiation, and the per-evaluation scratch shared by the term modules (attack maps by side
 * and piece type, king zones). Sets are u64 instead of lo/hi int32 halves. The trace (tuner
 * coefficients) is not ported.
 */
export const FILE_A: u64 = 0x0101010101010101;
export const FILE_H: u64 = 0x8080808080808080;

/** Squares of a file (index 0..7). */
export const FILE_MASK = new StaticArray<u64>(8);
/** Files adjacent to a file. */
export const ADJ_FILES = new StaticArray<u64>(8);
/** Squares strictly in front of sq on its file, for a pawn of color c: index c * 64 + sq. */
export const FRONT = new StaticArray<u64>(128);
/** Squares in front of sq on the adjacent files. */
export const SPAN = new StaticArray<u64>(128);
/** FRONT | SPAN: no enemy pawn here means a passed pawn. */
export const PASSED = new StaticArray<u64>(128);
/** Squares on the adjacent files at the same rank or behind. */
export const BEHIND_ADJ = new StaticArray<u64>(128);
/** King distance (Chebyshev) between two squares, at a * 64 + b. */
export const DIST = new StaticArray<u8>(4096);
/** Distance of a square from the centre (0..3). */
export const CENTER_DIST = new StaticArray<u8>(64);

function initMasks(): void {
  for (let f = 0; f < 8; f++) {
    FILE_MASK[f] = FILE_A << <u64>f;
    ADJ_FILES[f] = (f > 0 ? FILE_A << <u64>(f - 1) : 0) | (f < 7 ? FILE_A << <u64>(f + 1) : 0);
  }
  for (let c = 0; c < 2; c++) {
    for (let sq = 0; sq < 64; sq++) {
      const i = c * 64 + sq;
      const f = sq & 7;
      const r = sq >> 3;
      for (let s = 0; s < 64; s++) {
        const sf = s & 7;
        const sr = s >> 3;
        const ahead = c == 0 ? sr > r : sr < r;
        const notAhead = c == 0 ? sr <= r : sr >= r;
        const b = (<u64>1) << <u64>s;
        if (ahead && sf == f) FRONT[i] |= b;
        if (ahead && abs(sf - f) == 1) SPAN[i] |= b;
        if (ahead && abs(sf - f) <= 1) PASSED[i] |= b;
        if (notAhead && abs(sf - f) == 1) BEHIND_ADJ[i] |= b;
      }
    }
  }
  for (let a = 0; a < 64; a++) {
    for (let b = 0; b < 64; b++) DIST[a * 64 + b] = <u8>max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)));
    const f = a & 7;
    const r = a >> 3;
    CENTER_DIST[a] = <u8>max(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
  }
}
initMasks();

// ----- per-evaluation scratch, shared by the term modules -----------------------------------

/** Attacks by side and piece type at c * 8 + type; c * 8 + 0 holds all of c's attacks. */
export const ATT = new StaticArray<u64>(16);
/** Squares attacked at least twice by side c. */
export const ATT2 = new StaticArray<u64>(2);
/** Zone around each side's king (king square and its neighbours). */
export const ZONE = new StaticArray<u64>(2);
/** Squares of the enemy king zone attacked by side c's pieces of a type, at c * 8 + type. */
export const ZONE_HITS = new StaticArray<i32>(16);
/** Number of side c's pieces attacking the enemy king zone. */
export const ZONE_ATTACKERS = new StaticArray<i32>(2);
/** Number of side c's pieces of a type attacking the enemy king zone, at c * 8 + type. */
export const ZONE_ATTACKERS_BY = new StaticArray<i32>(16);

/** Closedness of the pawn structure (0 open .. 8 closed), set once per evaluation. */
export let CLOSEDNESS: i32 = 0;
export function setClosedness(v: i32): void {
  CLOSEDNESS = v;
}

/** Dark squares (a1 is dark). */
export const DARK_SQUARES: u64 = 0xaa55aa55aa55aa55;
/** The two long diagonals, a1-h8 and h1-a8. */
export const LONG_DIAGONALS: u64 = 0x8142241818244281;
/** d4, e4, d5, e5. */
export const CENTER: u64 = 0x0000001818000000;

/** Popcount of a set, as i32. */
// @ts-ignore: decorator
@inline export function popcnt64(b: u64): i32 {
  return <i32>popcnt(b);
}

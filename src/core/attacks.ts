/**
 * Precomputed attack tables and slider attacks.
 *
 * Sliders use "kindergarten" lookups adapted to two int32 halves instead of magic bitboards:
 * the occupancy of a rank, file or diagonal is folded into one byte with a 32-bit multiply,
 * looked up in an 8×256 first-rank table and spread back. The tables total under 3 KB and
 * build in microseconds, which matters for the browser build (chessops makes the same
 * trade-off with hyperbola quintessence); a lookup costs about a dozen int32 operations.
 *
 * Results of set-valued functions are written to `OUT` (lo in OUT[0], hi in OUT[1]) so that
 * nothing allocates.
 */
export const OUT: Int32Array = new Int32Array(2);

export const KNIGHT_LO: Int32Array = new Int32Array(64);
export const KNIGHT_HI: Int32Array = new Int32Array(64);
export const KING_LO: Int32Array = new Int32Array(64);
export const KING_HI: Int32Array = new Int32Array(64);
/** Squares attacked by a pawn of color c on sq, at index c * 64 + sq. */
export const PAWN_LO: Int32Array = new Int32Array(128);
export const PAWN_HI: Int32Array = new Int32Array(128);
/** Squares strictly between two aligned squares (index a * 64 + b), else empty. */
export const BETWEEN_LO: Int32Array = new Int32Array(4096);
export const BETWEEN_HI: Int32Array = new Int32Array(4096);
/** The whole line through two aligned squares (index a * 64 + b), else empty. */
export const LINE_LO: Int32Array = new Int32Array(4096);
export const LINE_HI: Int32Array = new Int32Array(4096);

const DIAG_LO = new Int32Array(64);
const DIAG_HI = new Int32Array(64);
const ANTI_LO = new Int32Array(64);
const ANTI_HI = new Int32Array(64);
/** Attacked files for a slider on file f of a rank with occupancy byte o, at f * 256 + o. */
const FIRST_RANK = new Uint8Array(8 * 256);
/** Nibble → bits 0, 8, 16, 24: spreads four ranks of one half back onto file a. */
const FILE_SPREAD = new Int32Array(16);

function setBit(lo: Int32Array, hi: Int32Array, i: number, sq: number): void {
  if (sq < 32) lo[i]! |= 1 << sq;
  else hi[i]! |= 1 << (sq - 32);
}

/**
 * Fills the tables once at load. Every command loads this module, so the loops are plain
 * counters over flat arrays: the first version, with destructured pairs and arrays made per
 * square, took tens of milliseconds of each start-up in V8's interpreter.
 */
function init(): void {
  // Knight, king, then the two pawn captures of each colour, as (file, rank) steps.
  const KNIGHT_STEPS = [1, 2, 2, 1, 2, -1, 1, -2, -1, -2, -2, -1, -2, 1, -1, 2];
  const KING_STEPS = [1, 0, 1, 1, 0, 1, -1, 1, -1, 0, -1, -1, 0, -1, 1, -1];
  const leap = (lo: Int32Array, hi: Int32Array, i: number, sq: number, steps: readonly number[], first: number, end: number): void => {
    const f = sq & 7;
    const r = sq >> 3;
    for (let k = first; k < end; k += 2) {
      const nf = f + steps[k]!;
      const nr = r + steps[k + 1]!;
      if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) setBit(lo, hi, i, nr * 8 + nf);
    }
  };
  const PAWN_STEPS = [-1, 1, 1, 1, -1, -1, 1, -1];
  for (let sq = 0; sq < 64; sq++) {
    leap(KNIGHT_LO, KNIGHT_HI, sq, sq, KNIGHT_STEPS, 0, 16);
    leap(KING_LO, KING_HI, sq, sq, KING_STEPS, 0, 16);
    leap(PAWN_LO, PAWN_HI, sq, sq, PAWN_STEPS, 0, 4);
    leap(PAWN_LO, PAWN_HI, 64 + sq, sq, PAWN_STEPS, 4, 8);
    const f = sq & 7;
    const r = sq >> 3;
    for (let s = 0; s < 64; s++) {
      if ((s & 7) - (s >> 3) === f - r) setBit(DIAG_LO, DIAG_HI, sq, s);
      if ((s & 7) + (s >> 3) === f + r) setBit(ANTI_LO, ANTI_HI, sq, s);
    }
  }
  for (let f = 0; f < 8; f++) {
    for (let o = 0; o < 256; o++) {
      let a = 0;
      for (let x = f + 1; x < 8; x++) {
        a |= 1 << x;
        if (o & (1 << x)) break;
      }
      for (let x = f - 1; x >= 0; x--) {
        a |= 1 << x;
        if (o & (1 << x)) break;
      }
      FIRST_RANK[f * 256 + o] = a;
    }
  }
  for (let n = 0; n < 16; n++) {
    FILE_SPREAD[n] = (n & 1) | ((n & 2) << 7) | ((n & 4) << 14) | ((n & 8) << 21);
  }
  // For each square a and direction: the full line through a (both ways), then every square s
  // met walking from a, whose squares between grow by one square a step.
  for (let a = 0; a < 64; a++) {
    for (let k = 0; k < 16; k += 2) {
      const df = KING_STEPS[k]!;
      const dr = KING_STEPS[k + 1]!;
      let lineLo = 0;
      let lineHi = 0;
      for (let sign = 1; sign >= -1; sign -= 2) {
        for (let lf = a & 7, lr = a >> 3; lf >= 0 && lf < 8 && lr >= 0 && lr < 8; lf += sign * df, lr += sign * dr) {
          if (lr < 4) lineLo |= 1 << (lr * 8 + lf);
          else lineHi |= 1 << (lr * 8 + lf - 32);
        }
      }
      let betweenLo = 0;
      let betweenHi = 0;
      for (let f = (a & 7) + df, r = (a >> 3) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
        const s = r * 8 + f;
        const i = a * 64 + s;
        BETWEEN_LO[i] = betweenLo;
        BETWEEN_HI[i] = betweenHi;
        LINE_LO[i] = lineLo;
        LINE_HI[i] = lineHi;
        if (s < 32) betweenLo |= 1 << s;
        else betweenHi |= 1 << (s - 32);
      }
    }
  }
}
init();

/** Rook attacks from sq with occupancy (occLo, occHi) → OUT. */
export function rookAttacks(sq: number, occLo: number, occHi: number): void {
  const f = sq & 7;
  const r = sq >> 3;
  // Rank.
  let lo: number;
  let hi: number;
  if (r < 4) {
    const sh = r << 3;
    lo = FIRST_RANK[(f << 8) | ((occLo >>> sh) & 255)]! << sh;
    hi = 0;
  } else {
    const sh = (r - 4) << 3;
    hi = FIRST_RANK[(f << 8) | ((occHi >>> sh) & 255)]! << sh;
    lo = 0;
  }
  // File: gather the file's eight bits into a byte ordered by rank.
  const occ =
    (Math.imul((occLo >>> f) & 0x01010101, 0x10204080) >>> 28) |
    ((Math.imul((occHi >>> f) & 0x01010101, 0x10204080) >>> 28) << 4);
  const pat = FIRST_RANK[(r << 8) | occ]!;
  OUT[0] = lo | (FILE_SPREAD[pat & 15]! << f);
  OUT[1] = hi | (FILE_SPREAD[pat >>> 4]! << f);
}

/** Bishop attacks from sq with occupancy (occLo, occHi) → OUT. */
export function bishopAttacks(sq: number, occLo: number, occHi: number): void {
  const f8 = (sq & 7) << 8;
  // A diagonal holds one square per file, so adding its bytes with a multiply is an OR.
  let mLo = DIAG_LO[sq]!;
  let mHi = DIAG_HI[sq]!;
  let occ = (Math.imul(occLo & mLo, 0x01010101) >>> 24) | (Math.imul(occHi & mHi, 0x01010101) >>> 24);
  let spread = Math.imul(FIRST_RANK[f8 | occ]!, 0x01010101);
  let lo = spread & mLo;
  let hi = spread & mHi;
  mLo = ANTI_LO[sq]!;
  mHi = ANTI_HI[sq]!;
  occ = (Math.imul(occLo & mLo, 0x01010101) >>> 24) | (Math.imul(occHi & mHi, 0x01010101) >>> 24);
  spread = Math.imul(FIRST_RANK[f8 | occ]!, 0x01010101);
  lo |= spread & mLo;
  hi |= spread & mHi;
  OUT[0] = lo;
  OUT[1] = hi;
}

/** Queen attacks → OUT. */
export function queenAttacks(sq: number, occLo: number, occHi: number): void {
  bishopAttacks(sq, occLo, occHi);
  const lo = OUT[0]!;
  const hi = OUT[1]!;
  rookAttacks(sq, occLo, occHi);
  OUT[0] = OUT[0]! | lo;
  OUT[1] = OUT[1]! | hi;
}

/** Rook attacks on an empty board, used to find pinning candidates. */
export const ROOK_EMPTY_LO: Int32Array = new Int32Array(64);
export const ROOK_EMPTY_HI: Int32Array = new Int32Array(64);
export const BISHOP_EMPTY_LO: Int32Array = new Int32Array(64);
export const BISHOP_EMPTY_HI: Int32Array = new Int32Array(64);
for (let sq = 0; sq < 64; sq++) {
  rookAttacks(sq, 0, 0);
  ROOK_EMPTY_LO[sq] = OUT[0]!;
  ROOK_EMPTY_HI[sq] = OUT[1]!;
  bishopAttacks(sq, 0, 0);
  BISHOP_EMPTY_LO[sq] = OUT[0]!;
  BISHOP_EMPTY_HI[sq] = OUT[1]!;
}

/** Attack set of a piece type (not pawn) from sq → OUT. */
export function pieceAttacks(type: number, sq: number, occLo: number, occHi: number): void {
  switch (type) {
    case 2:
      OUT[0] = KNIGHT_LO[sq]!;
      OUT[1] = KNIGHT_HI[sq]!;
      return;
    case 3:
      bishopAttacks(sq, occLo, occHi);
      return;
    case 4:
      rookAttacks(sq, occLo, occHi);
      return;
    case 5:
      queenAttacks(sq, occLo, occHi);
      return;
    case 6:
      OUT[0] = KING_LO[sq]!;
      OUT[1] = KING_HI[sq]!;
      return;
  }
  OUT[0] = 0;
  OUT[1] = 0;
}


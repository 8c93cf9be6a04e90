/**
 * Port of src/core/attacks.ts with u64 bitboards. Same kindergarten slider lookups (one
 * 8x256 first-rank table, occupancy folded into a byte with a multiply and spread back), but
 * on one 64-bit word instead of two int32 halves, and returning the set instead of writing
 * it to an OUT array.
 */

export const KNIGHT_ATT = new StaticArray<u64>(64);
export const KING_ATT = new StaticArray<u64>(64);
/** Squares attacked by a pawn of color c on sq, at c * 64 + sq. */
export const PAWN_ATT = new StaticArray<u64>(128);
export const BETWEEN = new StaticArray<u64>(4096);
export const LINE = new StaticArray<u64>(4096);
const DIAG = new StaticArray<u64>(64);
const ANTI = new StaticArray<u64>(64);
const FIRST_RANK = new StaticArray<u8>(8 * 256);
/** Byte (bit r = rank r) -> the same bits on file a (bit 8r). The TS version uses a 16-entry
 *  table per int32 half; one 64-bit word needs one lookup. */
const FILE_SPREAD = new StaticArray<u64>(256);
export const ROOK_EMPTY = new StaticArray<u64>(64);
export const BISHOP_EMPTY = new StaticArray<u64>(64);

const FILE_A: u64 = 0x0101010101010101;
/** Gathers file a (bits 0, 8, .., 56) into the top byte, rank r at bit 56 + r. */
const FILE_GATHER: u64 = 0x0102040810204080;
const BYTES: u64 = 0x0101010101010101;

// @ts-ignore: decorator
@inline function setBit(t: StaticArray<u64>, i: i32, sq: i32): void {
  unchecked(t[i] |= (<u64>1) << <u64>sq);
}

function leap(t: StaticArray<u64>, i: i32, sq: i32, deltas: StaticArray<i32>): void {
  const f = sq & 7;
  const r = sq >> 3;
  for (let k = 0; k < deltas.length; k += 2) {
    const nf = f + deltas[k];
    const nr = r + deltas[k + 1];
    if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) setBit(t, i, nr * 8 + nf);
  }
}

const KNIGHT_D: StaticArray<i32> = [1, 2, 2, 1, 2, -1, 1, -2, -1, -2, -2, -1, -2, 1, -1, 2];
const KING_D: StaticArray<i32> = [1, 0, 1, 1, 0, 1, -1, 1, -1, 0, -1, -1, 0, -1, 1, -1];
const WPAWN_D: StaticArray<i32> = [-1, 1, 1, 1];
const BPAWN_D: StaticArray<i32> = [-1, -1, 1, -1];

function init(): void {
  for (let sq = 0; sq < 64; sq++) {
    leap(KNIGHT_ATT, sq, sq, KNIGHT_D);
    leap(KING_ATT, sq, sq, KING_D);
    leap(PAWN_ATT, sq, sq, WPAWN_D);
    leap(PAWN_ATT, 64 + sq, sq, BPAWN_D);
    const f = sq & 7;
    const r = sq >> 3;
    for (let s = 0; s < 64; s++) {
      if ((s & 7) - (s >> 3) == f - r) setBit(DIAG, sq, s);
      if ((s & 7) + (s >> 3) == f + r) setBit(ANTI, sq, s);
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
      FIRST_RANK[f * 256 + o] = <u8>a;
    }
  }
  for (let n = 0; n < 256; n++) {
    let s: u64 = 0;
    for (let r = 0; r < 8; r++) if (n & (1 << r)) s |= (<u64>1) << <u64>(8 * r);
    FILE_SPREAD[n] = s;
  }
  for (let a = 0; a < 64; a++) {
    for (let d = 0; d < 16; d += 2) {
      const df = KING_D[d];
      const dr = KING_D[d + 1];
      let f = (a & 7) + df;
      let r = (a >> 3) + dr;
      let between: u64 = 0;
      while (f >= 0 && f < 8 && r >= 0 && r < 8) {
        const s = r * 8 + f;
        const i = a * 64 + s;
        BETWEEN[i] = between;
        for (let sign = -1; sign <= 1; sign += 2) {
          let lf = a & 7;
          let lr = a >> 3;
          while (lf >= 0 && lf < 8 && lr >= 0 && lr < 8) {
            setBit(LINE, i, lr * 8 + lf);
            lf += sign * df;
            lr += sign * dr;
          }
        }
        between |= (<u64>1) << <u64>s;
        f += df;
        r += dr;
      }
    }
  }
  for (let sq = 0; sq < 64; sq++) {
    ROOK_EMPTY[sq] = kgRookAttacks(sq, 0);
    BISHOP_EMPTY[sq] = kgBishopAttacks(sq, 0);
  }
}

/** Rook attacks from sq with occupancy occ. */
// @ts-ignore: decorator
@inline export function rookAttacks(sq: i32, occ: u64): u64 {
  return kgRookAttacks(sq, occ);
}

/** Bishop attacks from sq with occupancy occ. */
// @ts-ignore: decorator
@inline export function bishopAttacks(sq: i32, occ: u64): u64 {
  return kgBishopAttacks(sq, occ);
}

/** Rook attacks (kindergarten). */
function kgRookAttacks(sq: i32, occ: u64): u64 {
  const f = sq & 7;
  const r = sq >> 3;
  const sh = <u64>(r << 3);
  // Rank.
  let a = (<u64>unchecked(FIRST_RANK[(f << 8) | <i32>((occ >> sh) & 255)])) << sh;
  // File: gather the file's eight bits into a byte ordered by rank.
  const o = <i32>((((occ >> <u64>f) & FILE_A) * FILE_GATHER) >> 56);
  const pat = unchecked(FIRST_RANK[(r << 8) | o]);
  a |= unchecked(FILE_SPREAD[pat]) << <u64>f;
  return a;
}

/** Bishop attacks from sq with occupancy occ (kindergarten). */
function kgBishopAttacks(sq: i32, occ: u64): u64 {
  const f8 = (sq & 7) << 8;
  // A diagonal holds one square per file, so adding its bytes with a multiply is an OR.
  let m = unchecked(DIAG[sq]);
  let o = <i32>(((occ & m) * BYTES) >> 56);
  let a = ((<u64>unchecked(FIRST_RANK[f8 | o])) * BYTES) & m;
  m = unchecked(ANTI[sq]);
  o = <i32>(((occ & m) * BYTES) >> 56);
  a |= ((<u64>unchecked(FIRST_RANK[f8 | o])) * BYTES) & m;
  return a;
}

export function queenAttacks(sq: i32, occ: u64): u64 {
  return bishopAttacks(sq, occ) | rookAttacks(sq, occ);
}

// Tables are built at instantiation (after every global above is declared).
init();

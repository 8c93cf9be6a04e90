/**
 * Does a move give check, decided before it is played? Search needs the answer for moves it
 * may prune without playing them (a quiet move that checks must not be pruned as "quiet").
 *
 * Per node, `prepareCheckInfo` computes the squares from which each piece type would attack
 * the enemy king, and our pieces that shield the enemy king from one of our sliders (moving
 * such a piece off the line is a discovered check). A move then checks if its piece lands on a
 * checking square of its type, or uncovers a slider; promotions, castling and en passant are
 * settled exactly from the occupancy after the move.
 *
 * CheckInfo layout (Int32Array of CHECK_INFO_SIZE at `at`):
 *   [0 .. 11]  check squares lo, hi for types PAWN..KING (index 2 * (type - 1))
 *   [12, 13]   discoverers lo, hi
 */
import {
  BISHOP_EMPTY_HI as BISHOP_EMPTY_HI_,
  BISHOP_EMPTY_LO as BISHOP_EMPTY_LO_,
  BETWEEN_HI as BETWEEN_HI_,
  BETWEEN_LO as BETWEEN_LO_,
  KNIGHT_HI as KNIGHT_HI_,
  KNIGHT_LO as KNIGHT_LO_,
  LINE_HI as LINE_HI_,
  LINE_LO as LINE_LO_,
  OUT as OUT_,
  PAWN_HI as PAWN_HI_,
  PAWN_LO as PAWN_LO_,
  ROOK_EMPTY_HI as ROOK_EMPTY_HI_,
  ROOK_EMPTY_LO as ROOK_EMPTY_LO_,
  bishopAttacks as bishopAttacks_,
  rookAttacks as rookAttacks_,
} from './attacks.js';
import {
  CASTLING as CASTLING_,
  EN_PASSANT as EN_PASSANT_,
  KIND_MASK as KIND_MASK_,
  NORMAL as NORMAL_,
  PROMOTION as PROMOTION_,
} from './move.js';
import type { Position } from './position.js';
import { BISHOP as BISHOP_, KNIGHT as KNIGHT_, QUEEN as QUEEN_, ROOK as ROOK_ } from './types.js';
// Module-local copies of the imports used in hot code: why, and the measurement, in docs/core.md
// ("Imports copied into module-local constants", `npm run bench -- aliases`).
const BISHOP_EMPTY_HI = BISHOP_EMPTY_HI_;
const BISHOP_EMPTY_LO = BISHOP_EMPTY_LO_;
const BETWEEN_HI = BETWEEN_HI_;
const BETWEEN_LO = BETWEEN_LO_;
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const LINE_HI = LINE_HI_;
const LINE_LO = LINE_LO_;
const OUT = OUT_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const ROOK_EMPTY_HI = ROOK_EMPTY_HI_;
const ROOK_EMPTY_LO = ROOK_EMPTY_LO_;
const bishopAttacks = bishopAttacks_;
const rookAttacks = rookAttacks_;
const CASTLING = CASTLING_;
const EN_PASSANT = EN_PASSANT_;
const KIND_MASK = KIND_MASK_;
const NORMAL = NORMAL_;
const PROMOTION = PROMOTION_;
const BISHOP = BISHOP_;
const KNIGHT = KNIGHT_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;

export const CHECK_INFO_SIZE = 14;

/** Fills info[at ..] for the side to move's moves. */
export function prepareCheckInfo(pos: Position, info: Int32Array, at: number): void {
  const us = pos.turn;
  const them = us ^ 1;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  const ek = pos.kingSq[them]!;
  // A pawn of ours checks from squares an enemy pawn on ek would attack.
  const pa = (them << 6) | ek;
  info[at] = PAWN_LO[pa]!;
  info[at + 1] = PAWN_HI[pa]!;
  info[at + 2] = KNIGHT_LO[ek]!;
  info[at + 3] = KNIGHT_HI[ek]!;
  bishopAttacks(ek, occLo, occHi);
  info[at + 4] = OUT[0]!;
  info[at + 5] = OUT[1]!;
  rookAttacks(ek, occLo, occHi);
  info[at + 6] = OUT[0]!;
  info[at + 7] = OUT[1]!;
  info[at + 8] = info[at + 4]! | OUT[0]!;
  info[at + 9] = info[at + 5]! | OUT[1]!;
  info[at + 10] = 0;
  info[at + 11] = 0;
  // Our pieces alone between the enemy king and one of our sliders.
  const o = us << 3;
  const sLo = (ROOK_EMPTY_LO[ek]! & (lo[o | ROOK]! | lo[o | QUEEN]!)) | (BISHOP_EMPTY_LO[ek]! & (lo[o | BISHOP]! | lo[o | QUEEN]!));
  const sHi = (ROOK_EMPTY_HI[ek]! & (hi[o | ROOK]! | hi[o | QUEEN]!)) | (BISHOP_EMPTY_HI[ek]! & (hi[o | BISHOP]! | hi[o | QUEEN]!));
  let dLo = 0;
  let dHi = 0;
  const kb = ek << 6;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? sLo : sHi;
    while (b !== 0) {
      const s = (half << 5) + 31 - Math.clz32(b & -b);
      b &= b - 1;
      const bLo = BETWEEN_LO[kb | s]! & occLo;
      const bHi = BETWEEN_HI[kb | s]! & occHi;
      if (bLo !== 0 ? bHi === 0 && (bLo & (bLo - 1)) === 0 : bHi !== 0 && (bHi & (bHi - 1)) === 0) {
        dLo |= bLo & lo[o]!;
        dHi |= bHi & hi[o]!;
      }
    }
  }
  info[at + 12] = dLo;
  info[at + 13] = dHi;
}

const has = (lo: number, hi: number, sq: number): boolean => ((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) !== 0;

/** Does legal move m give check? info[at ..] must come from prepareCheckInfo for this position. */
export function givesCheck(pos: Position, m: number, info: Int32Array, at: number): boolean {
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const kind = m & KIND_MASK;
  const type = pos.board[from]! & 7;
  const ek = pos.kingSq[pos.turn ^ 1]!;
  if (kind === NORMAL) {
    const i = at + 2 * (type - 1);
    if (has(info[i]!, info[i + 1]!, to)) return true;
    if (!has(info[at + 12]!, info[at + 13]!, from)) return false;
    // A discoverer checks unless it stays on the line through the enemy king.
    return !has(LINE_LO[(ek << 6) | from]!, LINE_HI[(ek << 6) | from]!, to);
  }
  if (has(info[at + 12]!, info[at + 13]!, from) && !has(LINE_LO[(ek << 6) | from]!, LINE_HI[(ek << 6) | from]!, to)) return true;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  let occLo = (lo[0]! | lo[8]!) & ~(from < 32 ? 1 << from : 0);
  let occHi = (hi[0]! | hi[8]!) & ~(from >= 32 ? 1 << (from - 32) : 0);
  if (kind === PROMOTION) {
    const promo = ((m >>> 12) & 3) + KNIGHT;
    if (to < 32) occLo |= 1 << to;
    else occHi |= 1 << (to - 32);
    if (promo === KNIGHT) return has(KNIGHT_LO[to]!, KNIGHT_HI[to]!, ek);
    if (promo === BISHOP || promo === QUEEN) {
      bishopAttacks(to, occLo, occHi);
      if (has(OUT[0]!, OUT[1]!, ek)) return true;
    }
    if (promo === ROOK || promo === QUEEN) {
      rookAttacks(to, occLo, occHi);
      if (has(OUT[0]!, OUT[1]!, ek)) return true;
    }
    return false;
  }
  if (kind === CASTLING) {
    const base = from & 56;
    const kTo = base + (to > from ? 6 : 2);
    const rTo = base + (to > from ? 5 : 3);
    // King and rook leave their squares and land on theirs.
    occLo &= ~(to < 32 ? 1 << to : 0);
    occHi &= ~(to >= 32 ? 1 << (to - 32) : 0);
    if (kTo < 32) occLo |= 1 << kTo;
    else occHi |= 1 << (kTo - 32);
    if (rTo < 32) occLo |= 1 << rTo;
    else occHi |= 1 << (rTo - 32);
    rookAttacks(rTo, occLo, occHi);
    return has(OUT[0]!, OUT[1]!, ek);
  }
  if (kind === EN_PASSANT) {
    // Direct pawn check, or a slider uncovered by either pawn leaving.
    if (has(info[at]!, info[at + 1]!, to)) return true;
    const cap = to ^ 8;
    occLo &= ~(cap < 32 ? 1 << cap : 0);
    occHi &= ~(cap >= 32 ? 1 << (cap - 32) : 0);
    if (to < 32) occLo |= 1 << to;
    else occHi |= 1 << (to - 32);
    const o = pos.turn << 3;
    bishopAttacks(ek, occLo, occHi);
    if ((OUT[0]! & (lo[o | BISHOP]! | lo[o | QUEEN]!)) | (OUT[1]! & (hi[o | BISHOP]! | hi[o | QUEEN]!))) return true;
    rookAttacks(ek, occLo, occHi);
    return ((OUT[0]! & (lo[o | ROOK]! | lo[o | QUEEN]!)) | (OUT[1]! & (hi[o | ROOK]! | hi[o | QUEEN]!))) !== 0;
  }
  return false;
}

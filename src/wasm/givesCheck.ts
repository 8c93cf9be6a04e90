/**
 * Does a move give check, decided before it is played? Per node, prepareCheckInfo computes the
 * squares from which each piece type would attack the enemy king, and our pieces that shield
 * the enemy king from one of our sliders (Position.sliderBlockers, the query that also finds
 * pins: moving such a piece off the line is a discovered check); promotions, castling and en
 * passant are settled exactly from the occupancy after the move.
 *
 * CheckInfo layout (StaticArray<u64> of CHECK_INFO_SIZE at `at`):
 *   [0 .. 5]  check squares for types PAWN..KING (index type - 1)
 *   [6]       discoverers
 */
import { KNIGHT_ATT, LINE, PAWN_ATT, bishopAttacks, rookAttacks } from './attacks';
import { Position, bit } from './position';
import { BISHOP, CASTLING, EN_PASSANT, KIND_MASK, KNIGHT, NORMAL, PROMOTION, QUEEN, ROOK } from './types';

export const CHECK_INFO_SIZE = 7;
const DISCOVERERS = 6;

/** Fills info[at ..] for the side to move's moves. */
export function prepareCheckInfo(pos: Position, info: StaticArray<u64>, at: i32): void {
  const us = pos.turn;
  const them = us ^ 1;
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const ek = <i32>unchecked(pos.kingSq[them]);
  // A pawn of ours checks from squares an enemy pawn on ek would attack.
  unchecked(info[at] = unchecked(PAWN_ATT[(them << 6) | ek]));
  unchecked(info[at + 1] = unchecked(KNIGHT_ATT[ek]));
  const ba = bishopAttacks(ek, occ);
  const ra = rookAttacks(ek, occ);
  unchecked(info[at + 2] = ba);
  unchecked(info[at + 3] = ra);
  unchecked(info[at + 4] = ba | ra);
  unchecked(info[at + 5] = 0);
  // Our pieces alone between the enemy king and one of our sliders.
  unchecked(info[at + DISCOVERERS] = pos.sliderBlockers(ek, us) & unchecked(bb[us << 3]));
}

// @ts-ignore: decorator
@inline function has(set: u64, sq: i32): bool {
  return ((set >> <u64>sq) & 1) != 0;
}

/** Does legal move m give check? info[at ..] must come from prepareCheckInfo for this position. */
export function givesCheck(pos: Position, m: i32, info: StaticArray<u64>, at: i32): bool {
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const kind = m & KIND_MASK;
  const type = <i32>unchecked(pos.board[from]) & 7;
  const ek = <i32>unchecked(pos.kingSq[pos.turn ^ 1]);
  const disc = unchecked(info[at + DISCOVERERS]);
  if (kind == NORMAL) {
    if (has(unchecked(info[at + type - 1]), to)) return true;
    if (!has(disc, from)) return false;
    // A discoverer checks unless it stays on the line through the enemy king.
    return !has(unchecked(LINE[(ek << 6) | from]), to);
  }
  if (has(disc, from) && !has(unchecked(LINE[(ek << 6) | from]), to)) return true;
  const bb = pos.bb;
  let occ = (unchecked(bb[0]) | unchecked(bb[8])) & ~bit(from);
  if (kind == PROMOTION) {
    const promo = ((m >>> 12) & 3) + KNIGHT;
    occ |= bit(to);
    if (promo == KNIGHT) return has(unchecked(KNIGHT_ATT[to]), ek);
    if (promo == BISHOP || promo == QUEEN) {
      if (has(bishopAttacks(to, occ), ek)) return true;
    }
    if (promo == ROOK || promo == QUEEN) {
      if (has(rookAttacks(to, occ), ek)) return true;
    }
    return false;
  }
  if (kind == CASTLING) {
    const base = from & 56;
    const kTo = base + (to > from ? 6 : 2);
    const rTo = base + (to > from ? 5 : 3);
    // King and rook leave their squares and land on theirs.
    occ = (occ & ~bit(to)) | bit(kTo) | bit(rTo);
    return has(rookAttacks(rTo, occ), ek);
  }
  if (kind == EN_PASSANT) {
    // Direct pawn check, or a slider uncovered by either pawn leaving.
    if (has(unchecked(info[at]), to)) return true;
    return pos.sliderAttacks(ek, pos.turn, (occ & ~bit(to ^ 8)) | bit(to));
  }
  return false;
}

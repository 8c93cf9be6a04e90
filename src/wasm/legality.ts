/**
 * Legality of single moves that were not generated in the current position (hash move,
 * killers, counter-moves), for a side to move that is not in check (evasions are generated in
 * full instead). The pins and the castling and en-passant tests are the move generator's
 * (movegen.ts).
 */
import { KING_ATT, KNIGHT_ATT, LINE, PAWN_ATT, bishopAttacks, rookAttacks } from './attacks';
import { castlingLegal, epLegal } from './movegen';
import { Position, bit } from './position';
import { BISHOP, CASTLING, EN_PASSANT, KIND_MASK, KING, KNIGHT, NORMAL, PAWN, PROMOTION, ROOK } from './types';

// @ts-ignore: decorator
@inline function pawnAttacks(us: i32, from: i32, to: i32): bool {
  return ((unchecked(PAWN_ATT[(us << 6) | from]) >> <u64>to) & 1) != 0;
}

/**
 * Is `m` a legal move here? For moves remembered from other positions: any 16-bit value is
 * accepted as input. The side to move must not be in check; `pins` are the node's pinned
 * pieces (computePins).
 */
export function isLegalNotInCheck(pos: Position, m: i32, pins: u64): bool {
  const from = (m >>> 6) & 63;
  const to = m & 63;
  if (from == to) return false;
  const us = pos.turn;
  const board = pos.board;
  const piece = <i32>unchecked(board[from]);
  if (piece == 0 || piece >> 3 != us) return false;
  const type = piece & 7;
  const kind = m & KIND_MASK;
  if (kind != PROMOTION && (m & 0x3000) != 0) return false;
  const ksq = <i32>unchecked(pos.kingSq[us]);
  if (kind == CASTLING) {
    if (type != KING || pos.castling == 0) return false;
    for (let side = 0; side < 2; side++) {
      const i = (us << 1) | side;
      if ((pos.castling & (1 << i)) != 0 && <i32>unchecked(pos.castleRook[i]) == to) return castlingLegal(pos, i, pins);
    }
    return false;
  }
  const target = <i32>unchecked(board[to]);
  if (target != 0 && (target >> 3 == us || (target & 7) == KING)) return false;
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  if (type == PAWN) {
    const last = us == 0 ? to >= 56 : to < 8;
    if (kind == EN_PASSANT) return to == pos.epSquare && pawnAttacks(us, from, to) && epLegal(pos, from, to);
    if ((kind == PROMOTION) != last) return false;
    const up = us == 0 ? 8 : -8;
    if (target == 0) {
      if (to == from + up) {
        // single push: board[to] is empty
      } else if (to == from + 2 * up && (from >> 3) == (us == 0 ? 1 : 6) && unchecked(board[from + up]) == 0) {
        // double push
      } else return false;
    } else if (!pawnAttacks(us, from, to)) return false;
  } else {
    if (kind != NORMAL) return false;
    let a: u64;
    if (type == KNIGHT) a = unchecked(KNIGHT_ATT[from]);
    else if (type == KING) a = unchecked(KING_ATT[from]);
    else if (type == BISHOP) a = bishopAttacks(from, occ);
    else if (type == ROOK) a = rookAttacks(from, occ);
    else a = bishopAttacks(from, occ) | rookAttacks(from, occ);
    if (((a >> <u64>to) & 1) == 0) return false;
    if (type == KING) return !pos.isAttacked(to, us ^ 1, occ ^ bit(ksq));
  }
  if ((pins >> <u64>from) & 1) return ((unchecked(LINE[(ksq << 6) | from]) >> <u64>to) & 1) != 0;
  return true;
}

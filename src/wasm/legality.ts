/**
 * Port of src/core/legality.ts: legality of single moves that were not generated in the
 * current position (hash move, killers, counter-moves), the pins they depend on, and the
 * castling and en-passant tests the staged generator shares. The side to move must not be in
 * check (evasions are generated in full instead).
 * Changes from the TS: u64 sets; computePins returns the pinned set instead of writing the
 * PINS Int32Array, and the pins are passed as one u64 instead of (pinLo, pinHi).
 */
import {
  BETWEEN, BISHOP_EMPTY, KING_ATT, KNIGHT_ATT, LINE, PAWN_ATT, ROOK_EMPTY, bishopAttacks, rookAttacks,
} from './attacks';
import { Position, bit } from './position';
import {
  BISHOP, CASTLING, EN_PASSANT, KIND_MASK, KING, KNIGHT, NORMAL, PAWN, PROMOTION, QUEEN, ROOK,
} from './types';

/** Own pieces pinned to the own king by enemy sliders. */
export function computePins(pos: Position): u64 {
  const us = pos.turn;
  const t = (us ^ 1) << 3;
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const own = unchecked(bb[us << 3]);
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const kb = ksq << 6;
  const q = unchecked(bb[t | QUEEN]);
  let s = (unchecked(ROOK_EMPTY[ksq]) & (unchecked(bb[t | ROOK]) | q)) |
    (unchecked(BISHOP_EMPTY[ksq]) & (unchecked(bb[t | BISHOP]) | q));
  let pins: u64 = 0;
  while (s != 0) {
    const sq = <i32>ctz(s);
    s &= s - 1;
    const b = unchecked(BETWEEN[kb | sq]) & occ;
    // Exactly one piece between king and slider, and it is ours.
    if (b != 0 && (b & (b - 1)) == 0) pins |= b & own;
  }
  return pins;
}

export function castlingLegal(pos: Position, i: i32, pins: u64): bool {
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  if (occ & unchecked(pos.castlePath[i])) return false;
  const rookSq = <i32>unchecked(pos.castleRook[i]);
  if ((pins >> <u64>rookSq) & 1) return false;
  const us = pos.turn;
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const x = occ ^ bit(ksq) ^ bit(rookSq);
  let p = unchecked(pos.castleKingPath[i]);
  while (p != 0) {
    const sq = <i32>ctz(p);
    p &= p - 1;
    if (pos.isAttacked(sq, us ^ 1, x)) return false;
  }
  return true;
}

/** En passant from `from` does not expose the own king (both pawns lifted off the board). */
export function epLegal(pos: Position, from: i32, ep: i32): bool {
  const bb = pos.bb;
  const x = ((unchecked(bb[0]) | unchecked(bb[8])) ^ bit(from) ^ bit(ep ^ 8)) | bit(ep);
  const us = pos.turn;
  const t = (us ^ 1) << 3;
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const q = unchecked(bb[t | QUEEN]);
  if (bishopAttacks(ksq, x) & (unchecked(bb[t | BISHOP]) | q)) return false;
  if (rookAttacks(ksq, x) & (unchecked(bb[t | ROOK]) | q)) return false;
  return true;
}

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

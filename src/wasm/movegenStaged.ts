/**
 * Legal noisy moves (captures, en passant, promotions) and legal quiet moves (castling
 * included) in separate stages, for a side to move that is NOT in check, given the node's
 * pinned pieces (computePins in legality.ts), so a node that cuts off on a capture never
 * generates its quiets and quiescence never does. The union of both stages is generateLegal's
 * moves; knight and slider moves come from the same primitive (movegen.ts knightAndSliderMoves).
 */
import { KING_ATT, LINE, PAWN_ATT } from './attacks';
import { emitPromotions, knightAndSliderMoves } from './movegen';
import { castlingLegal, epLegal } from './legality';
import { Position, bit } from './position';
import { CASTLING, EN_PASSANT, KING, NO_SQUARE, PAWN } from './types';

/** Piece moves (knights, sliders, king) of the side to move onto `target`. */
function pieceMoves(pos: Position, buf: StaticArray<u16>, n: i32, target: u64, pins: u64): i32 {
  const us = pos.turn;
  const them = us ^ 1;
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const kb = ksq << 6;

  n = knightAndSliderMoves(pos, buf, n, target, pins);

  // King: each target tested with the king lifted off the board.
  const kocc = occ ^ bit(ksq);
  let t = unchecked(KING_ATT[ksq]) & target;
  while (t != 0) {
    const to = <i32>ctz(t);
    t &= t - 1;
    if (!pos.isAttacked(to, them, kocc)) unchecked(buf[n++] = <u16>(kb | to));
  }
  return n;
}

/**
 * Legal captures, en-passant captures and promotions (all four pieces, capturing or not) of a
 * side to move that is not in check. Returns the new end of buf.
 */
export function generateNoisy(pos: Position, buf: StaticArray<u16>, start: i32, pins: u64): i32 {
  const us = pos.turn;
  const them = us ^ 1;
  const bb = pos.bb;
  const enemy = unchecked(bb[them << 3]) & ~unchecked(bb[(them << 3) | KING]);
  let n = pieceMoves(pos, buf, start, enemy, pins);

  const ksq = <i32>unchecked(pos.kingSq[us]);
  const kb = ksq << 6;
  const up = us == 0 ? 8 : -8;
  const o = us << 3;
  const board = pos.board;
  let b = unchecked(bb[o | PAWN]);
  while (b != 0) {
    const s = <i32>ctz(b);
    b &= b - 1;
    let allow: u64 = <u64>-1;
    if ((pins >> <u64>s) & 1) allow = unchecked(LINE[kb | s]);
    let t = unchecked(PAWN_ATT[(us << 6) | s]) & enemy & allow;
    const promo = us == 0 ? s >= 48 : s < 16;
    while (t != 0) {
      const to = <i32>ctz(t);
      t &= t - 1;
      if (promo) n = emitPromotions(buf, n, s, to);
      else unchecked(buf[n++] = <u16>((s << 6) | to));
    }
    if (promo) {
      const one = s + up;
      if (unchecked(board[one]) == 0 && ((allow >> <u64>one) & 1) != 0) n = emitPromotions(buf, n, s, one);
    }
  }

  const ep = pos.epSquare;
  if (ep != NO_SQUARE) {
    let c = unchecked(PAWN_ATT[(them << 6) | ep]) & unchecked(bb[o | PAWN]);
    while (c != 0) {
      const s = <i32>ctz(c);
      c &= c - 1;
      if (epLegal(pos, s, ep)) unchecked(buf[n++] = <u16>(EN_PASSANT | (s << 6) | ep));
    }
  }
  return n;
}

/**
 * Legal quiet moves (no capture, no promotion; castling included) of a side to move that is
 * not in check. Returns the new end of buf.
 */
export function generateQuiets(pos: Position, buf: StaticArray<u16>, start: i32, pins: u64): i32 {
  const us = pos.turn;
  const bb = pos.bb;
  const empty = ~(unchecked(bb[0]) | unchecked(bb[8]));
  let n = pieceMoves(pos, buf, start, empty, pins);

  const ksq = <i32>unchecked(pos.kingSq[us]);
  const kb = ksq << 6;
  const up = us == 0 ? 8 : -8;
  const startRank = us == 0 ? 1 : 6;
  const o = us << 3;
  const board = pos.board;
  let b = unchecked(bb[o | PAWN]);
  while (b != 0) {
    const s = <i32>ctz(b);
    b &= b - 1;
    if (us == 0 ? s >= 48 : s < 16) continue;
    const one = s + up;
    if (unchecked(board[one]) != 0) continue;
    // A pinned pawn may only advance along a pin on its own file.
    if (((pins >> <u64>s) & 1) != 0 && ((s ^ ksq) & 7) != 0) continue;
    unchecked(buf[n++] = <u16>((s << 6) | one));
    if (s >> 3 == startRank && unchecked(board[one + up]) == 0) unchecked(buf[n++] = <u16>((s << 6) | (one + up)));
  }

  const castling = pos.castling;
  if (castling != 0) {
    for (let side = 0; side < 2; side++) {
      const i = (us << 1) | side;
      if ((castling & (1 << i)) != 0 && castlingLegal(pos, i, pins)) {
        unchecked(buf[n++] = <u16>(CASTLING | kb | <i32>unchecked(pos.castleRook[i])));
      }
    }
  }
  return n;
}

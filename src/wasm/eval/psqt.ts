/**
 * Material plus piece-square values as one packed (mg, eg) i32,
 * White's point of view; kept incrementally by the search with psqtDelta. Sums wrap as i32,
 * which the unpack shifts read back exactly (the halves are small).
 */
import { Position } from '../position';
import { CASTLING, EN_PASSANT, KIND_MASK, KING, KNIGHT, PROMOTION } from '../types';
import { P_MATERIAL, P_PST, PSQ } from './params';
import { trace, tracing } from './trace';

/** Material + PST of the whole position. */
export function psqtFromScratch(pos: Position): i32 {
  const board = pos.board;
  let s = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = <i32>unchecked(board[sq]);
    if (p == 0) continue;
    s += unchecked(PSQ[(p << 6) | sq]);
    if (tracing()) {
      const c = p >> 3;
      const t = p & 7;
      const sign = c == 0 ? 1 : -1;
      if (t != KING) trace(P_MATERIAL + t - 1, sign);
      trace(P_PST + ((t - 1) << 6) + (c == 0 ? sq : sq ^ 56), sign);
    }
  }
  return s;
}

/** Change of psqtFromScratch caused by move m (legal in pos, not yet played). */
export function psqtDelta(pos: Position, m: i32): i32 {
  const board = pos.board;
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const piece = <i32>unchecked(board[from]);
  const kind = m & KIND_MASK;
  if (kind == CASTLING) {
    const rook = <i32>unchecked(board[to]);
    const base = from & 56;
    const kTo = base + (to > from ? 6 : 2);
    const rTo = base + (to > from ? 5 : 3);
    return unchecked(PSQ[(piece << 6) | kTo]) - unchecked(PSQ[(piece << 6) | from]) +
      unchecked(PSQ[(rook << 6) | rTo]) - unchecked(PSQ[(rook << 6) | to]);
  }
  let d = -unchecked(PSQ[(piece << 6) | from]);
  if (kind == PROMOTION) d += unchecked(PSQ[(((piece & 8) | (((m >>> 12) & 3) + KNIGHT)) << 6) | to]);
  else d += unchecked(PSQ[(piece << 6) | to]);
  if (kind == EN_PASSANT) {
    const cap = to ^ 8;
    d -= unchecked(PSQ[(<i32>unchecked(board[cap]) << 6) | cap]);
  } else {
    const captured = <i32>unchecked(board[to]);
    if (captured != 0) d -= unchecked(PSQ[(captured << 6) | to]);
  }
  return d;
}

/**
 * The Polyglot key of the position after a move, without playing it. The line walk of dump
 * and info asks, for every legal reply, whether the book knows the resulting position; most
 * replies lead out of the book, and computing their keys this way is several times cheaper
 * than play + undo. Mirrors `Position.play`'s key update exactly (the e.p. file only when an
 * enemy pawn stands beside the pushed pawn; castling rights through the castle masks).
 */
import { CASTLING, EN_PASSANT, KIND_MASK, PROMOTION } from '../../core/move.js';
import type { Position } from '../../core/position.js';
import { EMPTY, KNIGHT, NO_SQUARE, PAWN } from '../../core/types.js';
import { Z_CASTLE_HI, Z_CASTLE_LO, Z_EP_HI, Z_EP_LO, Z_PIECE_HI, Z_PIECE_LO, Z_TURN_HI, Z_TURN_LO } from '../../core/zobrist.js';

/** Key halves after `childKey`: [low, high]. */
export const CHILD_KEY: Int32Array = new Int32Array(2);

/** Writes the key of the position after legal move `m` to CHILD_KEY. */
export function childKey(pos: Position, m: number): void {
  const board = pos.board;
  let lo = pos.keyLo ^ Z_TURN_LO;
  let hi = pos.keyHi ^ Z_TURN_HI;
  if (pos.epSquare !== NO_SQUARE) {
    lo ^= Z_EP_LO[pos.epSquare & 7]!;
    hi ^= Z_EP_HI[pos.epSquare & 7]!;
  }
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const kind = m & KIND_MASK;
  const piece = board[from]!;
  if (kind === CASTLING) {
    const rook = board[to]!;
    const base = from & 56;
    const kTo = base + (to > from ? 6 : 2);
    const rTo = base + (to > from ? 5 : 3);
    lo ^= Z_PIECE_LO[(piece << 6) | from]! ^ Z_PIECE_LO[(piece << 6) | kTo]! ^ Z_PIECE_LO[(rook << 6) | to]! ^ Z_PIECE_LO[(rook << 6) | rTo]!;
    hi ^= Z_PIECE_HI[(piece << 6) | from]! ^ Z_PIECE_HI[(piece << 6) | kTo]! ^ Z_PIECE_HI[(rook << 6) | to]! ^ Z_PIECE_HI[(rook << 6) | rTo]!;
  } else {
    if (kind === EN_PASSANT) {
      const cap = to ^ 8;
      const p = board[cap]!;
      lo ^= Z_PIECE_LO[(p << 6) | cap]!;
      hi ^= Z_PIECE_HI[(p << 6) | cap]!;
    } else if (board[to] !== EMPTY) {
      const p = board[to]!;
      lo ^= Z_PIECE_LO[(p << 6) | to]!;
      hi ^= Z_PIECE_HI[(p << 6) | to]!;
    }
    lo ^= Z_PIECE_LO[(piece << 6) | from]!;
    hi ^= Z_PIECE_HI[(piece << 6) | from]!;
    const placed = kind === PROMOTION ? (piece & 8) | (((m >>> 12) & 3) + KNIGHT) : piece;
    lo ^= Z_PIECE_LO[(placed << 6) | to]!;
    hi ^= Z_PIECE_HI[(placed << 6) | to]!;
    if ((piece & 7) === PAWN && (to ^ from) === 16) {
      const f = to & 7;
      const enemy = (piece ^ 8) & 15;
      if ((f > 0 && board[to - 1] === enemy) || (f < 7 && board[to + 1] === enemy)) {
        lo ^= Z_EP_LO[f]!;
        hi ^= Z_EP_HI[f]!;
      }
    }
  }
  const rights = pos.castling & ~(pos.castleMask[from]! | pos.castleMask[to]!);
  if (rights !== pos.castling) {
    lo ^= Z_CASTLE_LO[pos.castling]! ^ Z_CASTLE_LO[rights]!;
    hi ^= Z_CASTLE_HI[pos.castling]! ^ Z_CASTLE_HI[rights]!;
  }
  CHILD_KEY[0] = lo;
  CHILD_KEY[1] = hi;
}

/**
 * Draws the search recognises without searching
 * (repetition back to the last irreversible or null move, the fifty-move rule, insufficient
 * material), and the material tests of null-move pruning and the pawn-ending extension.
 * `nullAt` is the position ply of the last null move on the current line (-1 for none).
 */
import { generateLegal } from './movegen';
import { Position } from './position';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from './types';

/**
 * Repetition or fifty-move draw. Repetitions are looked for back to the last irreversible move
 * or null move. A position that repeats one from after the search's root (`rootPly`) is a draw
 * at once: the side that can repeat it once can repeat it again. One that repeats a position of
 * the game before the root is a draw only as its third occurrence, since the opponent need not
 * repeat it (Stockfish's is_draw, Ethereal's boardDrawnByRepetition): scored at once, the
 * losing side took any move back to an earlier position for a draw and stopped looking for its
 * best defence. `rootPly` -1 counts every earlier occurrence as the search's own.
 */
export function isDraw(pos: Position, nullAt: i32, rootPly: i32 = -1): bool {
  if (pos.halfmoves >= 100) return true;
  const bb = pos.bb;
  let end = pos.ply - pos.halfmoves;
  if (end < nullAt + 1) end = nullAt + 1;
  const k = pos.key;
  const st = pos.stack;
  let before = 0;
  for (let j = pos.ply - 4; j >= end; j -= 2) {
    if (unchecked(st[(j << 1) + 1]) == k && (j > rootPly || ++before == 2)) return true;
  }
  // Insufficient material is only possible without pawns, rooks and queens.
  if ((unchecked(bb[PAWN]) | unchecked(bb[8 | PAWN]) | unchecked(bb[ROOK]) | unchecked(bb[8 | ROOK]) |
    unchecked(bb[QUEEN]) | unchecked(bb[8 | QUEEN])) == 0) return pos.isInsufficientMaterial();
  return false;
}

/**
 * A position where the fifty-move count has run out (isDraw says so) but the side to move is
 * checkmated: the move that made the hundredth ply mated, and checkmate takes precedence
 * (FIDE Laws 9.3 and 5.1.1; Stockfish's is_draw tests the same). `buf[start..]` is scratch
 * space for the legal moves.
 */
export function matedAfterFiftyMoves(pos: Position, inCheck: bool, buf: StaticArray<u16>, start: i32): bool {
  return pos.halfmoves >= 100 && inCheck && generateLegal(pos, buf, start) == start;
}

/** Side to move has a piece other than pawns and king (null move is unsafe in pawn endings). */
export function hasNonPawnMaterial(pos: Position): bool {
  const o = pos.turn << 3;
  const bb = pos.bb;
  return (unchecked(bb[o | KNIGHT]) | unchecked(bb[o | BISHOP]) | unchecked(bb[o | ROOK]) | unchecked(bb[o | QUEEN])) != 0;
}

/** Neither side has a piece other than pawns and king: a pawn ending (or kings alone). */
export function isPawnEnding(pos: Position): bool {
  const bb = pos.bb;
  return (unchecked(bb[KNIGHT]) | unchecked(bb[BISHOP]) | unchecked(bb[ROOK]) | unchecked(bb[QUEEN]) | unchecked(bb[8 | KNIGHT]) |
    unchecked(bb[8 | BISHOP]) | unchecked(bb[8 | ROOK]) | unchecked(bb[8 | QUEEN])) == 0;
}

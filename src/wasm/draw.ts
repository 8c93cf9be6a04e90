/**
 * Draws the search recognises without searching
 * (repetition back to the last irreversible or null move, the fifty-move rule, insufficient
 * material), and the material test null-move pruning needs.
 * `nullAt` is the position ply of the last null move on the current line (-1 for none).
 */
import { Position } from './position';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from './types';

/** Repetition or fifty-move draw. Repetitions are looked for back to the last irreversible move or null move. */
export function isDraw(pos: Position, nullAt: i32): bool {
  if (pos.halfmoves >= 100) return true;
  const bb = pos.bb;
  let end = pos.ply - pos.halfmoves;
  if (end < nullAt + 1) end = nullAt + 1;
  const k = pos.key;
  const st = pos.stack;
  for (let i = (pos.ply - 4) << 1, e = end << 1; i >= e; i -= 4) if (unchecked(st[i + 1]) == k) return true;
  // Insufficient material is only possible without pawns, rooks and queens.
  if ((unchecked(bb[PAWN]) | unchecked(bb[8 | PAWN]) | unchecked(bb[ROOK]) | unchecked(bb[8 | ROOK]) |
    unchecked(bb[QUEEN]) | unchecked(bb[8 | QUEEN])) == 0) return pos.isInsufficientMaterial();
  return false;
}

/** Side to move has a piece other than pawns and king (null move is unsafe in pawn endings). */
export function hasNonPawnMaterial(pos: Position): bool {
  const o = pos.turn << 3;
  const bb = pos.bb;
  return (unchecked(bb[o | KNIGHT]) | unchecked(bb[o | BISHOP]) | unchecked(bb[o | ROOK]) | unchecked(bb[o | QUEEN])) != 0;
}

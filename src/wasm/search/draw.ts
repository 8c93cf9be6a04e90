/**
 * Port of src/engine/search/draw.ts: repetition (back to the last irreversible or null move),
 * fifty-move rule and insufficient material; and the material test of null-move pruning.
 * Changes from the TS: the state stack holds the key before each move as one u64 at
 * 2 * ply + 1.
 */
import { Position } from '../position';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../types';
import { SearchThread } from './thread';

/** Repetition or fifty-move draw. Repetitions are looked for back to the last irreversible move or null move. */
export function isDraw(t: SearchThread): bool {
  const pos = t.pos;
  if (pos.halfmoves >= 100) return true;
  const bb = pos.bb;
  let end = pos.ply - pos.halfmoves;
  if (end < t.nullAt + 1) end = t.nullAt + 1;
  const key = pos.key;
  const st = pos.stack;
  for (let i = pos.ply - 4; i >= end; i -= 2) if (unchecked(st[(i << 1) + 1]) == key) return true;
  // Insufficient material is only possible without pawns, rooks and queens.
  if ((unchecked(bb[PAWN]) | unchecked(bb[8 | PAWN]) | unchecked(bb[ROOK]) | unchecked(bb[8 | ROOK]) |
    unchecked(bb[QUEEN]) | unchecked(bb[8 | QUEEN])) == 0) return pos.isInsufficientMaterial();
  return false;
}

/** Side to move has a piece other than pawns and king (null move is unsafe in pawn endings). */
// @ts-ignore: decorator
@inline export function hasNonPawnMaterial(t: SearchThread): bool {
  const pos: Position = t.pos;
  const o = pos.turn << 3;
  const bb = pos.bb;
  return (unchecked(bb[o | KNIGHT]) | unchecked(bb[o | BISHOP]) | unchecked(bb[o | ROOK]) | unchecked(bb[o | QUEEN])) != 0;
}

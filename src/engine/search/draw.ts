/**
 * Draws the search recognises without searching (repetition back to the last irreversible or
 * null move, the fifty-move rule, insufficient material), and the material test null-move
 * pruning needs (zugzwang is common in pawn endings).
 */
import {
  BISHOP as BISHOP_,
  KNIGHT as KNIGHT_,
  PAWN as PAWN_,
  QUEEN as QUEEN_,
  ROOK as ROOK_,
} from '../../core/types.js';
import type { SearchThread } from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const BISHOP = BISHOP_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;

/** Repetition or fifty-move draw. Repetitions are looked for back to the last irreversible move or null move. */
export function isDraw(t: SearchThread): boolean {
  const pos = t.pos;
  if (pos.halfmoves >= 100) return true;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  let end = pos.ply - pos.halfmoves;
  if (end < t.nullAt + 1) end = t.nullAt + 1;
  const kLo = pos.keyLo;
  const kHi = pos.keyHi;
  const st = pos.stack;
  for (let i = (pos.ply - 4) << 2, e = end << 2; i >= e; i -= 8) if (st[i + 2] === kLo && st[i + 3] === kHi) return true;
  // Insufficient material is only possible without pawns, rooks and queens.
  if ((lo[PAWN]! | hi[PAWN]! | lo[8 | PAWN]! | hi[8 | PAWN]! | lo[ROOK]! | hi[ROOK]! | lo[8 | ROOK]! | hi[8 | ROOK]! |
    lo[QUEEN]! | hi[QUEEN]! | lo[8 | QUEEN]! | hi[8 | QUEEN]!) === 0) return pos.isInsufficientMaterial();
  return false;
}

/** Side to move has a piece other than pawns and king (null move is unsafe in pawn endings). */
export function hasNonPawnMaterial(t: SearchThread): boolean {
  const o = t.pos.turn << 3;
  const lo = t.pos.bbLo;
  const hi = t.pos.bbHi;
  return ((lo[o | KNIGHT]! | hi[o | KNIGHT]! | lo[o | BISHOP]! | hi[o | BISHOP]! | lo[o | ROOK]! | hi[o | ROOK]! | lo[o | QUEEN]! | hi[o | QUEEN]!)) !== 0;
}


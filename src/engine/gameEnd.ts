/**
 * Whether a position ends the game by the rules, and how: what the protocol servers need to
 * know that a game is over (for book learning) without a GUI telling them.
 */
import type { Position } from '../core/position.js';

export type GameResult = '1-0' | '0-1' | '1/2-1/2';

/** The result if the game is over in `pos` (given its number of legal moves), else undefined. */
export function gameResult(pos: Position, legalMoveCount: number): GameResult | undefined {
  if (legalMoveCount === 0) {
    if (!pos.inCheck()) return '1/2-1/2';
    return pos.turn === 0 ? '0-1' : '1-0';
  }
  if (pos.halfmoves >= 100 || pos.isInsufficientMaterial() || pos.repetitions(2) >= 2) return '1/2-1/2';
  return undefined;
}

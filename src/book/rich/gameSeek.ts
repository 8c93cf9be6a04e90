/**
 * Finding where a stored game reaches a position, for a probe of a position seen in one game
 * (the single-position index names the game, not the ply). Browser-safe, allocation-free.
 *
 * The game is replayed from its start until the key appears. Given the position itself, the
 * replay also stops as soon as the game can no longer reach it (a miss, where the index names an
 * arbitrary game, then costs a few plies instead of the whole game): pieces never come back on
 * the board, and a pawn that has left its starting rank never returns to it (it cannot move
 * backwards, and no other pawn can reach its own starting rank).
 */
import { popcount } from '../../core/bitboard.js';
import type { Position } from '../../core/position.js';
import { ILLEGAL_CODE, IllegalMoveCode, NEXT_CODE, NO_MORE_MOVES, codeAt, nextMove } from './games.js';

/** Piece codes of the pawns (color · 8 + PAWN) and the occupancy boards (color · 8). */
const WHITE_PAWN = 1;
const BLACK_PAWN = 9;
/** White's starting rank in the low word (squares 8-15), Black's in the high word (48-55). */
const WHITE_HOME = 0xff00;
const BLACK_HOME = 0xff0000;

/** The move a successful `seekKey` found (core encoding). */
export const SEEK_MOVE: Int32Array = new Int32Array(1);

/**
 * Replays the game whose `codes` move codes start at byte `o` of `b` from `pos` (its start
 * position) until `pos` has the key (hi, lo) and a move follows: returns that ply, with `pos`
 * standing there and the move in SEEK_MOVE[0]; -1 when the game never gets there. With
 * `target` (the position with that key), gives up once the game cannot reach it any more.
 * A code that is not a legal move throws IllegalMoveCode.
 */
export function seekKey(pos: Position, b: Uint8Array, o: number, codes: number, hi: number, lo: number, target?: Position): number {
  const h = hi | 0;
  const l = lo | 0;
  let pieces = -1;
  let whiteHome = 0;
  let blackHome = 0;
  if (target !== undefined) {
    pieces = popcount(target.bbLo[0]! | target.bbLo[8]!, target.bbHi[0]! | target.bbHi[8]!);
    whiteHome = target.bbLo[WHITE_PAWN]! & WHITE_HOME;
    blackHome = target.bbHi[BLACK_PAWN]! & BLACK_HOME;
  }
  let ply = 0;
  for (let i = 0; ; ) {
    const m = nextMove(pos, b, o, codes, i);
    if (m === NO_MORE_MOVES) return -1;
    if (m === ILLEGAL_CODE) throw new IllegalMoveCode(ply, codeAt(b, o, NEXT_CODE[0]! - 1));
    i = NEXT_CODE[0]!;
    if ((pos.keyHi | 0) === h && (pos.keyLo | 0) === l) {
      SEEK_MOVE[0] = m;
      return ply;
    }
    pos.play(m);
    ply++;
    if (pieces >= 0) {
      if ((pos.bbLo[WHITE_PAWN]! & whiteHome) !== whiteHome || (pos.bbHi[BLACK_PAWN]! & blackHome) !== blackHome) return -1;
      if (popcount(pos.bbLo[0]! | pos.bbLo[8]!, pos.bbHi[0]! | pos.bbHi[8]!) < pieces) return -1;
    }
  }
}

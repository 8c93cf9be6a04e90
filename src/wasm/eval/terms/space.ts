/**
 * Space (Ethereal's evaluateSpace): squares where the enemy has the upper hand, attacked twice
 * by it and at most once by us and not by our pawns, cost us per piece standing on them and per
 * empty one; central squares (files c to f, ranks 3 to 6) that we attack or hold and the enemy
 * does not attack count for us while enough pieces are on the board for space to matter.
 */
import { Position } from '../../position';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../../types';
import { ATT, ATT2, popcnt64 } from '../masks';
import { P_SPACE_CENTER, P_SPACE_RESTRICT_EMPTY, P_SPACE_RESTRICT_PIECE, PACKED } from '../params';
import { trace } from '../trace';
import { COUNT } from './endgame';

/** Files c to f of ranks 3 to 6. */
const CENTER_BIG: u64 = 0x00003c3c3c3c0000;
/** Minors count 1, rooks and queens 2: above this, the centre term applies (Ethereal's threshold). */
const CENTER_PIECES = 12;

/** Side c's space (packed, from c's point of view), the centre term when `centre` is set. */
// @ts-ignore: decorator
@inline function spaceOf(pos: Position, c: i32, centre: bool): i32 {
  const bb = pos.bb;
  const them = c ^ 1;
  const o = c << 3;
  const sign = c == 0 ? 1 : -1;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const uncontrolled = unchecked(ATT2[them]) & unchecked(ATT[o]) & ~unchecked(ATT2[c]) & ~unchecked(ATT[o | PAWN]);
  let score = 0;
  if (uncontrolled != 0) {
    const pieces = popcnt64(uncontrolled & occ);
    const empty = popcnt64(uncontrolled & ~occ);
    score = unchecked(PACKED[P_SPACE_RESTRICT_PIECE]) * pieces + unchecked(PACKED[P_SPACE_RESTRICT_EMPTY]) * empty;
    trace(P_SPACE_RESTRICT_PIECE, sign * pieces);
    trace(P_SPACE_RESTRICT_EMPTY, sign * empty);
  }
  if (centre) {
    const n = popcnt64(~unchecked(ATT[them << 3]) & (unchecked(ATT[o]) | unchecked(bb[o])) & CENTER_BIG);
    score += unchecked(PACKED[P_SPACE_CENTER]) * n;
    trace(P_SPACE_CENTER, sign * n);
  }
  return score;
}

/** Space, White's minus Black's (packed). All attack maps and COUNT must be set. */
export function evaluateSpace(pos: Position): i32 {
  const pieces = unchecked(COUNT[KNIGHT]) + unchecked(COUNT[8 | KNIGHT]) + unchecked(COUNT[BISHOP]) + unchecked(COUNT[8 | BISHOP]) +
    2 * (unchecked(COUNT[ROOK]) + unchecked(COUNT[8 | ROOK]) + unchecked(COUNT[QUEEN]) + unchecked(COUNT[8 | QUEEN]));
  const centre = pieces > CENTER_PIECES;
  return spaceOf(pos, 0, centre) - spaceOf(pos, 1, centre);
}

/**
 * Passed-pawn terms beyond the pawn hash (king
 * distances to the stop square, free stop square, safe path), weighted by rank.
 */
import { Position } from '../../position';
import { ATT, DIST, FRONT } from '../masks';
import { P_PASSED_ENEMY_KING, P_PASSED_FREE, P_PASSED_OWN_KING, P_PASSED_SAFE, PACKED } from '../params';
import { PI_PASSED } from './pawns';
import { term, trace } from '../trace';

/** Side c's passed-pawn terms (packed, from c's point of view). All attack maps must be set. */
// @ts-ignore: decorator (inlined for its constant side: evaluate.ts, linearTerms)
@inline export function evaluatePassed(pos: Position, c: i32): i32 {
  let b = unchecked(PI_PASSED[c]);
  if (b == 0) return 0;
  const them = c ^ 1;
  const t8 = them << 3;
  const ownK = <i32>unchecked(pos.kingSq[c]) << 6;
  const enK = <i32>unchecked(pos.kingSq[them]) << 6;
  const up = c == 0 ? 8 : -8;
  const board = pos.board;
  const blockers = unchecked(ATT[t8]) | unchecked(pos.bb[t8]);
  const sign = c == 0 ? 1 : -1;
  let score = 0;
  while (b != 0) {
    const sq = <i32>ctz(b);
    b &= b - 1;
    const rr = c == 0 ? sq >> 3 : 7 - (sq >> 3);
    const stop = sq + up;
    const dOwn = <i32>unchecked(DIST[ownK | stop]);
    const dEn = <i32>unchecked(DIST[enK | stop]);
    score += unchecked(PACKED[P_PASSED_OWN_KING + rr]) * dOwn + unchecked(PACKED[P_PASSED_ENEMY_KING + rr]) * dEn;
    trace(P_PASSED_OWN_KING + rr, sign * dOwn);
    trace(P_PASSED_ENEMY_KING + rr, sign * dEn);
    if (unchecked(board[stop]) == 0) score += term(P_PASSED_FREE + rr, sign);
    if ((unchecked(FRONT[(c << 6) | sq]) & blockers) == 0) score += term(P_PASSED_SAFE + rr, sign);
  }
  return score;
}

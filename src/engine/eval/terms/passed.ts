/**
 * Passed pawns, the parts that depend on more than pawns (the rank bonus itself is in the pawn
 * hash): king distances to the stop square, a free stop square, and a path to promotion that
 * no enemy piece attacks. All are weighted by the pawn's rank, since a far-advanced passer
 * decides endgames and a distant one barely matters.
 */
import type { Position } from '../../../core/position.js';
import {
  ATT_HI as ATT_HI_,
  ATT_LO as ATT_LO_,
  DIST as DIST_,
  FRONT_HI as FRONT_HI_,
  FRONT_LO as FRONT_LO_,
  TRACE as TRACE_,
} from '../masks.js';
import {
  P_PASSED_ENEMY_KING as P_PASSED_ENEMY_KING_,
  P_PASSED_FREE as P_PASSED_FREE_,
  P_PASSED_OWN_KING as P_PASSED_OWN_KING_,
  P_PASSED_SAFE as P_PASSED_SAFE_,
  PACKED as PACKED_,
} from '../params.js';
import { PAWN_INFO as PAWN_INFO_, PI_PASSED as PI_PASSED_ } from './pawns.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const ATT_HI = ATT_HI_;
const ATT_LO = ATT_LO_;
const DIST = DIST_;
const FRONT_HI = FRONT_HI_;
const FRONT_LO = FRONT_LO_;
const TRACE = TRACE_;
const P_PASSED_ENEMY_KING = P_PASSED_ENEMY_KING_;
const P_PASSED_FREE = P_PASSED_FREE_;
const P_PASSED_OWN_KING = P_PASSED_OWN_KING_;
const P_PASSED_SAFE = P_PASSED_SAFE_;
const PACKED = PACKED_;
const PAWN_INFO = PAWN_INFO_;
const PI_PASSED = PI_PASSED_;

/** Side c's passed-pawn terms (packed, from c's point of view). All attack maps must be set. */
export function evaluatePassed(pos: Position, c: number, sign: number): number {
  const pLo = PAWN_INFO[PI_PASSED + 2 * c]!;
  const pHi = PAWN_INFO[PI_PASSED + 2 * c + 1]!;
  if ((pLo | pHi) === 0) return 0;
  const them = c ^ 1;
  const t8 = them << 3;
  const tr = TRACE.on ? TRACE.coef : null;
  const ownK = pos.kingSq[c]! << 6;
  const enK = pos.kingSq[them]! << 6;
  const up = c === 0 ? 8 : -8;
  let score = 0;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? pLo : pHi;
    while (b !== 0) {
      const sq = (half << 5) + 31 - Math.clz32(b & -b);
      b &= b - 1;
      const rr = c === 0 ? sq >> 3 : 7 - (sq >> 3);
      const stop = sq + up;
      const dOwn = DIST[ownK | stop]!;
      const dEn = DIST[enK | stop]!;
      score += PACKED[P_PASSED_OWN_KING + rr]! * dOwn + PACKED[P_PASSED_ENEMY_KING + rr]! * dEn;
      if (tr) {
        tr[P_PASSED_OWN_KING + rr]! += sign * dOwn;
        tr[P_PASSED_ENEMY_KING + rr]! += sign * dEn;
      }
      if (pos.board[stop] === 0) {
        score += PACKED[P_PASSED_FREE + rr]!;
        if (tr) tr[P_PASSED_FREE + rr]! += sign;
      }
      const i = (c << 6) | sq;
      if (((FRONT_LO[i]! & (ATT_LO[t8]! | pos.bbLo[t8]!)) | (FRONT_HI[i]! & (ATT_HI[t8]! | pos.bbHi[t8]!))) === 0) {
        score += PACKED[P_PASSED_SAFE + rr]!;
        if (tr) tr[P_PASSED_SAFE + rr]! += sign;
      }
    }
  }
  return score;
}

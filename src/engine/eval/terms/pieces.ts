/**
 * Knights, bishops, rooks and queens: mobility (attacked squares that are
 * not own pawns or king and not attacked by enemy pawns), outposts, minor pieces shielded by a
 * pawn, rooks on open files and on the 7th. While walking the pieces this module also fills the
 * attack maps and the king-zone hit counts that king safety and threats read afterwards.
 */
import {
  KNIGHT_HI as KNIGHT_HI_,
  KNIGHT_LO as KNIGHT_LO_,
  OUT as OUT_,
  PAWN_HI as PAWN_HI_,
  PAWN_LO as PAWN_LO_,
  bishopAttacks as bishopAttacks_,
  rookAttacks as rookAttacks_,
} from '../../../core/attacks.js';
import type { Position } from '../../../core/position.js';
import { BISHOP as BISHOP_, KNIGHT as KNIGHT_, QUEEN as QUEEN_, ROOK as ROOK_ } from '../../../core/types.js';
import {
  ATT2_HI as ATT2_HI_,
  ATT2_LO as ATT2_LO_,
  ATT_HI as ATT_HI_,
  ATT_LO as ATT_LO_,
  FILE_MASK as FILE_MASK_,
  TRACE as TRACE_,
  ZONE_ATTACKERS as ZONE_ATTACKERS_,
  ZONE_HI as ZONE_HI_,
  ZONE_HITS as ZONE_HITS_,
  ZONE_LO as ZONE_LO_,
  popcnt as popcnt_,
} from '../masks.js';
import {
  P_BEHIND_PAWN as P_BEHIND_PAWN_,
  P_MOB_BISHOP as P_MOB_BISHOP_,
  P_MOB_KNIGHT as P_MOB_KNIGHT_,
  P_MOB_QUEEN as P_MOB_QUEEN_,
  P_MOB_ROOK as P_MOB_ROOK_,
  P_OUTPOST as P_OUTPOST_,
  P_ROOK_OPEN as P_ROOK_OPEN_,
  P_ROOK_SEVENTH as P_ROOK_SEVENTH_,
  PACKED as PACKED_,
} from '../params.js';
import { PAWN_INFO as PAWN_INFO_, PI_SPAN as PI_SPAN_ } from './pawns.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const OUT = OUT_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const bishopAttacks = bishopAttacks_;
const rookAttacks = rookAttacks_;
const BISHOP = BISHOP_;
const KNIGHT = KNIGHT_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;
const ATT2_HI = ATT2_HI_;
const ATT2_LO = ATT2_LO_;
const ATT_HI = ATT_HI_;
const ATT_LO = ATT_LO_;
const FILE_MASK = FILE_MASK_;
const TRACE = TRACE_;
const ZONE_ATTACKERS = ZONE_ATTACKERS_;
const ZONE_HI = ZONE_HI_;
const ZONE_HITS = ZONE_HITS_;
const ZONE_LO = ZONE_LO_;
const popcnt = popcnt_;
const P_BEHIND_PAWN = P_BEHIND_PAWN_;
const P_MOB_BISHOP = P_MOB_BISHOP_;
const P_MOB_KNIGHT = P_MOB_KNIGHT_;
const P_MOB_QUEEN = P_MOB_QUEEN_;
const P_MOB_ROOK = P_MOB_ROOK_;
const P_OUTPOST = P_OUTPOST_;
const P_ROOK_OPEN = P_ROOK_OPEN_;
const P_ROOK_SEVENTH = P_ROOK_SEVENTH_;
const PACKED = PACKED_;
const PAWN_INFO = PAWN_INFO_;
const PI_SPAN = PI_SPAN_;

const MOB_OFFSET = new Int32Array([0, 0, P_MOB_KNIGHT, P_MOB_BISHOP, P_MOB_ROOK, P_MOB_QUEEN, 0, 0]);

/** Piece terms of side c (packed, from c's point of view). Pawn and king attack maps must be set. */
export function evaluatePieces(pos: Position, c: number, sign: number): number {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const them = c ^ 1;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  const o = c << 3;
  const t8 = them << 3;
  const mobLo = ~(lo[o | 1]! | lo[o | 6]! | ATT_LO[t8 | 1]!);
  const mobHi = ~(hi[o | 1]! | hi[o | 6]! | ATT_HI[t8 | 1]!);
  const zLo = ZONE_LO[them]!;
  const zHi = ZONE_HI[them]!;
  const ownPawnsLo = lo[o | 1]!;
  const ownPawnsHi = hi[o | 1]!;
  const enPawnsLo = lo[t8 | 1]!;
  const enPawnsHi = hi[t8 | 1]!;
  const enSpanLo = PAWN_INFO[PI_SPAN + 2 * them]!;
  const enSpanHi = PAWN_INFO[PI_SPAN + 2 * them + 1]!;
  const tr = TRACE.on ? TRACE.coef : null;
  let score = 0;
  let allLo = ATT_LO[o]!;
  let allHi = ATT_HI[o]!;
  let twoLo = ATT2_LO[c]!;
  let twoHi = ATT2_HI[c]!;

  for (let type = KNIGHT; type <= QUEEN; type++) {
    let tLo = 0;
    let tHi = 0;
    for (let half = 0; half < 2; half++) {
      let b = half === 0 ? lo[o | type]! : hi[o | type]!;
      while (b !== 0) {
        const sq = (half << 5) + 31 - Math.clz32(b & -b);
        b &= b - 1;
        let aLo: number;
        let aHi: number;
        if (type === KNIGHT) {
          aLo = KNIGHT_LO[sq]!;
          aHi = KNIGHT_HI[sq]!;
        } else if (type === BISHOP) {
          bishopAttacks(sq, occLo, occHi);
          aLo = OUT[0]!;
          aHi = OUT[1]!;
        } else if (type === ROOK) {
          rookAttacks(sq, occLo, occHi);
          aLo = OUT[0]!;
          aHi = OUT[1]!;
        } else {
          bishopAttacks(sq, occLo, occHi);
          aLo = OUT[0]!;
          aHi = OUT[1]!;
          rookAttacks(sq, occLo, occHi);
          aLo |= OUT[0]!;
          aHi |= OUT[1]!;
        }
        twoLo |= allLo & aLo;
        twoHi |= allHi & aHi;
        allLo |= aLo;
        allHi |= aHi;
        tLo |= aLo;
        tHi |= aHi;

        const mob = MOB_OFFSET[type]! + popcnt(aLo & mobLo, aHi & mobHi);
        score += PACKED[mob]!;
        if (tr) tr[mob]! += sign;
        if (((aLo & zLo) | (aHi & zHi)) !== 0) {
          ZONE_ATTACKERS[c]!++;
          ZONE_HITS[o | type]! += popcnt(aLo & zLo, aHi & zHi);
        }
        const rr = c === 0 ? sq >> 3 : 7 - (sq >> 3);
        if (type <= BISHOP) {
          // Outpost: in the enemy half, out of reach of enemy pawns, defended by an own pawn.
          if (rr >= 3 && rr <= 5) {
            const inSpan = ((sq < 32 ? enSpanLo >>> sq : enSpanHi >>> (sq - 32)) & 1) !== 0;
            const pd = (them << 6) | sq;
            if (!inSpan && ((PAWN_LO[pd]! & ownPawnsLo) | (PAWN_HI[pd]! & ownPawnsHi)) !== 0) {
              const k = P_OUTPOST + type - KNIGHT;
              score += PACKED[k]!;
              if (tr) tr[k]! += sign;
            }
          }
          const front = c === 0 ? sq + 8 : sq - 8;
          if (front >= 0 && front < 64 && (pos.board[front]! & 7) === 1) {
            score += PACKED[P_BEHIND_PAWN]!;
            if (tr) tr[P_BEHIND_PAWN]! += sign;
          }
        } else if (type === ROOK) {
          const fm = FILE_MASK[sq & 7]!;
          if (((ownPawnsLo | ownPawnsHi) & fm) === 0) {
            const k = P_ROOK_OPEN + (((enPawnsLo | enPawnsHi) & fm) === 0 ? 1 : 0);
            score += PACKED[k]!;
            if (tr) tr[k]! += sign;
          }
          if (rr === 6) {
            const ek = pos.kingSq[them]!;
            const ekr = c === 0 ? ek >> 3 : 7 - (ek >> 3);
            const rank7 = c === 0 ? enPawnsHi & 0x00ff0000 : enPawnsLo & 0x0000ff00;
            if (ekr === 7 || rank7 !== 0) {
              score += PACKED[P_ROOK_SEVENTH]!;
              if (tr) tr[P_ROOK_SEVENTH]! += sign;
            }
          }
        }
      }
    }
    ATT_LO[o | type] = tLo;
    ATT_HI[o | type] = tHi;
  }
  ATT_LO[o] = allLo;
  ATT_HI[o] = allHi;
  ATT2_LO[c] = twoLo;
  ATT2_HI[c] = twoHi;
  return score;
}

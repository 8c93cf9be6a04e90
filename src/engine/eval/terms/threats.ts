/**
 * Threats against enemy pieces: attacked by pawns, by minor pieces and by rooks (by victim
 * type), by the king, hanging pieces, and safe pawn pushes that would attack a piece. The
 * victim sets follow the classic split: pieces "strongly protected" (by a pawn, or defended
 * twice and not attacked twice) only count against minor-piece attackers; weak ones count
 * for every kind. Static evaluation cannot see who moves first, so these stay moderate and
 * the quiescence search settles the rest.
 */
import { KING as KING_, KNIGHT as KNIGHT_, PAWN as PAWN_ } from '../../../core/types.js';
import type { Position } from '../../../core/position.js';
import {
  ATT2_HI as ATT2_HI_,
  ATT2_LO as ATT2_LO_,
  ATT_HI as ATT_HI_,
  ATT_LO as ATT_LO_,
  FILE_A as FILE_A_,
  FILE_H as FILE_H_,
  TRACE as TRACE_,
  popcnt as popcnt_,
} from '../masks.js';
import {
  P_HANGING as P_HANGING_,
  P_PAWN_PUSH_THREAT as P_PAWN_PUSH_THREAT_,
  P_THREAT_KING as P_THREAT_KING_,
  P_THREAT_MINOR as P_THREAT_MINOR_,
  P_THREAT_PAWN as P_THREAT_PAWN_,
  P_THREAT_ROOK as P_THREAT_ROOK_,
  PACKED as PACKED_,
} from '../params.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const KING = KING_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const ATT2_HI = ATT2_HI_;
const ATT2_LO = ATT2_LO_;
const ATT_HI = ATT_HI_;
const ATT_LO = ATT_LO_;
const FILE_A = FILE_A_;
const FILE_H = FILE_H_;
const TRACE = TRACE_;
const popcnt = popcnt_;
const P_HANGING = P_HANGING_;
const P_PAWN_PUSH_THREAT = P_PAWN_PUSH_THREAT_;
const P_THREAT_KING = P_THREAT_KING_;
const P_THREAT_MINOR = P_THREAT_MINOR_;
const P_THREAT_PAWN = P_THREAT_PAWN_;
const P_THREAT_ROOK = P_THREAT_ROOK_;
const PACKED = PACKED_;

/** Adds weight base + victim − 1 for every piece on (tLo, tHi) (sparse sets: walk the bits). */
function addByVictim(board: Int8Array, base: number, tLo: number, tHi: number, sign: number, tr: Float64Array | null): number {
  let score = 0;
  while (tLo !== 0) {
    const k = base + (board[31 - Math.clz32(tLo & -tLo)]! & 7) - 1;
    tLo &= tLo - 1;
    score += PACKED[k]!;
    if (tr) tr[k]! += sign;
  }
  while (tHi !== 0) {
    const k = base + (board[63 - Math.clz32(tHi & -tHi)]! & 7) - 1;
    tHi &= tHi - 1;
    score += PACKED[k]!;
    if (tr) tr[k]! += sign;
  }
  return score;
}

/** Side c's threats (packed, from c's point of view). All attack maps must be set. */
export function evaluateThreats(pos: Position, c: number, sign: number): number {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const them = c ^ 1;
  const o = c << 3;
  const t8 = them << 3;
  const tr = TRACE.on ? TRACE.coef : null;
  let score = 0;
  const enLo = lo[t8]! & ~lo[t8 | KING]!;
  const enHi = hi[t8]! & ~hi[t8 | KING]!;
  const nonPawnLo = enLo & ~lo[t8 | PAWN]!;
  const nonPawnHi = enHi & ~hi[t8 | PAWN]!;

  // Pawn attacks on pieces.
  score += addByVictim(pos.board, P_THREAT_PAWN, ATT_LO[o | PAWN]! & nonPawnLo, ATT_HI[o | PAWN]! & nonPawnHi, sign, tr);

  const strongLo = ATT_LO[t8 | PAWN]! | (ATT2_LO[them]! & ~ATT2_LO[c]!);
  const strongHi = ATT_HI[t8 | PAWN]! | (ATT2_HI[them]! & ~ATT2_HI[c]!);
  const defLo = nonPawnLo & strongLo;
  const defHi = nonPawnHi & strongHi;
  const weakLo = enLo & ~strongLo & ATT_LO[o]!;
  const weakHi = enHi & ~strongHi & ATT_HI[o]!;
  if ((defLo | defHi | weakLo | weakHi) !== 0) {
    const minorLo = ATT_LO[o | KNIGHT]! | ATT_LO[o | 3]!;
    const minorHi = ATT_HI[o | KNIGHT]! | ATT_HI[o | 3]!;
    score += addByVictim(pos.board, P_THREAT_MINOR, (defLo | weakLo) & minorLo, (defHi | weakHi) & minorHi, sign, tr);
    score += addByVictim(pos.board, P_THREAT_ROOK, weakLo & ATT_LO[o | 4]!, weakHi & ATT_HI[o | 4]!, sign, tr);
    if (((weakLo & ATT_LO[o | KING]!) | (weakHi & ATT_HI[o | KING]!)) !== 0) {
      score += PACKED[P_THREAT_KING]!;
      if (tr) tr[P_THREAT_KING]! += sign;
    }
    const hLo = weakLo & (~ATT_LO[t8]! | (nonPawnLo & ATT2_LO[c]!));
    const hHi = weakHi & (~ATT_HI[t8]! | (nonPawnHi & ATT2_HI[c]!));
    if ((hLo | hHi) !== 0) {
      const hang = popcnt(hLo, hHi);
      score += PACKED[P_HANGING]! * hang;
      if (tr) tr[P_HANGING]! += sign * hang;
    }
  }

  // Safe pawn pushes that would attack a piece.
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  const pLo = lo[o | PAWN]!;
  const pHi = hi[o | PAWN]!;
  let pushLo: number;
  let pushHi: number;
  if (c === 0) {
    pushLo = (pLo << 8) & ~occLo;
    pushHi = ((pHi << 8) | (pLo >>> 24)) & ~occHi;
    // double pushes from the second rank through an empty third rank
    pushLo |= ((pushLo & 0x00ff0000) << 8) & ~occLo;
  } else {
    pushHi = (pHi >>> 8) & ~occHi;
    pushLo = ((pLo >>> 8) | (pHi << 24)) & ~occLo;
    pushHi |= ((pushHi & 0x0000ff00) >>> 8) & ~occHi;
  }
  // Safe: not attacked by the enemy, or defended by us.
  pushLo &= ~ATT_LO[t8 | PAWN]! & (ATT_LO[o]! | ~ATT_LO[t8]!);
  pushHi &= ~ATT_HI[t8 | PAWN]! & (ATT_HI[o]! | ~ATT_HI[t8]!);
  let aLo: number;
  let aHi: number;
  if (c === 0) {
    const l = pushLo & ~FILE_A;
    const h = pushHi & ~FILE_A;
    const l2 = pushLo & ~FILE_H;
    const h2 = pushHi & ~FILE_H;
    aLo = (l << 7) | (l2 << 9);
    aHi = (h << 7) | (l >>> 25) | (h2 << 9) | (l2 >>> 23);
  } else {
    const l = pushLo & ~FILE_A;
    const h = pushHi & ~FILE_A;
    const l2 = pushLo & ~FILE_H;
    const h2 = pushHi & ~FILE_H;
    aLo = (l >>> 9) | (h << 23) | (l2 >>> 7) | (h2 << 25);
    aHi = (h >>> 9) | (h2 >>> 7);
  }
  const tLo = aLo & nonPawnLo & ~ATT_LO[o | PAWN]!;
  const tHi = aHi & nonPawnHi & ~ATT_HI[o | PAWN]!;
  if ((tLo | tHi) !== 0) {
    const n = popcnt(tLo, tHi);
    score += PACKED[P_PAWN_PUSH_THREAT]! * n;
    if (tr) tr[P_PAWN_PUSH_THREAT]! += sign * n;
  }
  return score;
}

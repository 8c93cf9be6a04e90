/**
 * Enemy pieces attacked by pawns, minors and rooks
 * (by victim type), by the king, hanging pieces, safe pawn pushes that attack a piece.
 */
import { Position } from '../../position';
import { KING, KNIGHT, PAWN } from '../../types';
import { ATT, ATT2, FILE_A, FILE_H, popcnt64 } from '../masks';
import {
  P_HANGING, P_OVERLOADED, P_PAWN_PUSH_THREAT, P_THREAT_KING, P_THREAT_MINOR, P_THREAT_PAWN, P_THREAT_ROOK, PACKED,
} from '../params';
import { term, trace } from '../trace';

/** Adds weight base + victim - 1 for every piece on t. */
// @ts-ignore: decorator
@inline function addByVictim(board: StaticArray<i8>, base: i32, t: u64, sign: i32): i32 {
  let score = 0;
  while (t != 0) {
    score += term(base + (<i32>unchecked(board[<i32>ctz(t)]) & 7) - 1, sign);
    t &= t - 1;
  }
  return score;
}

/** Side c's threats (packed, from c's point of view). All attack maps must be set. */
// @ts-ignore: decorator (inlined for its constant side: evaluate.ts, linearTerms)
@inline export function evaluateThreats(pos: Position, c: i32): i32 {
  const bb = pos.bb;
  const board = pos.board;
  const them = c ^ 1;
  const o = c << 3;
  const t8 = them << 3;
  const sign = c == 0 ? 1 : -1;
  let score = 0;
  const en = unchecked(bb[t8]) & ~unchecked(bb[t8 | KING]);
  const nonPawn = en & ~unchecked(bb[t8 | PAWN]);
  const attUs = unchecked(ATT[o]);
  const attThem = unchecked(ATT[t8]);

  // Pawn attacks on pieces.
  score += addByVictim(board, P_THREAT_PAWN, unchecked(ATT[o | PAWN]) & nonPawn, sign);

  const strong = unchecked(ATT[t8 | PAWN]) | (unchecked(ATT2[them]) & ~unchecked(ATT2[c]));
  const def = nonPawn & strong;
  const weak = en & ~strong & attUs;
  if ((def | weak) != 0) {
    const minor = unchecked(ATT[o | KNIGHT]) | unchecked(ATT[o | 3]);
    score += addByVictim(board, P_THREAT_MINOR, (def | weak) & minor, sign);
    score += addByVictim(board, P_THREAT_ROOK, weak & unchecked(ATT[o | 4]), sign);
    if ((weak & unchecked(ATT[o | KING])) != 0) score += term(P_THREAT_KING, sign);
    const h = weak & (~attThem | (nonPawn & unchecked(ATT2[c])));
    if (h != 0) {
      const n = popcnt64(h);
      score += unchecked(PACKED[P_HANGING]) * n;
      trace(P_HANGING, sign * n);
    }
  }

  // Enemy pieces attacked once and defended once: one capture away from trouble (Ethereal's
  // ThreatOverloadedPieces).
  const over = nonPawn & attUs & ~unchecked(ATT2[c]) & attThem & ~unchecked(ATT2[them]);
  if (over != 0) {
    const n = popcnt64(over);
    score += unchecked(PACKED[P_OVERLOADED]) * n;
    trace(P_OVERLOADED, sign * n);
  }

  // Safe pawn pushes that would attack a piece.
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const p = unchecked(bb[o | PAWN]);
  let push: u64;
  if (c == 0) {
    push = (p << 8) & ~occ;
    // double pushes from the second rank through an empty third rank
    push |= ((push & 0x0000000000ff0000) << 8) & ~occ;
  } else {
    push = (p >> 8) & ~occ;
    push |= ((push & 0x0000ff0000000000) >> 8) & ~occ;
  }
  // Safe: not attacked by the enemy, or defended by us.
  push &= ~unchecked(ATT[t8 | PAWN]) & (attUs | ~attThem);
  let a: u64;
  if (c == 0) a = ((push & ~FILE_A) << 7) | ((push & ~FILE_H) << 9);
  else a = ((push & ~FILE_A) >> 9) | ((push & ~FILE_H) >> 7);
  const t = a & nonPawn & ~unchecked(ATT[o | PAWN]);
  if (t != 0) {
    const n = popcnt64(t);
    score += unchecked(PACKED[P_PAWN_PUSH_THREAT]) * n;
    trace(P_PAWN_PUSH_THREAT, sign * n);
  }
  return score;
}

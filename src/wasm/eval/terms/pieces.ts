/**
 * Knights, bishops, rooks and queens (mobility,
 * outposts, minor behind a pawn, rooks on open files and on the 7th). Also fills the attack
 * maps and the king-zone hit counts that king safety and threats read afterwards.
 */
import { KNIGHT_ATT, PAWN_ATT, bishopAttacks, rookAttacks } from '../../attacks';
import { Position } from '../../position';
import { BISHOP, KNIGHT, QUEEN, ROOK } from '../../types';
import { ATT, ATT2, FILE_MASK, ZONE, ZONE_ATTACKERS, ZONE_HITS, popcnt64 } from '../masks';
import {
  P_BEHIND_PAWN, P_MOB_BISHOP, P_MOB_KNIGHT, P_MOB_QUEEN, P_MOB_ROOK, P_OUTPOST, P_ROOK_OPEN, P_ROOK_SEVENTH,
} from '../params';
import { PI_SPAN } from './pawns';
import { term } from '../trace';

const MOB_OFFSET: StaticArray<i32> = [0, 0, P_MOB_KNIGHT, P_MOB_BISHOP, P_MOB_ROOK, P_MOB_QUEEN, 0, 0];

/** Piece terms of side c (packed, from c's point of view). Pawn and king attack maps must be set. */
export function evaluatePieces(pos: Position, c: i32): i32 {
  const bb = pos.bb;
  const board = pos.board;
  const them = c ^ 1;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const o = c << 3;
  const t8 = them << 3;
  const mobArea = ~(unchecked(bb[o | 1]) | unchecked(bb[o | 6]) | unchecked(ATT[t8 | 1]));
  const zone = unchecked(ZONE[them]);
  const ownPawns = unchecked(bb[o | 1]);
  const enPawns = unchecked(bb[t8 | 1]);
  const enSpan = unchecked(PI_SPAN[them]);
  const sign = c == 0 ? 1 : -1;
  let score = 0;
  let all = unchecked(ATT[o]);
  let two = unchecked(ATT2[c]);

  for (let type = KNIGHT; type <= QUEEN; type++) {
    let tAtt: u64 = 0;
    let b = unchecked(bb[o | type]);
    while (b != 0) {
      const sq = <i32>ctz(b);
      b &= b - 1;
      let a: u64;
      if (type == KNIGHT) a = unchecked(KNIGHT_ATT[sq]);
      else if (type == BISHOP) a = bishopAttacks(sq, occ);
      else if (type == ROOK) a = rookAttacks(sq, occ);
      else a = bishopAttacks(sq, occ) | rookAttacks(sq, occ);
      two |= all & a;
      all |= a;
      tAtt |= a;

      score += term(unchecked(MOB_OFFSET[type]) + popcnt64(a & mobArea), sign);
      if ((a & zone) != 0) {
        unchecked(ZONE_ATTACKERS[c]++);
        unchecked(ZONE_HITS[o | type] += popcnt64(a & zone));
      }
      const rr = c == 0 ? sq >> 3 : 7 - (sq >> 3);
      if (type <= BISHOP) {
        // Outpost: in the enemy half, out of reach of enemy pawns, defended by an own pawn.
        if (rr >= 3 && rr <= 5) {
          const inSpan = ((enSpan >> <u64>sq) & 1) != 0;
          if (!inSpan && (unchecked(PAWN_ATT[(them << 6) | sq]) & ownPawns) != 0) score += term(P_OUTPOST + type - KNIGHT, sign);
        }
        const front = c == 0 ? sq + 8 : sq - 8;
        if (front >= 0 && front < 64 && (<i32>unchecked(board[front]) & 7) == 1) score += term(P_BEHIND_PAWN, sign);
      } else if (type == ROOK) {
        const fm = unchecked(FILE_MASK[sq & 7]);
        if ((ownPawns & fm) == 0) score += term(P_ROOK_OPEN + ((enPawns & fm) == 0 ? 1 : 0), sign);
        if (rr == 6) {
          const ek = <i32>unchecked(pos.kingSq[them]);
          const ekr = c == 0 ? ek >> 3 : 7 - (ek >> 3);
          const rank7 = c == 0 ? enPawns & 0x00ff000000000000 : enPawns & 0x000000000000ff00;
          if (ekr == 7 || rank7 != 0) score += term(P_ROOK_SEVENTH, sign);
        }
      }
    }
    unchecked(ATT[o | type] = tAtt);
  }
  unchecked(ATT[o] = all);
  unchecked(ATT2[c] = two);
  return score;
}

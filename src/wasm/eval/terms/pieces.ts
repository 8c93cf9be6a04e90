/**
 * Knights, bishops, rooks and queens (mobility,
 * outposts (also by edge file and defence), minor behind a pawn, rooks on open files and on the 7th). Also fills the attack
 * maps and the king-zone hit counts that king safety and threats read afterwards.
 */
import { BISHOP_EMPTY, KNIGHT_ATT, PAWN_ATT, ROOK_EMPTY, bishopAttacks, rookAttacks } from '../../attacks';
import { Position } from '../../position';
import { BISHOP, KNIGHT, QUEEN, ROOK } from '../../types';
import {
  ATT, ATT2, CENTER, CLOSEDNESS, DARK_SQUARES, DIST, FILE_MASK, LONG_DIAGONALS, ZONE, ZONE_ATTACKERS, ZONE_ATTACKERS_BY, ZONE_HITS,
  popcnt64,
} from '../masks';
import {
  P_BEHIND_PAWN, P_BISHOP_DIAGONAL, P_BISHOP_RAMMED, P_KNIGHT_CLOSED, P_KNIGHT_FAR, P_MOB_BISHOP, P_MOB_KNIGHT, P_MOB_QUEEN,
  P_MOB_ROOK, P_OUTPOST, P_OUTPOST_SHAPE, P_QUEEN_PIN, P_ROOK_CLOSED, P_ROOK_OPEN, P_ROOK_SEVENTH, PACKED,
} from '../params';
import { PI_SPAN } from './pawns';
import { term, trace } from '../trace';

const MOB_OFFSET: StaticArray<i32> = [0, 0, P_MOB_KNIGHT, P_MOB_BISHOP, P_MOB_ROOK, P_MOB_QUEEN, 0, 0];

/**
 * Is the queen on sq one piece away from an enemy bishop or rook on its line (the piece moving
 * away would attack the queen: Ethereal's QueenRelativePin)?
 */
function queenPinned(pos: Position, sq: i32, occ: u64, them: i32): bool {
  const t8 = them << 3;
  const bb = pos.bb;
  // Only sliders on the queen's lines (empty board) can pin it: most positions stop here.
  const diag = unchecked(bb[t8 | BISHOP]) & unchecked(BISHOP_EMPTY[sq]);
  const line = unchecked(bb[t8 | ROOK]) & unchecked(ROOK_EMPTY[sq]);
  if (diag != 0) {
    const first = bishopAttacks(sq, occ);
    if ((bishopAttacks(sq, occ & ~first) & ~first & diag) != 0) return true;
  }
  if (line != 0) {
    const first = rookAttacks(sq, occ);
    if ((rookAttacks(sq, occ & ~first) & ~first & line) != 0) return true;
  }
  return false;
}

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
  const ownK = <i32>unchecked(pos.kingSq[c]);
  const enK = <i32>unchecked(pos.kingSq[them]);
  const allPawns = ownPawns | enPawns;
  // Own pawns with an enemy pawn right in front.
  const rammed = c == 0 ? ownPawns & (enPawns >> 8) : ownPawns & (enPawns << 8);
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
        unchecked(ZONE_ATTACKERS_BY[o | type]++);
        unchecked(ZONE_HITS[o | type] += popcnt64(a & zone));
      }
      const rr = c == 0 ? sq >> 3 : 7 - (sq >> 3);
      if (type == KNIGHT) {
        // Far from both kings, a knight does little (Ethereal's KnightInSiberia); closed
        // structures favour it.
        const d = min(<i32>unchecked(DIST[(sq << 6) | ownK]), <i32>unchecked(DIST[(sq << 6) | enK]));
        if (d >= 4) score += term(P_KNIGHT_FAR + d - 4, sign);
        score += term(P_KNIGHT_CLOSED + CLOSEDNESS, sign);
      } else if (type == BISHOP) {
        // Own pawns fixed on the bishop's colour block it.
        const n = popcnt64(rammed & (((DARK_SQUARES >> <u64>sq) & 1) != 0 ? DARK_SQUARES : ~DARK_SQUARES));
        if (n != 0) {
          score += unchecked(PACKED[P_BISHOP_RAMMED]) * n;
          trace(P_BISHOP_RAMMED, sign * n);
        }
        // On a long diagonal, seeing the centre past the pawns.
        if ((((LONG_DIAGONALS & ~CENTER) >> <u64>sq) & 1) != 0 && popcnt64(bishopAttacks(sq, allPawns) & CENTER) >= 2) score += term(P_BISHOP_DIAGONAL, sign);
      } else if (type == ROOK) {
        score += term(P_ROOK_CLOSED + CLOSEDNESS, sign);
      } else if (type == QUEEN && queenPinned(pos, sq, occ, them)) {
        score += term(P_QUEEN_PIN, sign);
      }
      if (type <= BISHOP) {
        // Outpost: in the enemy half, out of reach of enemy pawns, defended by an own pawn; and
        // beside that by piece, edge file and defence (Ethereal's KnightOutpost, BishopOutpost).
        if (rr >= 3 && rr <= 5 && ((enSpan >> <u64>sq) & 1) == 0) {
          const defended = (unchecked(PAWN_ATT[(them << 6) | sq]) & ownPawns) != 0 ? 1 : 0;
          if (defended != 0) score += term(P_OUTPOST + type - KNIGHT, sign);
          const edge = (sq & 7) == 0 || (sq & 7) == 7 ? 2 : 0;
          score += term(P_OUTPOST_SHAPE + ((type - KNIGHT) << 2) + edge + defended, sign);
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

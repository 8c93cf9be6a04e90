/**
 * Pawn shelter and storm on the king's file and its
 * neighbours (by rank, and by file and distance from the king), king on an open file (cached in the pawn hash entry), and the king
 * danger each side creates: attackers of the king zone by type, attacks on its squares, weak
 * squares, safe checks by piece type, the defender's pawns in the zone, the attacker's queen
 * (Ethereal's evaluateKings; the danger is made quadratic in evaluate.ts).
 */
import { KNIGHT_ATT, bishopAttacks, rookAttacks } from '../../attacks';
import { Position } from '../../position';
import { ATT, ATT2, FILE_MASK, ZONE, ZONE_ATTACKERS, ZONE_ATTACKERS_BY, ZONE_HITS, popcnt64 } from '../masks';
import {
  P_KING_DEFENDERS, P_KING_OPEN, P_KING_PAWN_DISTANCE, P_KING_SHELTER, P_KING_SHELTER_FILE, P_KING_STORM, P_KING_STORM_FILE, P_SAFETY_ATTACKERS, P_SAFETY_BASE, P_SAFETY_CHECKS, P_SAFETY_HITS,
  P_SAFETY_NO_QUEEN, P_SAFETY_PAWNS, P_SAFETY_WEAK, PACKED,
} from '../params';
import { NO_SHELTER, cachedShelter, storeShelter } from './pawns';
import { term, traceDanger } from '../trace';

/** Ranks at or in front of rank r from side c's point of view, at c * 8 + r. */
const AHEAD = new StaticArray<u64>(16);
function initAhead(): void {
  for (let c = 0; c < 2; c++) {
    for (let r = 0; r < 8; r++) {
      for (let rr = 0; rr < 8; rr++) {
        if (c == 0 ? rr >= r : rr <= r) AHEAD[c * 8 + r] |= (<u64>0xff) << <u64>(rr << 3);
      }
    }
  }
}
initAhead();

/** Shelter, storm and open file for side c's own king (packed), cached in the pawn hash. */
// @ts-ignore: decorator (inlined for its constant side: evaluate.ts, linearTerms)
@inline export function kingShelter(pos: Position, c: i32): i32 {
  const ksq = <i32>unchecked(pos.kingSq[c]);
  const cached = cachedShelter(c, ksq);
  if (cached != NO_SHELTER) return cached;
  const score = computeShelter(pos, c, ksq);
  storeShelter(c, ksq, score);
  return score;
}

function computeShelter(pos: Position, c: i32, ksq: i32): i32 {
  const sign = c == 0 ? 1 : -1;
  let score = 0;
  const bb = pos.bb;
  const kr = ksq >> 3;
  const ahead = unchecked(AHEAD[c * 8 + kr]);
  const ownAll = unchecked(bb[(c << 3) | 1]);
  const own = ownAll & ahead;
  const en = unchecked(bb[((c ^ 1) << 3) | 1]) & ahead;
  const kf = ksq & 7;
  const krRel = c == 0 ? kr : 7 - kr;
  let center = kf;
  if (center < 1) center = 1;
  else if (center > 6) center = 6;
  for (let f = center - 1; f <= center + 1; f++) {
    const fm = unchecked(FILE_MASK[f]);
    // The own pawn nearest the king on this file, and the enemy pawn nearest it.
    const sh = nearest(c, own & fm);
    const st = nearest(c, en & fm);
    score += term(P_KING_SHELTER + sh, sign) + term(P_KING_STORM + st, sign);
    // The same by file and by ranks from the king (7: none), and a storming pawn blocked by
    // the shelter pawn right in front of it (Ethereal's KingShelter and KingStorm).
    const ourDist = sh == 0 ? 7 : sh - krRel;
    const theirDist = st == 0 ? 7 : st - krRel;
    const onFile = f == kf ? 1 : 0;
    const blocked = ourDist != 7 && ourDist == theirDist - 1 ? 1 : 0;
    const edge = f < 4 ? f : 7 - f;
    score += term(P_KING_SHELTER_FILE + ((onFile << 3) + f) * 8 + ourDist, sign)
      + term(P_KING_STORM_FILE + ((blocked << 2) + edge) * 8 + theirDist, sign);
  }
  if ((ownAll & unchecked(FILE_MASK[ksq & 7])) == 0) score += term(P_KING_OPEN, sign);
  return score;
}

/** Relative rank (1..7) of the square of b nearest side c's first rank, or 0 if empty. */
// @ts-ignore: decorator
@inline function nearest(c: i32, b: u64): i32 {
  if (b == 0) return 0;
  if (c == 0) return <i32>ctz(b) >> 3;
  return 7 - ((63 - <i32>clz(b)) >> 3);
}

/**
 * Side c's own king: its pawns, knights and bishops in the king zone (Ethereal's KingDefenders),
 * and in the endgame how far it is from the nearest file with a pawn (KingPawnFileProximity).
 */
// @ts-ignore: decorator (inlined for its constant side: evaluate.ts, linearTerms)
@inline export function kingDefense(pos: Position, c: i32): i32 {
  const o = c << 3;
  const bb = pos.bb;
  const sign = c == 0 ? 1 : -1;
  const zone = unchecked(ZONE[c]);
  const defenders = (unchecked(bb[o | 1]) | unchecked(bb[o | 2]) | unchecked(bb[o | 3])) & zone;
  const n = popcnt64(defenders);
  let score = term(P_KING_DEFENDERS + (n < 9 ? n : 9), sign);
  const pawns = unchecked(bb[1]) | unchecked(bb[9]);
  if (pawns != 0) {
    // The files holding a pawn, folded onto one rank.
    let files = pawns | (pawns >> 32);
    files |= files >> 16;
    files |= files >> 8;
    const f = <i32>unchecked(pos.kingSq[c]) & 7;
    let d = 0;
    for (; d < 7; d++) {
      if (f - d >= 0 && ((files >> <u64>(f - d)) & 1) != 0) break;
      if (f + d <= 7 && ((files >> <u64>(f + d)) & 1) != 0) break;
    }
    score += term(P_KING_PAWN_DISTANCE + d, sign);
  }
  return score;
}

/** Adds n of safety pair k to attacker c's danger (packed), traced. */
// @ts-ignore: decorator
@inline function danger(c: i32, k: i32, n: i32): i32 {
  if (n == 0) return 0;
  traceDanger(c, k, n);
  return unchecked(PACKED[k]) * n;
}

/**
 * The danger side c creates around the enemy king (packed mg/eg sums of the safety pairs), 0
 * unless two pieces attack the king zone, or one with a queen on the board: the evaluation
 * makes it quadratic (evaluate.ts). All attack maps must be set.
 */
// @ts-ignore: decorator (inlined for its constant side: evaluate.ts, linearTerms)
@inline export function kingDanger(pos: Position, c: i32): i32 {
  const them = c ^ 1;
  const o = c << 3;
  const t8 = them << 3;
  const bb = pos.bb;
  const attackers = unchecked(ZONE_ATTACKERS[c]);
  const queen = unchecked(bb[o | 5]) != 0;
  const needed = queen ? 1 : 2;
  if (attackers < needed) return 0;
  const zone = unchecked(ZONE[them]);
  let score = 0;
  for (let t = 2; t <= 5; t++) score += danger(c, P_SAFETY_ATTACKERS + t - 2, attackers * unchecked(ZONE_ATTACKERS_BY[o | t]));
  let hits = popcnt64(unchecked(ATT[o | 1]) & zone);
  for (let t = 2; t <= 5; t++) hits += unchecked(ZONE_HITS[o | t]);
  score += danger(c, P_SAFETY_HITS, hits);
  // Weak: attacked by us, not defended twice, and defended at most by the king or the queen.
  const weak = unchecked(ATT[o]) & ~unchecked(ATT2[them]) & (~unchecked(ATT[t8]) | unchecked(ATT[t8 | 5]) | unchecked(ATT[t8 | 6]));
  score += danger(c, P_SAFETY_WEAK, popcnt64(weak & zone));
  score += danger(c, P_SAFETY_PAWNS, popcnt64(unchecked(bb[t8 | 1]) & zone & ~weak));
  if (!queen) score += danger(c, P_SAFETY_NO_QUEEN, 1);
  score += danger(c, P_SAFETY_BASE, 1);

  // Safe squares for a checker: not one of ours, and not defended, or weak and attacked twice.
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const safe = ~unchecked(bb[o]) & (~unchecked(ATT[t8]) | (weak & unchecked(ATT2[c])));
  const ek = <i32>unchecked(pos.kingSq[them]);
  score += danger(c, P_SAFETY_CHECKS, popcnt64(unchecked(KNIGHT_ATT[ek]) & unchecked(ATT[o | 2]) & safe));
  // Checking lines from the king are traced only for the sliders that could use them.
  let bl: u64 = 0;
  let rl: u64 = 0;
  if (queen || unchecked(bb[o | 3]) != 0) {
    bl = bishopAttacks(ek, occ);
    score += danger(c, P_SAFETY_CHECKS + 1, popcnt64(bl & unchecked(ATT[o | 3]) & safe));
  }
  if (queen || unchecked(bb[o | 4]) != 0) {
    rl = rookAttacks(ek, occ);
    score += danger(c, P_SAFETY_CHECKS + 2, popcnt64(rl & unchecked(ATT[o | 4]) & safe));
  }
  if (queen) score += danger(c, P_SAFETY_CHECKS + 3, popcnt64((bl | rl) & unchecked(ATT[o | 5]) & safe));
  return score;
}

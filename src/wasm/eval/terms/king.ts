/**
 * Pawn shelter and storm on the king's file and its
 * neighbours (by rank), king on an open file (cached in the pawn hash entry), king-zone attack
 * with two or more attackers, safe checks by piece type, weak zone squares.
 */
import { KNIGHT_ATT, bishopAttacks, rookAttacks } from '../../attacks';
import { Position } from '../../position';
import { ATT, ATT2, FILE_MASK, ZONE, ZONE_ATTACKERS, ZONE_HITS, popcnt64 } from '../masks';
import {
  P_KING_ATTACK, P_KING_OPEN, P_KING_SHELTER, P_KING_STORM, P_KING_ZONE_WEAK, P_SAFE_CHECK, PACKED,
} from '../params';
import { NO_SHELTER, cachedShelter, storeShelter } from './pawns';
import { term, trace } from '../trace';

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
export function kingShelter(pos: Position, c: i32): i32 {
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
  let center = ksq & 7;
  if (center < 1) center = 1;
  else if (center > 6) center = 6;
  for (let f = center - 1; f <= center + 1; f++) {
    const fm = unchecked(FILE_MASK[f]);
    // The own pawn nearest the king on this file, and the enemy pawn nearest it.
    const sh = nearest(c, own & fm);
    const st = nearest(c, en & fm);
    score += term(P_KING_SHELTER + sh, sign) + term(P_KING_STORM + st, sign);
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

// @ts-ignore: decorator
@inline function safeChecks(k: i32, b: u64, sign: i32): i32 {
  if (b == 0) return 0;
  const n = popcnt64(b);
  trace(k, sign * n);
  return unchecked(PACKED[k]) * n;
}

/** Side c's attack on the enemy king (packed, from c's point of view). All attack maps must be set. */
export function kingAttack(pos: Position, c: i32): i32 {
  const them = c ^ 1;
  const o = c << 3;
  const t8 = them << 3;
  const sign = c == 0 ? 1 : -1;
  let score = 0;
  const zone = unchecked(ZONE[them]);
  const ph = unchecked(ATT[o | 1]) & zone;
  const pawnHits = ph == 0 ? 0 : popcnt64(ph);
  if (unchecked(ZONE_ATTACKERS[c]) + (pawnHits > 0 ? 1 : 0) >= 2) {
    unchecked(ZONE_HITS[o | 1] = pawnHits);
    for (let t = 1; t <= 5; t++) {
      const n = unchecked(ZONE_HITS[o | t]);
      if (n != 0) {
        score += unchecked(PACKED[P_KING_ATTACK + t - 1]) * n;
        trace(P_KING_ATTACK + t - 1, sign * n);
      }
    }
  }
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  // Safe squares for a checker: not defended, or defended once where we attack twice.
  const safe = ~unchecked(bb[o]) & (~unchecked(ATT[t8]) | (unchecked(ATT2[c]) & ~unchecked(ATT2[them]) & ~unchecked(ATT[t8 | 1])));
  const ek = <i32>unchecked(pos.kingSq[them]);
  score += safeChecks(P_SAFE_CHECK + 1, unchecked(KNIGHT_ATT[ek]) & unchecked(ATT[o | 2]) & safe, sign);
  // Checking lines from the king are traced only for the sliders that could use them.
  const queen = unchecked(bb[o | 5]) != 0;
  let bl: u64 = 0;
  let rl: u64 = 0;
  if (queen || unchecked(bb[o | 3]) != 0) {
    bl = bishopAttacks(ek, occ);
    score += safeChecks(P_SAFE_CHECK + 2, bl & unchecked(ATT[o | 3]) & safe, sign);
  }
  if (queen || unchecked(bb[o | 4]) != 0) {
    rl = rookAttacks(ek, occ);
    score += safeChecks(P_SAFE_CHECK + 3, rl & unchecked(ATT[o | 4]) & safe, sign);
  }
  if (queen) score += safeChecks(P_SAFE_CHECK + 4, (bl | rl) & unchecked(ATT[o | 5]) & safe, sign);
  // Zone squares we attack that only the king or queen defends.
  const minorDef = unchecked(ATT[t8 | 1]) | unchecked(ATT[t8 | 2]) | unchecked(ATT[t8 | 3]) | unchecked(ATT[t8 | 4]);
  const weak = unchecked(ATT[o]) & zone & ~minorDef;
  if (weak != 0) {
    const n = popcnt64(weak);
    score += unchecked(PACKED[P_KING_ZONE_WEAK]) * n;
    trace(P_KING_ZONE_WEAK, sign * n);
  }
  return score;
}

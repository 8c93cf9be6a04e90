/**
 * King safety, kept linear so every weight has a countable coefficient: the pawn shelter and
 * pawn storm on the king's file and its neighbours (by rank), a king on an open file, squares
 * of the king zone hit by attackers (counted only when two or more pieces join the attack, so a
 * lone piece near the king is not mistaken for an attack), safe checks by piece type, and
 * zone squares the defender guards only with king or queen.
 */
import {
  KNIGHT_HI as KNIGHT_HI_,
  KNIGHT_LO as KNIGHT_LO_,
  OUT as OUT_,
  bishopAttacks as bishopAttacks_,
  rookAttacks as rookAttacks_,
} from '../../../core/attacks.js';
import type { Position } from '../../../core/position.js';
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
  P_KING_ATTACK as P_KING_ATTACK_,
  P_KING_OPEN as P_KING_OPEN_,
  P_KING_SHELTER as P_KING_SHELTER_,
  P_KING_STORM as P_KING_STORM_,
  P_KING_ZONE_WEAK as P_KING_ZONE_WEAK_,
  P_SAFE_CHECK as P_SAFE_CHECK_,
  PACKED as PACKED_,
} from '../params.js';
import { NO_SHELTER as NO_SHELTER_, cachedShelter as cachedShelter_, storeShelter as storeShelter_ } from './pawns.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const OUT = OUT_;
const bishopAttacks = bishopAttacks_;
const rookAttacks = rookAttacks_;
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
const P_KING_ATTACK = P_KING_ATTACK_;
const P_KING_OPEN = P_KING_OPEN_;
const P_KING_SHELTER = P_KING_SHELTER_;
const P_KING_STORM = P_KING_STORM_;
const P_KING_ZONE_WEAK = P_KING_ZONE_WEAK_;
const P_SAFE_CHECK = P_SAFE_CHECK_;
const PACKED = PACKED_;
const NO_SHELTER = NO_SHELTER_;
const cachedShelter = cachedShelter_;
const storeShelter = storeShelter_;

/** Ranks at or in front of rank r from side c's point of view, at c * 8 + r (lo, hi). */
const AHEAD_LO = new Int32Array(16);
const AHEAD_HI = new Int32Array(16);
for (let c = 0; c < 2; c++) {
  for (let r = 0; r < 8; r++) {
    for (let rr = 0; rr < 8; rr++) {
      if (c === 0 ? rr >= r : rr <= r) {
        const bits = 0xff << ((rr & 3) << 3);
        if (rr < 4) AHEAD_LO[c * 8 + r]! |= bits;
        else AHEAD_HI[c * 8 + r]! |= bits;
      }
    }
  }
}

/** Shelter, storm and open file for side c's own king (packed), cached in the pawn hash. */
export function kingShelter(pos: Position, c: number, sign: number): number {
  const ksq = pos.kingSq[c]!;
  const cached = cachedShelter(c, ksq);
  if (cached !== NO_SHELTER) return cached;
  const score = computeShelter(pos, c, ksq, sign);
  storeShelter(c, ksq, score);
  return score;
}

function computeShelter(pos: Position, c: number, ksq: number, sign: number): number {
  const tr = TRACE.on ? TRACE.coef : null;
  let score = 0;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const kr = ksq >> 3;
  const aLo = AHEAD_LO[c * 8 + kr]!;
  const aHi = AHEAD_HI[c * 8 + kr]!;
  const ownLo = lo[(c << 3) | 1]! & aLo;
  const ownHi = hi[(c << 3) | 1]! & aHi;
  const enLo = lo[((c ^ 1) << 3) | 1]! & aLo;
  const enHi = hi[((c ^ 1) << 3) | 1]! & aHi;
  let center = ksq & 7;
  if (center < 1) center = 1;
  else if (center > 6) center = 6;
  for (let f = center - 1; f <= center + 1; f++) {
    const fm = FILE_MASK[f]!;
    // The own pawn nearest the king on this file, and the enemy pawn nearest it.
    const sh = nearest(c, ownLo & fm, ownHi & fm);
    const st = nearest(c, enLo & fm, enHi & fm);
    const ks = P_KING_SHELTER + sh;
    const kt = P_KING_STORM + st;
    score += PACKED[ks]! + PACKED[kt]!;
    if (tr) {
      tr[ks]! += sign;
      tr[kt]! += sign;
    }
  }
  const kf = FILE_MASK[ksq & 7]!;
  if (((lo[(c << 3) | 1]! | hi[(c << 3) | 1]!) & kf) === 0) {
    score += PACKED[P_KING_OPEN]!;
    if (tr) tr[P_KING_OPEN]! += sign;
  }
  return score;
}

/** Relative rank (1..7) of the square of (lo, hi) nearest side c's first rank, or 0 if empty. */
function nearest(c: number, lo: number, hi: number): number {
  if (c === 0) {
    if (lo !== 0) return (31 - Math.clz32(lo & -lo)) >> 3;
    if (hi !== 0) return (63 - Math.clz32(hi & -hi)) >> 3;
    return 0;
  }
  if (hi !== 0) return 7 - ((63 - Math.clz32(hi)) >> 3);
  if (lo !== 0) return 7 - ((31 - Math.clz32(lo)) >> 3);
  return 0;
}

function safeChecks(k: number, lo: number, hi: number, sign: number, tr: Float64Array | null): number {
  if ((lo | hi) === 0) return 0;
  const n = popcnt(lo, hi);
  if (tr) tr[k]! += sign * n;
  return PACKED[k]! * n;
}

/** Side c's attack on the enemy king (packed, from c's point of view). All attack maps must be set. */
export function kingAttack(pos: Position, c: number, sign: number): number {
  const them = c ^ 1;
  const o = c << 3;
  const t8 = them << 3;
  const tr = TRACE.on ? TRACE.coef : null;
  let score = 0;
  const zLo = ZONE_LO[them]!;
  const zHi = ZONE_HI[them]!;
  const phLo = ATT_LO[o | 1]! & zLo;
  const phHi = ATT_HI[o | 1]! & zHi;
  const pawnHits = (phLo | phHi) === 0 ? 0 : popcnt(phLo, phHi);
  if (ZONE_ATTACKERS[c]! + (pawnHits > 0 ? 1 : 0) >= 2) {
    ZONE_HITS[o | 1] = pawnHits;
    for (let t = 1; t <= 5; t++) {
      const n = ZONE_HITS[o | t]!;
      if (n !== 0) {
        score += PACKED[P_KING_ATTACK + t - 1]! * n;
        if (tr) tr[P_KING_ATTACK + t - 1]! += sign * n;
      }
    }
  }
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  // Safe squares for a checker: not defended, or defended once where we attack twice.
  const safeLo = ~lo[o]! & (~ATT_LO[t8]! | (ATT2_LO[c]! & ~ATT2_LO[them]! & ~ATT_LO[t8 | 1]!));
  const safeHi = ~hi[o]! & (~ATT_HI[t8]! | (ATT2_HI[c]! & ~ATT2_HI[them]! & ~ATT_HI[t8 | 1]!));
  const ek = pos.kingSq[them]!;
  score += safeChecks(P_SAFE_CHECK + 1, KNIGHT_LO[ek]! & ATT_LO[o | 2]! & safeLo, KNIGHT_HI[ek]! & ATT_HI[o | 2]! & safeHi, sign, tr);
  // Checking lines from the king are traced only for the sliders that could use them.
  const queen = (lo[o | 5]! | hi[o | 5]!) !== 0;
  let bLo = 0;
  let bHi = 0;
  let rLo = 0;
  let rHi = 0;
  if (queen || (lo[o | 3]! | hi[o | 3]!) !== 0) {
    bishopAttacks(ek, occLo, occHi);
    bLo = OUT[0]!;
    bHi = OUT[1]!;
    score += safeChecks(P_SAFE_CHECK + 2, bLo & ATT_LO[o | 3]! & safeLo, bHi & ATT_HI[o | 3]! & safeHi, sign, tr);
  }
  if (queen || (lo[o | 4]! | hi[o | 4]!) !== 0) {
    rookAttacks(ek, occLo, occHi);
    rLo = OUT[0]!;
    rHi = OUT[1]!;
    score += safeChecks(P_SAFE_CHECK + 3, rLo & ATT_LO[o | 4]! & safeLo, rHi & ATT_HI[o | 4]! & safeHi, sign, tr);
  }
  if (queen) score += safeChecks(P_SAFE_CHECK + 4, (bLo | rLo) & ATT_LO[o | 5]! & safeLo, (bHi | rHi) & ATT_HI[o | 5]! & safeHi, sign, tr);
  // Zone squares we attack that only the king or queen defends.
  const minorDefLo = ATT_LO[t8 | 1]! | ATT_LO[t8 | 2]! | ATT_LO[t8 | 3]! | ATT_LO[t8 | 4]!;
  const minorDefHi = ATT_HI[t8 | 1]! | ATT_HI[t8 | 2]! | ATT_HI[t8 | 3]! | ATT_HI[t8 | 4]!;
  const wLo = ATT_LO[o]! & zLo & ~minorDefLo;
  const wHi = ATT_HI[o]! & zHi & ~minorDefHi;
  if ((wLo | wHi) !== 0) {
    const weak = popcnt(wLo, wHi);
    score += PACKED[P_KING_ZONE_WEAK]! * weak;
    if (tr) tr[P_KING_ZONE_WEAK]! += sign * weak;
  }
  return score;
}

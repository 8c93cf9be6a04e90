/**
 * Pawn structure (doubled, isolated, backward, connected, passed by rank), cached in a pawn
 * hash: it depends only on the pawns, and the same pawn structure recurs in most of a search,
 * so the table answers well over 90% of lookups.
 *
 * The key is the pawn bitboards themselves (four int32), stored in the entry and compared in
 * full, so there are no false hits. An entry also keeps what later terms need: each side's
 * passed pawns and "attack span" (squares its pawns may ever attack), from which outposts are
 * found, and the king shelter last computed for each side with its king square (shelter
 * depends on the pawns and the king square only).
 */
import { PAWN_HI as PAWN_HI_, PAWN_LO as PAWN_LO_ } from '../../../core/attacks.js';
import type { Position } from '../../../core/position.js';
import {
  ADJ_FILES as ADJ_FILES_,
  BEHIND_ADJ_HI as BEHIND_ADJ_HI_,
  BEHIND_ADJ_LO as BEHIND_ADJ_LO_,
  FRONT_HI as FRONT_HI_,
  FRONT_LO as FRONT_LO_,
  PASSED_HI as PASSED_HI_,
  PASSED_LO as PASSED_LO_,
  SPAN_HI as SPAN_HI_,
  SPAN_LO as SPAN_LO_,
  TRACE as TRACE_,
} from '../masks.js';
import {
  P_BACKWARD as P_BACKWARD_,
  P_CONNECTED as P_CONNECTED_,
  P_DOUBLED as P_DOUBLED_,
  P_ISOLATED as P_ISOLATED_,
  P_PASSED as P_PASSED_,
  PACKED as PACKED_,
} from '../params.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const ADJ_FILES = ADJ_FILES_;
const BEHIND_ADJ_HI = BEHIND_ADJ_HI_;
const BEHIND_ADJ_LO = BEHIND_ADJ_LO_;
const FRONT_HI = FRONT_HI_;
const FRONT_LO = FRONT_LO_;
const PASSED_HI = PASSED_HI_;
const PASSED_LO = PASSED_LO_;
const SPAN_HI = SPAN_HI_;
const SPAN_LO = SPAN_LO_;
const TRACE = TRACE_;
const P_BACKWARD = P_BACKWARD_;
const P_CONNECTED = P_CONNECTED_;
const P_DOUBLED = P_DOUBLED_;
const P_ISOLATED = P_ISOLATED_;
const P_PASSED = P_PASSED_;
const PACKED = PACKED_;

const ENTRY = 24;
/** Entry words 14..17: king square + 1 (0: none yet) and shelter score, for White then Black. */
const E_SHELTER = 14;
const BITS = 14;
const TABLE = new Int32Array(ENTRY << BITS);
const MASK = (1 << BITS) - 1;

/** Results of the last `probePawns` (the entry's fields). */
export const PAWN_INFO = new Int32Array(9);
/** Index in PAWN_INFO: packed score (White minus Black). */
export const PI_SCORE = 0;
/** Passed pawns of White (lo, hi), then of Black. */
export const PI_PASSED = 1;
/** Attack spans of White (lo, hi), then of Black. */
export const PI_SPAN = 5;

/** Index of the entry of the last probe (-1 when tracing: nothing is cached). */
let lastEntry = -1;

export function clearPawnHash(): void {
  TABLE.fill(0);
}

/** The cached shelter score of side c for king square ksq, or NO_SHELTER. */
export const NO_SHELTER = 0x7fffffff;
export function cachedShelter(c: number, ksq: number): number {
  if (lastEntry < 0) return NO_SHELTER;
  const i = lastEntry + E_SHELTER + 2 * c;
  return TABLE[i] === ksq + 1 ? TABLE[i + 1]! : NO_SHELTER;
}

export function storeShelter(c: number, ksq: number, score: number): void {
  if (lastEntry < 0) return;
  const i = lastEntry + E_SHELTER + 2 * c;
  TABLE[i] = ksq + 1;
  TABLE[i + 1] = score;
}

/** Fills PAWN_INFO for the position's pawns, from the pawn hash when possible. */
export function probePawns(pos: Position): void {
  const wLo = pos.bbLo[1]!;
  const wHi = pos.bbHi[1]!;
  const bLo = pos.bbLo[9]!;
  const bHi = pos.bbHi[9]!;
  const tracing = TRACE.on;
  let h = Math.imul(wLo ^ Math.imul(wHi, 0x2545f491), 0x9e3779b1) ^ Math.imul(bLo ^ Math.imul(bHi, 0x6c8e9cf5), 0x85ebca6b);
  h ^= h >>> 15;
  const e = (h & MASK) * ENTRY;
  if (!tracing && TABLE[e + 13] === 1 && TABLE[e] === wLo && TABLE[e + 1] === wHi && TABLE[e + 2] === bLo && TABLE[e + 3] === bHi) {
    for (let i = 0; i < 9; i++) PAWN_INFO[i] = TABLE[e + 4 + i]!;
    lastEntry = e;
    return;
  }
  const score = evalPawnSide(pos, 0, 1) - evalPawnSide(pos, 1, -1);
  PAWN_INFO[PI_SCORE] = score;
  if (tracing) {
    lastEntry = -1;
    return;
  }
  lastEntry = e;
  TABLE[e + E_SHELTER] = 0;
  TABLE[e + E_SHELTER + 2] = 0;
  TABLE[e] = wLo;
  TABLE[e + 1] = wHi;
  TABLE[e + 2] = bLo;
  TABLE[e + 3] = bHi;
  for (let i = 0; i < 9; i++) TABLE[e + 4 + i] = PAWN_INFO[i]!;
  TABLE[e + 13] = 1;
}

/** Pawn terms of side c (packed, from c's point of view); also writes c's passed pawns and span. */
function evalPawnSide(pos: Position, c: number, sign: number): number {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const ownLo = lo[(c << 3) | 1]!;
  const ownHi = hi[(c << 3) | 1]!;
  const enLo = lo[((c ^ 1) << 3) | 1]!;
  const enHi = hi[((c ^ 1) << 3) | 1]!;
  // Squares attacked by enemy pawns (stop squares of backward pawns).
  let eaLo: number;
  let eaHi: number;
  if (c === 0) {
    // black pawns attack downwards
    const aLo = enLo & ~0x01010101;
    const aHi = enHi & ~0x01010101;
    const bLo2 = enLo & ~(0x80808080 | 0);
    const bHi2 = enHi & ~(0x80808080 | 0);
    eaLo = (aLo >>> 9) | (aHi << 23) | (bLo2 >>> 7) | (bHi2 << 25);
    eaHi = (aHi >>> 9) | (bHi2 >>> 7);
  } else {
    const aLo = enLo & ~0x01010101;
    const aHi = enHi & ~0x01010101;
    const bLo2 = enLo & ~(0x80808080 | 0);
    const bHi2 = enHi & ~(0x80808080 | 0);
    eaLo = (aLo << 7) | (bLo2 << 9);
    eaHi = (aHi << 7) | (aLo >>> 25) | (bHi2 << 9) | (bLo2 >>> 23);
  }
  const tr = TRACE.on ? TRACE.coef : null;
  let score = 0;
  let passedLo = 0;
  let passedHi = 0;
  let spanLo = 0;
  let spanHi = 0;
  const up = c === 0 ? 8 : -8;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? ownLo : ownHi;
    while (b !== 0) {
      const sq = (half << 5) + 31 - Math.clz32(b & -b);
      b &= b - 1;
      const i = (c << 6) | sq;
      const f = sq & 7;
      const rr = c === 0 ? sq >> 3 : 7 - (sq >> 3);
      spanLo |= SPAN_LO[i]!;
      spanHi |= SPAN_HI[i]!;

      const doubled = ((FRONT_LO[i]! & ownLo) | (FRONT_HI[i]! & ownHi)) !== 0;
      const open = ((FRONT_LO[i]! & enLo) | (FRONT_HI[i]! & enHi)) === 0 ? 1 : 0;
      if (doubled) {
        score += PACKED[P_DOUBLED]!;
        if (tr) tr[P_DOUBLED]! += sign;
      }
      const adj = ADJ_FILES[f]!;
      if (((adj & ownLo) | (adj & ownHi)) === 0) {
        score += PACKED[P_ISOLATED + open]!;
        if (tr) tr[P_ISOLATED + open]! += sign;
      } else if (((BEHIND_ADJ_LO[i]! & ownLo) | (BEHIND_ADJ_HI[i]! & ownHi)) === 0) {
        const stop = sq + up;
        if (((stop < 32 ? eaLo >>> stop : eaHi >>> (stop - 32)) & 1) !== 0) {
          score += PACKED[P_BACKWARD + open]!;
          if (tr) tr[P_BACKWARD + open]! += sign;
        }
      }
      // Connected: defended by a pawn, or a pawn beside it.
      const pd = ((c ^ 1) << 6) | sq;
      const supported = ((PAWN_LO[pd]! & ownLo) | (PAWN_HI[pd]! & ownHi)) !== 0;
      const phalanx = (f > 0 && pos.board[sq - 1] === ((c << 3) | 1)) || (f < 7 && pos.board[sq + 1] === ((c << 3) | 1));
      if (supported || phalanx) {
        score += PACKED[P_CONNECTED + rr]!;
        if (tr) tr[P_CONNECTED + rr]! += sign;
      }
      if (!doubled && ((PASSED_LO[i]! & enLo) | (PASSED_HI[i]! & enHi)) === 0) {
        score += PACKED[P_PASSED + rr]!;
        if (tr) tr[P_PASSED + rr]! += sign;
        if (sq < 32) passedLo |= 1 << sq;
        else passedHi |= 1 << (sq - 32);
      }
    }
  }
  PAWN_INFO[PI_PASSED + 2 * c] = passedLo;
  PAWN_INFO[PI_PASSED + 2 * c + 1] = passedHi;
  PAWN_INFO[PI_SPAN + 2 * c] = spanLo;
  PAWN_INFO[PI_SPAN + 2 * c + 1] = spanHi;
  return score;
}

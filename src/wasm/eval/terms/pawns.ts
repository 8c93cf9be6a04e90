/**
 * Pawn structure (doubled, isolated, backward, connected, passed by rank; beside those, the
 * shapes Ethereal gives them: isolated and stacked pawns by file, backward ones by rank,
 * connected ones by square), cached in a pawn hash keyed by the pawn bitboards themselves
 * (compared in full: no false hits), with the king shelter last computed for each side.
 *
 * 2^14 entries of 8 u64 (one 64-byte line):
 *   0 white pawns, 1 black pawns, 2/3 passed pawns W/B, 4/5 attack spans W/B,
 *   6 score (low 32 bits) | (white king sq + 1) << 32 | (black king sq + 1) << 40 | valid << 48,
 *   7 shelter score W (low 32) | shelter score B (high 32).
 * The results do not depend on the table's contents (full-key compare, shelter keyed by the
 * king square), so this is invisible to the evaluation.
 */
import { PAWN_ATT } from '../../attacks';
import { Position } from '../../position';
import { ADJ_FILES, BEHIND_ADJ, FILE_A, FILE_H, FILE_MASK, FRONT, PASSED, SPAN, popcnt64 } from '../masks';
import { P_BACKWARD, P_BACKWARD_RANK, P_CANDIDATE, P_CONNECTED, P_CONNECTED_SQUARE, P_DOUBLED, P_ISOLATED, P_ISOLATED_FILE, P_PASSED, P_STACKED_FILE, PACKED } from '../params';
import { term, tracing } from '../trace';

const ENTRY = 8;
const BITS = 14;
const MASK = (1 << BITS) - 1;
const TABLE = new StaticArray<u64>(ENTRY << BITS);
const VALID: u64 = (<u64>1) << 48;

/** Results of the last probePawns: packed score (White minus Black), passed pawns and attack
 *  spans by color . */
export let PI_SCORE: i32 = 0;
export const PI_PASSED = new StaticArray<u64>(2);
export const PI_SPAN = new StaticArray<u64>(2);

/** Index of the entry of the last probe. */
let lastEntry = -1;

export function clearPawnHash(): void {
  for (let i = 0; i < TABLE.length; i++) TABLE[i] = 0;
}

/** The cached shelter score of side c for king square ksq, or NO_SHELTER. */
export const NO_SHELTER: i32 = 0x7fffffff;
// @ts-ignore: decorator
@inline export function cachedShelter(c: i32, ksq: i32): i32 {
  if (lastEntry < 0) return NO_SHELTER;
  const w = unchecked(TABLE[lastEntry + 6]);
  if (<i32>((w >> <u64>(32 + 8 * c)) & 0xff) != ksq + 1) return NO_SHELTER;
  return <i32>(unchecked(TABLE[lastEntry + 7]) >> <u64>(32 * c));
}

// @ts-ignore: decorator
@inline export function storeShelter(c: i32, ksq: i32, score: i32): void {
  if (lastEntry < 0) return;
  const sh = <u64>(32 + 8 * c);
  const w = unchecked(TABLE[lastEntry + 6]);
  unchecked(TABLE[lastEntry + 6] = (w & ~((<u64>0xff) << sh)) | ((<u64>(ksq + 1)) << sh));
  const s = <u64>(32 * c);
  const v = unchecked(TABLE[lastEntry + 7]);
  unchecked(TABLE[lastEntry + 7] = (v & ~((<u64>0xffffffff) << s)) | ((<u64><u32>score) << s));
}

/** Fills PI_* for the position's pawns, from the pawn hash when possible. */
export function probePawns(pos: Position): void {
  const bb = pos.bb;
  const wp = unchecked(bb[1]);
  const bp = unchecked(bb[9]);
  const wLo = <i32>wp;
  const wHi = <i32>(wp >> 32);
  const bLo = <i32>bp;
  const bHi = <i32>(bp >> 32);
  let h = ((wLo ^ (wHi * 0x2545f491)) * <i32>0x9e3779b1) ^ ((bLo ^ (bHi * 0x6c8e9cf5)) * <i32>0x85ebca6b);
  h ^= h >>> 15;
  const e = (h & MASK) * ENTRY;
  const w6 = unchecked(TABLE[e + 6]);
  // A trace computes everything afresh (every term counted) and leaves the table alone.
  if (!tracing() && (w6 & VALID) != 0 && unchecked(TABLE[e]) == wp && unchecked(TABLE[e + 1]) == bp) {
    PI_SCORE = <i32>w6;
    unchecked(PI_PASSED[0] = TABLE[e + 2]);
    unchecked(PI_PASSED[1] = TABLE[e + 3]);
    unchecked(PI_SPAN[0] = TABLE[e + 4]);
    unchecked(PI_SPAN[1] = TABLE[e + 5]);
    lastEntry = e;
    return;
  }
  const score = evalPawnSide(pos, 0) - evalPawnSide(pos, 1);
  PI_SCORE = score;
  if (tracing()) {
    lastEntry = -1;
    return;
  }
  lastEntry = e;
  unchecked(TABLE[e] = wp);
  unchecked(TABLE[e + 1] = bp);
  unchecked(TABLE[e + 2] = PI_PASSED[0]);
  unchecked(TABLE[e + 3] = PI_PASSED[1]);
  unchecked(TABLE[e + 4] = PI_SPAN[0]);
  unchecked(TABLE[e + 5] = PI_SPAN[1]);
  // Shelter king squares reset to "none" (0).
  unchecked(TABLE[e + 6] = <u64><u32>score | VALID);
  unchecked(TABLE[e + 7] = 0);
}

/** Pawn terms of side c (packed, from c's point of view); also writes c's passed pawns and span. */
function evalPawnSide(pos: Position, c: i32): i32 {
  const bb = pos.bb;
  const board = pos.board;
  const own = unchecked(bb[(c << 3) | 1]);
  const en = unchecked(bb[((c ^ 1) << 3) | 1]);
  // Squares attacked by enemy pawns (stop squares of backward pawns).
  let ea: u64;
  if (c == 0) ea = ((en & ~FILE_A) >> 9) | ((en & ~FILE_H) >> 7);
  else ea = ((en & ~FILE_A) << 7) | ((en & ~FILE_H) << 9);
  const sign = c == 0 ? 1 : -1;
  let score = 0;
  let passed: u64 = 0;
  let span: u64 = 0;
  const up = c == 0 ? 8 : -8;
  const ownPawn = (c << 3) | 1;
  let b = own;
  while (b != 0) {
    const sq = <i32>ctz(b);
    b &= b - 1;
    const i = (c << 6) | sq;
    const f = sq & 7;
    const rr = c == 0 ? sq >> 3 : 7 - (sq >> 3);
    span |= unchecked(SPAN[i]);

    const front = unchecked(FRONT[i]);
    const doubled = (front & own) != 0;
    const open = (front & en) == 0 ? 1 : 0;
    if (doubled) score += term(P_DOUBLED, sign);
    const neighbours = unchecked(ADJ_FILES[f]) & own;
    const stoppers = unchecked(PASSED[i]) & en;
    if (neighbours == 0) {
      score += term(P_ISOLATED + open, sign) + term(P_ISOLATED_FILE + f, sign);
    } else if ((unchecked(BEHIND_ADJ[i]) & own) == 0) {
      const stop = sq + up;
      if (((ea >> <u64>stop) & 1) != 0) score += term(P_BACKWARD + open, sign) + term(P_BACKWARD_RANK + (open << 3) + rr, sign);
    }
    // Stacked: every pawn of a file with two or more, by whether it may unstack (it can be
    // traded or capture, or a stopper on a file beside lets it advance to be traded).
    if (popcnt64(unchecked(FILE_MASK[f]) & own) > 1) {
      const threats = en & unchecked(PAWN_ATT[(c << 6) | sq]);
      const unstack = (stoppers != 0 && (threats | neighbours) != 0) || (stoppers & ~front) != 0 ? 8 : 0;
      score += term(P_STACKED_FILE + unstack + f, sign);
    }
    // Connected: defended by a pawn, or a pawn beside it.
    const pd = ((c ^ 1) << 6) | sq;
    const supported = (unchecked(PAWN_ATT[pd]) & own) != 0;
    const phalanx = (f > 0 && <i32>unchecked(board[sq - 1]) == ownPawn) || (f < 7 && <i32>unchecked(board[sq + 1]) == ownPawn);
    if (supported || phalanx) score += term(P_CONNECTED + rr, sign) + term(P_CONNECTED_SQUARE + (rr << 2) + min(f, 7 - f), sign);
    if (!doubled && stoppers == 0) {
      score += term(P_PASSED + rr, sign);
      passed |= (<u64>1) << <u64>sq;
    } else if (!doubled && rr < 6) {
      // A candidate: every stopper is a pawn that attacks it or its stop square, and as many
      // own pawns support the advance as enemy pawns oppose it (Ethereal's PawnCandidatePasser).
      const stop = sq + up;
      const threats = en & unchecked(PAWN_ATT[(c << 6) | sq]);
      const pushThreats = en & unchecked(PAWN_ATT[(c << 6) | stop]);
      const pushSupport = own & unchecked(PAWN_ATT[((c ^ 1) << 6) | stop]);
      if ((stoppers & ~threats & ~pushThreats) == 0 && popcnt64(pushSupport) >= popcnt64(pushThreats)) {
        const support = own & unchecked(PAWN_ATT[pd]);
        score += term(P_CANDIDATE + (popcnt64(support) >= popcnt64(threats) ? 8 : 0) + rr, sign);
      }
    }
  }
  unchecked(PI_PASSED[c] = passed);
  unchecked(PI_SPAN[c] = span);
  return score;
}

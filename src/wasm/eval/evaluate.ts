/**
 * The static evaluation, tapered between middlegame and
 * endgame by material phase, in centipawns from the side to move's point of view.
 * Scores are packed (eg << 16) + mg in an i32; every sum wraps as i32 and unpackMg/unpackEg
 * read the halves back.
 */
import { KING_ATT } from '../attacks';
import { Position } from '../position';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK, WHITE } from '../types';
import { ATT, ATT2, FILE_A, FILE_H, ZONE, ZONE_ATTACKERS, ZONE_ATTACKERS_BY, ZONE_HITS, popcnt64, setClosedness } from './masks';
import { EVAL_LIMIT, P_BISHOP_PAIR, P_TEMPO, PACKED, PHASE_MAX, unpackEg, unpackMg } from './params';
export { EVAL_LIMIT, PHASE_MAX };
import { psqtFromScratch } from './psqt';
import { COUNT, NO_SPECIAL, SCALE_NORMAL, countMaterial, endgameScale, specialEndgame } from './terms/endgame';
import { kingDanger, kingDefense, kingShelter } from './terms/king';
import { complexity } from './terms/complexity';
import { evaluatePassed } from './terms/passed';
import { PI_SCORE, probePawns } from './terms/pawns';
import { evaluatePieces } from './terms/pieces';
import { evaluateSpace } from './terms/space';
import { evaluateThreats } from './terms/threats';
import { setTracing, trace } from './trace';


/** Game phase 0 (bare kings and pawns) .. 24 (all pieces) straight from the bitboards. */
export function materialPhase(pos: Position): i32 {
  const bb = pos.bb;
  const minors = popcnt64(unchecked(bb[KNIGHT]) | unchecked(bb[8 | KNIGHT]) | unchecked(bb[BISHOP]) | unchecked(bb[8 | BISHOP]));
  const rooks = popcnt64(unchecked(bb[ROOK]) | unchecked(bb[8 | ROOK]));
  const queens = popcnt64(unchecked(bb[QUEEN]) | unchecked(bb[8 | QUEEN]));
  const phase = minors + 2 * rooks + 4 * queens;
  return phase > PHASE_MAX ? PHASE_MAX : phase;
}

/** Game phase from COUNT (must be set). */
// @ts-ignore: decorator
@inline function phaseOf(): i32 {
  const p = unchecked(COUNT[KNIGHT]) + unchecked(COUNT[8 | KNIGHT]) + unchecked(COUNT[BISHOP]) + unchecked(COUNT[8 | BISHOP]) +
    2 * (unchecked(COUNT[ROOK]) + unchecked(COUNT[8 | ROOK])) + 4 * (unchecked(COUNT[QUEEN]) + unchecked(COUNT[8 | QUEEN]));
  return p > PHASE_MAX ? PHASE_MAX : p;
}

/** Sets pawn and king attacks and king zones of both sides; clears the zone counters. */
function initAttacks(pos: Position): void {
  const bb = pos.bb;
  // White pawns attack up-left (+7) and up-right (+9); black pawns down (-9, -7).
  const wp = unchecked(bb[PAWN]);
  const bp = unchecked(bb[8 | PAWN]);
  unchecked(ATT[PAWN] = ((wp & ~FILE_A) << 7) | ((wp & ~FILE_H) << 9));
  unchecked(ATT[8 | PAWN] = ((bp & ~FILE_A) >> 9) | ((bp & ~FILE_H) >> 7));
  for (let c = 0; c < 2; c++) {
    const o = c << 3;
    const k = <i32>unchecked(pos.kingSq[c]);
    const ka = unchecked(KING_ATT[k]);
    const pa = unchecked(ATT[o | PAWN]);
    unchecked(ATT[o | 6] = ka);
    unchecked(ATT[o] = ka | pa);
    unchecked(ATT2[c] = ka & pa);
    unchecked(ZONE[c] = ka | ((<u64>1) << <u64>k));
    unchecked(ZONE_ATTACKERS[c] = 0);
    for (let t = 1; t < 8; t++) {
      unchecked(ZONE_HITS[o | t] = 0);
      unchecked(ZONE_ATTACKERS_BY[o | t] = 0);
    }
  }
}

// The king danger each side creates (packed, before it is made quadratic), set by linearTerms.
let DANGER_W = 0;
let DANGER_B = 0;

/** Middlegame king danger: quadratic in the danger sum (Ethereal's evaluateKings). */
// @ts-ignore: decorator
@inline function dangerMg(k: i32): i32 {
  return k > 0 ? (k * k) / 720 : 0;
}

/** Endgame king danger: linear and small. */
// @ts-ignore: decorator
@inline function dangerEg(k: i32): i32 {
  return k > 0 ? k / 20 : 0;
}

/**
 * The endgame half moved by the position's complexity: toward zero when few pawns, one flank
 * and quiet kings make the advantage hard to convert, away from it when much is unbalanced;
 * never past zero (Ethereal's evaluateComplexity, Stockfish's initiative).
 */
// @ts-ignore: decorator
@inline function withComplexity(eg: i32, cx: i32): i32 {
  if (eg == 0) return 0;
  const a = eg < 0 ? -eg : eg;
  const d = cx > -a ? cx : -a;
  return eg > 0 ? eg + d : eg - d;
}

/** The middlegame and endgame halves of the full score from packed linear terms and the dangers. */
// @ts-ignore: decorator
@inline function fullMg(score: i32): i32 {
  return unpackMg(score) + dangerMg(unpackMg(DANGER_W)) - dangerMg(unpackMg(DANGER_B));
}
// @ts-ignore: decorator
@inline function fullEg(pos: Position, score: i32): i32 {
  const eg = unpackEg(score) + dangerEg(unpackEg(DANGER_W)) - dangerEg(unpackEg(DANGER_B));
  return withComplexity(eg, complexity(pos));
}

/**
 * How closed the pawn structure is, 0 (open) to 8 (closed): pawns count for it, pawns blocked
 * head to head three times as much, files without pawns against it (Ethereal's closedness).
 */
function closedness(pos: Position): i32 {
  const wp = unchecked(pos.bb[PAWN]);
  const bp = unchecked(pos.bb[8 | PAWN]);
  const rammed = wp & (bp >> 8);
  let files = wp | bp;
  files |= files >> 32;
  files |= files >> 16;
  files |= files >> 8;
  const open = 8 - popcnt64(files & 0xff);
  const v = (popcnt64(wp | bp) + 3 * popcnt64(rammed) - 4 * open) / 3;
  return v < 0 ? 0 : v > 8 ? 8 : v;
}

/**
 * Packed (mg, eg) sum of all linear terms except material/PST, from White's point of view.
 *
 * The side terms called here (king shelter, defence and danger, threats, space, passed pawns) are
 * @inline, so each call is compiled for its constant side and the `c == 0 ? .. : ..` choices
 * fold away: the evaluation alone went from 150 to 131 ns a position and `tabiya bench` took
 * 1 to 5% less processor time (npm run bench -- wasm-ab, best of 8 to 12, machine loaded).
 * evaluatePieces stays a call: inlined too, the evaluation was 5% slower (one function too
 * large for V8's register allocator), and so were specialised loops per piece type.
 */
function linearTerms(pos: Position): i32 {
  probePawns(pos);
  let score = PI_SCORE;
  initAttacks(pos);
  setClosedness(closedness(pos));
  score += evaluatePieces(pos, 0) - evaluatePieces(pos, 1);
  score += kingDefense(pos, 0) - kingDefense(pos, 1);
  score += kingShelter(pos, 0) - kingShelter(pos, 1);
  DANGER_W = kingDanger(pos, 0);
  DANGER_B = kingDanger(pos, 1);
  score += evaluateThreats(pos, 0) - evaluateThreats(pos, 1);
  score += evaluateSpace(pos);
  score += evaluatePassed(pos, 0) - evaluatePassed(pos, 1);
  const pair = (unchecked(COUNT[BISHOP]) >= 2 ? 1 : 0) - (unchecked(COUNT[8 | BISHOP]) >= 2 ? 1 : 0);
  if (pair != 0) {
    score += unchecked(PACKED[P_BISHOP_PAIR]) * pair;
    trace(P_BISHOP_PAIR, pair);
  }
  const tempo = pos.turn == WHITE ? 1 : -1;
  score += unchecked(PACKED[P_TEMPO]) * tempo;
  trace(P_TEMPO, tempo);
  return score;
}

/** Blends the packed linear score by phase and endgame scale (White's point of view). */
// @ts-ignore: decorator
@inline function blend(mg: i32, eg: i32, phase: i32, scale: i32): i32 {
  // One division, truncated toward zero (i32.div_s).
  const v = (mg * phase * 64 + eg * (PHASE_MAX - phase) * scale) / (PHASE_MAX * 64);
  return v > EVAL_LIMIT ? EVAL_LIMIT : v < -EVAL_LIMIT ? -EVAL_LIMIT : v;
}

/** Static evaluation in centipawns from the side to move's point of view. */
export function evaluate(pos: Position): i32 {
  return evaluateWith(pos, psqtFromScratch(pos));
}

/** The same, given the position's material + PST sum (kept incrementally with psqtDelta). */
export function evaluateWith(pos: Position, psqt: i32): i32 {
  countMaterial(pos);
  let v = specialEndgame(pos);
  if (v == NO_SPECIAL) {
    const score = psqt + linearTerms(pos);
    const eg = fullEg(pos, score);
    v = blend(fullMg(score), eg, phaseOf(), endgameScale(pos, eg));
  }
  return pos.turn == WHITE ? v : 0 - v;
}

/** A cheap estimate from material, PST and tempo only (side to move's view), for lazy cutoffs. */
export function lazyEval(pos: Position, psqt: i32): i32 {
  const phase = materialPhase(pos);
  const score = psqt + (pos.turn == WHITE ? unchecked(PACKED[P_TEMPO]) : -unchecked(PACKED[P_TEMPO]));
  const v = (unpackMg(score) * phase + unpackEg(score) * (PHASE_MAX - phase)) / PHASE_MAX;
  return pos.turn == WHITE ? v : 0 - v;
}

// The last trace (evaluateTrace): its phase, endgame scale, whether a special endgame rule
// decided the value (no linear model then), and the value (White's point of view).
export let tracePhase = 0;
export let traceScale = 0;
export let traceSpecial = false;

/**
 * The evaluation of `pos` with its trace (TRACE_COEF, trace.ts): returns the value from
 * White's point of view (the tuner's trace, src/tune/traceStore.ts). Leaves the pawn hash
 * as it was.
 */
export function evaluateTrace(pos: Position): i32 {
  setTracing(true);
  countMaterial(pos);
  const special = specialEndgame(pos);
  let v: i32;
  tracePhase = phaseOf();
  if (special != NO_SPECIAL) {
    traceSpecial = true;
    traceScale = SCALE_NORMAL;
    v = special;
  } else {
    traceSpecial = false;
    const score = psqtFromScratch(pos) + linearTerms(pos);
    const eg = fullEg(pos, score);
    traceScale = endgameScale(pos, eg);
    v = blend(fullMg(score), eg, tracePhase, traceScale);
  }
  setTracing(false);
  return v;
}

/**
 * The static evaluation: tapered between middlegame and endgame by material phase (knight and
 * bishop 1, rook 2, queen 4; 24 at the start), in centipawns from the side to move's point of
 * view. The terms live in terms/*.ts; all weights in params.ts.
 *
 * Order matters: pawn and king attacks are set first (mobility needs the enemy pawn attacks),
 * then each side's pieces fill the attack maps, and only then can king safety, threats and
 * passed pawns, which look at both sides' attacks, be scored.
 *
 *     import { evaluate } from 'tabiya/engine';  evaluate(pos)  // e.g. 23 at the start position
 */
import { KING_HI as KING_HI_, KING_LO as KING_LO_ } from '../../core/attacks.js';
import type { Position } from '../../core/position.js';
import {
  BISHOP as BISHOP_,
  KNIGHT as KNIGHT_,
  PAWN as PAWN_,
  QUEEN as QUEEN_,
  ROOK as ROOK_,
  WHITE as WHITE_,
} from '../../core/types.js';
import { EVAL_LIMIT as EVAL_LIMIT_ } from '../score.js';
import {
  ATT2_HI as ATT2_HI_,
  ATT2_LO as ATT2_LO_,
  ATT_HI as ATT_HI_,
  ATT_LO as ATT_LO_,
  FILE_A as FILE_A_,
  FILE_H as FILE_H_,
  TRACE as TRACE_,
  ZONE_ATTACKERS as ZONE_ATTACKERS_,
  ZONE_HI as ZONE_HI_,
  ZONE_HITS as ZONE_HITS_,
  ZONE_LO as ZONE_LO_,
  popcnt as popcnt_,
} from './masks.js';
import {
  NPAIRS as NPAIRS_,
  P_BISHOP_PAIR as P_BISHOP_PAIR_,
  P_TEMPO as P_TEMPO_,
  PACKED as PACKED_,
  unpackEg as unpackEg_,
  unpackMg as unpackMg_,
} from './params.js';
import { psqtFromScratch as psqtFromScratch_ } from './psqt.js';
import {
  COUNT as COUNT_,
  NO_SPECIAL as NO_SPECIAL_,
  SCALE_NORMAL as SCALE_NORMAL_,
  countMaterial as countMaterial_,
  endgameScale as endgameScale_,
  specialEndgame as specialEndgame_,
} from './terms/endgame.js';
import { kingAttack as kingAttack_, kingShelter as kingShelter_ } from './terms/king.js';
import { evaluatePassed as evaluatePassed_ } from './terms/passed.js';
import { PAWN_INFO as PAWN_INFO_, PI_SCORE as PI_SCORE_, probePawns as probePawns_ } from './terms/pawns.js';
import { evaluatePieces as evaluatePieces_ } from './terms/pieces.js';
import { evaluateThreats as evaluateThreats_ } from './terms/threats.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const KING_HI = KING_HI_;
const KING_LO = KING_LO_;
const BISHOP = BISHOP_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;
const WHITE = WHITE_;
const EVAL_LIMIT = EVAL_LIMIT_;
const ATT2_HI = ATT2_HI_;
const ATT2_LO = ATT2_LO_;
const ATT_HI = ATT_HI_;
const ATT_LO = ATT_LO_;
const FILE_A = FILE_A_;
const FILE_H = FILE_H_;
const TRACE = TRACE_;
const ZONE_ATTACKERS = ZONE_ATTACKERS_;
const ZONE_HI = ZONE_HI_;
const ZONE_HITS = ZONE_HITS_;
const ZONE_LO = ZONE_LO_;
const popcnt = popcnt_;
const NPAIRS = NPAIRS_;
const P_BISHOP_PAIR = P_BISHOP_PAIR_;
const P_TEMPO = P_TEMPO_;
const PACKED = PACKED_;
const unpackEg = unpackEg_;
const unpackMg = unpackMg_;
const psqtFromScratch = psqtFromScratch_;
const COUNT = COUNT_;
const NO_SPECIAL = NO_SPECIAL_;
const SCALE_NORMAL = SCALE_NORMAL_;
const countMaterial = countMaterial_;
const endgameScale = endgameScale_;
const specialEndgame = specialEndgame_;
const kingAttack = kingAttack_;
const kingShelter = kingShelter_;
const evaluatePassed = evaluatePassed_;
const PAWN_INFO = PAWN_INFO_;
const PI_SCORE = PI_SCORE_;
const probePawns = probePawns_;
const evaluatePieces = evaluatePieces_;
const evaluateThreats = evaluateThreats_;

export const PHASE_MAX = 24;

/**
 * Game phase 0 (bare kings and pawns) .. 24 (all pieces) straight from the bitboards, for callers
 * that have not counted the material (lazy evaluation, win/draw/loss chances).
 */
export function materialPhase(pos: Position): number {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const minors = popcnt(lo[KNIGHT]! | lo[8 | KNIGHT]! | lo[BISHOP]! | lo[8 | BISHOP]!, hi[KNIGHT]! | hi[8 | KNIGHT]! | hi[BISHOP]! | hi[8 | BISHOP]!);
  const rooks = popcnt(lo[ROOK]! | lo[8 | ROOK]!, hi[ROOK]! | hi[8 | ROOK]!);
  const queens = popcnt(lo[QUEEN]! | lo[8 | QUEEN]!, hi[QUEEN]! | hi[8 | QUEEN]!);
  const phase = minors + 2 * rooks + 4 * queens;
  return phase > PHASE_MAX ? PHASE_MAX : phase;
}

/** Game phase 0 (bare kings and pawns) .. 24 (all pieces). COUNT must be set. */
function phaseOf(): number {
  const p = COUNT[KNIGHT]! + COUNT[8 | KNIGHT]! + COUNT[BISHOP]! + COUNT[8 | BISHOP]! +
    2 * (COUNT[ROOK]! + COUNT[8 | ROOK]!) + 4 * (COUNT[QUEEN]! + COUNT[8 | QUEEN]!);
  return p > PHASE_MAX ? PHASE_MAX : p;
}

/** Sets pawn and king attacks and king zones of both sides; clears the zone counters. */
function initAttacks(pos: Position): void {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  // White pawns attack up-left (+7) and up-right (+9); black pawns down (-9, -7).
  let l = lo[PAWN]! & ~FILE_A;
  let h = hi[PAWN]! & ~FILE_A;
  let l2 = lo[PAWN]! & ~FILE_H;
  let h2 = hi[PAWN]! & ~FILE_H;
  ATT_LO[PAWN] = (l << 7) | (l2 << 9);
  ATT_HI[PAWN] = (h << 7) | (l >>> 25) | (h2 << 9) | (l2 >>> 23);
  l = lo[8 | PAWN]! & ~FILE_A;
  h = hi[8 | PAWN]! & ~FILE_A;
  l2 = lo[8 | PAWN]! & ~FILE_H;
  h2 = hi[8 | PAWN]! & ~FILE_H;
  ATT_LO[8 | PAWN] = (l >>> 9) | (h << 23) | (l2 >>> 7) | (h2 << 25);
  ATT_HI[8 | PAWN] = (h >>> 9) | (h2 >>> 7);
  for (let c = 0; c < 2; c++) {
    const o = c << 3;
    const k = pos.kingSq[c]!;
    ATT_LO[o | 6] = KING_LO[k]!;
    ATT_HI[o | 6] = KING_HI[k]!;
    ATT_LO[o] = KING_LO[k]! | ATT_LO[o | PAWN]!;
    ATT_HI[o] = KING_HI[k]! | ATT_HI[o | PAWN]!;
    ATT2_LO[c] = KING_LO[k]! & ATT_LO[o | PAWN]!;
    ATT2_HI[c] = KING_HI[k]! & ATT_HI[o | PAWN]!;
    ZONE_LO[c] = KING_LO[k]! | (k < 32 ? 1 << k : 0);
    ZONE_HI[c] = KING_HI[k]! | (k >= 32 ? 1 << (k - 32) : 0);
    ZONE_ATTACKERS[c] = 0;
    for (let t = 1; t < 8; t++) ZONE_HITS[o | t] = 0;
  }
}

/** Packed (mg, eg) sum of all linear terms except material/PST, from White's point of view. */
function linearTerms(pos: Position): number {
  const tr = TRACE.on ? TRACE.coef : null;
  probePawns(pos);
  let score = PAWN_INFO[PI_SCORE]!;
  initAttacks(pos);
  score += evaluatePieces(pos, 0, 1) - evaluatePieces(pos, 1, -1);
  score += kingShelter(pos, 0, 1) - kingShelter(pos, 1, -1);
  score += kingAttack(pos, 0, 1) - kingAttack(pos, 1, -1);
  score += evaluateThreats(pos, 0, 1) - evaluateThreats(pos, 1, -1);
  score += evaluatePassed(pos, 0, 1) - evaluatePassed(pos, 1, -1);
  // Two bishops (COUNT is set by countMaterial): they cover both square colours.
  const pair = (COUNT[BISHOP]! >= 2 ? 1 : 0) - (COUNT[8 | BISHOP]! >= 2 ? 1 : 0);
  if (pair !== 0) {
    score += PACKED[P_BISHOP_PAIR]! * pair;
    if (tr) tr[P_BISHOP_PAIR]! += pair;
  }
  const tempo = pos.turn === WHITE ? 1 : -1;
  score += PACKED[P_TEMPO]! * tempo;
  if (tr) tr[P_TEMPO]! += tempo;
  return score;
}

/** Blends the packed linear score by phase and endgame scale (White's point of view). */
function blend(mg: number, eg: number, phase: number, scale: number): number {
  // One division, truncated toward zero, so that a mirrored position gets exactly the negated score.
  const v = ((mg * phase * 64 + eg * (PHASE_MAX - phase) * scale) / (PHASE_MAX * 64)) | 0;
  return v > EVAL_LIMIT ? EVAL_LIMIT : v < -EVAL_LIMIT ? -EVAL_LIMIT : v;
}

/** Static evaluation in centipawns from the side to move's point of view. */
export function evaluate(pos: Position): number {
  return evaluateWith(pos, psqtFromScratch(pos));
}

/**
 * The same, given the position's material + PST sum (`psqt`, kept incrementally by the search
 * with psqtDelta), which saves walking every piece.
 */
export function evaluateWith(pos: Position, psqt: number): number {
  countMaterial(pos);
  let v = specialEndgame(pos);
  if (v === NO_SPECIAL) {
    const score = psqt + linearTerms(pos);
    const eg = unpackEg(score);
    v = blend(unpackMg(score), eg, phaseOf(), endgameScale(pos, eg));
  }
  return pos.turn === WHITE ? v : 0 - v;
}

/**
 * A cheap estimate from material, PST and tempo only (side to move's view), for lazy cutoffs:
 * when even this estimate is far outside the search window, the rest of the evaluation
 * (typically within a few hundred centipawns) cannot bring it back.
 */
export function lazyEval(pos: Position, psqt: number): number {
  const phase = materialPhase(pos);
  const score = psqt + (pos.turn === WHITE ? PACKED[P_TEMPO]! : -PACKED[P_TEMPO]!);
  const v = ((unpackMg(score) * phase + unpackEg(score) * (PHASE_MAX - phase)) / PHASE_MAX) | 0;
  return pos.turn === WHITE ? v : 0 - v;
}

/** What a tuner needs to recompute the evaluation of one position from the weights. */
export interface EvalTrace {
  /** Coefficient of every weight pair (White's count minus Black's), length NPAIRS. */
  coef: Float64Array;
  /** 0..24: weight of the middlegame half. */
  phase: number;
  /** 0..64: endgame scale of the side the endgame half favours (64 = unchanged). */
  scale: number;
  /** A special endgame evaluator decided the score (not linear; skip in tuning). */
  special: boolean;
  /** The evaluation from White's point of view. */
  white: number;
}

/**
 * Evaluates with the trace on: white = (64·mg·phase + eg·(24 − phase)·scale) / (24·64),
 * truncated toward zero, where mg = Σ WEIGHTS[2i]·coef[i] and eg = Σ WEIGHTS[2i+1]·coef[i].
 */
export function evaluateTrace(pos: Position): EvalTrace {
  const coef = new Float64Array(NPAIRS);
  TRACE.coef = coef;
  TRACE.on = true;
  try {
    countMaterial(pos);
    const special = specialEndgame(pos);
    if (special !== NO_SPECIAL) return { coef, phase: phaseOf(), scale: SCALE_NORMAL, special: true, white: special };
    const score = psqtFromScratch(pos) + linearTerms(pos);
    const phase = phaseOf();
    const eg = unpackEg(score);
    const scale = endgameScale(pos, eg);
    return { coef, phase, scale, special: false, white: blend(unpackMg(score), eg, phase, scale) };
  } finally {
    TRACE.on = false;
  }
}

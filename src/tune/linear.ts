/**
 * The linearised evaluation and Texel's loss over a trace store.
 *
 *   mg = Σ w[2i]·c_i,  eg = Σ w[2i+1]·c_i       (c_i: the position's coefficients)
 *   e  = (64·mg·phase + eg·(24 − phase)·scale) / (24·64)      scale: scaleW if eg ≥ 0, else scaleB
 *   σ(e) = 1 / (1 + 10^(−K·e/400)),   loss = mean (r − σ(e))²,   r ∈ {0, ½, 1}
 *
 * which is the engine's evaluation without its final truncation to an integer (`exactEval`
 * keeps it, to prove the model equals `evaluate()`). The gradient treats the scale as constant:
 * it only changes where eg crosses zero, where the endgame half is zero anyway.
 *
 * Sums, not means, come back from the range functions, so that workers' partial results add up.
 */
import { EVAL_LIMIT } from '../engine/score.js';
import type { TraceStore } from './traceStore.js';

const PHASE_MAX = 24;
const SCALE_NORMAL = 64;
const LN10_400 = Math.LN10 / 400;

/** Evaluation of position i under weights w, White's view, unrounded. */
export function linearEval(s: TraceStore, w: Float64Array, i: number): number {
  const index = s.index;
  const coef = s.coef;
  let mg = 0;
  let eg = 0;
  for (let j = s.start[i]!, end = s.start[i + 1]!; j < end; j++) {
    const p = index[j]! << 1;
    const c = coef[j]!;
    mg += w[p]! * c;
    eg += w[p + 1]! * c;
  }
  const ph = s.phase[i]!;
  const scale = eg >= 0 ? s.scaleW[i]! : s.scaleB[i]!;
  return (mg * ph * SCALE_NORMAL + eg * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL);
}

/** The engine's integer arithmetic (truncation toward zero, evaluation limit) for integer weights. */
export function exactEval(s: TraceStore, w: Int32Array, i: number): number {
  let mg = 0;
  let eg = 0;
  for (let j = s.start[i]!, end = s.start[i + 1]!; j < end; j++) {
    const p = s.index[j]! << 1;
    mg += w[p]! * s.coef[j]!;
    eg += w[p + 1]! * s.coef[j]!;
  }
  const ph = s.phase[i]!;
  const scale = eg >= 0 ? s.scaleW[i]! : s.scaleB[i]!;
  const v = ((mg * ph * SCALE_NORMAL + eg * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL)) | 0;
  return v > EVAL_LIMIT ? EVAL_LIMIT : v < -EVAL_LIMIT ? -EVAL_LIMIT : v;
}

/** σ of an evaluation for scale K. */
export function sigmoid(e: number, K: number): number {
  return 1 / (1 + Math.exp(-K * LN10_400 * e));
}

/** Sum of squared errors of positions from..to−1. */
export function lossRange(s: TraceStore, w: Float64Array, K: number, from: number, to: number): number {
  const k = K * LN10_400;
  const index = s.index;
  const coef = s.coef;
  const start = s.start;
  let sum = 0;
  for (let i = from; i < to; i++) {
    let mg = 0;
    let eg = 0;
    for (let j = start[i]!, end = start[i + 1]!; j < end; j++) {
      const p = index[j]! << 1;
      const c = coef[j]!;
      mg += w[p]! * c;
      eg += w[p + 1]! * c;
    }
    const ph = s.phase[i]!;
    const scale = eg >= 0 ? s.scaleW[i]! : s.scaleB[i]!;
    const e = (mg * ph * SCALE_NORMAL + eg * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL);
    const d = s.result[i]! * 0.5 - 1 / (1 + Math.exp(-k * e));
    sum += d * d;
  }
  return sum;
}

/** Sum of squared errors of positions from..to−1, and its gradient added into `grad`. */
export function lossGradRange(s: TraceStore, w: Float64Array, K: number, from: number, to: number, grad: Float64Array): number {
  const k = K * LN10_400;
  const index = s.index;
  const coef = s.coef;
  const start = s.start;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const a = start[i]!;
    const b = start[i + 1]!;
    let mg = 0;
    let eg = 0;
    for (let j = a; j < b; j++) {
      const p = index[j]! << 1;
      const c = coef[j]!;
      mg += w[p]! * c;
      eg += w[p + 1]! * c;
    }
    const ph = s.phase[i]!;
    const scale = eg >= 0 ? s.scaleW[i]! : s.scaleB[i]!;
    const e = (mg * ph * SCALE_NORMAL + eg * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL);
    const sig = 1 / (1 + Math.exp(-k * e));
    const d = s.result[i]! * 0.5 - sig;
    sum += d * d;
    // d/de (r − σ)² = −2 (r − σ) σ (1 − σ) k
    const g = -2 * d * sig * (1 - sig) * k;
    const gm = (g * ph) / PHASE_MAX;
    const ge = (g * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL);
    for (let j = a; j < b; j++) {
      const p = index[j]! << 1;
      const c = coef[j]!;
      grad[p] += gm * c;
      grad[p + 1] += ge * c;
    }
  }
  return sum;
}

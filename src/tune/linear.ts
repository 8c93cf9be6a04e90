/**
 * The traced evaluation and Texel's loss over a trace store:
 *
 *   e = the evaluation of the position's sums under weights w (model.ts)
 *   σ(e) = 1 / (1 + 10^(−K·e/400)),   loss = mean (r − σ(e))²,   r ∈ {0, ½, 1}
 *
 * `linearEval` is the engine's evaluation without its truncations to integers, `exactEval` keeps
 * them (to prove the model equals `evaluate()`). The name is historical: the evaluation is
 * linear in the weights except for king danger and complexity (model.ts).
 *
 * Sums, not means, come back from the range functions, so that workers' partial results add up.
 */
import { SUM_VALUES, accumulate, evalOfSums, exactOfSums, scatter, sumGradients } from './model.js';
import type { TraceStore } from './traceStore.js';

const LN10_400 = Math.LN10 / 400;
// Scratch, reused by every call (the tuner is single-threaded per worker).
const S = new Float64Array(SUM_VALUES);
const dS = new Float64Array(SUM_VALUES);

function sumsOf(s: TraceStore, w: ArrayLike<number>, i: number): Float64Array {
  S.fill(0);
  accumulate(s.index, s.coef, s.start[i]!, s.start[i + 1]!, w, S);
  return S;
}

/** Evaluation of position i under weights w, White's view, unrounded. */
export function linearEval(s: TraceStore, w: Float64Array, i: number): number {
  return evalOfSums(sumsOf(s, w, i), s.phase[i]!, s.scaleW[i]!, s.scaleB[i]!);
}

/** The engine's integer arithmetic (truncation toward zero, evaluation limit) for integer weights. */
export function exactEval(s: TraceStore, w: Int32Array, i: number): number {
  return exactOfSums(sumsOf(s, w, i), s.phase[i]!, s.scaleW[i]!, s.scaleB[i]!);
}

/** σ of an evaluation for scale K. */
export function sigmoid(e: number, K: number): number {
  return 1 / (1 + Math.exp(-K * LN10_400 * e));
}

/** Sum of squared errors of positions from..to−1. */
export function lossRange(s: TraceStore, w: Float64Array, K: number, from: number, to: number): number {
  const k = K * LN10_400;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const e = evalOfSums(sumsOf(s, w, i), s.phase[i]!, s.scaleW[i]!, s.scaleB[i]!);
    const d = s.result[i]! * 0.5 - 1 / (1 + Math.exp(-k * e));
    sum += d * d;
  }
  return sum;
}

/** Sum of squared errors of positions from..to−1, and its gradient added into `grad`. */
export function lossGradRange(s: TraceStore, w: Float64Array, K: number, from: number, to: number, grad: Float64Array): number {
  const k = K * LN10_400;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const a = s.start[i]!;
    const b = s.start[i + 1]!;
    S.fill(0);
    accumulate(s.index, s.coef, a, b, w, S);
    const ph = s.phase[i]!;
    const e = evalOfSums(S, ph, s.scaleW[i]!, s.scaleB[i]!);
    const sig = 1 / (1 + Math.exp(-k * e));
    const d = s.result[i]! * 0.5 - sig;
    sum += d * d;
    // d/de (r − σ)² = −2 (r − σ) σ (1 − σ) k
    sumGradients(S, ph, s.scaleW[i]!, s.scaleB[i]!, -2 * d * sig * (1 - sig) * k, dS);
    scatter(s.index, s.coef, a, b, dS, grad);
  }
  return sum;
}

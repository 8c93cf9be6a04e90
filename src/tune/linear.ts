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
 * The loss and its gradient are the tuner's hot loop (every position, every epoch), so they
 * keep the eight sums in local variables and spell model.ts's function out here instead of
 * calling it: with a scratch array and calls per position the fit ran 40% slower (`npm run
 * bench -- tune`). The linear entries of a row come first, so their loop has no test.
 *
 * Sums, not means, come back from the range functions, so that workers' partial results add up.
 */
import { NPAIRS } from '../engine/evalParams.js';
import { PHASE_MAX, SCALE_NORMAL, SUM_VALUES, accumulate, evalOfSums, exactOfSums } from './model.js';
import type { TraceStore } from './traceStore.js';

const LN10_400 = Math.LN10 / 400;
const N2 = 2 * NPAIRS;
const N3 = 3 * NPAIRS;
const Q = 1 / 720;
const L = 1 / 20;
const MG_DIV = 1 / PHASE_MAX;
const EG_DIV = 1 / (PHASE_MAX * SCALE_NORMAL);
// Scratch of the slow paths below (one position at a time).
const S = new Float64Array(SUM_VALUES);

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

/**
 * Sum of squared errors of positions from..to−1 for integer weights, each position evaluated with
 * the engine's integer arithmetic (`exactEval`): the loss of what the engine plays, which the
 * smooth `lossRange` misses by its truncations (about 1e-5 on real data). Reported losses of
 * finished weight sets use this; the optimisers need the smooth one.
 */
export function exactLossRange(s: TraceStore, w: ArrayLike<number>, K: number, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) {
    const d = s.target[i]! - sigmoid(exactOfSums(sumsOf(s, w, i), s.phase[i]!, s.scaleW[i]!, s.scaleB[i]!), K);
    sum += d * d;
  }
  return sum;
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
    let kwm = 0;
    let kwe = 0;
    let kbm = 0;
    let kbe = 0;
    let cx = 0;
    let j = start[i]!;
    const b = start[i + 1]!;
    for (; j < b; j++) {
      const e = index[j]!;
      if (e >= NPAIRS) break;
      const p = e << 1;
      const c = coef[j]!;
      mg += w[p]! * c;
      eg += w[p + 1]! * c;
    }
    for (; j < b; j++) {
      const e = index[j]!;
      const c = coef[j]!;
      if (e < N2) {
        const p = (e - NPAIRS) << 1;
        kwm += w[p]! * c;
        kwe += w[p + 1]! * c;
      } else if (e < N3) {
        const p = (e - N2) << 1;
        kbm += w[p]! * c;
        kbe += w[p + 1]! * c;
      } else cx += w[((e - N3) << 1) + 1]! * c;
    }
    // model.ts evalOfSums, spelled out.
    if (kwm > 0) mg += kwm * kwm * Q;
    if (kbm > 0) mg -= kbm * kbm * Q;
    if (kwe > 0) eg += kwe * L;
    if (kbe > 0) eg -= kbe * L;
    if (eg > 0) eg += cx > -eg ? cx : -eg;
    else if (eg < 0) eg -= cx > eg ? cx : eg;
    const ph = s.phase[i]!;
    const e = mg * ph * MG_DIV + eg * (PHASE_MAX - ph) * (eg >= 0 ? s.scaleW[i]! : s.scaleB[i]!) * EG_DIV;
    const d = s.target[i]! - 1 / (1 + Math.exp(-k * e));
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
    let mg = 0;
    let eg = 0;
    let kwm = 0;
    let kwe = 0;
    let kbm = 0;
    let kbe = 0;
    let cx = 0;
    const a = start[i]!;
    const b = start[i + 1]!;
    let j = a;
    for (; j < b; j++) {
      const e = index[j]!;
      if (e >= NPAIRS) break;
      const p = e << 1;
      const c = coef[j]!;
      mg += w[p]! * c;
      eg += w[p + 1]! * c;
    }
    const split = j;
    for (; j < b; j++) {
      const e = index[j]!;
      const c = coef[j]!;
      if (e < N2) {
        const p = (e - NPAIRS) << 1;
        kwm += w[p]! * c;
        kwe += w[p + 1]! * c;
      } else if (e < N3) {
        const p = (e - N2) << 1;
        kbm += w[p]! * c;
        kbe += w[p + 1]! * c;
      } else cx += w[((e - N3) << 1) + 1]! * c;
    }
    // model.ts evalOfSums and sumGradients, spelled out.
    if (kwm > 0) mg += kwm * kwm * Q;
    if (kbm > 0) mg -= kbm * kbm * Q;
    let eg1 = eg;
    if (kwe > 0) eg1 += kwe * L;
    if (kbe > 0) eg1 -= kbe * L;
    // d eg'' / d eg' (1 where complexity leaves the sign alone) and d eg'' / d cx.
    let egF = 0;
    let dEg = 0;
    let dCx = 0;
    if (eg1 > 0) {
      if (cx > -eg1) {
        egF = eg1 + cx;
        dEg = 1;
        dCx = 1;
      }
    } else if (eg1 < 0) {
      if (cx > eg1) {
        egF = eg1 - cx;
        dEg = 1;
        dCx = -1;
      }
    }
    const ph = s.phase[i]!;
    const scale = egF >= 0 ? s.scaleW[i]! : s.scaleB[i]!;
    const e = mg * ph * MG_DIV + egF * (PHASE_MAX - ph) * scale * EG_DIV;
    const sig = 1 / (1 + Math.exp(-k * e));
    const d = s.target[i]! - sig;
    sum += d * d;
    // d/de (r − σ)² = −2 (r − σ) σ (1 − σ) k
    const g = -2 * d * sig * (1 - sig) * k;
    const gm = g * ph * MG_DIV;
    const ge = g * (PHASE_MAX - ph) * scale * EG_DIV * dEg;
    for (j = a; j < split; j++) {
      const p = index[j]! << 1;
      const c = coef[j]!;
      grad[p] += gm * c;
      grad[p + 1] += ge * c;
    }
    if (split === b) continue;
    const gkwm = kwm > 0 ? gm * 2 * kwm * Q : 0;
    const gkwe = kwe > 0 ? ge * L : 0;
    const gkbm = kbm > 0 ? -gm * 2 * kbm * Q : 0;
    const gkbe = kbe > 0 ? -ge * L : 0;
    const gcx = g * (PHASE_MAX - ph) * scale * EG_DIV * dCx;
    for (j = split; j < b; j++) {
      const e = index[j]!;
      const c = coef[j]!;
      if (e < N2) {
        const p = (e - NPAIRS) << 1;
        grad[p] += gkwm * c;
        grad[p + 1] += gkwe * c;
      } else if (e < N3) {
        const p = (e - N2) << 1;
        grad[p] += gkbm * c;
        grad[p + 1] += gkbe * c;
      } else grad[((e - N3) << 1) + 1] += gcx * c;
    }
  }
  return sum;
}

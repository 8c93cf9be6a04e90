/**
 * The evaluation as a function of its weights, for the tuner: each position's trace gives the
 * coefficients of four sums (src/engine/evalParams.ts), and the evaluation is a fixed function
 * of those sums, its phase and its endgame scales:
 *
 *   sum 0  (mg, eg)    linear terms (White's count minus Black's)
 *   sum 1  (kWm, kWe)  king danger White creates
 *   sum 2  (kBm, kBe)  king danger Black creates
 *   sum 3  (·, cx)     complexity (endgame value only)
 *
 *   mg' = mg + q(kWm) − q(kBm)          q(k) = max(k, 0)² / 720
 *   eg' = eg + l(kWe) − l(kBe)          l(k) = max(k, 0) / 20
 *   eg'' = eg' + sign(eg') · max(cx, −|eg'|)
 *   e   = (64 · mg' · phase + eg'' · (24 − phase) · scale) / (24 · 64),  scale = scaleW if eg'' ≥ 0, else scaleB
 *
 * A trace entry's index is `sum · NPAIRS + pair`. `evalOfSums` is the engine's arithmetic
 * without its truncations (smooth enough to differentiate), `exactOfSums` the engine's integer
 * arithmetic, and `sumGradients` the derivative of e with respect to each of the eight sums.
 */
import { EVAL_LIMIT } from '../engine/score.js';
import { NPAIRS } from '../engine/evalParams.js';

export const PHASE_MAX = 24;
export const SCALE_NORMAL = 64;
/** Sums a trace holds coefficients for (src/wasm/eval/trace.ts TRACE_SUMS). */
export const TRACE_SUMS = 4;
/** Values per position: (mg, eg) of each sum. */
export const SUM_VALUES = 2 * TRACE_SUMS;

/**
 * Adds the sums of entries a..b−1 (index, coef) under weights w into out[0..7] (which the
 * caller zeroes). The linear entries come first in a row, so their loop is the common case.
 */
export function accumulate(index: Uint16Array, coef: Int16Array, a: number, b: number, w: ArrayLike<number>, out: Float64Array): void {
  let mg = 0;
  let eg = 0;
  let j = a;
  for (; j < b; j++) {
    const e = index[j]!;
    if (e >= NPAIRS) break;
    const p = e << 1;
    const c = coef[j]!;
    mg += w[p]! * c;
    eg += w[p + 1]! * c;
  }
  out[0] += mg;
  out[1] += eg;
  for (; j < b; j++) {
    const e = index[j]!;
    const sum = (e / NPAIRS) | 0;
    const p = (e - sum * NPAIRS) << 1;
    const c = coef[j]!;
    out[2 * sum] += w[p]! * c;
    out[2 * sum + 1] += w[p + 1]! * c;
  }
}

/** The endgame half after complexity: moved by cx, never past zero. */
export function withComplexity(eg: number, cx: number): number {
  if (eg === 0) return 0;
  const a = Math.abs(eg);
  const d = cx > -a ? cx : -a;
  return eg > 0 ? eg + d : eg - d;
}

/** The evaluation (White's view, unrounded) from the eight sums. */
export function evalOfSums(S: Float64Array, ph: number, scaleW: number, scaleB: number): number {
  const kw = S[2]!;
  const kb = S[4]!;
  const mg = S[0]! + (kw > 0 ? (kw * kw) / 720 : 0) - (kb > 0 ? (kb * kb) / 720 : 0);
  const eg = withComplexity(S[1]! + (S[3]! > 0 ? S[3]! / 20 : 0) - (S[5]! > 0 ? S[5]! / 20 : 0), S[7]!);
  const scale = eg >= 0 ? scaleW : scaleB;
  return (mg * ph * SCALE_NORMAL + eg * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL);
}

/** The engine's integer arithmetic from integer sums (truncations toward zero, evaluation limit). */
export function exactOfSums(S: Float64Array, ph: number, scaleW: number, scaleB: number): number {
  const kw = S[2]!;
  const kb = S[4]!;
  const mg = S[0]! + (kw > 0 ? Math.trunc((kw * kw) / 720) : 0) - (kb > 0 ? Math.trunc((kb * kb) / 720) : 0);
  const eg = withComplexity(S[1]! + (S[3]! > 0 ? Math.trunc(S[3]! / 20) : 0) - (S[5]! > 0 ? Math.trunc(S[5]! / 20) : 0), S[7]!);
  const scale = eg >= 0 ? scaleW : scaleB;
  // + 0 turns a truncated −0 into 0, as the engine's integers have no −0.
  const v = Math.trunc((mg * ph * SCALE_NORMAL + eg * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL)) + 0;
  return v > EVAL_LIMIT ? EVAL_LIMIT : v < -EVAL_LIMIT ? -EVAL_LIMIT : v;
}

/**
 * de/dS for each of the eight sums, times g, into out[0..7]. The scale is taken as constant
 * (it only changes where the endgame half crosses zero, where that half is zero anyway).
 */
export function sumGradients(S: Float64Array, ph: number, scaleW: number, scaleB: number, g: number, out: Float64Array): void {
  const kw = S[2]!;
  const kb = S[4]!;
  const eg1 = S[1]! + (S[3]! > 0 ? S[3]! / 20 : 0) - (S[5]! > 0 ? S[5]! / 20 : 0);
  const cx = S[7]!;
  const a = Math.abs(eg1);
  // d eg'' / d eg' and d eg'' / d cx.
  const open = eg1 !== 0 && cx > -a;
  const dEg = open ? 1 : 0;
  const dCx = open ? (eg1 > 0 ? 1 : -1) : 0;
  const eg = withComplexity(eg1, cx);
  const scale = eg >= 0 ? scaleW : scaleB;
  const gm = (g * ph) / PHASE_MAX;
  const ge = (g * (PHASE_MAX - ph) * scale) / (PHASE_MAX * SCALE_NORMAL);
  out[0] = gm;
  out[1] = ge * dEg;
  out[2] = kw > 0 ? (gm * 2 * kw) / 720 : 0;
  out[3] = S[3]! > 0 ? (ge * dEg) / 20 : 0;
  out[4] = kb > 0 ? (-gm * 2 * kb) / 720 : 0;
  out[5] = S[5]! > 0 ? (-ge * dEg) / 20 : 0;
  out[6] = 0;
  out[7] = ge * dCx;
}

/** Adds the gradient of entries a..b−1 given de/dS·g (from sumGradients) into grad. */
export function scatter(index: Uint16Array, coef: Int16Array, a: number, b: number, dS: Float64Array, grad: Float64Array): void {
  const gm = dS[0]!;
  const ge = dS[1]!;
  let j = a;
  for (; j < b; j++) {
    const e = index[j]!;
    if (e >= NPAIRS) break;
    const p = e << 1;
    const c = coef[j]!;
    grad[p] += gm * c;
    grad[p + 1] += ge * c;
  }
  for (; j < b; j++) {
    const e = index[j]!;
    const sum = (e / NPAIRS) | 0;
    const p = (e - sum * NPAIRS) << 1;
    const c = coef[j]!;
    grad[p] += dS[2 * sum]! * c;
    grad[p + 1] += dS[2 * sum + 1]! * c;
  }
}

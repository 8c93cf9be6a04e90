/**
 * Targets from another engine's evaluations. A game's result says little about one position of
 * it (a draw thrown away forty moves later labels every earlier position as lost); a stronger
 * engine's evaluation of the position itself says more, and the two can be blended, as NNUE
 * trainers blend search scores with game results (Stockfish's `lambda`, nnue-pytorch):
 *
 *     target = λ · σ(K_label · ce) + (1 − λ) · result / 2
 *
 * where ce is the labelling engine's evaluation (labels.ts) and K_label the scale that turns its
 * centipawns into an expected score. Engines' centipawns differ in size, so K_label is fitted to
 * the same positions' results first, as Texel's method fits K to the engine being tuned:
 * the σ of both is 1 / (1 + 10^(−K · e / 400)).
 */
import { NO_LABEL_EVAL, type TraceStore } from './traceStore.js';

const LN10_400 = Math.LN10 / 400;

/** Positions of `store` that carry a labelling evaluation. */
export function countLabelled(store: TraceStore): number {
  let n = 0;
  for (let i = 0; i < store.n; i++) if (store.labelEval[i] !== NO_LABEL_EVAL) n++;
  return n;
}

/** Mean squared error of σ(K · ce) against the results, over the labelled positions. */
export function labelLoss(store: TraceStore, K: number): number {
  const k = K * LN10_400;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < store.n; i++) {
    const e = store.labelEval[i]!;
    if (e === NO_LABEL_EVAL) continue;
    const d = store.result[i]! * 0.5 - 1 / (1 + Math.exp(-k * e));
    sum += d * d;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

/**
 * The K that makes the labelling evaluations best predict the results (golden-section search on
 * log K over 0.01 .. 100; the loss is unimodal in K for any data with some spread).
 */
export function fitLabelScale(store: TraceStore): { K: number; loss: number } {
  let lo = Math.log(0.01);
  let hi = Math.log(100);
  const g = (Math.sqrt(5) - 1) / 2;
  let a = hi - g * (hi - lo);
  let b = lo + g * (hi - lo);
  let fa = labelLoss(store, Math.exp(a));
  let fb = labelLoss(store, Math.exp(b));
  for (let it = 0; it < 60 && hi - lo > 1e-6; it++) {
    if (fa <= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = labelLoss(store, Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = labelLoss(store, Math.exp(b));
    }
  }
  const K = Math.exp((lo + hi) / 2);
  return { K, loss: labelLoss(store, K) };
}

/**
 * Rewrites the targets in place: λ · σ(K · ce) + (1 − λ) · result / 2 where the position has a
 * labelling evaluation, result / 2 where it has none. Returns how many were blended.
 */
export function blendTargets(store: TraceStore, lambda: number, K: number): number {
  if (!(lambda >= 0 && lambda <= 1)) throw new RangeError(`lambda ${lambda} is not within 0 .. 1`);
  const k = K * LN10_400;
  let n = 0;
  for (let i = 0; i < store.n; i++) {
    const r = store.result[i]! * 0.5;
    const e = store.labelEval[i]!;
    if (e === NO_LABEL_EVAL) {
      store.target[i] = r;
      continue;
    }
    store.target[i] = lambda * (1 / (1 + Math.exp(-k * e))) + (1 - lambda) * r;
    n++;
  }
  return n;
}

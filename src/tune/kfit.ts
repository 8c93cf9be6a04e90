/**
 * The sigmoid scale K: how many centipawns make how much expected score. It is fitted first,
 * with the weights fixed, so that the parameter fit afterwards changes the evaluation's shape
 * and not merely its scale (Texel's method). The loss is smooth and unimodal in K: a coarse
 * scan brackets the minimum, then golden-section search narrows it.
 */
import type { Objective } from './objective.js';

export interface KFit {
  K: number;
  loss: number;
  /** Loss evaluations used. */
  evaluations: number;
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;

export async function fitK(obj: Objective, w: Float64Array, opts: { lo?: number; hi?: number; tolerance?: number } = {}): Promise<KFit> {
  const lo0 = opts.lo ?? 0.05;
  const hi0 = opts.hi ?? 5;
  const tol = opts.tolerance ?? 1e-4;
  let evaluations = 0;
  const f = async (k: number): Promise<number> => {
    evaluations++;
    return obj.loss(w, k);
  };
  // Coarse scan: 21 points, then bracket the best one with its neighbours.
  const steps = 20;
  let best = 0;
  let bestLoss = Infinity;
  const xs: number[] = [];
  for (let i = 0; i <= steps; i++) {
    const k = lo0 + ((hi0 - lo0) * i) / steps;
    xs.push(k);
    const l = await f(k);
    if (l < bestLoss) {
      bestLoss = l;
      best = i;
    }
  }
  let a = xs[Math.max(0, best - 1)]!;
  let b = xs[Math.min(steps, best + 1)]!;
  let c = b - GOLDEN * (b - a);
  let d = a + GOLDEN * (b - a);
  let fc = await f(c);
  let fd = await f(d);
  while (b - a > tol) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - GOLDEN * (b - a);
      fc = await f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + GOLDEN * (b - a);
      fd = await f(d);
    }
  }
  const K = (a + b) / 2;
  const loss = await f(K);
  return loss <= bestLoss ? { K, loss, evaluations } : { K: xs[best]!, loss: bestLoss, evaluations };
}

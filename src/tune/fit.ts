/**
 * One fit from start to end: K first (weights fixed), then the chosen optimiser on the
 * training loss, with the validation loss taken after every epoch. With a validation set the
 * weights returned are those of the epoch with the lowest validation loss (early stopping:
 * past that point the fit learns the training positions, not chess); without one, the last.
 * Every loss in the curve and summary is of weights rounded to integers where it says so.
 */
import { createRng } from '../match/rng.js';
import { fitK } from './kfit.js';
import type { Objective } from './objective.js';
import { anneal } from './optim/anneal.js';
import type { FitContext, Method } from './optim/context.js';
import { genetic } from './optim/genetic.js';
import { adagrad, adam } from './optim/gradient.js';
import { localSearch } from './optim/local.js';
import { L2Penalty, PenalisedObjective } from './penalty.js';
import { rounded, type ParamSpace } from './space.js';

export interface CurvePoint {
  epoch: number;
  /** Seconds since the fit started. */
  seconds: number;
  train: number;
  validation?: number;
}

export interface FitOptions {
  method: Method;
  epochs: number;
  maxSeconds: number;
  seed: number;
  /** Use this K instead of fitting it. */
  K?: number;
  /** Step size (gradient methods), first step (local), largest move (anneal), mutation sigma (genetic). */
  rate?: number;
  /** L2 regularisation toward the start weights (λ per cp²; 0: none). */
  l2?: number;
  /** Stop when the validation loss has not improved for this many epochs (0: never). */
  patience?: number;
  onEpoch?: (p: CurvePoint) => void;
  /** Asked after every epoch: true ends the fit there, with the best weights so far (Ctrl-C). */
  stop?: () => boolean;
}

export interface FitResult {
  K: number;
  method: Method;
  epochs: number;
  seconds: number;
  start: { train: number; validation?: number };
  /** Losses of the returned weights rounded to integers (what the engine runs). */
  end: { train: number; validation?: number };
  bestEpoch: number;
  curve: CurvePoint[];
  weights: Float64Array;
}

export async function runFit(train: Objective, validation: Objective | null, space: ParamSpace, start: Float64Array, opts: FitOptions): Promise<FitResult> {
  const t0 = Date.now();
  const w = Float64Array.from(start);
  const K = opts.K ?? (await fitK(train, w)).K;
  const startTrain = await train.exactLoss(rounded(w), K);
  const startVal = validation ? await validation.exactLoss(rounded(w), K) : undefined;
  const curve: CurvePoint[] = [];
  let best = Float64Array.from(w);
  let bestVal = startVal ?? Infinity;
  let bestEpoch = 0;
  let epochs = 0;
  const penalty = opts.l2 ? new L2Penalty(Float64Array.from(start), opts.l2, space.free) : undefined;
  const ctx: FitContext = {
    obj: penalty ? new PenalisedObjective(train, penalty) : train,
    penalty,
    space,
    K,
    w,
    epochs: opts.epochs,
    deadline: t0 + opts.maxSeconds * 1000,
    rng: createRng(opts.seed),
    onEpoch: async (epoch, trainLoss, cur) => {
      epochs = Math.max(epochs, epoch);
      const p: CurvePoint = { epoch, seconds: (Date.now() - t0) / 1000, train: trainLoss };
      if (validation) {
        p.validation = await validation.loss(cur, K);
        if (p.validation < bestVal) {
          bestVal = p.validation;
          best = Float64Array.from(cur);
          bestEpoch = epoch;
        }
      }
      curve.push(p);
      opts.onEpoch?.(p);
      // A turn of the event loop each epoch: on one thread the objective answers without one, and
      // a Ctrl-C was seen only after the whole fit, once its output had been written.
      await new Promise((wake) => setImmediate(wake));
      if (validation && opts.patience && epoch - bestEpoch >= opts.patience) return false;
      return opts.stop?.() !== true;
    },
  };
  const rate = opts.rate;
  switch (opts.method) {
    case 'adam':
      await adam(ctx, { rate });
      break;
    case 'adagrad':
      await adagrad(ctx, { rate });
      break;
    case 'local':
      await localSearch(ctx, { step: rate });
      break;
    case 'anneal':
      await anneal(ctx, { maxStep: rate });
      break;
    case 'genetic':
      await genetic(ctx, { sigma: rate });
      break;
  }
  const weights = rounded(validation ? best : w);
  if (!validation) bestEpoch = epochs;
  const endTrain = await train.exactLoss(weights, K);
  const endVal = validation ? await validation.exactLoss(weights, K) : undefined;
  return {
    K,
    method: opts.method,
    epochs,
    seconds: (Date.now() - t0) / 1000,
    start: startVal === undefined ? { train: startTrain } : { train: startTrain, validation: startVal },
    end: endVal === undefined ? { train: endTrain } : { train: endTrain, validation: endVal },
    bestEpoch,
    curve,
    weights,
  };
}

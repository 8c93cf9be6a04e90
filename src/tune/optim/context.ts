/**
 * What every optimiser is given: the objective (training loss), the space, the fitted K, the
 * weights to improve in place, a budget (epochs and a deadline), a seeded generator, and a
 * callback after each epoch that reports the loss and may stop the run.
 *
 * An "epoch" is what a method does per pass over the data: one full-batch gradient step
 * (Adam, AdaGrad), one sweep over all tuned values (local search), as many single-value moves
 * as there are tuned values (annealing), one generation (genetic algorithm).
 */
import type { Rng } from '../../match/rng.js';
import type { Objective } from '../objective.js';
import type { L2Penalty } from '../penalty.js';
import type { ParamSpace } from '../space.js';

export interface FitContext {
  /** The training loss (with the penalty, if any, already added). */
  obj: Objective;
  /** The penalty on its own, for methods that score changes without `obj` (local, anneal). */
  penalty?: L2Penalty;
  space: ParamSpace;
  K: number;
  /** Start weights in, best weights found out. */
  w: Float64Array;
  epochs: number;
  /** Date.now() after which no new epoch starts. */
  deadline: number;
  rng: Rng;
  /** After each epoch: training loss of `w` as it stands. Return false to stop. */
  onEpoch: (epoch: number, trainLoss: number, w: Float64Array) => Promise<boolean | void> | boolean | void;
}

export type Method = 'adam' | 'adagrad' | 'local' | 'anneal' | 'genetic';
export const METHODS: readonly Method[] = ['adam', 'adagrad', 'local', 'anneal', 'genetic'];

/** A standard normal deviate (Box–Muller). */
export function gaussian(rng: Rng): number {
  let u = 0;
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

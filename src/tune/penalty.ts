/**
 * L2 regularisation toward the start weights: λ · Σ (w_i − w0_i)² over the tuned values, added
 * to the training loss. Human games give noisy labels; without a prior, weights of rare terms
 * (a queen with one safe square) run to their range limits, and correlated terms (material, the
 * piece-square tables, mobility) trade centipawns freely, moving the evaluation's scale away from
 * the one the search's margins were set for. The penalty makes every centipawn of change pay
 * for itself in fit. Validation loss is always reported without it.
 */
import type { Objective } from './objective.js';

export class L2Penalty {
  constructor(
    readonly w0: Float64Array,
    readonly lambda: number,
    readonly free: Int32Array,
  ) {}

  value(w: Float64Array): number {
    let s = 0;
    for (let k = 0; k < this.free.length; k++) {
      const i = this.free[k]!;
      const d = w[i]! - this.w0[i]!;
      s += d * d;
    }
    return this.lambda * s;
  }

  addGradient(w: Float64Array, grad: Float64Array): void {
    for (let k = 0; k < this.free.length; k++) {
      const i = this.free[k]!;
      grad[i] += 2 * this.lambda * (w[i]! - this.w0[i]!);
    }
  }

  /** Change of the penalty when value i (now wi) moves by delta. */
  change(i: number, wi: number, delta: number): number {
    const a = wi - this.w0[i]!;
    const b = a + delta;
    return this.lambda * (b * b - a * a);
  }
}

/** The training objective plus the penalty. */
export class PenalisedObjective implements Objective {
  constructor(
    private readonly inner: Objective,
    readonly penalty: L2Penalty,
  ) {}

  get n(): number {
    return this.inner.n;
  }

  get store(): Objective['store'] {
    return this.inner.store;
  }

  async loss(w: Float64Array, K: number): Promise<number> {
    return (await this.inner.loss(w, K)) + this.penalty.value(w);
  }

  async exactLoss(w: Float64Array, K: number): Promise<number> {
    return (await this.inner.exactLoss(w, K)) + this.penalty.value(w);
  }

  async lossGrad(w: Float64Array, K: number, grad: Float64Array): Promise<number> {
    const l = await this.inner.lossGrad(w, K, grad);
    this.penalty.addGradient(w, grad);
    return l + this.penalty.value(w);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * Texel's local search (seed 002's hill-climbing): for every tuned value in turn, try +step
 * and −step and keep a change that lowers the training loss. A sweep that keeps nothing
 * halves the step; the search ends after a sweep at step 1 that keeps nothing, or when the
 * budget runs out. Österlund used step 1 from the start; starting larger (default 4) gets to
 * the same kind of optimum in fewer sweeps.
 */
import { ColumnLoss } from './columns.js';
import type { FitContext } from './context.js';

export interface LocalOptions {
  /** First step in centipawns (halved down to 1). */
  step?: number;
}

export async function localSearch(ctx: FitContext, opts: LocalOptions = {}): Promise<void> {
  const { w, space } = ctx;
  // Values start on integers: the engine only ever runs integer weights.
  for (let k = 0; k < space.free.length; k++) w[space.free[k]!] = Math.round(w[space.free[k]!]!);
  space.clamp(w);
  const cols = new ColumnLoss(ctx.obj.store, w, ctx.K, ctx.penalty);
  let step = Math.max(1, Math.round(opts.step ?? 4));
  let epoch = 0;
  if ((await ctx.onEpoch(epoch, cols.loss, w)) === false) return;
  while (epoch < ctx.epochs && Date.now() < ctx.deadline) {
    let kept = 0;
    for (let k = 0; k < space.free.length; k++) {
      const i = space.free[k]!;
      if (cols.columnSize(i) === 0) continue;
      if ((k & 63) === 0 && Date.now() >= ctx.deadline) break;
      const base = cols.loss;
      for (const d of [step, -step]) {
        const v = w[i]! + d;
        if (v < space.lo[i]! || v > space.hi[i]!) continue;
        if (cols.trial(i, d) < base) {
          cols.commit();
          kept++;
          break;
        }
      }
    }
    cols.recompute();
    epoch++;
    if ((await ctx.onEpoch(epoch, cols.loss, w)) === false) return;
    if (kept === 0) {
      if (step === 1) return;
      step = step >> 1;
    }
  }
}

/**
 * Simulated annealing (seed 002): random single-value moves of ±1..±maxStep centipawns, a move
 * that raises the loss by Δ accepted with probability e^(−Δ/T), the temperature falling
 * geometrically from T0 to T0/1000 over the budget. T0 is calibrated on the data: the mean
 * rise of a sample of uphill moves, so that early on about a third of them are taken. The
 * best weights seen are what the run returns.
 */
import { ColumnLoss } from './columns.js';
import type { FitContext } from './context.js';

export interface AnnealOptions {
  /** Largest move in centipawns (default 4). */
  maxStep?: number;
}

export async function anneal(ctx: FitContext, opts: AnnealOptions = {}): Promise<void> {
  const { w, space, rng } = ctx;
  for (let k = 0; k < space.free.length; k++) w[space.free[k]!] = Math.round(w[space.free[k]!]!);
  space.clamp(w);
  const cols = new ColumnLoss(ctx.obj.store, w, ctx.K, ctx.penalty);
  const maxStep = Math.max(1, Math.round(opts.maxStep ?? 4));
  const movable = Array.from(space.free).filter((i) => cols.columnSize(i) > 0);
  if (movable.length === 0) {
    await ctx.onEpoch(0, cols.loss, w);
    return;
  }
  const pick = (): [number, number] => {
    const i = movable[rng.int(movable.length)]!;
    const d = (1 + rng.int(maxStep)) * (rng.next() < 0.5 ? -1 : 1);
    return [i, d];
  };
  // Calibrate T0 on uphill moves from the start.
  let rise = 0;
  let uphill = 0;
  for (let s = 0; s < 200; s++) {
    const [i, d] = pick();
    const delta = cols.trial(i, d) - cols.loss;
    if (delta > 0) {
      rise += delta;
      uphill++;
    }
  }
  const t0 = uphill > 0 ? rise / uphill : 1e-9;
  const movesPerEpoch = movable.length;
  const totalMoves = Math.max(1, ctx.epochs * movesPerEpoch);
  const started = Date.now();
  const budgetMs = Math.max(1, ctx.deadline - started);
  const best = Float64Array.from(w);
  let bestLoss = cols.loss;
  let moves = 0;
  let epoch = 0;
  if ((await ctx.onEpoch(epoch, cols.loss, w)) === false) return;
  while (epoch < ctx.epochs && Date.now() < ctx.deadline) {
    for (let m = 0; m < movesPerEpoch; m++) {
      // Progress through the schedule by moves or by time, whichever is further along.
      const frac = Math.min(1, Math.max(moves / totalMoves, (Date.now() - started) / budgetMs));
      const T = t0 * Math.pow(1e-3, frac);
      const [i, d] = pick();
      const v = w[i]! + d;
      moves++;
      if (v < space.lo[i]! || v > space.hi[i]!) continue;
      const delta = cols.trial(i, d) - cols.loss;
      if (delta <= 0 || rng.next() < Math.exp(-delta / T)) {
        cols.commit();
        if (cols.loss < bestLoss) {
          bestLoss = cols.loss;
          best.set(w);
        }
      }
    }
    cols.recompute();
    epoch++;
    if ((await ctx.onEpoch(epoch, cols.loss, w)) === false) break;
  }
  w.set(best);
}

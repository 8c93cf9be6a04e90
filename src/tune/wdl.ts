/**
 * Fitting the win/draw/loss model (src/engine/wdl.ts) to labelled positions by maximum
 * likelihood: each position's evaluation, phase and game result say how likely the model
 * makes what happened; Adam moves a0, a1, b0, b1 to make it likelier.
 *
 * The positions are first counted into cells of (evaluation in 5 cp steps, clamped to ±2000;
 * phase; result), so an iteration costs a pass over some ten thousand cells instead of half a
 * million positions, and the fit takes well under a second.
 */
import { wdlChances, wdlShape, type WdlModel } from '../engine/wdl.js';
import { linearEval } from './linear.js';
import type { TraceStore } from './traceStore.js';

const STEP = 5;
const CLAMP = 2000;
const BINS = (2 * CLAMP) / STEP + 1;

/** Counts by cell: evaluation from White's view (bin centre), phase, and White's losses, draws, wins. */
export interface WdlCells {
  eval: Float64Array;
  phase: Float64Array;
  counts: Float64Array;
  n: number;
  positions: number;
}

/**
 * Bins the traced positions by White's evaluation (the engine's at tracing time, or under
 * `weights`) and result; special endgames were never traced.
 */
export function wdlCells(store: TraceStore, weights?: Float64Array): WdlCells {
  const grid = new Float64Array(BINS * 25 * 3);
  let positions = 0;
  for (let i = 0; i < store.n; i++) {
    const e = Math.max(-CLAMP, Math.min(CLAMP, weights ? linearEval(store, weights, i) : store.white[i]!));
    const bin = Math.round((e + CLAMP) / STEP);
    grid[(bin * 25 + Math.min(24, store.phase[i]!)) * 3 + store.result[i]!]!++;
    positions++;
  }
  const ev: number[] = [];
  const ph: number[] = [];
  const counts: number[] = [];
  for (let bin = 0; bin < BINS; bin++) {
    for (let p = 0; p < 25; p++) {
      const k = (bin * 25 + p) * 3;
      if (grid[k]! + grid[k + 1]! + grid[k + 2]! === 0) continue;
      ev.push(bin * STEP - CLAMP);
      ph.push(p);
      counts.push(grid[k]!, grid[k + 1]!, grid[k + 2]!);
    }
  }
  return { eval: Float64Array.from(ev), phase: Float64Array.from(ph), counts: Float64Array.from(counts), n: ev.length, positions };
}

const TINY = 1e-12;

/** Mean negative log-likelihood per position of the cells under the model. */
export function wdlNll(model: WdlModel, cells: WdlCells): number {
  let nll = 0;
  for (let i = 0; i < cells.n; i++) {
    const [w, d, l] = wdlChances(model, cells.eval[i]!, cells.phase[i]!);
    const c = i * 3;
    nll -= cells.counts[c]! * Math.log(l + TINY) + cells.counts[c + 1]! * Math.log(d + TINY) + cells.counts[c + 2]! * Math.log(w + TINY);
  }
  return nll / cells.positions;
}

/** Gradient of the mean NLL with respect to a0, a1, b0, b1 (into g). */
function gradient(model: WdlModel, cells: WdlCells, g: Float64Array): void {
  g.fill(0);
  for (let i = 0; i < cells.n; i++) {
    const e = cells.eval[i]!;
    const t = cells.phase[i]! / 24;
    const { a, b } = wdlShape(model, cells.phase[i]!);
    const u = (e - a) / b;
    const v = (-e - a) / b;
    const W = 1 / (1 + Math.exp(-u));
    const L = 1 / (1 + Math.exp(-v));
    const D = Math.max(TINY, 1 - W - L);
    // dW/da, dW/db, dL/da, dL/db; dD = −dW − dL.
    const wa = (-W * (1 - W)) / b;
    const wb = (-W * (1 - W) * u) / b;
    const la = (-L * (1 - L)) / b;
    const lb = (-L * (1 - L) * v) / b;
    const c = i * 3;
    const cl = cells.counts[c]!;
    const cd = cells.counts[c + 1]!;
    const cw = cells.counts[c + 2]!;
    const ga = -(cw * wa / (W + TINY) + cl * la / (L + TINY) - cd * (wa + la) / D);
    const gb = -(cw * wb / (W + TINY) + cl * lb / (L + TINY) - cd * (wb + lb) / D);
    g[0]! += ga;
    g[1]! += ga * t;
    g[2]! += gb;
    g[3]! += gb * t;
  }
  for (let k = 0; k < 4; k++) g[k]! /= cells.positions;
}

export interface WdlFit {
  model: WdlModel;
  nll: number;
  /** The NLL of predicting every position with the overall W/D/L shares (no evaluation). */
  baseline: number;
  iterations: number;
}

/** Adam on the four numbers, from a neutral start, until the NLL stops improving. */
export function fitWdl(cells: WdlCells, maxIterations = 5000): WdlFit {
  const x = new Float64Array([100, 0, 100, 0]);
  const m = new Float64Array(4);
  const s = new Float64Array(4);
  const g = new Float64Array(4);
  const model = (): WdlModel => ({ a0: x[0]!, a1: x[1]!, b0: x[2]!, b1: x[3]! });
  const lr = 2;
  let best = Infinity;
  let since = 0;
  let it = 0;
  for (; it < maxIterations; it++) {
    gradient(model(), cells, g);
    for (let k = 0; k < 4; k++) {
      m[k] = 0.9 * m[k]! + 0.1 * g[k]!;
      s[k] = 0.999 * s[k]! + 0.001 * g[k]! * g[k]!;
      const mh = m[k]! / (1 - 0.9 ** (it + 1));
      const sh = s[k]! / (1 - 0.999 ** (it + 1));
      x[k]! -= (lr * mh) / (Math.sqrt(sh) + 1e-12);
    }
    if (it % 50 === 49) {
      const nll = wdlNll(model(), cells);
      if (nll < best - 1e-9) {
        best = nll;
        since = 0;
      } else if (++since >= 4) break;
    }
  }
  let wins = 0;
  let draws = 0;
  let losses = 0;
  for (let i = 0; i < cells.n; i++) {
    losses += cells.counts[i * 3]!;
    draws += cells.counts[i * 3 + 1]!;
    wins += cells.counts[i * 3 + 2]!;
  }
  const total = wins + draws + losses;
  // n·log(n/total), with 0·log 0 = 0: a result that never happens costs nothing.
  const term = (n: number): number => (n === 0 ? 0 : n * Math.log(n / total));
  const baseline = -(term(wins) + term(draws) + term(losses)) / total;
  return { model: model(), nll: wdlNll(model(), cells), baseline, iterations: it };
}

export interface CalibrationRow {
  /** Evaluation range [from, to) in centipawns, White's view. */
  from: number;
  to: number;
  positions: number;
  /** Observed and predicted shares of White's wins, draws and losses. */
  observed: [number, number, number];
  predicted: [number, number, number];
}

/** Observed against predicted W/D/L by evaluation range (all phases together). */
export function calibration(model: WdlModel, cells: WdlCells, edges: readonly number[]): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  for (let r = 0; r + 1 < edges.length; r++) {
    const from = edges[r]!;
    const to = edges[r + 1]!;
    const obs = [0, 0, 0];
    const pred = [0, 0, 0];
    let n = 0;
    for (let i = 0; i < cells.n; i++) {
      const e = cells.eval[i]!;
      if (e < from || e >= to) continue;
      const c = i * 3;
      const k = cells.counts[c]! + cells.counts[c + 1]! + cells.counts[c + 2]!;
      const [w, d, l] = wdlChances(model, e, cells.phase[i]!);
      obs[0] += cells.counts[c + 2]!;
      obs[1] += cells.counts[c + 1]!;
      obs[2] += cells.counts[c]!;
      pred[0] += k * w;
      pred[1] += k * d;
      pred[2] += k * l;
      n += k;
    }
    if (n === 0) continue;
    rows.push({ from, to, positions: n, observed: [obs[0]! / n, obs[1]! / n, obs[2]! / n], predicted: [pred[0]! / n, pred[1]! / n, pred[2]! / n] });
  }
  return rows;
}

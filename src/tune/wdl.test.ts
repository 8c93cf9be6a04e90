import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../match/rng.js';
import { wdlChances, type WdlModel } from '../engine/wdl.js';
import { TraceStore } from './traceStore.js';
import { calibration, fitWdl, wdlCells, wdlNll } from './wdl.js';

/** A store of positions with only what the WDL fit reads: evaluation, phase and a result drawn from `truth`. */
function sample(truth: WdlModel, n: number, seed: number): TraceStore {
  const r = createRng(seed);
  const rng = (): number => r.next();
  const white = new Int32Array(n);
  const phase = new Uint8Array(n);
  const result = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    white[i] = Math.round((rng() + rng() + rng() - 1.5) * 500);
    phase[i] = Math.floor(rng() * 25);
    const [w, d] = wdlChances(truth, white[i]!, phase[i]!);
    const u = rng();
    result[i] = u < w ? 2 : u < w + d ? 1 : 0;
  }
  return new TraceStore(n, new Int32Array(n + 1), new Uint16Array(0), new Int16Array(0), phase, new Uint8Array(n), new Uint8Array(n), result, white, new Int16Array(n), Float32Array.from(result, (r) => r / 2));
}

test('the fit recovers a known model from results drawn from it, and beats the blind baseline', () => {
  const truth: WdlModel = { a0: 150, a1: -20, b0: 70, b1: 110 };
  const cells = wdlCells(sample(truth, 200_000, 7));
  const fit = fitWdl(cells);
  const m = fit.model;
  assert.ok(Math.abs(m.a0 - truth.a0) < 8 && Math.abs(m.a1 - truth.a1) < 15 && Math.abs(m.b0 - truth.b0) < 8 && Math.abs(m.b1 - truth.b1) < 15, JSON.stringify(m));
  assert.ok(fit.nll <= wdlNll(truth, cells) + 1e-3, 'as likely as the truth');
  assert.ok(fit.nll < fit.baseline - 0.1);
  for (const r of calibration(m, cells, [-400, -100, 0, 100, 400])) {
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(r.observed[k]! - r.predicted[k]!) < 0.02, JSON.stringify(r));
  }
});

test('a result that never happens costs the baseline nothing (0·log 0 = 0), not NaN', () => {
  const store = sample({ a0: 150, a1: -20, b0: 70, b1: 110 }, 2000, 3);
  // Black never wins: every loss becomes a draw.
  for (let i = 0; i < store.n; i++) if (store.result[i] === 0) store.result[i] = 1;
  const fit = fitWdl(wdlCells(store));
  assert.ok(Number.isFinite(fit.baseline) && fit.baseline > 0, `baseline ${fit.baseline}`);
});

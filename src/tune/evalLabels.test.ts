import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WEIGHTS } from '../engine/evalParams.js';
import { blendTargets, countLabelled, fitLabelScale, labelLoss } from './evalLabels.js';
import { fitK } from './kfit.js';
import { LocalObjective } from './objective.js';
import { sharedStore } from './testData.js';
import { NO_LABEL_EVAL } from './traceStore.js';

// Real positions with the engine's own evaluation standing in as the labelling engine's: then
// the label scale fitted to the results must be the K that Texel's fit finds for the engine, and
// with the targets made of those evaluations alone the engine fits them exactly.
test('labelling evaluations: their scale is fitted as K is, and blended targets are what the loss fits', async () => {
  const store = sharedStore(3000);
  assert.equal(countLabelled(store), 0);
  for (let i = 0; i < store.n; i++) assert.equal(store.target[i], store.result[i]! / 2);
  const w = Float64Array.from(WEIGHTS);
  const obj = new LocalObjective(store);
  const engine = await fitK(obj, w);

  // The engine's own evaluation as ce on every position but the first hundred.
  for (let i = 100; i < store.n; i++) store.labelEval[i] = store.white[i]!;
  assert.equal(countLabelled(store), store.n - 100);
  const withAll = sharedStore(3000);
  for (let i = 0; i < withAll.n; i++) withAll.labelEval[i] = withAll.white[i]!;
  const label = fitLabelScale(withAll);
  // The tuner's model evaluates in real numbers where the engine truncates (a fraction of a
  // centipawn), and the loss is flat near its minimum: equal within 1%.
  assert.ok(Math.abs(label.K - engine.K) < 0.01 * engine.K, `label K ${label.K}, engine K ${engine.K}`);
  assert.ok(Math.abs(label.loss - engine.loss) < 1e-4, `${label.loss} vs ${engine.loss}`);
  assert.ok(labelLoss(withAll, label.K) < labelLoss(withAll, label.K * 1.1) && labelLoss(withAll, label.K) < labelLoss(withAll, label.K / 1.1));

  // λ = 0 keeps the results; λ = 1 makes the labelled targets σ(K·ce); ½ is halfway.
  assert.equal(blendTargets(store, 0, label.K), store.n - 100);
  for (let i = 0; i < store.n; i++) assert.equal(store.target[i], store.result[i]! / 2);
  blendTargets(store, 1, label.K);
  const sig = (e: number): number => 1 / (1 + Math.pow(10, (-label.K * e) / 400));
  for (const i of [0, 99, 100, 1234, store.n - 1]) {
    const expected = i < 100 ? store.result[i]! / 2 : sig(store.labelEval[i]!);
    assert.ok(Math.abs(store.target[i]! - expected) < 1e-6, `position ${i}: ${store.target[i]} vs ${expected}`);
  }
  // The engine's evaluation predicts its own evaluations exactly at K = the label scale: the
  // loss there is that of the hundred result-labelled positions alone.
  const own = await obj.loss(w, label.K);
  let resultsPart = 0;
  for (let i = 0; i < 100; i++) resultsPart += (store.result[i]! / 2 - sig(store.white[i]!)) ** 2;
  assert.ok(Math.abs(own - resultsPart / store.n) < 2e-5, `${own} vs ${resultsPart / store.n}`);
  assert.ok(own < engine.loss / 20);
  blendTargets(store, 0.5, label.K);
  for (const i of [100, 2000]) assert.ok(Math.abs(store.target[i]! - (0.5 * sig(store.labelEval[i]!) + 0.25 * store.result[i]!)) < 1e-6);
  store.labelEval[100] = NO_LABEL_EVAL;
  assert.equal(blendTargets(store, 0.5, label.K), store.n - 101);
  assert.equal(store.target[100], store.result[100]! / 2);
  assert.throws(() => blendTargets(store, 1.5, label.K), /lambda 1\.5/);
});

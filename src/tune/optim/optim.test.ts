import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WEIGHTS } from '../../engine/evalParams.js';
import { createRng } from '../../match/rng.js';
import { LocalObjective, PoolObjective } from '../objective.js';
import { L2Penalty, PenalisedObjective } from '../penalty.js';
import { ParamSpace } from '../space.js';
import { sharedStore } from '../testData.js';
import { anneal } from './anneal.js';
import { ColumnLoss } from './columns.js';
import type { FitContext } from './context.js';
import { genetic } from './genetic.js';
import { adagrad, adam } from './gradient.js';
import { localSearch } from './local.js';

const store = sharedStore(3000);
const K = 1.1;
const obj = new LocalObjective(store);

function context(groups: string[] | undefined, epochs: number): FitContext {
  return {
    obj,
    space: new ParamSpace(groups),
    K,
    w: Float64Array.from(WEIGHTS),
    epochs,
    deadline: Date.now() + 20_000,
    rng: createRng(7),
    onEpoch: () => true,
  };
}

const start = await obj.loss(Float64Array.from(WEIGHTS), K);

for (const [name, run, groups, epochs] of [
  ['adam', adam, undefined, 30],
  ['adagrad', adagrad, undefined, 30],
  ['local search', localSearch, ['material', 'mobility.knight', 'mobility.bishop', 'tempo'], 3],
  ['simulated annealing', anneal, ['material', 'mobility.knight', 'tempo'], 3],
  ['genetic algorithm', genetic, ['material', 'tempo'], 4],
] as const) {
  test(`${name} lowers the loss on real positions and respects the space`, async () => {
    const ctx = context(groups as string[] | undefined, epochs);
    await run(ctx);
    const end = await obj.loss(ctx.w, K);
    assert.ok(end < start - 1e-6, `${start} -> ${end}`);
    const free = ctx.space.freeMask();
    for (let i = 0; i < ctx.w.length; i++) {
      if (!free[i]) assert.equal(ctx.w[i], WEIGHTS[i], `value ${i} is not tuned and must not move`);
      else assert.ok(ctx.w[i]! >= ctx.space.lo[i]! && ctx.w[i]! <= ctx.space.hi[i]!);
    }
  });
}

test('seeded runs repeat exactly (annealing)', async () => {
  // No deadline: annealing's schedule follows the clock when that is further along than its
  // moves, and a pause of the machine must not change which moves are accepted.
  const a = { ...context(['material'], 2), deadline: Infinity };
  const b = { ...context(['material'], 2), deadline: Infinity };
  await anneal(a);
  await anneal(b);
  assert.deepEqual(a.w, b.w);
});

test('the column evaluator agrees with the full loss after a trial and a commit', async () => {
  const w = Float64Array.from(WEIGHTS);
  const cols = new ColumnLoss(store, w, K);
  assert.ok(Math.abs(cols.loss - start) < 1e-12);
  const i = 2 * 1 + 1; // knight material, eg
  const predicted = cols.trial(i, 7);
  assert.deepEqual(w, Float64Array.from(WEIGHTS), 'a trial changes nothing');
  cols.commit();
  assert.equal(w[i], WEIGHTS[i]! + 7);
  assert.ok(Math.abs(predicted - (await obj.loss(w, K))) < 1e-12);
});

test('worker threads give the loss and gradient of the calling thread', async () => {
  const pool = await PoolObjective.create(store, 2, 2 * (WEIGHTS.length / 2));
  try {
    const w = Float64Array.from(WEIGHTS);
    const g1 = new Float64Array(w.length);
    const g2 = new Float64Array(w.length);
    const l1 = await obj.lossGrad(w, K, g1);
    const l2 = await pool.lossGrad(w, K, g2);
    assert.ok(Math.abs(l1 - l2) < 1e-12);
    for (let i = 0; i < w.length; i++) assert.ok(Math.abs(g1[i]! - g2[i]!) < 1e-12, `gradient ${i}`);
    assert.ok(Math.abs((await pool.loss(w, K)) - l1) < 1e-12);
  } finally {
    await pool.close();
  }
});

test('the L2 penalty: its gradient, and the column evaluator scoring it like the objective', async () => {
  const space = new ParamSpace(['material', 'tempo']);
  const w0 = Float64Array.from(WEIGHTS);
  const penalty = new L2Penalty(w0, 1e-6, space.free);
  const pen = new PenalisedObjective(obj, penalty);
  const w = Float64Array.from(WEIGHTS);
  w[2] += 40; // knight mg
  const g = new Float64Array(w.length);
  await pen.lossGrad(w, K, g);
  const h = 0.01;
  w[2] += h;
  const up = await pen.loss(w, K);
  w[2] -= 2 * h;
  const down = await pen.loss(w, K);
  w[2] += h;
  assert.ok(Math.abs((up - down) / (2 * h) - g[2]!) < 1e-7);
  const cols = new ColumnLoss(store, Float64Array.from(w), K, penalty);
  assert.ok(Math.abs(cols.loss - (await pen.loss(w, K))) < 1e-12);
  const predicted = cols.trial(2, -40);
  cols.commit();
  assert.ok(Math.abs(predicted - (await pen.loss(w0, K))) < 1e-12);
  assert.equal(penalty.value(w0), 0);
  // With a strong penalty, local search stays closer to the start than without.
  const free = context(['material'], 2);
  const held = { ...context(['material'], 2), penalty: new L2Penalty(w0, 1e-5, new ParamSpace(['material']).free) };
  await localSearch(free);
  await localSearch(held);
  const dist = (x: Float64Array): number => x.reduce((s, v, i) => s + Math.abs(v - w0[i]!), 0);
  assert.ok(dist(held.w) < dist(free.w), `${dist(held.w)} vs ${dist(free.w)}`);
});

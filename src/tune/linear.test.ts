import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../core/position.js';
import { positionFromFen } from '../notation/fen.js';
import { NPAIRS, P_MATERIAL, P_MOB_KNIGHT, P_PASSED, P_PST, P_TEMPO, P_KING_SHELTER, WEIGHTS } from '../engine/evalParams.js';
import { exactEval, linearEval, lossGradRange, lossRange } from './linear.js';
import { parseLabeled } from './labels.js';
import { QuietResolver, RESOLVED } from './resolve.js';
import { sharedLines, sharedStore } from './testData.js';
import { TraceBuilder } from './traceStore.js';

test("the linearised evaluation equals the core's evaluate() on 3,000 real positions (resolved leaves)", () => {
  const lines = sharedLines(3000);
  const builder = new TraceBuilder();
  const resolver = new QuietResolver();
  const engine: number[] = [];
  for (const line of lines) {
    const lab = parseLabeled(line);
    assert.ok(lab.ok);
    const pos = new Position();
    assert.ok(positionFromFen(lab.value.fen, pos).ok);
    if (resolver.resolve(pos) !== RESOLVED) continue;
    const e = resolver.evaluate(pos);
    if (builder.add(pos, lab.value.result) !== 0) continue;
    engine.push(pos.turn === 0 ? e : 0 - e);
  }
  const store = builder.finish();
  assert.ok(store.n > 2900, `${store.n} positions traced`);
  const w = Float64Array.from(WEIGHTS);
  for (let i = 0; i < store.n; i++) {
    assert.equal(exactEval(store, WEIGHTS, i), engine[i], `position ${i}`);
    // The float model differs only by the final truncation.
    assert.ok(Math.abs(linearEval(store, w, i) - engine[i]!) < 1, `position ${i}`);
  }
});

test('gradient equals finite differences of the loss, mg and eg, across term kinds', () => {
  const store = sharedStore(2000);
  const w = Float64Array.from(WEIGHTS);
  const K = 1.1;
  const grad = new Float64Array(w.length);
  lossGradRange(store, w, K, 0, store.n, grad);
  // Pawn and knight material, a knight PST square, knight mobility, passed pawn, shelter, tempo.
  const pairs = [P_MATERIAL, P_MATERIAL + 1, P_PST + 64 + 18, P_MOB_KNIGHT + 4, P_PASSED + 4, P_KING_SHELTER + 1, P_TEMPO];
  let nonzero = 0;
  for (const p of pairs) {
    for (const half of [0, 1]) {
      const i = 2 * p + half;
      const h = 0.01;
      const x = w[i]!;
      w[i] = x + h;
      const up = lossRange(store, w, K, 0, store.n);
      w[i] = x - h;
      const down = lossRange(store, w, K, 0, store.n);
      w[i] = x;
      const fd = (up - down) / (2 * h);
      const tol = 1e-4 * Math.max(Math.abs(fd), 1e-3);
      assert.ok(Math.abs(fd - grad[i]!) <= tol, `pair ${p} ${half ? 'eg' : 'mg'}: analytic ${grad[i]} vs finite difference ${fd}`);
      if (Math.abs(fd) > 1e-6) nonzero++;
    }
  }
  assert.ok(nonzero >= 10, 'the checked derivatives are not all zero');
  assert.equal(grad.length, 2 * NPAIRS);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GROUPS, WEIGHTS } from '../engine/evalParams.js';
import { fitK } from './kfit.js';
import { LocalObjective } from './objective.js';
import { sharedStore } from './testData.js';

test('K fit lands on the minimum of the loss over K (checked by a dense scan)', async () => {
  const obj = new LocalObjective(sharedStore(4000));
  const w = Float64Array.from(WEIGHTS);
  const fit = await fitK(obj, w);
  let bestK = 0;
  let best = Infinity;
  for (let k = 0.2; k <= 3; k += 0.01) {
    const l = await obj.loss(w, k);
    if (l < best) {
      best = l;
      bestK = k;
    }
  }
  assert.ok(Math.abs(fit.K - bestK) < 0.011, `fit ${fit.K}, scan ${bestK}`);
  assert.ok(fit.loss <= best + 1e-9);
  assert.ok(fit.loss < (await obj.loss(w, fit.K * 0.8)) && fit.loss < (await obj.loss(w, fit.K * 1.2)));
  // Scaling the evaluation by 2 halves the best K: K is the scale of the evaluation. The
  // evaluation doubles when every weight doubles but the middlegame king danger's, which is
  // squared: those grow by √2 (src/tune/model.ts).
  const doubled = w.map((x, i) => {
    const pair = i >> 1;
    const g = GROUPS.find((x) => pair >= x.offset && pair < x.offset + x.size)!;
    return g.kind === 'safety' && (i & 1) === 0 ? Math.SQRT2 * x : 2 * x;
  });
  const half = await fitK(obj, doubled);
  assert.ok(Math.abs(half.K - fit.K / 2) < 0.01, `${half.K} vs ${fit.K / 2}`);
});

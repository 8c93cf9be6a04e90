import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../core/position.js';
import { positionFromFen } from '../notation/fen.js';
import {
  NPAIRS, P_COMPLEXITY_BASE, P_COMPLEXITY_PAWNS, P_KING_SHELTER, P_MATERIAL, P_MOB_KNIGHT, P_PASSED, P_PST, P_SAFETY_BASE,
  P_SAFETY_CHECKS, P_SAFETY_HITS, P_TEMPO, WEIGHTS,
} from '../engine/evalParams.js';
import { SUM_VALUES, accumulate } from './model.js';
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
  const S = new Float64Array(SUM_VALUES);
  let edges = 0;
  for (let i = 0; i < store.n; i++) {
    assert.equal(exactEval(store, WEIGHTS, i), engine[i], `position ${i}`);
    // The float model differs by the truncations: king danger (two of each half) and the final
    // one; except where the endgame half is zero in one and not in the other, where complexity
    // moves only the one that is not (sign(eg) · max(cx, −|eg|)).
    S.fill(0);
    accumulate(store.index, store.coef, store.start[i]!, store.start[i + 1]!, w, S);
    const egFloat = S[1]! + (S[3]! > 0 ? S[3]! / 20 : 0) - (S[5]! > 0 ? S[5]! / 20 : 0);
    const egInt = S[1]! + (S[3]! > 0 ? Math.trunc(S[3]! / 20) : 0) - (S[5]! > 0 ? Math.trunc(S[5]! / 20) : 0);
    if (Math.sign(egFloat) !== Math.sign(egInt)) {
      edges++;
      continue;
    }
    assert.ok(Math.abs(linearEval(store, w, i) - engine[i]!) < 3, `position ${i}`);
  }
  assert.ok(edges < store.n / 50, `${edges} positions at the edge`);
});

test('gradient equals finite differences of the loss, mg and eg, across term kinds', () => {
  const all = sharedStore(2000);
  const w = Float64Array.from(WEIGHTS);
  // The complexity term jumps where the endgame half crosses zero (sign(eg) · max(cx, −|eg|)),
  // and king danger bends where a side's danger sum crosses zero: positions at those edges have
  // no derivative there, so finite differences leave them out.
  const S = new Float64Array(SUM_VALUES);
  const keep: number[] = [];
  for (let i = 0; i < all.n; i++) {
    S.fill(0);
    const a = all.start[i]!;
    const b = all.start[i + 1]!;
    accumulate(all.index, all.coef, a, b, w, S);
    const eg = S[1]! + (S[3]! > 0 ? S[3]! / 20 : 0) - (S[5]! > 0 ? S[5]! / 20 : 0);
    let edge = Math.abs(eg) < 2;
    for (let j = a; j < b; j++) {
      const sum = Math.floor(all.index[j]! / NPAIRS);
      if ((sum === 1 || sum === 2) && (Math.abs(S[2 * sum]!) < 2 || Math.abs(S[2 * sum + 1]!) < 2)) edge = true;
    }
    if (!edge) keep.push(i);
  }
  const store = all.select(keep);
  assert.ok(store.n > 1500, `${store.n} positions kept`);
  const K = 1.1;
  const grad = new Float64Array(w.length);
  lossGradRange(store, w, K, 0, store.n, grad);
  // Pawn and knight material, a knight PST square, knight mobility, passed pawn, shelter, tempo,
  // king danger (quadratic in the middlegame), complexity (endgame only).
  const pairs = [
    P_MATERIAL, P_MATERIAL + 1, P_PST + 64 + 18, P_MOB_KNIGHT + 4, P_PASSED + 4, P_KING_SHELTER + 1, P_TEMPO,
    P_SAFETY_HITS, P_SAFETY_CHECKS + 3, P_SAFETY_BASE, P_COMPLEXITY_PAWNS, P_COMPLEXITY_BASE,
  ];
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
  assert.ok(nonzero >= 18, 'the checked derivatives are not all zero');
  // Complexity has no middlegame value.
  assert.equal(grad[2 * P_COMPLEXITY_PAWNS], 0);
  assert.equal(grad.length, 2 * NPAIRS);
});

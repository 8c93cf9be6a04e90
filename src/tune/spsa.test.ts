import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../match/rng.js';
import { DEFAULT_SCHEDULE, Spsa, paramProblem, stepRng, type SpsaParam } from './spsa.js';

const P = (name: string, start: number, min: number, max: number, cEnd: number, rEnd = 0.002): SpsaParam => ({ name, start, min, max, cEnd, rEnd });

test('spsa: the gains fall to cEnd and to a learning rate rEnd at the last step, as OpenBench sets them', () => {
  const s = new Spsa([P('a', 100, 0, 400, 20, 0.002), P('b', 5, 1, 12, 1, 0.01)], { pairs: 5000, ...DEFAULT_SCHEDULE });
  for (const [i, p] of s.params.entries()) {
    const end = s.gains(i, 5000);
    assert.ok(Math.abs(end.c - p.cEnd) < 1e-9, `${p.name}: c_N ${end.c}`);
    assert.ok(Math.abs(end.a / end.c - p.rEnd * p.cEnd) < 1e-12, `${p.name}: a_N / c_N ${end.a / end.c}`);
    // Early steps perturb more and learn faster.
    const first = s.gains(i, 1);
    assert.ok(first.c > end.c * 2 && first.a > end.a);
  }
});

test('spsa: a step perturbs every parameter by ±c around θ, rounded and within the range, the same for the same seed and step', () => {
  const s = new Spsa([P('a', 100, 0, 400, 20), P('edge', 1, 0, 3, 2)], { pairs: 100, ...DEFAULT_SCHEDULE });
  const one = s.step(7, stepRng(42, 7));
  assert.deepEqual(s.step(7, stepRng(42, 7)), one);
  const c = s.gains(0, 7).c;
  assert.equal(one.plus[0], Math.round(100 + c * one.delta[0]!));
  assert.equal(one.minus[0], Math.round(100 - c * one.delta[0]!));
  for (const st of [one, s.step(8, stepRng(42, 8))]) {
    assert.ok(st.plus[1]! >= 0 && st.plus[1]! <= 3 && st.minus[1]! >= 0 && st.minus[1]! <= 3);
    for (const d of st.delta) assert.ok(d === 1 || d === -1);
  }
  // The signs are fair coins, drawn independently per parameter and per step.
  let plus = 0;
  let differ = 0;
  for (let k = 1; k <= 2000; k++) {
    const d = s.step(k, stepRng(3, k)).delta;
    plus += d[0] === 1 ? 1 : 0;
    differ += d[0] !== d[1] ? 1 : 0;
  }
  assert.ok(plus > 900 && plus < 1100, `${plus} of 2000 positive`);
  assert.ok(differ > 900 && differ < 1100, `${differ} of 2000 of opposite signs`);
});

test('spsa: θ moves toward the side that won the pair, by a·result/c, and stays in its range', () => {
  const s = new Spsa([P('a', 100, 0, 400, 20), P('b', 399.9, 0, 400, 20)], { pairs: 100, ...DEFAULT_SCHEDULE });
  const st = s.step(1, stepRng(1, 1));
  st.delta = [1, 1];
  s.update(st, 2);
  const { a, c } = s.gains(0, 1);
  assert.ok(Math.abs(s.theta[0]! - (100 + (2 * a) / c)) < 1e-9);
  assert.equal(s.theta[1], 400);
  st.delta = [-1, 1];
  const before = s.theta[0]!;
  s.update(st, 1);
  assert.ok(s.theta[0]! < before, 'the θ− side was θ + c: a win for θ+ moves θ down');
  s.update(st, 0);
  assert.ok(Math.abs(s.theta[0]! - (before - a / c)) < 1e-9, 'a drawn pair leaves θ where it was');
});

test('spsa: on simulated matches with a known best setting, θ ends near it from a poor start', () => {
  // Strength in Elo as a function of two parameters, best at (30, 5); games by the logistic
  // Elo model with 40% draws, as between two versions of one engine.
  const best = [30, 5];
  const elo = (x: readonly number[]): number => -((x[0]! - best[0]!) ** 2) / 4 - 3 * (x[1]! - best[1]!) ** 2;
  const rng = createRng(11);
  const game = (d: number): number => {
    const p = 1 / (1 + 10 ** (-d / 400));
    const draw = 0.4;
    const u = rng.next();
    return u < (1 - draw) * p ? 1 : u < (1 - draw) * p + draw ? 0.5 : 0;
  };
  const pairs = 20000;
  const s = new Spsa([P('x', 70, 0, 100, 5), P('y', 12, 0, 20, 1)], { pairs, ...DEFAULT_SCHEDULE });
  const dist = (): number => Math.hypot((s.theta[0]! - best[0]!) / 5, (s.theta[1]! - best[1]!) / 1);
  const start = dist();
  for (let k = 1; k <= pairs; k++) {
    const st = s.step(k, stepRng(5, k));
    const d = elo(st.plus) - elo(st.minus);
    s.update(st, 2 * (game(d) + game(d)) - 2);
  }
  assert.ok(Math.abs(s.theta[0]! - best[0]!) < 3, `x ${s.theta[0]}`);
  assert.ok(Math.abs(s.theta[1]! - best[1]!) < 1.2, `y ${s.theta[1]}`);
  assert.ok(dist() < start / 4, `distance ${start} -> ${dist()}`);
});

test('spsa: settings that cannot be tuned are named', () => {
  assert.match(paramProblem(P('a', 5, 10, 1, 1))!, /a: min 10 is not below max 1/);
  assert.match(paramProblem(P('a', 50, 0, 10, 1))!, /start 50 is outside 0\.\.10/);
  assert.match(paramProblem(P('a', 5, 0, 10, 0))!, /c 0 is not above 0/);
  assert.match(paramProblem(P('a', 5, 0, 10, 1, 0))!, /r 0 is not above 0/);
  assert.equal(paramProblem(P('a', 5, 0, 10, 1)), undefined);
  assert.throws(() => new Spsa([P('a', 5, 0, 10, 0)], { pairs: 10, ...DEFAULT_SCHEDULE }), /c 0/);
});

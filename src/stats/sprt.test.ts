import { test } from 'node:test';
import assert from 'node:assert/strict';
import { llr, secularRoot, shownLlr, sprt, sprtConfigError } from './sprt.js';

test('secular root solves Σ p·x/(1+θx) = 0', () => {
  const x = [-0.5, 0, 0.5];
  const p = [0.2, 0.5, 0.3];
  const t = secularRoot(x, p);
  let g = 0;
  for (let i = 0; i < 3; i++) g += (p[i]! * x[i]!) / (1 + t * x[i]!);
  assert.ok(Math.abs(g) < 1e-12);
  assert.throws(() => secularRoot([0.1, 0.2], [0.5, 0.5]), RangeError);
});

test('no games: LLR 0 and no decision', () => {
  const s = sprt([0, 0, 0], { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' });
  assert.equal(s.llr, 0);
  assert.equal(s.decision, undefined);
});

test('a clearly losing sample accepts H0, a winning one H1, in every model', () => {
  for (const model of ['logistic', 'normalized', 'bayesian', 'cutechess'] as const) {
    assert.equal(sprt([600, 300, 100], { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model }).decision, 'H0', model);
    assert.equal(sprt([100, 300, 600], { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model }).decision, 'H1', model);
  }
});

test('mirroring the counts and the bounds negates the LLR', () => {
  for (const model of ['logistic', 'normalized'] as const) {
    const a = llr(model, [30, 50, 20], 0, 5);
    const b = llr(model, [20, 50, 30], -5, 0);
    assert.ok(a < 0 && Math.abs(a + b) < 1e-9, `${model}: ${a} vs ${b}`);
  }
});

test('trinomial-only models refuse pair counts', () => {
  assert.throws(() => llr('bayesian', [1, 2, 3, 4, 5], 0, 5), RangeError);
  assert.throws(() => llr('cutechess', [1, 2, 3, 4, 5], 0, 5), RangeError);
});

test('configuration errors are named', () => {
  const base = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' as const };
  assert.equal(sprtConfigError(base), undefined);
  assert.match(sprtConfigError({ ...base, elo0: 5 })!, /smaller/);
  assert.match(sprtConfigError({ ...base, alpha: 0 })!, /alpha/);
  assert.match(sprtConfigError({ ...base, alpha: 0.6, beta: 0.5 })!, /below 1/);
  assert.match(sprtConfigError({ ...base, model: 'x' as never })!, /unknown model/);
});

test('bounds the LLR cannot be computed for are refused; bounds at the limits compute', () => {
  const base = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 };
  // Beyond ≈232 nElo (pairs) or ≈340 (games) the t-value search has no root, beyond ≈6400 Elo
  // the expected score rounds to 1: both threw a RangeError after the first game of a match.
  assert.match(sprtConfigError({ ...base, elo1: 400, model: 'normalized' })!, /elo1 \(400\) is outside -200\.\.200 nElo/);
  assert.match(sprtConfigError({ ...base, elo0: -250, model: 'normalized' })!, /elo0 \(-250\) is outside/);
  assert.match(sprtConfigError({ ...base, elo1: 7000, model: 'logistic' })!, /elo1 \(7000\) is outside -2000\.\.2000 Elo/);
  assert.match(sprtConfigError({ ...base, elo1: 7000, model: 'bayesian' })!, /-2000\.\.2000 BayesElo/);
  assert.equal(sprtConfigError({ ...base, elo0: -200, elo1: 200, model: 'normalized' }), undefined);
  assert.equal(sprtConfigError({ ...base, elo0: -2000, elo1: 2000, model: 'logistic' }), undefined);
  // Reference values: the constrained maximum-likelihood distributions solved independently in
  // 50-digit arithmetic (secular equation by bisection, t-value iteration run to convergence).
  const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) <= 1e-9 * Math.abs(b), `${a} vs ${b}`);
  near(llr('normalized', [0, 0, 0, 0, 5550], -200, 200), 8254.298617769957);
  near(llr('normalized', [40, 100, 60], -200, 200), 31.41672583602417);
  near(llr('logistic', [1, 0, 999], -2000, 2000), 11489.906510365146);
  near(llr('bayesian', [1, 0, 999], -2000, 2000), 11489.906385492533);
});

test('cutechess model at extreme draw ratios: the finite LLR its formula has, not NaN or -inf', () => {
  // Reference values computed from the same formula with 3000-digit decimals (Python's decimal).
  const cfg = (elo0: number, elo1: number) => ({ elo0, elo1, alpha: 0.05, beta: 0.05, model: 'cutechess' as const });
  const allDraws = sprt([0, 100000, 0], cfg(0, 5));
  assert.ok(Math.abs(allDraws.llr / -142695264.2209 - 1) < 1e-9, String(allDraws.llr));
  assert.equal(allDraws.decision, 'H0');
  const symmetric = sprt([0, 100000, 0], cfg(-5, 5));
  assert.ok(Math.abs(symmetric.llr) < 1e-6, String(symmetric.llr));
  assert.equal(symmetric.decision, undefined);
  assert.equal(symmetric.note, undefined);
  const threeWins = llr('cutechess', [0, 100000, 3], -5, 5);
  assert.ok(Math.abs(threeWins / 1665.587199 - 1) < 1e-8, String(threeWins));
  // Mirroring the counts and the bounds negates it, as in the other models.
  assert.ok(Math.abs(llr('cutechess', [3, 100000, 0], -5, 5) + threeWins) < 1e-6);
});

test('an LLR that cannot be computed is NaN with a note saying why, and decides nothing', () => {
  // No draws in 1.8e16 games: the model's draw probability rounds to 0 at both bounds.
  const s = sprt([9e15, 0, 9e15], { elo0: -5, elo1: 5, alpha: 0.05, beta: 0.05, model: 'cutechess' });
  assert.ok(Number.isNaN(s.llr));
  assert.equal(s.decision, undefined);
  assert.match(s.note!, /cutechess model's LLR cannot be computed for these results \(18000000000000000 games, 0\.0 % draws\): .*rounds to 0 or 1 in double precision; the test takes no decision on it/);
});

test('the LLR as text shows it: floating-point noise around 0 is 0', () => {
  assert.equal(shownLlr(8.881784197001252e-16), 0);
  assert.equal(shownLlr(-1.8e-11), 0);
  assert.equal(shownLlr(0.0012), 0.0012);
  assert.equal(shownLlr(-2.5), -2.5);
});

test('counts whose arithmetic is not finite give the note, not an exception, in every model', () => {
  for (const model of ['normalized', 'logistic', 'bayesian', 'cutechess'] as const) {
    for (const counts of [[1e308, 0, 0], [0, 0, 1e308], [1e308, 1e308, 1e308], [9007199254740991, 0, 0], [1e308, 1e6, 1]]) {
      const s = sprt(counts, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model });
      assert.ok(Number.isFinite(s.llr) || (Number.isNaN(s.llr) && s.note !== undefined && s.decision === undefined), `${model} ${counts.join(',')}: ${s.llr}`);
    }
  }
  const s = sprt([1e308, 1e308, 1e308, 1, 1], { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' });
  assert.ok(Number.isNaN(s.llr));
  assert.match(s.note!, /normalized model's LLR cannot be computed for these results \(more than 1\.8e308 pairs\): its maximum-likelihood search has no solution/);
});

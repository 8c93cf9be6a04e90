/**
 * Every worked example of match-runner.md §2.8 (and the check values of §2.1 and §2.6), as
 * tables. The vectors reproduce cutechess's, fastchess's and fishtest's own test data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  eloFromScore,
  llrBayesian,
  llrCutechess,
  llrLogistic,
  llrNormalized,
  llrQuadratic,
  losCutechess,
  mleExpectation,
  mleTValue,
  pentaFromSix,
  pentanomialElo,
  scoreFromElo,
  sprt,
  sprtBounds,
  trinomialElo,
  z95,
  NELO_SCALE,
  type Penta,
} from '../src/stats/index.js';
import { cutechessEloLine, cutechessSprtLine } from '../src/match/report.js';

function near(actual: number, expected: number, tol = 1e-3, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} is not within ${tol} of ${expected}`);
}

function nearAll(actual: ArrayLike<number>, expected: readonly number[], tol: number, what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) near(actual[i]!, expected[i]!, tol, `${what}[${i}]`);
}

test('§2.1 score ↔ Elo check values', () => {
  const toElo: [number, number][] = [[0.5, 0], [0.55, 34.8601], [0.6, 70.4365], [0.75, 190.8485], [0.9, 381.697], [0.45, -34.8601]];
  for (const [s, e] of toElo) near(eloFromScore(s), e, 1e-4, `E(${s})`);
  const toScore: [number, number][] = [[5, 0.507195], [10, 0.514387], [100, 0.640065], [400, 0.909091]];
  for (const [e, s] of toScore) near(scoreFromElo(e), s, 1e-6, `score(${e})`);
  assert.equal(eloFromScore(1), Infinity);
  assert.equal(eloFromScore(0), -Infinity);
});

test('§2.6 SPRT bounds', () => {
  const rows: [number, number, number, number][] = [
    [0.05, 0.05, -2.944439, 2.944439],
    [0.01, 0.01, -4.59512, 4.59512],
    [0.05, 0.1, -2.251292, 2.890372],
  ];
  for (const [a, b, lo, hi] of rows) {
    const r = sprtBounds(a, b);
    near(r.lower, lo, 1e-6, `lower ${a}/${b}`);
    near(r.upper, hi, 1e-6, `upper ${a}/${b}`);
  }
});

test('Ex. 1: trinomial W=60 L=40 D=100', () => {
  const wdl = { wins: 60, losses: 40, draws: 100 };
  const e = trinomialElo(wdl);
  near(e.score, 0.55, 1e-9, 'μ');
  near(e.variance, 0.1225, 1e-9, 'σ²');
  near(e.stderr, 0.0247487, 1e-7, 'se');
  near(e.elo, 34.8601, 1e-3, 'Elo');
  near(e.error, 34.1593, 1e-3, 'error exact');
  near(trinomialElo(wdl, 'cutechess').error, 34.1101, 1e-3, 'error cutechess');
  near(z95('cutechess'), 1.957162, 1e-6, 'cutechess z');
  near(losCutechess(60, 40), 97.725, 1e-3, 'LOS cutechess');
  near(e.los, 97.8324, 1e-3, 'LOS normal');
  near(e.nElo, 49.6337, 1e-3, 'nElo');
  near(e.nEloError, 48.1512, 1e-3, 'nElo error');
  near(e.drawRatio, 50, 1e-9, 'DrawRatio');
  assert.equal(cutechessEloLine(wdl), 'Elo difference: 34.9 +/- 34.1, LOS: 97.7 %, DrawRatio: 50.0 %');
});

test('Ex. 2: SPRT on Ex. 1, elo0=0 elo1=5', () => {
  const counts = [40, 100, 60];
  near(llrLogistic(counts, 0, 5), 0.534944, 1e-5, 'logistic');
  near(llrNormalized(counts, 0, 5), 0.386431, 1e-5, 'normalized');
  near(llrBayesian(counts, 0, 5), 0.405345, 1e-5, 'bayesian');
  near(llrCutechess({ wins: 60, losses: 40, draws: 100 }, 0, 5), 0.539931, 1e-5, 'cutechess');
  near(llrQuadratic(counts, 0, 5), 0.545093, 1e-5, 'quadratic');
  const st = sprt(counts, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'logistic' });
  near((100 * st.llr) / st.upper, 18.2, 0.05, 'percent of upper');
  assert.equal(st.decision, undefined);
  const cc = sprt(counts, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'cutechess' });
  assert.equal(cutechessSprtLine(cc), 'SPRT: llr 0.54 (18.3%), lbound -2.94, ubound 2.94');
  // Intermediate values of the logistic case.
  const pdf = new Float64Array([0.2, 0.5, 0.3]);
  const a = new Float64Array([0, 0.5, 1]);
  nearAll(mleExpectation(pdf, a, 0.5), [0.25, 0.5, 0.25], 1e-6, 'ML at s0');
  near(scoreFromElo(5), 0.5071951, 1e-7, 's1');
  nearAll(mleExpectation(pdf, a, scoreFromElo(5)), [0.242186, 0.501239, 0.256576], 1e-6, 'ML at s1');
});

test('Ex. 3: pentanomial [10, 60, 250, 80, 20]', () => {
  const penta: Penta = [10, 60, 250, 80, 20];
  const e = pentanomialElo(penta);
  assert.equal(e.samples, 420);
  assert.equal(e.games, 840);
  near(e.score, 0.5238095, 1e-7, 'μ');
  near(e.variance, 0.0380952, 1e-3, 'σ_p²');
  near(e.elo, 16.5571, 1e-3, 'Elo');
  near(e.error, 13.0111, 1e-3, 'error');
  near(e.nElo, 29.958, 1e-3, 'nElo');
  near(e.nEloError, 23.4954, 1e-3, 'nElo error');
  near(e.los, 99.3774, 1e-3, 'LOS');
  near(llrLogistic(penta, 0, 5), 1.591139, 1e-5, 'logistic');
  near(llrNormalized(penta, 0, 5), 0.950166, 1e-5, 'normalized');
  near(llrQuadratic(penta, 0, 5), 1.602139, 1e-5, 'quadratic');
  const lg = sprt(penta, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'logistic' });
  near((100 * lg.llr) / lg.upper, 54.0, 0.05, 'logistic %');
  const nm = sprt(penta, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' });
  near((100 * nm.llr) / nm.upper, 32.3, 0.05, 'normalized %');
  // Intermediate values.
  const pdf = new Float64Array(penta.map((x) => x / 420));
  nearAll(pdf, [0.02381, 0.142857, 0.595238, 0.190476, 0.047619], 1e-6, 'p̂');
  const a = new Float64Array([0, 0.25, 0.5, 0.75, 1]);
  const p0 = [0.034436, 0.168921, 0.595238, 0.165015, 0.036389];
  nearAll(mleExpectation(pdf, a, 0.5), p0, 1e-6, 'logistic p⁰');
  nearAll(mleExpectation(pdf, a, 0.507195), [0.030546, 0.160845, 0.597106, 0.172287, 0.039216], 1e-5, 'logistic p¹');
  const t1 = (5 / NELO_SCALE) * Math.SQRT2;
  near(t1, 0.0203522, 1e-7, 't1');
  nearAll(mleTValue(pdf, a, t1), [0.032418, 0.16451, 0.595851, 0.169129, 0.038092], 1e-6, 'normalized p¹');
  nearAll(mleTValue(pdf, a, 0), p0, 1e-6, 'normalized p⁰ = logistic p⁰');
});

test('Ex. 4: pentanomial [100, 1200, 3500, 1400, 110]', () => {
  const penta: Penta = [100, 1200, 3500, 1400, 110];
  const e = pentanomialElo(penta);
  near(e.elo, 6.0573, 1e-3, 'Elo');
  near(e.error, 3.1623, 1e-3, 'error');
  near(e.nElo, 11.6138, 1e-3, 'nElo');
  near(e.nEloError, 6.0617, 1e-3, 'nElo error');
  near(e.los, 99.9913, 1e-3, 'LOS');
  near(llrLogistic(penta, 0, 5), 6.819609, 1e-5, 'logistic (0,5)');
  near(llrNormalized(penta, 0, 5), 4.753508, 1e-5, 'normalized (0,5)');
  near(llrLogistic(penta, 0, 2), 3.87524, 1e-5, 'logistic (0,2)');
  near(llrNormalized(penta, 0, 2), 2.214537, 1e-5, 'normalized (0,2)');
  assert.equal(sprt(penta, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'logistic' }).decision, 'H1');
  assert.equal(sprt(penta, { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' }).decision, 'H1');
});

test('Ex. 5: zero counts are regularized to 1e-3', () => {
  near(llrLogistic([0, 0, 10, 5, 0], 0, 5), 0.21422, 1e-5, 'LLR');
});

test('published vectors: cutechess legacy LLR, α=β=0.01, (0, 10)', () => {
  const rows: [number, number, number, number, number][] = [
    [1477, 1351, 2942, 2.5236, 1e-4],
    [555, 555, 298, -0.74, 5e-3],
    [3, 149, 1, -4.69, 5e-3],
  ];
  for (const [w, l, d, expected, tol] of rows) near(llrCutechess({ wins: w, losses: l, draws: d }, 0, 10), expected, tol, `W${w} L${l} D${d}`);
  near(sprtBounds(0.01, 0.01).upper, 4.6, 5e-3, 'bound');
});

test('published vectors: fastchess SPRT, α=β=0.05', () => {
  // (W, L, D) → counts [L, D, W]; six-counter pentanomials → five bins with WL+DD.
  const tri = (w: number, l: number, d: number): number[] => [l, d, w];
  const rows: [string, number[], number, number, number, number][] = [
    ['normalized', tri(36433, 36027, 68692), 0, 2, 0.92, 5e-3],
    ['normalized', tri(10871, 10650, 20431), -1.75, 0.25, 2.3, 5e-3],
    ['normalized', tri(4250, 0, 0), 0, 10, 120.548, 1e-3],
    ['logistic', tri(21404, 21184, 40708), 0.5, 2.5, -1.57, 5e-3],
    ['logistic', tri(57433, 57030, 106593), 0, 2, -2.59, 5e-3],
    ['bayesian', tri(68965, 68526, 128429), 0, 2, -1.26, 5e-3],
    ['bayesian', tri(21629, 21484, 41111), 0.5, 2.5, -1.13, 5e-3],
    ['normalized', [...pentaFromSix(365, 16618, 36029, 200, 16974, 390)], 0, 2, 2.25, 5e-3],
    ['normalized', [...pentaFromSix(127, 4883, 10311, 401, 5150, 104)], -1.75, 0.25, 3.01, 5e-3],
    ['normalized', [...pentaFromSix(0, 0, 0, 0, 0, 5550)], 0, 5, 111.798, 1e-3],
    ['logistic', [...pentaFromSix(223, 9863, 20279, 1000, 10037, 246)], 0.5, 2.5, -3.07, 5e-3],
    ['logistic', [...pentaFromSix(871, 26175, 55003, 980, 26678, 821)], 0, 2, -4.98, 5e-3],
  ];
  const fn = { logistic: llrLogistic, normalized: llrNormalized, bayesian: llrBayesian } as const;
  for (const [model, counts, e0, e1, expected, tol] of rows) {
    near(fn[model as keyof typeof fn](counts, e0, e1), expected, tol, `${model} ${counts.join(',')} (${e0}, ${e1})`);
  }
});

test('published vectors: fastchess Elo with exact z', () => {
  const a = trinomialElo({ wins: 136, losses: 96, draws: 111 });
  near(a.elo, 40.7, 5e-3, 'Elo');
  near(a.error, 30.43, 5e-3, 'error');
  near(a.nElo, 49.77, 5e-3, 'nElo');
  near(a.nEloError, 36.77, 5e-3, 'nElo error');
  near(a.los, 99.6, 5e-3, 'LOS');
  const b = trinomialElo({ wins: 76, losses: 89, draws: 123 });
  near(b.nElo, -20.76, 5e-3, 'nElo');
  near(b.nEloError, 40.13, 5e-3, 'nElo error');
  near(b.los, 15.53, 5e-3, 'LOS');
  const c = pentanomialElo(pentaFromSix(34, 54, 31, 32, 64, 75));
  near(c.elo, 55.58, 5e-3, 'Elo');
  near(c.error, 27.65, 5e-3, 'error');
  near(c.nElo, 57.94, 5e-3, 'nElo');
  near(c.nEloError, 28.28, 5e-3, 'nElo error');
  const d = pentanomialElo(pentaFromSix(332, 433, 457, 41, 333, 334));
  near(d.elo, -8.64, 5e-3, 'Elo');
  near(d.error, 10.33, 5e-3, 'error');
  near(d.nElo, -9.17, 5e-3, 'nElo');
  near(d.nEloError, 10.96, 5e-3, 'nElo error');
  near(d.los, 5.05, 5e-3, 'LOS');
});

test('published vector: fishtest pentanomial logistic (−3, 1)', () => {
  near(llrLogistic([10789, 19328, 33806, 19402, 10543], -3, 1), 2.13107, 1e-5, 'LLR');
});

test('cutechess SPRT line: symmetric bounds and results print llr 0, not floating-point noise', () => {
  for (const counts of [[10, 100, 10], [7, 5, 7], [10, 1000, 10]]) {
    const st = sprt(counts, { elo0: -5, elo1: 5, alpha: 0.05, beta: 0.05, model: 'cutechess' });
    assert.equal(cutechessSprtLine(st), 'SPRT: llr 0 (0.0%), lbound -2.94, ubound 2.94', String(counts));
  }
});

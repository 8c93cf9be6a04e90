import { test } from 'node:test';
import assert from 'node:assert/strict';
import { losCutechess, pairsRatio, pentanomialElo, trinomialElo, wdlFromSix } from './elo.js';

test('no games: every figure is NaN, nothing throws', () => {
  for (const e of [trinomialElo({ wins: 0, draws: 0, losses: 0 }), pentanomialElo([0, 0, 0, 0, 0])]) {
    assert.equal(e.samples, 0);
    for (const k of ['score', 'elo', 'error', 'los', 'nElo', 'drawRatio'] as const) assert.ok(Number.isNaN(e[k]), k);
  }
});

test('all wins: Elo +inf, error NaN; all losses: −inf', () => {
  const w = trinomialElo({ wins: 10, draws: 0, losses: 0 });
  assert.equal(w.elo, Infinity);
  assert.ok(Number.isNaN(w.error));
  assert.equal(trinomialElo({ wins: 0, draws: 0, losses: 7 }).elo, -Infinity);
  assert.equal(pentanomialElo([0, 0, 0, 0, 4]).elo, Infinity);
});

test('all draws: Elo 0, error 0, LOS and nElo undefined (zero variance)', () => {
  const d = trinomialElo({ wins: 0, draws: 12, losses: 0 });
  assert.equal(d.elo, 0);
  assert.equal(d.error, 0);
  assert.ok(Number.isNaN(d.los));
  assert.ok(Number.isNaN(d.nElo));
  assert.equal(d.drawRatio, 100);
  assert.ok(Number.isNaN(losCutechess(0, 0)));
  const p = pentanomialElo([0, 0, 9, 0, 0]);
  assert.equal(p.elo, 0);
  assert.ok(Number.isNaN(p.nElo));
  assert.equal(p.drawRatio, 100);
});

test('pentanomial with empty bins and symmetric counts', () => {
  const e = pentanomialElo([3, 0, 0, 0, 3]);
  assert.equal(e.score, 0.5);
  assert.equal(e.elo, 0);
  assert.equal(e.los, 50);
  assert.equal(pairsRatio([1, 2, 5, 4, 2]), 2);
});

test('six counters give the games they contain', () => {
  assert.deepEqual(wdlFromSix(1, 2, 3, 4, 5, 6), { wins: 3 + 5 + 12, draws: 2 + 8 + 5, losses: 2 + 2 + 3 });
});

test('trinomial and pentanomial agree on the score of the same games', () => {
  // Pairs: WW, WD, DD, WL, LD → W=5, D=4, L=2... counted per game.
  const penta = [0, 1, 2, 1, 1] as const;
  const games = { wins: 2 + 1 + 1, draws: 1 + 2 + 1, losses: 1 + 1 };
  // WL and DD both sit in bin 2: one WL, one DD pair here.
  assert.equal(pentanomialElo(penta).score, trinomialElo(games).score);
});

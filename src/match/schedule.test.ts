import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchedule, encounters } from './schedule.js';

test('pairs: the same opening twice with colours swapped, a new opening per pair', () => {
  const s = buildSchedule({ players: 2, tournament: 'round-robin', games: 6, rounds: 1, repeat: 2, noswap: false, seeds: 1 });
  assert.deepEqual(s.map((g) => [g.white, g.opening, g.slot]), [[0, 0, 0], [1, 0, 1], [0, 1, 0], [1, 1, 1], [0, 2, 0], [1, 2, 1]]);
  assert.ok(s.every((g) => g.first === 0 && g.second === 1));
});

test('cutechess style --games 1 --rounds N --repeat still pairs consecutive games', () => {
  const s = buildSchedule({ players: 2, tournament: 'round-robin', games: 1, rounds: 4, repeat: 2, noswap: false, seeds: 1 });
  assert.deepEqual(s.map((g) => [g.round, g.white, g.opening]), [[1, 0, 0], [2, 1, 0], [3, 0, 1], [4, 1, 1]]);
});

test('noswap keeps colours; repeat 1 uses a new opening per game', () => {
  const s = buildSchedule({ players: 2, tournament: 'round-robin', games: 3, rounds: 1, repeat: 1, noswap: true, seeds: 1 });
  assert.deepEqual(s.map((g) => [g.white, g.opening]), [[0, 0], [0, 1], [0, 2]]);
});

test('round-robin and gauntlet encounters; every encounter gets its own openings', () => {
  assert.deepEqual(encounters({ players: 4, tournament: 'round-robin', seeds: 1 }), [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
  assert.deepEqual(encounters({ players: 4, tournament: 'gauntlet', seeds: 1 }), [[0, 1], [0, 2], [0, 3]]);
  assert.deepEqual(encounters({ players: 4, tournament: 'gauntlet', seeds: 2 }), [[0, 2], [0, 3], [1, 2], [1, 3]]);
  const s = buildSchedule({ players: 3, tournament: 'round-robin', games: 2, rounds: 2, repeat: 2, noswap: false, seeds: 1 });
  assert.equal(s.length, 12);
  assert.equal(new Set(s.map((g) => g.opening)).size, 6);
  assert.deepEqual(s.map((g) => g.number), Array.from({ length: 12 }, (_, i) => i + 1));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GameHash, HashSet64 } from './dedupe.js';

test('HashSet64 keeps 64-bit keys exactly, through growth', () => {
  const set = new HashSet64(4);
  for (let i = 0; i < 50000; i++) assert.ok(set.add(i * 7919, i >> 3));
  for (let i = 0; i < 50000; i++) assert.ok(!set.add(i * 7919, i >> 3));
  assert.ok(set.add(7919, 1)); // same low half as an existing key, different high half
  assert.equal(set.size, 50001);
});

test('GameHash depends on the start, on every move and on their order', () => {
  const h = (key: number, moves: number[]): string => {
    const g = new GameHash();
    g.reset(key, 0);
    for (const m of moves) g.add(m);
    return `${g.lo}:${g.hi}`;
  };
  const base = h(1, [796, 3364, 398]);
  assert.equal(h(1, [796, 3364, 398]), base);
  assert.notEqual(h(2, [796, 3364, 398]), base);
  assert.notEqual(h(1, [3364, 796, 398]), base);
  assert.notEqual(h(1, [796, 3364]), base);
});

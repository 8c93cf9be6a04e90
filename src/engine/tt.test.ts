import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MATE, NONE_SCORE } from './score.js';
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, TranspositionTable, scoreFromTT, scoreToTT } from './tt.js';

test('a stored entry is found again with all its fields', () => {
  const tt = new TranspositionTable(1);
  tt.store(0x12345678, -0x789abcd, 3, 0x1234, -57, 31, 9, BOUND_LOWER, false);
  assert.equal(tt.probe(0x12345678, -0x789abcd, 3), true);
  assert.deepEqual([tt.move, tt.score, tt.eval, tt.depth, tt.bound], [0x1234, -57, 31, 9, BOUND_LOWER]);
  assert.equal(tt.probe(0x12345678, 0x789abcd, 3), false, 'another key with the same index misses');
});

test('mate scores are stored relative to the node and read back relative to the root (seed 002)', () => {
  // A mate found 9 plies from the root at a node 5 plies deep is a mate in 4 plies from that node.
  assert.equal(scoreToTT(MATE - 9, 5), MATE - 4);
  assert.equal(scoreFromTT(MATE - 4, 2), MATE - 6, 'the same node reached at ply 2: mate 6 plies from the root');
  assert.equal(scoreToTT(-(MATE - 9), 5), -(MATE - 4));
  assert.equal(scoreFromTT(-(MATE - 4), 2), -(MATE - 6));
  assert.equal(scoreToTT(250, 7), 250, 'ordinary scores are not adjusted');
  assert.equal(scoreFromTT(NONE_SCORE, 3), NONE_SCORE);
  const tt = new TranspositionTable(1);
  tt.store(1, 2, 5, 77, MATE - 9, 0, 4, BOUND_EXACT, true);
  tt.probe(1, 2, 2);
  assert.equal(tt.score, MATE - 6);
});

test('replacement keeps the deeper entry of a full bucket and prefers the current search', () => {
  const tt = new TranspositionTable(1);
  const mask = TranspositionTable.bytesFor(1) / 32 - 1;
  // Three keys with the same bucket index.
  const keys = [5, 5 + (mask + 1), 5 + 2 * (mask + 1)];
  tt.store(keys[0]!, 1, 0, 1, 10, 0, 12, BOUND_EXACT, false);
  tt.store(keys[1]!, 1, 0, 2, 20, 0, 3, BOUND_UPPER, false);
  tt.store(keys[2]!, 1, 0, 3, 30, 0, 6, BOUND_LOWER, false);
  assert.equal(tt.probe(keys[0]!, 1, 0), true, 'deep entry kept');
  assert.equal(tt.probe(keys[1]!, 1, 0), false, 'shallow entry replaced');
  assert.equal(tt.probe(keys[2]!, 1, 0), true);
  // In a later search the old deep entry is the one to go.
  for (let i = 0; i < 3; i++) tt.newSearch();
  tt.store(keys[1]!, 1, 0, 2, 20, 0, 3, BOUND_UPPER, false);
  tt.newSearch();
  tt.store(keys[0]!, 7, 0, 4, 40, 0, 2, BOUND_UPPER, false);
  assert.equal(tt.probe(keys[0]!, 1, 0), false, 'aged entries were replaced');
  assert.equal(tt.probe(keys[0]!, 7, 0), true);
});

test('a re-store without a move keeps the old move; hashfull counts the current search', () => {
  const tt = new TranspositionTable(1);
  tt.store(9, 9, 0, 0x0abc, 1, 0, 8, BOUND_EXACT, true);
  tt.store(9, 9, 0, 0, 2, 0, 9, BOUND_UPPER, false);
  tt.probe(9, 9, 0);
  assert.equal(tt.move, 0x0abc);
  assert.equal(tt.hashfull(), 1);
  tt.clear();
  assert.equal(tt.probe(9, 9, 0), false);
  assert.equal(tt.hashfull(), 0);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatClock, parseClock, parseCommentCommands } from './annotations.js';

test('clock times', () => {
  assert.equal(parseClock('1:02:03'), 3723);
  assert.equal(parseClock('0:00:07.5'), 7.5);
  assert.equal(parseClock('5:07'), 307);
  assert.equal(parseClock('12'), 12);
  assert.equal(parseClock('x'), undefined);
  assert.equal(formatClock(3723), '1:02:03');
  assert.equal(formatClock(7.46), '0:00:07.5');
});

test('comment commands as lichess, chess.com and engines write them', () => {
  const a = parseCommentCommands(' Good move. [%clk 0:03:00] [%eval 0.34] ');
  assert.equal(a.text, 'Good move.');
  assert.equal(a.clock, 180);
  assert.deepEqual(a.eval, { cp: 34 });
  assert.deepEqual(parseCommentCommands('[%eval #-3]').eval, { mate: -3 });
  assert.deepEqual(parseCommentCommands('[%eval -1.5,24]').eval, { cp: -150, depth: 24 });
  const c = parseCommentCommands('[%emt 0:00:05] [%csl Ra4,Gb5]');
  assert.equal(c.elapsed, 5);
  assert.deepEqual(c.all, { emt: '0:00:05', csl: 'Ra4,Gb5' });
  assert.equal(c.text, '');
});

test('a command ends at its bracket: an unclosed one does not swallow the next (found by fuzzing)', () => {
  // Linear time on a comment full of unclosed commands is checked in test/pgn-fuzz.test.ts.
  const c = parseCommentCommands('[%clk 0:01:00 [%eval 0.5] [%a');
  assert.deepEqual(c.all, { eval: '0.5' });
  assert.equal(c.clock, undefined);
  assert.deepEqual(c.eval, { cp: 50 });
  assert.equal(c.text, '[%clk 0:01:00 [%a');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBands, parseSpeeds, parseSplits } from './splits.js';

test('split and filter lists: what they name, and an empty list refused rather than read as none', () => {
  assert.deepEqual(parseSplits('rating, month'), { rating: true, speed: false, month: true });
  assert.deepEqual([...parseBands('1800,2000')], [5, 6]);
  assert.deepEqual([...parseSpeeds('blitz,rapid')].length, 2);
  for (const [f, v, message] of [
    [parseSplits, '', /--split: "" names no split/],
    [parseSplits, ',', /--split: "," names no split/],
    [parseBands, '', /--ratings: "" names no band/],
    [parseSpeeds, ' , ', /--speeds: " , " names no speed/],
    [parseSplits, 'elo', /"elo" is not rating, speed or month/],
  ] as const) {
    assert.throws(() => f(v), message, `${f.name}(${JSON.stringify(v)})`);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meanWithOne } from './runningMean.js';

test('the running mean in whole centipawns follows the exact mean however long it runs', () => {
  let mean = 0;
  let n = 0;
  const add = (cp: number): void => {
    mean = meanWithOne(mean, n, cp);
    n++;
  };
  add(37);
  assert.equal(mean, 37, 'one evaluation is itself');
  for (let i = 0; i < 999; i++) add(0);
  assert.ok(Math.abs(mean - 0.037) <= 1, `after 1000: ${mean}`);
  for (let i = 0; i < 1000; i++) add(-25);
  assert.ok(Math.abs(mean - (37 - 25 * 1000) / 2000) <= 1, `after 2000: ${mean}`);
  // A long run of alternating values stays at their mean, not drifting to one side.
  mean = 0;
  n = 0;
  for (let i = 0; i < 20000; i++) add(i % 2 === 0 ? 3 : 4);
  assert.ok(Math.abs(mean - 3.5) <= 1, `alternating: ${mean}`);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planTime } from './timeman.js';

test('fixed move time: all of it, less the overhead', () => {
  assert.deepEqual(planTime({ movetime: 1000 }, 0, 50), { softMs: 950, hardMs: 950 });
  assert.deepEqual(planTime({ movetime: 20 }, 1, 50), { softMs: 1, hardMs: 1 });
});

test('no clock: unlimited', () => {
  assert.deepEqual(planTime({ infinite: true, wtime: 1000 }, 0, 50), { softMs: Infinity, hardMs: Infinity });
  assert.deepEqual(planTime({ depth: 5 }, 0, 50), { softMs: Infinity, hardMs: Infinity });
  assert.deepEqual(planTime({ wtime: 5000 }, 1, 50), { softMs: Infinity, hardMs: Infinity }, "only the other side's clock");
});

test('clock with increment: a share of the budget, the hard limit a multiple of it', () => {
  // 10 s + 0.1 s: budget 10000 + 24 × 100 − 27 × 50 = 11050 over 25 moves.
  assert.deepEqual(planTime({ wtime: 10000, btime: 10000, winc: 100, binc: 100 }, 0, 50), { softMs: 442, hardMs: 2210 });
  // Black's clock is read for Black.
  assert.deepEqual(planTime({ wtime: 10000, btime: 1000, winc: 100, binc: 100 }, 1, 50), { softMs: 82, hardMs: 410 });
});

test('a nearly empty clock is never spent: at most half of what is left', () => {
  for (const left of [60, 100, 200, 500, 1000, 3000]) {
    const p = planTime({ wtime: left, btime: 60000, winc: 100 }, 0, 50);
    assert.ok(p.hardMs <= Math.max(1, (left - 50) / 2) && p.softMs <= p.hardMs && p.softMs >= 1, `${left} ms: ${JSON.stringify(p)}`);
  }
});

test('moves to go: the last move before the control may use most of the clock', () => {
  const last = planTime({ btime: 3000, movestogo: 1 }, 1, 50);
  assert.deepEqual(last, { softMs: 2360, hardMs: 2360 });
  const forty = planTime({ btime: 60000, movestogo: 40 }, 1, 50);
  assert.deepEqual(forty, { softMs: 1447, hardMs: 7237 });
});

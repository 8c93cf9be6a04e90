import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performanceRating, ratingDifference } from './performance.js';

test("FIDE's dp table (Handbook B.02, 8.1(a)) at whole and between whole percentages", () => {
  assert.deepEqual([0, 1, 5, 25, 50, 62, 75, 95, 99, 100].map(ratingDifference), [-800, -677, -470, -193, 0, 87, 193, 470, 677, 800]);
  assert.equal(ratingDifference(62.5), (87 + 95) / 2);
  assert.equal(ratingDifference(49.5), -3.5);
});

test('performance as the Lichess explorer computes it (its own test cases) and without ratings', () => {
  assert.equal(performanceRating(1500, 1, 0, 0), 2300);
  assert.equal(performanceRating(1500, 0, 0, 1), 700);
  assert.equal(performanceRating(987, 123, 10, 123), 987);
  assert.equal(performanceRating(1000, 5, 0, 95), 530);
  assert.equal(performanceRating(1000, 95, 0, 5), 1470);
  assert.equal(performanceRating(0, 3, 1, 0), null);
  assert.equal(performanceRating(2500, 0, 0, 0), null);
});

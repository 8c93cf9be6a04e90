import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRate } from './progress.js';

test('rates keep their meaning from millions a second down to a game every few seconds', () => {
  assert.deepEqual([2.5e6, 12345, 123.4, 12.34, 2.5, 0.0791, 0].map(formatRate), ['2.50M', '12.3k', '123', '12.3', '2.50', '0.079', '0']);
});

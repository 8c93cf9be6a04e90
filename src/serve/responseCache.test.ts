import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache } from './responseCache.js';

const b = (s: string): Buffer => Buffer.from(s);

test('an answer is kept for its revision only; the least recently used goes first past the bounds', () => {
  const c = new ResponseCache(3, 1 << 20);
  c.set('a', 0, b('A'));
  c.set('b', 0, b('B'));
  c.set('c', 0, b('C'));
  assert.equal(c.get('a', 0)?.toString(), 'A'); // a is now the most recent
  c.set('d', 0, b('D')); // b goes
  assert.equal(c.get('b', 0), undefined);
  assert.deepEqual(['a', 'c', 'd'].map((k) => c.get(k, 0)?.toString()), ['A', 'C', 'D']);
  // The book changed: revision 0's answers are stale and dropped when met.
  assert.equal(c.get('a', 1), undefined);
  assert.equal(c.get('a', 0), undefined);
  assert.equal(c.size, 2);
});

test('bytes bound the cache too, and an answer too large for it is not kept', () => {
  const c = new ResponseCache(100, 1600);
  for (let i = 0; i < 20; i++) c.set(`k${i}`, 0, Buffer.alloc(100));
  assert.equal(c.size, 16);
  assert.equal(c.get('k3', 0), undefined);
  assert.ok(c.get('k19', 0) !== undefined);
  c.set('big', 0, Buffer.alloc(101));
  assert.equal(c.get('big', 0), undefined);
});

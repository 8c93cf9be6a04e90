import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache } from './responseCache.js';

const b = (s: string): Buffer => Buffer.from(s);

test('an answer is kept for its revision only; the least recently used goes first past the bounds', () => {
  const c = new ResponseCache(3, 1 << 20);
  const book = { revision: 0 };
  c.set('a', book, 0, b('A'));
  c.set('b', book, 0, b('B'));
  c.set('c', book, 0, b('C'));
  assert.equal(c.get('a')?.toString(), 'A'); // a is now the most recent
  c.set('d', book, 0, b('D')); // b goes
  assert.equal(c.get('b'), undefined);
  assert.deepEqual(['a', 'c', 'd'].map((k) => c.get(k)?.toString()), ['A', 'C', 'D']);
  // The book changed: revision 0's answers are stale and dropped when met.
  book.revision = 1;
  assert.equal(c.get('a'), undefined);
  assert.equal(c.size, 2);
  // An answer made from revision 1 while the book moved on to 2 is not kept.
  book.revision = 2;
  c.set('e', book, 1, b('E'));
  assert.equal(c.get('e'), undefined);
});

test('bytes bound the cache too, and an answer too large for it is not kept', () => {
  const c = new ResponseCache(100, 16 * 106);
  const book = { revision: 0 };
  for (let i = 0; i < 20; i++) c.set(`k${i}`, book, 0, Buffer.alloc(100));
  assert.equal(c.size, 16);
  assert.equal(c.get('k3'), undefined);
  assert.ok(c.get('k19') !== undefined);
  c.set('big', book, 0, Buffer.alloc(101)); // 107 bytes with its key: more than a sixteenth
  assert.equal(c.get('big'), undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readEntry } from './format.js';
import { EntrySink, MemoryCursor, mergeBooks, type MergeOptions } from './merge.js';
import { BookError } from './select.js';
import { encodeBook } from './writer.js';

const OUT = new URL('../../../../../shared/docs/polyglot-vectors/out/', import.meta.url);
const vec = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, OUT)));

function merge(a: Uint8Array, b: Uint8Array, opts?: MergeOptions): { bytes: Uint8Array; stats: ReturnType<typeof mergeBooks> } {
  const chunks: Uint8Array[] = [];
  const stats = mergeBooks(new MemoryCursor(a, 'a.bin'), new MemoryCursor(b, 'b.bin'), new EntrySink((c) => chunks.push(c), 2), opts);
  return { bytes: new Uint8Array(Buffer.concat(chunks)), stats };
}

test('merge-book 2.0 vectors: mA+mB, mB+mA (no re-sorting), L1+L2 with wrap-around', () => {
  assert.deepEqual(merge(vec('mA.bin'), vec('mB.bin')).bytes, vec('mAB.bin'));
  assert.deepEqual(merge(vec('mB.bin'), vec('mA.bin')).bytes, vec('mBA.bin'));
  const wrapped = merge(vec('L1.bin'), vec('L2.bin'), { wrap: true });
  assert.deepEqual(wrapped.bytes, vec('L12.bin'));
  assert.equal(readEntry(wrapped.bytes, 0).weight, 14469);
});

test('by default summed weights saturate at 65535, learn data stays the first book\'s', () => {
  const { bytes, stats } = merge(vec('L1.bin'), vec('L2.bin'));
  const e4 = readEntry(bytes, 0);
  assert.equal(e4.weight, 65535);
  assert.equal(e4.learn, 0x00050007);
  assert.equal(readEntry(bytes, 1).weight, 30100);
  assert.deepEqual([stats.sharedKeys, stats.summed, stats.overflowed, stats.written], [1, 3, 2, 2]);
});

test('priority first (PolyGlot 1.4): the first book wins shared keys', () => {
  const { bytes, stats } = merge(vec('mA.bin'), vec('mB.bin'), { priority: 'first' });
  assert.equal(bytes.length / 16, 5 + 1); // all of mA, plus mB's key that mA lacks
  assert.equal(stats.skipped, 2);
  assert.deepEqual(bytes.subarray(0, 48), vec('mA.bin').subarray(0, 48));
});

test('B moves absent from A are appended in B order, duplicates in B each added', () => {
  const K = '463b96181691fc9c';
  const a = encodeBook([{ key: K, move: 0x031c, weight: 1 }]);
  const b = encodeBook([
    { key: K, move: 0x02db, weight: 5 },
    { key: K, move: 0x031c, weight: 2 },
    { key: K, move: 0x031c, weight: 3 },
  ]);
  const out = merge(a, b).bytes;
  assert.deepEqual([0, 1].map((i) => [readEntry(out, i).move, readEntry(out, i).weight]), [
    [0x031c, 6],
    [0x02db, 5],
  ]);
});

test('an unsorted input stops the merge with an error naming it', () => {
  const sorted = vec('mA.bin');
  const unsorted = Buffer.concat([sorted.subarray(48), sorted.subarray(0, 48)]);
  assert.throws(
    () => merge(sorted, unsorted),
    (e: unknown) => e instanceof BookError && e.code === 'ERR_BOOK_UNSORTED' && e.message.startsWith('b.bin: '),
  );
});

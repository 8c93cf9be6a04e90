import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from './format.js';
import { crc32Combine } from './crcCombine.js';
import { RetrievalBuilder, buildRetrieval } from './retrievalBuilder.js';
import { RetrievalRange, isSolved, type RangePieces } from './retrievalRange.js';
import { randomKeys, xorshift32 } from '../../../test/support/randomKeys.js';

/** Keys sorted by (hi, lo), as a book's rows come. */
function sortedKeys(n: number, bits: number, seed: number): { hi: Uint32Array; lo: Uint32Array; values: Uint32Array } {
  const k = randomKeys(n, bits, seed);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => k.hi[a]! - k.hi[b]! || k.lo[a]! - k.lo[b]!);
  return { hi: Uint32Array.from(order, (i) => k.hi[i]!), lo: Uint32Array.from(order, (i) => k.lo[i]!), values: Uint32Array.from(order, (i) => k.values[i]!) };
}

/** The structure assembled from key ranges cut at `cuts` (high halves), each built on its own. */
function assembled(k: ReturnType<typeof sortedKeys>, bits: number, partitionBits: number, cuts: number[]): Uint8Array {
  const bounds = [0, ...cuts, 2 ** 32];
  const pieces: { parts: RangePieces; slots: Uint8Array[] }[] = [];
  let i = 0;
  for (let r = 0; r + 1 < bounds.length; r++) {
    const slots: Uint8Array[] = [];
    const range = new RetrievalRange({ bits, partitionBits, from: bounds[r]!, to: bounds[r + 1]! }, (s) => slots.push(s.slice()));
    for (; i < k.hi.length && k.hi[i]! < bounds[r + 1]!; i++) range.add(k.hi[i]!, k.lo[i]!, k.values[i]!);
    pieces.push({ parts: range.finish(), slots });
  }
  const chunks: Uint8Array[] = [];
  const b = new RetrievalBuilder({ bits, partitionBits }, (c) => chunks.push(c));
  let solved = 0;
  for (const { parts, slots } of pieces) {
    let s = 0;
    for (const p of parts.parts) {
      if (isSolved(p)) {
        b.addSolved(p.partition, p.keys, { seed: p.seed, log2: p.log2, segments: p.segments, data: slots[s++]! });
        solved++;
      } else b.addMany(p.hi, p.lo, p.values);
    }
  }
  b.finish();
  assert.ok(solved > 0 || partitionBits === 0);
  return Buffer.concat(chunks);
}

test('a retrieval structure built in key ranges and assembled is the one built whole, byte for byte', () => {
  const bits = 17;
  const k = sortedKeys(60_000, bits, 7);
  for (const [partitionBits, cuts] of [
    [0, [2 ** 31]], // one partition, shared by both ranges: solved by the assembler
    [3, [2 ** 31]], // ranges on partition boundaries: every partition solved in its range
    [3, [0x55000000, 0xab000000]], // three ranges, two partitions shared
    [5, [0x01000000, 0x02000000, 0xff000000]], // an empty-ish range, a range inside one partition
  ] as [number, number[]][]) {
    const whole = buildRetrieval(k.hi, k.lo, k.values, { bits, partitionBits });
    assert.ok(Buffer.from(assembled(k, bits, partitionBits, cuts)).equals(Buffer.from(whole)), `partition bits ${partitionBits}, cuts ${cuts.join(',')}`);
  }
});

test('crc32Combine gives the CRC-32 of two strings one after the other', () => {
  const r = xorshift32(3);
  const bytes = Uint8Array.from({ length: 100_000 }, () => r() & 255);
  for (const cut of [0, 1, 3, 4096, 65_537, 99_999, 100_000]) {
    const a = bytes.subarray(0, cut);
    const b = bytes.subarray(cut);
    assert.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(bytes), `cut at ${cut}`);
  }
  // Known value: CRC-32 of "123456789" is 0xcbf43926 (the standard check value).
  const check = new TextEncoder().encode('123456789');
  assert.equal(crc32Combine(crc32(check.subarray(0, 4)), crc32(check.subarray(4)), 5), 0xcbf43926);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectCompression } from './compression.js';

test('compression is told by the first bytes', () => {
  const cases: [number[] | string, string | undefined][] = [
    [[0x1f, 0x8b, 0x08, 0x00], 'gzip'],
    [[0x28, 0xb5, 0x2f, 0xfd], 'zstd'],
    [[0x5e, 0x2a, 0x4d, 0x18], 'zstd'], // a skippable frame first (RFC 8878 §3.1.2)
    ['BZh9', 'bzip2'],
    ['BZh0', undefined],
    ['[Event "x"]', undefined],
    ['1. e4', undefined],
    [[0x28, 0xb5, 0x2f], undefined], // too short to be a zstd frame
    [[], undefined],
  ];
  for (const [head, want] of cases) {
    const bytes = typeof head === 'string' ? new TextEncoder().encode(head) : Uint8Array.from(head);
    assert.equal(detectCompression(bytes), want, String(head));
  }
});

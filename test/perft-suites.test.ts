/**
 * Perft suites from ../shared/data/suites: every standard position to depth 4 and a spread
 * of them to depth 5; every Chess960 position to depth 3 and a spread to depth 4. The full
 * suites (standard to 5 or 6, 960 to 4 or more) run with
 * `tabiya perft --suite FILE --max-depth N`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { perft } from '../src/core/perft.js';
import { positionFromFen } from '../src/notation/fen.js';
import { perftSuite } from './support/perftSuite.js';
import { unwrap } from '../src/core/result.js';

function check(entries: { fen: string; counts: Map<number, number> }[], depthOf: (i: number) => number): number {
  let checked = 0;
  entries.forEach((e, i) => {
    const pos = unwrap(positionFromFen(e.fen));
    const maxDepth = depthOf(i);
    for (const [depth, expected] of e.counts) {
      if (depth > maxDepth) continue;
      assert.equal(perft(pos, depth), expected, `${e.fen} depth ${depth}`);
      checked++;
    }
  });
  return checked;
}

test('standard perft suite: all positions to depth 4, every eighth to depth 5', () => {
  const entries = perftSuite('perft_standard.epd');
  assert.equal(entries.length, 128);
  assert.ok(check(entries, (i) => (i % 8 === 0 ? 5 : 4)) > 400);
});

test('Chess960 perft suite: all 960 positions to depth 3, every 24th to depth 4', () => {
  const entries = perftSuite('perft_chess960.epd');
  assert.equal(entries.length, 960);
  assert.ok(check(entries, (i) => (i % 24 === 0 ? 4 : 3)) >= 2880);
});

test('perft without bulk counting equals perft with it', () => {
  const pos = unwrap(positionFromFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'));
  assert.equal(perft(pos, 3, false), 97862);
  assert.equal(perft(pos, 3, true), 97862);
});

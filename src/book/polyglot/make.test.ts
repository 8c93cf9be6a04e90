import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePgn } from '../../pgn/parser.js';
import { BookGameVisitor } from './collect.js';
import { BookAccumulator, COUNT_MAX, sortEntries } from './make.js';
import { readEntry } from './format.js';

const OUT = new URL('../../../../../shared/docs/polyglot-vectors/out/', import.meta.url);

function build(pgn: string, maxPly = 1024): BookAccumulator {
  const acc = new BookAccumulator();
  parsePgn(pgn, new BookGameVisitor({ game: (lo, hi, w, n, r) => acc.addGame(lo, hi, w, 0, n, r) }, maxPly));
  return acc;
}

test('halving at 16384 reproduces polyglot-vectors/out/halving.bin (halving_gen.py input)', () => {
  const games = (n: number, result: string, moves: string): string => `[Result "${result}"]\n\n${moves} ${result}\n\n`.repeat(n);
  const pgn = games(101, '1/2-1/2', '1. d4 d5') + games(16384, '1-0', '1. e4 e5') + games(5, '0-1', '1. e4 e5') + games(3, '1/2-1/2', '1. d4 d5');
  const acc = build(pgn);
  assert.equal(acc.size, 4);
  const book = acc.finish({ minGame: 1 });
  assert.deepEqual(book.bytes, new Uint8Array(readFileSync(new URL('halving.bin', OUT))));
  // e2e4 reached 16384 and the whole start position was halved: d2d4 went from 101 to 51.
  const weights = [0, 1, 2, 3].map((i) => readEntry(book.bytes, i).weight);
  assert.deepEqual(weights, [16384, 54, 10, 104]);
  assert.ok(COUNT_MAX === 16384);
});

test('finish: sum 0 is dropped even with uniform; colours; min-score is a percentage with equality kept', () => {
  // White wins twice with 1.e4, loses once with 1.d4: e4 n=2 sum=4, d4 n=1 sum=0; replies: e5 n=2 sum=0, d5 n=1 sum=2.
  const acc = build('[Result "1-0"]\n1. e4 e5 1-0\n\n[Result "1-0"]\n1. e4 e5 1-0\n\n[Result "0-1"]\n1. d4 d5 0-1\n');
  const count = (o: Parameters<BookAccumulator['finish']>[0]) => acc.finish(o).kept;
  assert.equal(count({ minGame: 1 }), 2); // e4 and d5
  assert.equal(count({ minGame: 1, uniform: true }), 2);
  assert.equal(count({ minGame: 2 }), 1);
  assert.equal(count({ minGame: 1, colour: 'white' }), 1);
  assert.equal(count({ minGame: 1, colour: 'black' }), 1);
  assert.equal(count({ minGame: 1, minScore: 100 }), 2); // both score exactly 100%
  assert.equal(readEntry(acc.finish({ minGame: 1, uniform: true }).bytes, 0).weight, 1);
});

test('max-ply records only the first plies', () => {
  const acc = build('[Result "1-0"]\n1. e4 e5 2. Nf3 Nc6 1-0\n', 3);
  assert.equal(acc.added, 3);
});

test('the accumulator keeps exact counters through table growth', () => {
  const acc = new BookAccumulator(1024);
  let seed = 1;
  const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) | 0);
  const keys: [number, number, number][] = [];
  for (let i = 0; i < 60000; i++) keys.push([rnd(), rnd(), (rnd() >>> 0) % 0x7fff]);
  // The side to move is part of the key, so a key always comes with the same colour.
  const colour = (hi: number): number => hi & 1;
  // Every pair three times (White won: 2 points for White's moves, 0 for Black's), interleaved,
  // then 1000 more moves in positions already seen (draws).
  for (let round = 0; round < 3; round++) for (const [lo, hi, m] of keys) acc.add(lo, hi, m, colour(hi), 1);
  for (const [lo, hi, m] of keys.slice(0, 1000)) acc.add(lo, hi, (m + 1) % 0x7fff, colour(hi), 0);
  assert.equal(acc.size, 61000);
  assert.equal(acc.added, 181000);
  for (let e = 0; e < 60000; e += 997) {
    const x = acc.entry(e);
    const [lo, hi, m] = keys[e]!;
    assert.deepEqual([x.keyLo, x.keyHi, x.move, x.colour, x.n, x.sum], [lo, hi, m, colour(hi), 3, colour(hi) === 0 ? 6 : 0], `entry ${e}`);
  }
  assert.deepEqual([acc.entry(60500).n, acc.entry(60500).sum], [1, 1]);
});

test('radix and comparison sorts agree: key ascending, weight descending, first seen first', () => {
  let seed = 7;
  const rnd = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) % n;
  const n = 20000;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const w = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const k = rnd(3000);
    hi[i] = k % 7 === 0 ? 0xffffffff - k : k * 2654435761;
    lo[i] = k % 5 === 0 ? 0x80000000 + k : k;
    w[i] = rnd(4) === 0 ? 65535 : rnd(6);
  }
  const radix = sortEntries(n, hi, lo, w);
  const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    if (hi[a] !== hi[b]) return hi[a]! < hi[b]! ? -1 : 1;
    if (lo[a] !== lo[b]) return lo[a]! < lo[b]! ? -1 : 1;
    return w[b]! - w[a]! || a - b;
  });
  assert.deepEqual(Array.from(radix), expected);
  const small = sortEntries(100, hi, lo, w);
  assert.deepEqual(Array.from(small), expected.filter((i) => i < 100));
});

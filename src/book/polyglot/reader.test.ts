import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CASTLING, KIND_MASK } from '../../core/move.js';
import { unwrap } from '../../core/result.js';
import { positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import { encodeMove } from './format.js';
import { PolyglotReader, sizeError, sniffNonBook } from './reader.js';
import { BookError, seededRandom, type BookMove } from './select.js';
import { encodeBook } from './writer.js';

const OUT = new URL('../../../../../shared/docs/polyglot-vectors/out/', import.meta.url);
const START = '463b96181691fc9c';

function book(name: string): PolyglotReader {
  return unwrap(PolyglotReader.from(readFileSync(new URL(name, OUT)), name));
}
const start = () => unwrap(positionFromFen(STARTING_FEN));
const ucis = (ms: BookMove[]): string[] => ms.map((m) => m.uci);
/** A random() that returns the given values in turn. */
const sequence = (...xs: number[]) => () => xs.shift()!;

test('the start position of main_min1.bin: moves in file order, find/get the heaviest', () => {
  const b = book('main_min1.bin');
  assert.equal(b.size, 38);
  assert.deepEqual(b.warnings, []);
  const moves = b.moves(start());
  assert.deepEqual(ucis(moves), ['e2e4', 'h2h4', 'd2d4', 'c2c4']);
  assert.deepEqual(moves.map((m) => m.weight), [4, 3, 1, 1]);
  assert.equal(b.find(start())?.uci, 'e2e4');
  assert.equal(b.get(start()).uci, 'e2e4');
  assert.equal(b.find(start(), { exclude: ['e2e4'] })?.uci, 'h2h4');
  assert.equal(b.find(start(), { exclude: [moves[0]!.move, moves[1]!.move] })?.uci, 'd2d4', 'ties go to the first in the file');
  assert.deepEqual(ucis(b.moves(start(), { minWeight: 3 })), ['e2e4', 'h2h4']);
});

test('choose: best, weighted by an injected random draw, uniform', () => {
  const b = book('main_min1.bin');
  // Weights 4, 3, 1, 1 (total 9): a draw d picks the first move whose running total exceeds d.
  const table: [number, string][] = [
    [0, 'e2e4'],
    [3.99 / 9, 'e2e4'],
    [4 / 9, 'h2h4'],
    [6.99 / 9, 'h2h4'],
    [7 / 9, 'd2d4'],
    [8 / 9, 'c2c4'],
    [0.9999, 'c2c4'],
  ];
  for (const [r, uci] of table) assert.equal(b.choose(start(), { policy: 'weighted', random: sequence(r) })?.uci, uci, `draw ${r}`);
  assert.equal(b.choose(start(), { policy: 'best', random: sequence(0.99) })?.uci, 'e2e4');
  assert.deepEqual([0, 0.25, 0.5, 0.75].map((r) => b.choose(start(), { policy: 'uniform', random: sequence(r) })?.uci), ['e2e4', 'h2h4', 'd2d4', 'c2c4']);
  // A seeded generator makes weighted picks reproducible and follows the weights.
  const counts = new Map<string, number>();
  const rng = seededRandom(42);
  for (let i = 0; i < 9000; i++) {
    const u = b.choose(start(), { random: rng })!.uci;
    counts.set(u, (counts.get(u) ?? 0) + 1);
  }
  assert.ok(Math.abs(counts.get('e2e4')! - 4000) < 250 && Math.abs(counts.get('c2c4')! - 1000) < 150, JSON.stringify([...counts]));
  const again = seededRandom(42);
  assert.equal(b.choose(start(), { random: again })!.uci, b.choose(start(), { random: seededRandom(42) })!.uci);
});

test('options from untyped code: a misspelt policy or a value of the wrong kind is an error naming it, in the book or out of it', () => {
  const b = book('main_min1.bin');
  const outOfBook = unwrap(positionFromFen('8/8/8/4k3/8/8/8/4K3 w - - 0 1'));
  for (const pos of [start(), outOfBook]) {
    // Before, 'Best' and 'weigted' played weighted picks, minWeight 'x' dropped nothing and a
    // string's exclude was read letter by letter, so 'e2e4' was still played.
    assert.throws(() => b.choose(pos, { policy: 'Best' as 'best' }), /^RangeError: policy "Best" is not one of best, weighted, uniform$/);
    assert.throws(() => b.choose(pos, { policy: 'weigted' as 'weighted' }), /^RangeError: policy "weigted" is not one of/);
    assert.throws(() => b.moves(pos, { minWeight: 'x' as unknown as number }), /^TypeError: minWeight "x" is not a number$/);
    assert.throws(() => b.find(pos, { minWeight: NaN }), /^TypeError: minWeight NaN is not a number$/);
    assert.throws(() => b.choose(pos, { exclude: 'e2e4' as unknown as string[] }), /^TypeError: exclude is a list of moves \(UCI strings or core moves\), not "e2e4"$/);
    assert.throws(() => b.choose(pos, { random: 7 as unknown as () => number }), /^TypeError: random is a function/);
  }
  assert.equal(b.choose(start(), { policy: 'best', minWeight: 0, exclude: [], random: seededRandom(1) })?.uci, 'e2e4');
});

test('castling entries (king takes rook) come out as castling moves', () => {
  const b = book('main_min1.bin');
  const pos = unwrap(positionFromFen('r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4'));
  const [m] = b.moves(pos);
  assert.equal(m!.uci, 'e1g1');
  assert.equal(m!.raw, 0x0107);
  assert.equal(m!.move & KIND_MASK, CASTLING);
  const black = unwrap(positionFromFen('r3kbnr/pppqpppp/2n5/3p1b2/3P1B2/2N5/PPPQPPPP/2KR1BNR b kq - 7 5'));
  assert.equal(b.find(black)?.uci, 'e8c8');
});

test('illegal and garbage entries are skipped; weight 0 only with minWeight 0', () => {
  const pos = start();
  const e4 = encodeMove(unwrap(parseUci(pos, 'e2e4')));
  const d4 = encodeMove(unwrap(parseUci(pos, 'd2d4')));
  const bytes = encodeBook([
    { key: START, move: 0, weight: 50 }, // a0a0
    { key: START, move: 0x0124, weight: 40 }, // e4e4
    { key: START, move: 0x0106, weight: 30 }, // e1g1: not a move here
    { key: START, move: e4 | 0x8000, weight: 20 }, // bit 15
    { key: START, move: e4, weight: 10, learn: 0x00030004 },
    { key: START, move: d4, weight: 0 },
    { key: '823c9b50fd114196', move: e4, weight: 99 }, // another key
  ]);
  const b = unwrap(PolyglotReader.from(bytes, 'garbage.bin'));
  assert.deepEqual(ucis(b.moves(pos)), ['e2e4']);
  assert.equal(b.moves(pos)[0]!.learn, 0x00030004);
  assert.deepEqual(ucis(b.moves(pos, { minWeight: 0 })), ['e2e4', 'd2d4']);
  assert.equal(b.entriesOf(pos.keyHi, pos.keyLo).length, 6);
});

test('an empty book is valid, with a warning; get fails with a named error', () => {
  const b = unwrap(PolyglotReader.from(new Uint8Array(0), 'empty.bin'));
  assert.equal(b.size, 0);
  assert.deepEqual(b.warnings, ['empty.bin: the book is empty (0 entries)']);
  assert.equal(b.find(start()), undefined);
  assert.throws(() => b.get(start()), (e: unknown) => e instanceof BookError && e.code === 'ERR_BOOK_NO_MOVE' && e.message.includes('empty.bin'));
});

test('a size that is not a multiple of 16 is refused with the file and the byte named', () => {
  const full = readFileSync(new URL('main_min1.bin', OUT));
  for (const cut of [Buffer.concat([full, Buffer.from([10])]), full.subarray(0, full.length - 3)]) {
    const r = PolyglotReader.from(cut, 'smallbook.bin');
    assert.ok(!r.ok);
    assert.equal(r.error.code, 'ERR_BOOK_SIZE');
    assert.equal(r.error.file, 'smallbook.bin');
    assert.equal(r.error.offset, cut.length - (cut.length % 16));
    assert.match(r.error.message, new RegExp(`^smallbook\\.bin: size ${cut.length} is not a multiple of 16`));
  }
});

test('a .tbk given as a .bin is named as one', () => {
  const r = PolyglotReader.from(Buffer.concat([Buffer.from('TBKBOOK\n'), Buffer.alloc(248)]), 'rich.bin');
  assert.ok(!r.ok && r.error.code === 'ERR_BOOK_NOT_A_BOOK' && /rich\.bin: not a Polyglot book \(it looks like a tabiya rich book \(\.tbk\)/.test(r.error.message));
});

test('unsorted files and files that are not books are refused with the file named', () => {
  const full = Buffer.from(readFileSync(new URL('main_min1.bin', OUT)));
  const swapped = Buffer.concat([full.subarray(16, 32), full.subarray(0, 16), full.subarray(32)]);
  const r = PolyglotReader.from(swapped, 'swapped.bin');
  assert.ok(!r.ok && r.error.code === 'ERR_BOOK_UNSORTED' && r.error.message.startsWith('swapped.bin: ') && r.error.message.includes('entry 1'));
  const pgn = PolyglotReader.from(readFileSync(new URL('../pgn/main.pgn', OUT)), 'main.pgn');
  assert.ok(!pgn.ok && pgn.error.code === 'ERR_BOOK_NOT_A_BOOK' && /main\.pgn: .*PGN/.test(pgn.error.message));
  assert.match(sniffNonBook(Uint8Array.from([0x1f, 0x8b, 8, 0])) ?? '', /gzip/);
  assert.equal(sniffNonBook(full), undefined);
});

test('sizeError: a file shorter than one entry is said to be so, not "after entry -1"', () => {
  const text = new TextEncoder().encode('hello\n');
  assert.equal(
    sizeError('t.bin', text.length, text)?.message,
    't.bin: size 6 is not a multiple of 16: a Polyglot book is whole 16-byte entries, so the file is truncated or damaged (not even one entry)',
  );
  assert.match(sizeError('s.bin', 603, new Uint8Array(16))!.message, /\(11 bytes after entry 36\)$/);
});

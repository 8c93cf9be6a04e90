/**
 * What the `.tbk` reader checks, and when: the whole file's checksum for bytes in memory; the
 * header always; key order along each lookup and every entry decoded for a book read through
 * positional reads (where the checksum is not read). Every failure is a BookError naming the
 * book and the byte where the damage was found.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { parseSan } from '../../notation/san.js';
import { parsePgn } from '../../pgn/parser.js';
import { BookError } from '../polyglot/select.js';
import { RichGameVisitor } from './build.js';
import {
  E_DRAWS, E_ELO_SUM, E_EVAL, E_FLAGS, E_LOSSES, E_RATED, E_USER, E_WINS, ENTRY_SIZE, FLAG_EXACT, bookChecksum, putU16, putU32, readHeader,
} from './format.js';
import { RichBook, type ByteSource } from './reader.js';
import { RichTable } from './table.js';
import { encodeBook } from './writer.js';

const GAMES = [
  '[White "Kasparov"]\n[Black "Karpov"]\n[Result "1-0"]\n[WhiteElo "2800"]\n[BlackElo "2750"]\n\n1. e4 e5 2. Nf3 Nc6 1-0',
  '[White "Tal"]\n[Black "Petrosian"]\n[Result "0-1"]\n[WhiteElo "2650"]\n\n1. e4 e5 2. Bc4 0-1',
  '[White "Anand"]\n[Black "Kramnik"]\n[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2',
  '[White "Carlsen"]\n[Black "Caruana"]\n[Result "1-0"]\n[WhiteElo "2860"]\n[BlackElo "2820"]\n\n1. e4 c5 2. Nf3 d6 1-0',
].join('\n\n');

function bookBytes(): Uint8Array {
  const t = new RichTable();
  const v = new RichGameVisitor(t, 1024);
  parsePgn(GAMES, v);
  return encodeBook(t, { flags: FLAG_EXACT, games: v.games, maxPly: 1024, minGames: 0, learnedGames: 0, changes: 1, created: 0, meta: { test: true } });
}

const BYTES = bookBytes();
const HEADER = readHeader(BYTES, BYTES.length) as Exclude<ReturnType<typeof readHeader>, string>;
const FIRST = HEADER.entriesOffset;

/** The same bytes read through positional reads (as a large book on disk is). */
const source = (bytes: Uint8Array): ByteSource => ({ size: bytes.length, read: (o, n) => bytes.subarray(o, o + n) });

/** `bytes` with the checksum written again, as a tool that does not know better would. */
function resealed(bytes: Uint8Array): Uint8Array {
  putU32(bytes, 24, bookChecksum(bytes));
  return bytes;
}

function start(): Position {
  return unwrap(positionFromFen(STARTING_FEN));
}

/** Every stored move of every position on the games' lines (what probing the whole book reads). */
function probeAll(book: RichBook): number {
  let n = 0;
  for (const line of ['', 'e4', 'e4 e5', 'e4 e5 Nf3', 'e4 e5 Bc4', 'd4', 'd4 d5', 'e4 c5', 'e4 c5 Nf3']) {
    const pos = start();
    for (const s of line.split(' ').filter((w) => w !== '')) pos.play(unwrap(parseSan(pos, s)));
    n += book.probe(pos).length;
  }
  return n;
}

function isBookError(code: string, offset?: number): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof BookError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.file, 'x.tbk');
    assert.ok(e.message.startsWith('x.tbk: '), e.message);
    if (offset !== undefined) assert.equal(e.offset, offset, e.message);
    return true;
  };
}

test('a book in memory is checked whole: any byte changed is refused, naming the file', () => {
  assert.equal(probeAll(unwrap(RichBook.open(BYTES, 'x.tbk'))), 10);
  for (let at = 0; at < BYTES.length; at += 7) {
    const bad = BYTES.slice();
    bad[at]! ^= 0x10;
    const r = RichBook.open(bad, 'x.tbk');
    assert.ok(!r.ok, `a change at byte ${at} is not noticed`);
    assert.ok(r.error.code === 'ERR_TBK_CHECKSUM' || r.error.code === 'ERR_TBK_HEADER', r.error.code);
    assert.match(r.error.message, /^x\.tbk: /);
  }
  // The count that showed as 4294967296 games: a win count turned to 2^32 - 1.
  const bad = BYTES.slice();
  putU32(bad, FIRST + E_WINS, 0xffffffff);
  const r = RichBook.open(bad, 'x.tbk');
  assert.ok(!r.ok && r.error.code === 'ERR_TBK_CHECKSUM' && /x\.tbk: checksum mismatch \(stored [0-9a-f]{8}, computed [0-9a-f]{8}\): the file is damaged/.test(r.error.message));
  // Asked not to, it does not read the checksum (book info reports it itself).
  assert.ok(RichBook.open(bad, 'x.tbk', { verify: false }).ok);
});

test('the header: sizes against the file size, flags, reserved bytes and the options block', () => {
  const cases: [string, (b: Uint8Array) => void, RegExp][] = [
    ['extended', () => {}, /truncated or damaged: the header announces 10 entries \(768 bytes\), the file has 832 bytes/],
    ['flags', (b) => putU16(b, 14, 0x80), /damaged header \(unknown flags 0x80 at byte 14\)/],
    ['reserved', (b) => (b[60] = 1), /damaged header \(reserved byte 60 is not zero\)/],
    ['options', (b) => b.set(new TextEncoder().encode('[1,2]'.padEnd(HEADER.entriesOffset - 64)), 64), /damaged options block \(not a JSON object, bytes 64\.\.127\)/],
    ['entries', (b) => putU32(b, 20, 0x7fffffff), /the header announces 2147483647 entries/],
  ];
  for (const [name, change, message] of cases) {
    let bad = BYTES.slice();
    if (name === 'extended') bad = Uint8Array.from([...BYTES, ...new Uint8Array(ENTRY_SIZE)]);
    change(bad);
    for (const data of [resealed(bad), source(resealed(bad))]) {
      const r = RichBook.open(data, 'x.tbk');
      assert.ok(!r.ok, name);
      assert.ok(isBookError('ERR_TBK_HEADER')(r.error));
      assert.match(r.error.message, message, name);
    }
  }
});

test('through positional reads: every entry read is checked, so damage shows as an error with its byte', () => {
  assert.equal(probeAll(unwrap(RichBook.open(source(BYTES), 'x.tbk'))), 10);
  const entry = 3;
  const o = FIRST + entry * ENTRY_SIZE;
  const cases: [string, (b: Uint8Array) => void, RegExp][] = [
    ['games', (b) => (putU32(b, o + E_WINS, 0xffffffff), putU32(b, o + E_DRAWS, 1), putU32(b, o + E_LOSSES, 0)), /4294967296 games is more than the format counts/],
    ['flags', (b) => (b[o + E_FLAGS] = 0x40), /unknown flags 0x40/],
    ['user', (b) => (b[o + E_USER] = 200), /user value 200 is not 0\.\.100/],
    ['rated', (b) => putU32(b, o + E_RATED, 1000), /1000 rated games of \d+/],
    ['elo', (b) => b.fill(0xff, o + E_ELO_SUM, o + E_ELO_SUM + 8), /rating sum NaN/],
    ['eval', (b) => putU16(b, o + E_EVAL, 500), /evaluation 500 over 0 games/],
  ];
  for (const [name, change, message] of cases) {
    const bad = BYTES.slice();
    change(bad);
    const onDisk = unwrap(RichBook.open(source(bad), 'x.tbk'));
    assert.throws(() => probeAll(onDisk), isBookError('ERR_TBK_ENTRY', o), name);
    assert.throws(() => onDisk.entry(entry), (e: unknown) => e instanceof BookError && message.test(e.message) && e.message.startsWith(`x.tbk: entry ${entry} (byte ${o}) is damaged: `));
    // A file whose checksum was written again over the damage is refused the same way in memory.
    assert.throws(() => probeAll(unwrap(RichBook.open(resealed(bad), 'x.tbk'))), isBookError('ERR_TBK_ENTRY', o), name);
  }
});

test('through positional reads: entries out of order fail the lookup that meets them instead of missing moves', () => {
  const n = HEADER.entries;
  for (const [i, j] of [[0, n - 1], [5, 6], [1, n - 2]]) {
    const bad = BYTES.slice();
    const a = bad.slice(FIRST + i * ENTRY_SIZE, FIRST + (i + 1) * ENTRY_SIZE);
    bad.copyWithin(FIRST + i * ENTRY_SIZE, FIRST + j * ENTRY_SIZE, FIRST + (j + 1) * ENTRY_SIZE);
    bad.set(a, FIRST + j * ENTRY_SIZE);
    const onDisk = unwrap(RichBook.open(source(bad), 'x.tbk'));
    assert.throws(() => probeAll(onDisk), isBookError('ERR_TBK_UNSORTED'), `${i} <-> ${j}`);
  }
});

test('a file that is not a .tbk says what it looks like', () => {
  const bin = new Uint8Array(64);
  for (let i = 0; i < 4; i++) bin[i * 16] = i;
  const cases: [Uint8Array, RegExp][] = [
    [bin, /x\.tbk: not a \.tbk book \(it looks like a Polyglot \.bin book: the book commands pick the format by the file name, so name it \.bin\)/],
    [new TextEncoder().encode('[Event "x"]\n[White "a"]\n\n1. e4 e5 *\n'), /x\.tbk: not a \.tbk book \(it looks like a PGN file\)/],
    [Uint8Array.from([0x1f, 0x8b, 8, 0, ...new Uint8Array(60)]), /x\.tbk: not a \.tbk book \(it looks like gzip-compressed data/],
    [new Uint8Array(10), /x\.tbk: too short for a \.tbk book \(10 bytes\)/],
  ];
  for (const [bytes, message] of cases) {
    const r = RichBook.open(bytes, 'x.tbk');
    assert.ok(!r.ok && r.error.code === 'ERR_TBK_HEADER' && message.test(r.error.message), r.ok ? 'opened' : r.error.message);
  }
  const flipped = BYTES.slice();
  flipped[0]! ^= 1;
  const r = RichBook.open(flipped, 'x.tbk');
  assert.ok(!r.ok && r.error.message === 'x.tbk: not a .tbk book (bad signature)', r.ok ? 'opened' : r.error.message);
});

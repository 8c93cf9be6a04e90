import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../core/result.js';
import { encodeMove } from '../book/polyglot/format.js';
import { PolyglotReader } from '../book/polyglot/reader.js';
import { encodeBook } from '../book/polyglot/writer.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import { parseUci } from '../notation/uci.js';
import { BookOpenings, OpeningList, parseEpdOpenings, parsePgnOpenings } from './openings.js';

test('EPD suites: FEN lines and EPD lines are read, bad lines named and skipped', () => {
  const text = [
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ;id "1";',
    '',
    '# comment',
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
    'not a position',
    '8/8/8/8/8/8/8/8 w - -',
  ].join('\n');
  const { openings, errors } = parseEpdOpenings(text, 'suite.epd');
  assert.deepEqual(openings.map((o) => o.source), ['suite.epd:1', 'suite.epd:4']);
  assert.equal(openings[1]!.fen, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
  assert.deepEqual(errors.map((e) => e.line), [5, 6]);
});

test('PGN openings: main line in UCI, cut at plies, FEN tags, broken games skipped', () => {
  const pgn = [
    '[Event "a"]',
    '',
    '1. e4 c5 (1... e5) 2. Nf3 d6 3. d4 1/2-1/2',
    '',
    '[Event "b"]',
    '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]',
    '[SetUp "1"]',
    '',
    '1. e4 Kd7 *',
    '',
    '[Event "c"]',
    '',
    '1. e4 e4 *',
    '',
  ].join('\n');
  const all = parsePgnOpenings(pgn, 'o.pgn');
  assert.deepEqual(all.openings.map((o) => o.moves), [['e2e4', 'c7c5', 'g1f3', 'd7d6', 'd2d4'], ['e2e4', 'e8d7']]);
  assert.equal(all.openings[1]!.fen, '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1');
  assert.equal(all.errors.length, 1);
  // The error points at the bad move, on the game's movetext line.
  assert.equal(all.errors[0]!.line, 13);
  const cut = parsePgnOpenings(pgn, 'o.pgn', 3);
  assert.deepEqual(cut.openings[0]!.moves, ['e2e4', 'c7c5', 'g1f3']);
});

test('PGN openings: a null move (--, Z0, 0000) ends the opening there, and each such opening is listed', () => {
  const pgn = ['[Event "a"]', '', '1. e4 e5 2. Nf3 -- 3. Bc4 *', '', '[Event "b"]', '', '1. d4 Z0 2. c4 *', '', '[Event "c"]', '', '1. c4 0000 2. Nc3 *', '', '[Event "d"]', '', '1. Nf3 d5 *', ''].join('\n');
  const r = parsePgnOpenings(pgn, 'o.pgn');
  assert.deepEqual(r.openings.map((o) => o.moves), [['e2e4', 'e7e5', 'g1f3'], ['d2d4'], ['c2c4'], ['g1f3', 'd7d5']]);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(
    r.shortened.map((s) => `${s.file}:${s.line}: ${s.message}`),
    ['o.pgn:1: game 1: a null move at 2... ends the opening after 3 plies', 'o.pgn:5: game 2: a null move at 1... ends the opening after 1 ply', 'o.pgn:9: game 3: a null move at 1... ends the opening after 1 ply'],
  );
  // Cut by plies= before the null move: the opening is whole, nothing to say.
  assert.deepEqual(parsePgnOpenings(pgn, 'o.pgn', 1).shortened, []);
  assert.match(parsePgnOpenings(pgn, 'o.pgn', 5).shortened[0]!.message, /after 3 plies \(of plies=5\)$/);
});

test('order: sequential from start, random by seed (reproducible), wrapping around', () => {
  const list = Array.from({ length: 10 }, (_, i) => ({ fen: STARTING_FEN, moves: [], source: `s:${i + 1}` }));
  const seq = new OpeningList(list, { order: 'sequential', start: 3, seed: 1 });
  assert.deepEqual([0, 1, 7, 8, 10].map((k) => seq.get(k).source), ['s:3', 's:4', 's:10', 's:1', 's:3']);
  const r1 = new OpeningList(list, { order: 'random', start: 1, seed: 42 });
  const r2 = new OpeningList(list, { order: 'random', start: 1, seed: 42 });
  const r3 = new OpeningList(list, { order: 'random', start: 1, seed: 43 });
  const a = Array.from({ length: 10 }, (_, k) => r1.get(k).source);
  assert.deepEqual(a, Array.from({ length: 10 }, (_, k) => r2.get(k).source));
  assert.notDeepEqual(a, Array.from({ length: 10 }, (_, k) => r3.get(k).source));
  assert.equal(new Set(a).size, 10);
  assert.throws(() => new OpeningList([], { order: 'sequential', start: 1, seed: 0 }), RangeError);
});

test('book openings follow the book to its end or the ply limit, the same line for the same k', () => {
  // A tiny book: 1. e4 (weight 3) or 1. d4 (weight 1); after 1. e4 only 1... c5.
  const pos = unwrap(positionFromFen(STARTING_FEN));
  const key = (p: typeof pos) => ({ hi: p.keyHi >>> 0, lo: p.keyLo >>> 0 });
  const e4 = unwrap(parseUci(pos, 'e2e4'));
  const d4 = unwrap(parseUci(pos, 'd2d4'));
  const entries = [
    { key: key(pos), move: encodeMove(e4), weight: 3 },
    { key: key(pos), move: encodeMove(d4), weight: 1 },
  ];
  pos.play(e4);
  entries.push({ key: key(pos), move: encodeMove(unwrap(parseUci(pos, 'c7c5'))), weight: 5 });
  const book = unwrap(PolyglotReader.from(encodeBook(entries), 'tiny.bin'));
  const src = new BookOpenings(book, 8, 7);
  const lines = Array.from({ length: 40 }, (_, k) => src.get(k).moves.join(' '));
  assert.ok(lines.every((l) => l === 'e2e4 c7c5' || l === 'd2d4'));
  assert.ok(lines.includes('d2d4') && lines.includes('e2e4 c7c5'));
  assert.equal(src.get(5).moves.join(' '), lines[5]);
  assert.deepEqual(new BookOpenings(book, 1, 7).get(0).moves.length, 1);
});

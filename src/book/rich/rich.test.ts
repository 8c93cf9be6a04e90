import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { parseSan } from '../../notation/san.js';
import { parsePgn } from '../../pgn/parser.js';
import { AnnotateVisitor, nagValue, parseUserValue, setUserValue } from './annotate.js';
import { RichGameVisitor } from './build.js';
import { FLAG_EXACT, FLAG_MERGED, bookChecksum, crc32, readHeader } from './format.js';
import { learnInto } from './learn.js';
import { loadTable } from './load.js';
import { mergeRich } from './merge.js';
import { RichBook } from './reader.js';
import { RichTable } from './table.js';
import { encodeBook, type BookInfo } from './writer.js';

const startPos = (): Position => unwrap(positionFromFen(STARTING_FEN));

const INFO: BookInfo = { flags: FLAG_EXACT, games: 0, maxPly: 1024, minGames: 0, learnedGames: 0, changes: 1, created: 0, meta: { test: true } };

function build(pgn: string, maxPly = 1024): RichBook {
  const t = new RichTable();
  const v = new RichGameVisitor(t, maxPly);
  parsePgn(pgn, v);
  return unwrap(RichBook.open(encodeBook(t, { ...INFO, games: v.games }), 'test.tbk'));
}

/** The position after SAN moves from the start. */
function after(sans: string): Position {
  const pos = startPos();
  for (const s of sans.split(' ').filter((w) => w !== '')) pos.play(unwrap(parseSan(pos, s)));
  return pos;
}

function statsOf(book: RichBook, sans: string, san: string) {
  const pos = after(sans);
  const m = unwrap(parseSan(pos, san));
  return book.probe(pos).find((e) => e.move === m);
}

const GAMES = `
[White "A"] [Black "B"] [Result "1-0"] [WhiteElo "2500"] [BlackElo "2400"]
1. e4 e5 2. Nf3 Nc6 1-0

[White "C"] [Black "D"] [Result "0-1"] [WhiteElo "2600"]
1. e4 e5 2. Bc4 0-1

[White "E"] [Black "F"] [Result "1/2-1/2"]
1. d4 d5 1/2-1/2

[White "G"] [Black "H"] [Result "*"]
1. e4 c5 *
`;

test('CRC-32 is the IEEE one (check value of "123456789")', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
});

test('fixed statistics: W/D/L from the mover\'s side, ratings, unfinished games only in make-book\'s counters', () => {
  const book = build(GAMES);
  assert.equal(book.header.games, 4);
  const e4 = statsOf(book, '', 'e4')!;
  assert.deepEqual([e4.wins, e4.draws, e4.losses], [1, 0, 1]);
  assert.equal(e4.avgElo, 2550);
  assert.equal(e4.ratedGames, 2);
  // make-book: 3 games (the * one as a draw), sum 2 + 0 + 1
  assert.deepEqual([e4.pgN, e4.pgSum, e4.weight], [3, 3, 3]);
  const e5 = statsOf(book, 'e4', 'e5')!;
  assert.deepEqual([e5.wins, e5.draws, e5.losses], [1, 0, 1]);
  assert.equal(e5.avgElo, 2400);
  assert.equal(e5.ratedGames, 1);
  const d5 = statsOf(book, 'd4', 'd5')!;
  assert.deepEqual([d5.wins, d5.draws, d5.losses, d5.ratedGames], [0, 1, 0, 0]);
  const c5 = statsOf(book, 'e4', 'c5')!;
  assert.deepEqual([c5.wins + c5.draws + c5.losses, c5.pgN, c5.pgSum], [0, 1, 1]);
  assert.equal(statsOf(book, 'e4 e5', 'Bc4')!.losses, 1);
});

test('max-ply stops counting; lookups by key return every stored move in move order', () => {
  const book = build(GAMES, 2);
  assert.equal(statsOf(book, 'e4 e5', 'Nf3'), undefined);
  const start = startPos();
  const all = book.movesOf(start.keyHi, start.keyLo);
  assert.deepEqual(all.map((e) => e.move), [...all.map((e) => e.move)].sort((a, b) => a - b));
  assert.equal(all.length, 2);
  assert.deepEqual(book.movesOf(0x12345678, 0x9abcdef0), []);
});

test('the header round-trips and the checksum covers every byte', () => {
  const t = new RichTable();
  parsePgn(GAMES, new RichGameVisitor(t, 1024));
  const bytes = encodeBook(t, { ...INFO, games: 4, learnedGames: 7, minGames: 2, meta: { inputs: ['x.pgn'] } }, () => true);
  const h = readHeader(bytes, bytes.length);
  assert.ok(typeof h !== 'string');
  assert.equal(h.games, 4);
  assert.equal(h.learnedGames, 7);
  assert.equal(h.minGames, 2);
  assert.deepEqual(h.meta, { inputs: ['x.pgn'] });
  assert.equal(h.checksum, bookChecksum(bytes));
  assert.ok(unwrap(RichBook.open(bytes)).verify().ok);
  for (const at of [3, 30, h.entriesOffset + 13, bytes.length - 1]) {
    const bad = bytes.slice();
    bad[at]! ^= 0x40;
    const r = RichBook.open(bad, 'bad.tbk');
    assert.ok(!r.ok || !r.value.verify().ok, `flip at ${at} not detected`);
  }
  const truncated = RichBook.open(bytes.subarray(0, bytes.length - 64), 'cut.tbk');
  assert.ok(!truncated.ok && /cut\.tbk: truncated/.test(truncated.error.message));
  const notBook = RichBook.open(new Uint8Array(100), 'zero.tbk');
  assert.ok(!notBook.ok && /not a \.tbk book/.test(notBook.error.message));
});

test("user values: Terra's table, glyphs and numbers, clear", () => {
  assert.deepEqual(['!!', '!', '!?', '?!', '?', '??', '0', '42', '100'].map((s) => unwrap(parseUserValue(s))), [100, 75, 15, 15, 0, 0, 0, 42, 100]);
  assert.equal(unwrap(parseUserValue('clear')), 'clear');
  for (const bad of ['101', '-1', '!!!', '', 'x']) assert.ok(!parseUserValue(bad).ok, bad);
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 14].map(nagValue), [75, 0, 100, 0, 15, 15, -1, -1]);
  const t = new RichTable();
  const pos = startPos();
  const r = setUserValue(t, pos.keyLo, pos.keyHi, unwrap(parseSan(pos, 'e4')), 0, 75);
  t.dynWins[r] = 3;
  assert.equal(t.user[r], 75);
  setUserValue(t, pos.keyLo, pos.keyHi, unwrap(parseSan(pos, 'e4')), 0, 'clear');
  assert.equal(t.user[r], 255);
  assert.equal(t.dynWins[r], 0);
});

test("annotate: Terra's example lines (seed 001), no result tokens, the last NAG wins", () => {
  const lines = `[Event: "Line 1"]
1. e4!! c6!? 2.d4!!
[Event: "Line 2"]
1. d4!! Nf6!
2. c4! d6!
[Event: "Line 3"]
1. d4 d5!
2. c4 a6?
[Event "Line 4"]
1. f4! e5 2. Nf3 *
[Event "Line 5"]
1. f4? *
`;
  const t = new RichTable();
  const v = new AnnotateVisitor(t);
  parsePgn(lines, v);
  assert.equal(v.stats.lines, 5);
  assert.equal(v.stats.skipped, 0);
  const book = unwrap(RichBook.open(encodeBook(t, INFO)));
  const value = (sans: string, san: string): number => statsOf(book, sans, san)?.userValue ?? -2;
  assert.equal(value('', 'e4'), 100);
  assert.equal(value('e4', 'c6'), 15);
  assert.equal(value('e4 c6', 'd4'), 100);
  assert.equal(value('', 'd4'), 100, 'line 3 has no NAG on 1.d4: line 2 value stays');
  assert.equal(value('d4', 'Nf6'), 75);
  assert.equal(value('d4 Nf6', 'c4'), 75);
  assert.equal(value('d4 Nf6 c4', 'd6'), 75);
  assert.equal(value('d4', 'd5'), 75);
  assert.equal(value('d4 d5 c4', 'a6'), 0);
  assert.equal(value('d4 d5', 'c4'), -2, 'a move without a NAG gets no entry');
  assert.equal(value('', 'f4'), 0, 'f4! then f4?: the last one wins');
});

const LEARN_BOOK = `
[Result "1-0"] 1. e4 e5 2. Nf3 Nc6 1-0
[Result "0-1"] 1. e4 c5 2. Nf3 d6 0-1
[Result "1/2-1/2"] 1. d4 d5 1/2-1/2
`;

function uciMoves(start: Position, sans: string): number[] {
  const pos = start.clone();
  return sans.split(' ').map((s) => {
    const m = unwrap(parseSan(pos, s));
    pos.play(m);
    return m;
  });
}

test('learning: the player\'s book moves, no learning on user-valued moves, PostBook after the book', () => {
  const { table: t } = loadTable(build(LEARN_BOOK));
  const start = startPos();
  // e4 is user-valued: no learning on it.
  const e4 = t.find(start.keyLo, start.keyHi, unwrap(parseSan(start, 'e4')));
  t.user[e4] = 75;
  const moves = uciMoves(start, 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7');
  const evals = [null, null, null, null, 30, -20, 25, null, 40, null];
  const r = learnInto(t, { start, moves, whiteResult: 1, player: 0, evals }, { postBook: 2 });
  assert.deepEqual(r, { bookMoves: 1, userValued: 1, postBookMoves: 2, postBookNew: 2, bookEnd: 4 });
  const book = unwrap(RichBook.open(encodeBook(t, INFO)));
  const nf3 = statsOf(book, 'e4 e5', 'Nf3')!;
  assert.deepEqual([nf3.dynWins, nf3.dynDraws, nf3.dynLosses, nf3.wins], [1, 0, 0, 1]);
  assert.equal(statsOf(book, '', 'e4')!.dynWins, 0);
  assert.equal(statsOf(book, 'e4 e5 Nf3', 'Nc6')!.dynWins, 0, "the opponent's moves do not learn");
  const bb5 = statsOf(book, 'e4 e5 Nf3 Nc6', 'Bb5')!;
  assert.deepEqual([bb5.postBook, bb5.dynWins, bb5.evalCp, bb5.evalCount, bb5.wins], [true, 1, 30, 1, 0]);
  const ba4 = statsOf(book, 'e4 e5 Nf3 Nc6 Bb5 a6', 'Ba4')!;
  assert.deepEqual([ba4.postBook, ba4.evalCp], [true, 25]);
  assert.equal(statsOf(book, 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6', 'O-O'), undefined, 'only --postbook moves');
  // Black learns a loss on 1...c5 2...d6 (book ends at 3.d4, a White move, so no PostBook for Black).
  const r2 = learnInto(t, { start, moves: uciMoves(start, 'e4 c5 Nf3 d6 d4'), whiteResult: 1, player: 1 }, { postBook: 5 });
  assert.equal(r2.bookMoves, 2);
  assert.equal(r2.postBookMoves, 0);
  // Learning again averages PostBook evaluations.
  learnInto(t, { start, moves, whiteResult: -1, player: 0, evals: [null, null, null, null, 10] }, { postBook: 1 });
  const again = unwrap(RichBook.open(encodeBook(t, INFO)));
  const bb5b = statsOf(again, 'e4 e5 Nf3 Nc6', 'Bb5')!;
  assert.deepEqual([bb5b.dynWins, bb5b.dynLosses, bb5b.evalCp, bb5b.evalCount], [1, 1, 20, 2]);
  assert.equal(statsOf(again, 'e4 c5', 'Nf3')!.dynWins, 0);
  assert.equal(statsOf(again, 'e4', 'c5')!.dynLosses, 1);
});

test('learning: a game that leaves the book and comes back by transposition keeps user values and PostBook apart', () => {
  const { table: t } = loadTable(build(LEARN_BOOK));
  const start = startPos();
  const e4 = t.find(start.keyLo, start.keyHi, unwrap(parseSan(start, 'e4')));
  t.user[e4] = 75;
  // 1.Nf3 leaves the book; 2.Ng1 Ng8 brings back the start position, where 3.e4 is a book move
  // with a user value, then 4.Nf3 is a book move after 1.e4 e5.
  const moves = uciMoves(start, 'Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3');
  const evals = [null, null, 10, null, 40, null, 30];
  const r = learnInto(t, { start, moves, whiteResult: -1, player: 0, evals }, { postBook: 10 });
  assert.deepEqual(r, { bookMoves: 1, userValued: 1, postBookMoves: 2, postBookNew: 2, bookEnd: 0 });
  const book = unwrap(RichBook.open(encodeBook(t, INFO)));
  const e4s = statsOf(book, '', 'e4')!;
  assert.deepEqual([e4s.postBook, e4s.dynLosses, e4s.evalCount], [false, 0, 0], 'a user-valued move does not learn');
  const nf3 = statsOf(book, 'e4 e5', 'Nf3')!;
  assert.deepEqual([nf3.postBook, nf3.dynLosses, nf3.evalCount], [false, 1, 0], 'a book move learns as one');
  const ng1 = statsOf(book, 'Nf3 Nf6', 'Ng1')!;
  assert.deepEqual([ng1.postBook, ng1.dynLosses, ng1.evalCp], [true, 1, 10]);
});

test('learning: a move the game plays again from the same position learns once, in the book and after it', () => {
  const { table: t } = loadTable(build(LEARN_BOOK + '[Result "1/2-1/2"] 1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 1/2-1/2\n'));
  const start = startPos();
  // 2.Nf3 three times in the book (after 1.e4 e5, twice again after 3.Ng1 Nb8 4.Nf3 Nc6 5.Ng1
  // Nb8), then out of it 7.Bc4 8.Bf1 9.Bc4 10.Bf1: each move once in the dynamic W/D/L.
  const moves = uciMoves(start, 'e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Bc4 Nf6 Bf1 Ng8 Bc4 Nf6 Bf1 Ng8 d3');
  const evals = moves.map((_, i) => (i === 12 ? 20 : i === 16 ? -80 : null));
  const r = learnInto(t, { start, moves, whiteResult: 1, player: 0, evals }, { postBook: 3 });
  // Book moves e4, Nf3, Ng1; PostBook Bc4, Bf1 and d3 (the repeats use up none of the three).
  assert.deepEqual(r, { bookMoves: 3, userValued: 0, postBookMoves: 3, postBookNew: 3, bookEnd: 12 });
  const book = unwrap(RichBook.open(encodeBook(t, INFO)));
  assert.deepEqual([statsOf(book, 'e4 e5', 'Nf3')!.dynWins, statsOf(book, 'e4 e5 Nf3 Nc6', 'Ng1')!.dynWins], [1, 1]);
  const bc4 = statsOf(book, 'e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6', 'Bc4')!;
  assert.deepEqual([bc4.postBook, bc4.dynWins, bc4.evalCp, bc4.evalCount], [true, 1, 20, 1]);
  assert.equal(statsOf(book, 'e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Bc4 Nf6 Bf1 Ng8 Bc4 Nf6 Bf1 Ng8', 'd3')!.dynWins, 1);
});

test('learning from a position set up by FEN', () => {
  const { table: t } = loadTable(build(LEARN_BOOK));
  const start = unwrap(positionFromFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'));
  const r = learnInto(t, { start, moves: uciMoves(start, 'e5 Nf3 Nc6'), whiteResult: -1, player: 1 }, {});
  assert.equal(r.bookMoves, 2);
});

test('merge: statistics add up, the first user value wins, --min-games keeps user-valued and learned moves', () => {
  const a = build(GAMES);
  const b = build(LEARN_BOOK);
  const { table: ta } = loadTable(a);
  const { table: tb } = loadTable(b);
  const start = startPos();
  const e4 = unwrap(parseSan(start, 'e4'));
  const d4 = unwrap(parseSan(start, 'd4'));
  ta.user[ta.find(start.keyLo, start.keyHi, e4)] = 15;
  tb.user[tb.find(start.keyLo, start.keyHi, e4)] = 100;
  tb.user[tb.find(start.keyLo, start.keyHi, d4)] = 0;
  const A = unwrap(RichBook.open(encodeBook(ta, { ...INFO, games: 4 }), 'a.tbk'));
  const B = unwrap(RichBook.open(encodeBook(tb, { ...INFO, games: 3 }), 'b.tbk'));
  const m = mergeRich([A, B], 2);
  const merged = unwrap(RichBook.open(encodeBook(m.table, m.info, m.keep)));
  assert.equal(merged.header.games, 7);
  assert.equal(merged.header.flags & (FLAG_EXACT | FLAG_MERGED), FLAG_MERGED);
  const me4 = statsOf(merged, '', 'e4')!;
  assert.deepEqual([me4.wins, me4.draws, me4.losses, me4.userValue], [2, 0, 2, 15]);
  assert.deepEqual([statsOf(merged, '', 'd4')!.draws, statsOf(merged, '', 'd4')!.userValue], [2, 0]);
  assert.equal(statsOf(merged, 'e4 e5', 'Bc4'), undefined, 'one game < --min-games 2');
  assert.equal(statsOf(merged, 'e4 e5', 'Nf3')!.wins, 2);
});

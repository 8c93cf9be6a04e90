import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unwrap } from '../../core/result.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { evalOfComment, learnGame, learnGameSync } from './richLearn.js';
import { openRichBook } from './richFile.js';
import { makeRichBook } from './richMake.js';
import { buildTbk } from './tbkBuild.js';
import { changeNotes } from './tbkFile.js';
import { openAnyRichBook } from './openTbk.js';

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-learn-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

test('evaluations in move comments: engine scores from the mover, [%eval] from White', () => {
  const cases: [string, boolean, number | undefined][] = [
    ['+0.35/12 0.50s', false, 35],
    ['-1.20/9', true, -120],
    ['+M3/20', false, 19997],
    ['-M2', true, -19998],
    ['0.50', false, 50],
    ['[%eval 0.35] [%clk 0:01:00]', false, 35],
    ['[%eval 0.35]', true, -35],
    ['[%eval #-3]', false, -19997],
    ['book', false, undefined],
    ['1 second think', false, undefined],
    ['', false, undefined],
  ];
  for (const [text, black, want] of cases) assert.equal(evalOfComment(text, black), want, text);
});

test("learnGame: the engine's entry point, one change per game, errors name what is wrong", async () => {
  const pgn = join(tmp, 'g.pgn');
  writeFileSync(pgn, '[Result "1-0"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result "0-1"]\n1. d4 d5 0-1\n');
  const book = join(tmp, 'b.tbk');
  await makeRichBook(book, { inputs: [pgn] });
  const r = await learnGame(book, { startFen: STARTING_FEN, moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4'], result: '0-1', engineColor: 0, evals: [null, null, null, null, -40] });
  assert.deepEqual(r, { bookMoves: 2, userValued: 0, postBookMoves: 1, postBookNew: 1, bookEnd: 4 });
  const b = openRichBook(book, { verify: true }).book;
  assert.equal(b.header.learnedGames, 1);
  assert.equal(b.header.changes, 2);
  const pos = unwrap(positionFromFen('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'));
  const bc4 = b.probe(pos).map((e) => [makeUci(e.move, false), e.postBook, e.dynLosses, e.evalCp, e.evalCount]);
  assert.deepEqual(bc4, [['f1c4', true, 1, -40, 1]]);
  assert.throws(() => learnGameSync(book, { startFen: STARTING_FEN, moves: ['e2e4'], result: '1-0' }), /needs the colour/);
  assert.throws(() => learnGameSync(book, { startFen: STARTING_FEN, moves: ['e2e4', 'e2e4'], result: '1-0', engineColor: 0 }), /move 2 "e2e4"/);
  assert.throws(() => learnGameSync(join(tmp, 'none.tbk'), { startFen: STARTING_FEN, moves: [], result: '1-0', engineColor: 0 }), /none\.tbk: no such book/);
  assert.equal(openRichBook(book).book.header.learnedGames, 1, 'failed calls change nothing');
});

test('a book locked by a live writer is not changed; the error names the lock', async () => {
  const pgn = join(tmp, 'l.pgn');
  writeFileSync(pgn, '[Result "1-0"]\n1. e4 e5 1-0\n');
  const book = join(tmp, 'l.tbk');
  await makeRichBook(book, { inputs: [pgn] });
  // The parent of this process is alive for as long as the test runs.
  writeFileSync(`${book}.lock`, `${process.ppid}\n`);
  assert.throws(() => learnGameSync(book, { startFen: STARTING_FEN, moves: ['e2e4'], result: '1-0', engineColor: 0, evals: [] }, { timeoutMs: 100 }), /locked by process \d+/);
  rmSync(`${book}.lock`);
  learnGameSync(book, { startFen: STARTING_FEN, moves: ['e2e4'], result: '1-0', engineColor: 0 });
  assert.equal(openRichBook(book).book.header.learnedGames, 1);
  assert.equal(existsSync(`${book}.lock`), false);
});

test('a version 2 book: a game back in the book by transposition learns no PostBook record on a book move, and no result on a user-valued one', async () => {
  const pgn = join(tmp, 't.pgn');
  writeFileSync(pgn, '[Result "1-0"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result "0-1"]\n1. d4 d5 0-1\n');
  const book = join(tmp, 't.tbk');
  await buildTbk(book, { inputs: [pgn], tmpDir: tmp });
  const start = unwrap(positionFromFen(STARTING_FEN));
  const e4move = unwrap(parseUci(start, 'e2e4'));
  changeNotes(book, (b) => {
    b.notes.edit(start.keyHi, start.keyLo, e4move, false).userValue = 75;
    return { result: undefined };
  });
  // 1.Nf3 leaves the book, 2.Ng1 Ng8 comes back to the start: 3.e4 (user value) and 4.Nf3 are book moves.
  const r = learnGameSync(book, { startFen: STARTING_FEN, moves: ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'e2e4', 'e7e5', 'g1f3'], result: '0-1', engineColor: 0, evals: [null, null, null, null, 40, null, 30] });
  assert.deepEqual(r, { bookMoves: 1, userValued: 1, postBookMoves: 2, postBookNew: 2, bookEnd: 0 });
  const b = openAnyRichBook(book);
  try {
    const row = (fen: string, uci: string) => {
      const e = b.v2!.probe(unwrap(positionFromFen(fen))).find((x) => makeUci(x.move, false) === uci)!;
      return [e.postBook, e.dynLosses, e.evalCount, b.v2!.notes.get(e.keyHi, e.keyLo, e.move)?.postBook ?? false];
    };
    assert.deepEqual(row(STARTING_FEN, 'e2e4'), [false, 0, 0, false], 'a user-valued move does not learn');
    assert.deepEqual(row('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', 'g1f3'), [false, 1, 0, false], 'a book move learns as one');
    assert.deepEqual(row(STARTING_FEN, 'g1f3'), [true, 1, 0, true]);
  } finally {
    b.close();
  }
});

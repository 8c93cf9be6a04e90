/**
 * A book is probed with the `Board` the README teaches, or its `position`, as python-chess's
 * `reader.find(board)`: the Polyglot reader from bytes (the browser's), the one of a file, and a
 * `.tbk`. Anything else is a TypeError that says so: read as a position, a Board or a FEN string
 * had no key, and the book answered "no moves" for a position it holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tabiya from '../src/index.js';
import * as browser from '../src/browser.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const GAMES = '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[White "c"]\n[Black "d"]\n[Result "0-1"]\n\n1. e4 c5 0-1\n\n[White "e"]\n[Black "f"]\n[Result "1/2-1/2"]\n\n1. d4 d5 1/2-1/2\n';
const NOT_A_BOARD = /a book is probed with a Board or a Position, not /;

test('Polyglot and .tbk books take a Board as they take its position, and refuse anything else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-probe-board-'));
  try {
    writeFileSync(join(dir, 'g.pgn'), GAMES);
    for (const out of ['g.bin', 'g.tbk']) {
      const made = spawnSync(process.execPath, [MAIN, 'book', 'make', join(dir, 'g.pgn'), '-o', join(dir, out), '--min-games', '1'], { encoding: 'utf8' });
      assert.equal(made.status, 0, made.stderr);
    }
    const board = new browser.Board();
    board.push('e4');

    const reader = browser.unwrap(browser.book.PolyglotReader.from(readFileSync(join(dir, 'g.bin')), 'g.bin'));
    // e7e5 lost its only game: polyglot's weight (2 wins + draws) is 0, and the move is dropped.
    assert.deepEqual(reader.moves(board.position).map((m) => m.uci), ['c7c5']);
    assert.deepEqual(reader.moves(board), reader.moves(board.position));
    assert.deepEqual(reader.find(board), reader.find(board.position));
    assert.deepEqual(reader.get(board), reader.get(board.position));
    assert.ok(reader.choose(board, { random: browser.book.seededRandom(1) }) !== undefined);
    for (const wrong of [board.fen(), 'e4', {}, undefined, null]) {
      assert.throws(() => reader.moves(wrong as never), (e: Error) => e instanceof TypeError && NOT_A_BOARD.test(e.message), String(wrong));
    }

    const file = await tabiya.book.openBook(join(dir, 'g.bin'), { memoryLimit: 0 });
    try {
      assert.equal(file.memory, undefined, 'read on disk');
      assert.deepEqual(await file.moves(board), await file.moves(board.position));
      assert.equal((await file.find(board))?.uci, reader.find(board)?.uci);
      await assert.rejects(file.moves(board.fen() as never), NOT_A_BOARD);
    } finally {
      await file.close();
    }

    const tbk = browser.unwrap(browser.TbkBook.open(readFileSync(join(dir, 'g.tbk')), 'g.tbk'));
    assert.equal(tbk.probe(board.position).length, 2);
    assert.deepEqual(tbk.probe(board), tbk.probe(board.position));
    assert.throws(() => tbk.probe(board.fen() as never), NOT_A_BOARD);
    const any = tabiya.openAnyRichBook(join(dir, 'g.tbk'));
    try {
      assert.deepEqual(any.probe(board), any.probe(board.position));
    } finally {
      any.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

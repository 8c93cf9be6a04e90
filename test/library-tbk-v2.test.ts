/**
 * The package's entry point reads the books the command writes: `tabiya book make X.tbk` writes a
 * version 2 book, so a program that imports 'tabiya' must be able to open one (TbkBook,
 * openAnyRichBook, unwrap, as docs/rich-books.md shows), and the version 1 reader must say what
 * a version 2 file is instead of "unsupported .tbk version 512".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tabiya from '../src/index.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const GAMES = '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[White "c"]\n[Black "d"]\n[Result "0-1"]\n\n1. e4 c5 0-1\n';

test('a version 2 .tbk made by the command opens through the package entry point', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-lib-tbk-'));
  try {
    writeFileSync(join(dir, 'g.pgn'), GAMES);
    const book = join(dir, 'g.tbk');
    const made = spawnSync(process.execPath, [MAIN, 'book', 'make', join(dir, 'g.pgn'), '-o', book], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const board = new tabiya.Board();
    board.push('e4');

    const opened = tabiya.openAnyRichBook(book);
    try {
      assert.equal(opened.version, 2);
      assert.deepEqual(opened.probe(board.position).map((m) => [m.move, m.wins + m.draws + m.losses]).sort(), [[3234, 1], [3364, 1]]);
    } finally {
      opened.close();
    }

    const inMemory = tabiya.unwrap(tabiya.TbkBook.open(readFileSync(book), 'g.tbk'));
    assert.equal(inMemory.probe(board.position).length, 2);

    const v1 = tabiya.RichBook.open(readFileSync(book), 'g.tbk');
    assert.ok(!v1.ok);
    assert.match(v1.error.message, /^g\.tbk: a version 2 \.tbk book, which this reader \(version 1\) cannot read: open it with TbkBook\.open/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a .tbk whose version bytes are damaged is named as such, not as "this program reads version 1"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-lib-tbk-'));
  try {
    writeFileSync(join(dir, 'g.pgn'), GAMES);
    const book = join(dir, 'g.tbk');
    assert.equal(spawnSync(process.execPath, [MAIN, 'book', 'make', join(dir, 'g.pgn'), '-o', book], { encoding: 'utf8' }).status, 0);
    const bytes = readFileSync(book);
    bytes[8] = 0x55;
    writeFileSync(book, bytes);
    const probe = spawnSync(process.execPath, [MAIN, 'book', 'probe', book], { encoding: 'utf8' });
    assert.equal(probe.status, 1);
    assert.match(probe.stderr, /g\.tbk: unknown \.tbk version \(bytes 8-9 are 55 00; tabiya reads versions 1 and 2\): the file is damaged or was written by a later version of tabiya/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

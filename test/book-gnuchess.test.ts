/**
 * Debian's gnuchess-book (/usr/share/games/gnuchess/book.bin, 180,358 entries) read by us and
 * by PolyGlot: dump-book's 31,801 lines for White and info-book's counts agree byte for byte.
 * Skipped when polyglot or the book is not installed (.ci/run installs both).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBook } from '../src/book/node/openBook.js';
import { countLines, dumpLines, formatLineCounts } from '../src/book/polyglot/lines.js';
import { PolyglotReader } from '../src/book/polyglot/reader.js';
import { unwrap } from '../src/core/result.js';
import { WHITE } from '../src/core/types.js';
import { positionFromFen, STARTING_FEN } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';

const POLYGLOT = '/usr/games/polyglot';
const GNU_BOOK = '/usr/share/games/gnuchess/book.bin';
const skip = !existsSync(POLYGLOT) ? 'polyglot is not installed' : !existsSync(GNU_BOOK) ? 'gnuchess-book is not installed' : false;

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-gnubook-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

test("dump-book and info-book on Debian's gnuchess-book agree with polyglot", { skip }, () => {
  const book = unwrap(PolyglotReader.from(readFileSync(GNU_BOOK), 'book.bin'));
  assert.equal(book.size, 180358);
  // 31,801 lines for White; Black's dump walks the same code from an opponent node (tested on the vectors).
  const out = join(tmp, 'white.txt');
  spawnSync(POLYGLOT, ['dump-book', '-bin', GNU_BOOK, '-color', 'white', '-out', out]);
  assert.equal(dumpLines(book, WHITE, GNU_BOOK), readFileSync(out, 'latin1'));
  const info = spawnSync(POLYGLOT, ['info-book', '-bin', GNU_BOOK], { encoding: 'utf8' }).stdout;
  assert.equal('PolyGlot 2.0.4 by Fabien Letouzey.\n' + formatLineCounts(countLines(book)), info);
});

test('the on-disk reader finds what the in-memory reader finds', { skip: existsSync(GNU_BOOK) ? false : 'gnuchess-book is not installed' }, async () => {
  const memory = unwrap(PolyglotReader.from(readFileSync(GNU_BOOK), 'book.bin'));
  const disk = await openBook(GNU_BOOK, { memoryLimit: 0 });
  assert.equal(disk.memory, undefined);
  try {
    for (const line of ['', 'e2e4', 'e2e4 c7c5 g1f3', 'd2d4 g8f6 c2c4 e7e6', 'g1f3 d7d5 g2g3', 'h2h4']) {
      const pos = unwrap(positionFromFen(STARTING_FEN));
      for (const u of line.split(' ').filter(Boolean)) pos.play(unwrap(parseUci(pos, u)));
      assert.deepEqual(await disk.moves(pos), memory.moves(pos), line);
    }
    const start = unwrap(positionFromFen(STARTING_FEN));
    assert.equal((await disk.find(start))?.uci, 'e2e4');
  } finally {
    await disk.close();
  }
});

test('the on-disk reader: verify() finds an entry out of order, probes detect a broken search path', async () => {
  const bytes = readFileSync(existsSync(GNU_BOOK) ? GNU_BOOK : new URL('../../../shared/docs/polyglot-vectors/out/main_min1.bin', import.meta.url));
  const n = bytes.length / 16;
  const swapped = Buffer.from(bytes);
  // Move the last entry to the middle: keys are out of order there.
  const mid = Math.floor(n / 2) * 16;
  swapped.copy(swapped, mid, bytes.length - 16, bytes.length);
  const path = join(tmp, 'swapped.bin');
  writeFileSync(path, swapped);
  const disk = await openBook(path, { memoryLimit: 0 });
  try {
    await assert.rejects(disk.verify(), (e: Error & { code?: string }) => e.code === 'ERR_BOOK_UNSORTED' && e.message.startsWith(path));
    // A search for a key above every key walks through the planted entry and notices it.
    const pos = unwrap(positionFromFen('8/8/8/8/8/8/8/K1k5 w - - 0 1'));
    pos.keyHi = -1;
    pos.keyLo = -1;
    await assert.rejects(disk.moves(pos), (e: Error & { code?: string }) => e.code === 'ERR_BOOK_UNSORTED');
  } finally {
    await disk.close();
  }
});

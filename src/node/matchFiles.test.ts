import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { findProgram } from '../pgn/decompressProgram.js';
import { AppendFile, readMaybeCompressed } from './matchFiles.js';

const dir = mkdtempSync(join(tmpdir(), 'tabiya-match-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const EPD = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c9 "1-0";\n'.repeat(200);

test('opening suites are read plain, gzip, zstd or bzip2, by their first bytes', { skip: (!findProgram('zstd') || !findProgram('bzip2')) && 'zstd or bzip2 not installed' }, () => {
  const compress = (program: string): Buffer => spawnSync(program, ['-c'], { input: EPD }).stdout;
  const files: [string, Buffer | string][] = [
    ['plain.epd', EPD],
    ['suite.epd.gz', gzipSync(EPD)],
    ['suite.epd.zst', compress('zstd')],
    ['suite.epd.bz2', compress('bzip2')],
    ['named-plain.epd', compress('zstd')],
  ];
  for (const [name, bytes] of files) {
    writeFileSync(join(dir, name), bytes);
    assert.equal(readMaybeCompressed(join(dir, name)).toString('utf8'), EPD, name);
  }
  const cut = join(dir, 'cut.epd.zst');
  writeFileSync(cut, compress('zstd').subarray(0, 20));
  assert.throws(() => readMaybeCompressed(cut), new RegExp(`^Error: ${cut}: zstd: `));
});

test('a gzip suite is read member after member; data after zero padding is an error naming its offset, not dropped', () => {
  const half = EPD.slice(0, EPD.length / 2);
  const rest = EPD.slice(EPD.length / 2);
  const a = gzipSync(half);
  const b = gzipSync(rest);
  const cases: [string, Buffer][] = [
    ['members.epd.gz', Buffer.concat([a, b])],
    ['padded.epd.gz', Buffer.concat([a, b, Buffer.alloc(512)])],
  ];
  for (const [name, bytes] of cases) {
    writeFileSync(join(dir, name), bytes);
    assert.equal(readMaybeCompressed(join(dir, name)).toString('utf8'), EPD, name);
  }
  // A member after padding: gzip -d drops it with a warning, Node's gunzip said nothing.
  const lost = join(dir, 'lost.epd.gz');
  writeFileSync(lost, Buffer.concat([a, Buffer.alloc(100), b]));
  assert.throws(() => readMaybeCompressed(lost), { message: `${lost}: gzip: more data at offset ${a.length + 100}, after zero padding that follows the gzip data at offset ${a.length}: not read` });
  const junk = join(dir, 'junk.epd.gz');
  writeFileSync(junk, Buffer.concat([a, Buffer.from('JUNK')]));
  assert.throws(() => readMaybeCompressed(junk));
});

test('a PGN appended to starts its first game on a line of its own, after an empty line', () => {
  const game = '[Event "new"]\n[Result "*"]\n\n*\n\n';
  const cases: [string, string][] = [
    ['', ''],
    ['1. e4 e5 1-0', '1. e4 e5 1-0\n\n'],
    ['1. e4 e5 1-0\n', '1. e4 e5 1-0\n\n'],
    ['1. e4 e5 1-0\n\n', '1. e4 e5 1-0\n\n'],
    ['1. e4 e5 1-0\r\n\r\n', '1. e4 e5 1-0\r\n\r\n'],
    ['\n', '\n'],
  ];
  for (const [before, kept] of cases) {
    const file = join(dir, 'append.pgn');
    writeFileSync(file, before);
    const pgn = new AppendFile(file);
    pgn.endParagraph();
    pgn.append(game);
    pgn.close();
    assert.equal(readFileSync(file, 'utf8'), kept + game, JSON.stringify(before));
  }
});

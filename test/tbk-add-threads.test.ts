/**
 * `book add --threads N` and `book merge --threads N`: the books' games replayed for their single
 * positions on N threads (singlesThreads.ts) give the book one thread gives, byte for byte: with the index held in
 * shared memory and without it (a budget too small to hold it, each thread then reading it
 * through its own page cache), with each thread's log spilling runs, and with more threads than
 * the machine has cores. Real games: the 2,000-game sample.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { addToTbk, mergeTbk, mergeTbkToBin } from '../src/book/node/tbkCombine.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-add-threads-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.env.SOURCE_DATE_EPOCH = '1700000000';

const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('latin1').split(/\n\n(?=\[Event )/);
const BASE = join(tmp, 'base.pgn');
const MORE = join(tmp, 'more.pgn');
writeFileSync(BASE, games.slice(0, 1900).join('\n\n') + '\n', 'latin1');
writeFileSync(MORE, games.slice(1900).join('\n\n') + '\n', 'latin1');

test('book add on several threads writes the book one thread writes', async () => {
  const base = join(tmp, 'base.tbk');
  await buildTbk(base, { inputs: [BASE] });
  const add = async (name: string, opts: { threads: number; memory?: number }): Promise<Buffer> => {
    const out = join(tmp, name);
    copyFileSync(base, out);
    const work = join(tmp, `work-${name}`);
    rmSync(work, { recursive: true, force: true });
    spawnSync('mkdir', [work]);
    await addToTbk(out, { inputs: [MORE], replayThreadGames: 100, tmpDir: work, ...opts });
    assert.deepEqual(readdirSync(work), [], 'the scratch files are gone');
    return readFileSync(out);
  };
  const one = await add('one.tbk', { threads: 1 });
  assert.ok(!one.equals(readFileSync(base)), 'the games were added');
  for (const [name, opts] of [
    ['two.tbk', { threads: 2 }],
    ['five.tbk', { threads: 5 }],
    // 512 KiB: the index (215 KB) is more than a quarter of it and is not held, and each
    // thread's log holds a few thousand records, so every thread spills runs.
    ['small.tbk', { threads: 3, memory: 512 << 10 }],
  ] as const) {
    assert.ok((await add(name, opts)).equals(one), `${name}: ${JSON.stringify(opts)}`);
  }
});

test('book merge on several threads writes the book (and the .bin) one thread writes', async () => {
  const more = join(tmp, 'more.tbk');
  await buildTbk(more, { inputs: [MORE] });
  const merge = async (name: string, threads: number, memory?: number): Promise<[Buffer, Buffer]> => {
    const out = join(tmp, name);
    await mergeTbk([join(tmp, 'base.tbk'), more], out, { threads, memory, replayThreadGames: 100, tmpDir: tmp });
    await mergeTbkToBin([join(tmp, 'base.tbk'), more], `${out}.bin`, { threads, memory, replayThreadGames: 100, tmpDir: tmp });
    return [readFileSync(out), readFileSync(`${out}.bin`)];
  };
  const [one, oneBin] = await merge('m1.tbk', 1);
  for (const [threads, memory] of [
    [2, undefined],
    [3, 512 << 10],
  ] as const) {
    const [many, manyBin] = await merge(`m${threads}.tbk`, threads, memory);
    assert.ok(many.equals(one), `${threads} threads`);
    assert.ok(manyBin.equals(oneBin), `${threads} threads, .bin`);
  }
});

test('book add --threads: a bad count is refused before the book is touched', () => {
  const book = join(tmp, 'cli.tbk');
  copyFileSync(join(tmp, 'base.tbk'), book);
  const before = readFileSync(book);
  const r = spawnSync(process.execPath, [MAIN, 'book', 'add', book, MORE, '--threads', '0', '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--threads/);
  assert.ok(readFileSync(book).equals(before));
  const ok = spawnSync(process.execPath, [MAIN, 'book', 'add', book, MORE, '--threads', 'auto', '--quiet'], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
});

test('book add says how many threads replayed the book, and why fewer than asked', () => {
  const book = join(tmp, 'said.tbk');
  copyFileSync(join(tmp, 'base.tbk'), book);
  const r = spawnSync(process.execPath, [MAIN, 'book', 'add', book, MORE, '--threads', '3', '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^replayed on {7}one thread \(the book's games, for its single positions\)$/m);
  assert.match(r.stderr, /^note: the book's games were replayed on one thread, not 3: a thread takes at least 20,000 of them$/m);
  const json = spawnSync(process.execPath, [MAIN, 'book', 'add', book, MORE, '--json', '--quiet'], { encoding: 'utf8' });
  assert.equal(json.status, 0, json.stderr);
  const s = JSON.parse(json.stdout) as { replayThreads: number; notes: string[] };
  assert.equal(s.replayThreads, 1);
  assert.deepEqual(s.notes, [], 'one thread asked, one used: nothing to say');
});

/**
 * `book export --threads N`: the book's games replayed on N threads (singlesThreads.ts), for
 * another --max-ply or a split filter and for the single positions of --min-games 1, give the
 * .bin one thread gives, byte for byte: with a split filter, another max-ply, --min-games 1,
 * --user-values, and a budget so small that every thread spills runs. Real games: the
 * 2,000-game sample, a thread taking 100 of them (the CLI's threshold is 20,000).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { runExportJob, type ExportJob } from '../src/cli/commands/richExport.js';
import { splitFilterOf } from '../src/cli/commands/richCommon.js';
import { exportFromGames } from '../src/book/node/tbkExport.js';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { FileReader } from '../src/book/node/tbkFile.js';
import { TbkBook } from '../src/book/rich/tbkBook.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MASTERS_GZ = fileURLToPath(new URL('../../data/masters-2550.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-export-threads-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.env.SOURCE_DATE_EPOCH = '1700000000';

const BOOK = join(tmp, 'split.tbk');

interface Case {
  maxPly?: number;
  minGame?: number;
  ratings?: string;
  since?: string;
  userValues?: boolean;
  memory?: number;
}

/** The .bin `book export` writes for `c` on `threads` threads, and the threads that replayed the games. */
async function exportBin(c: Case, threads: number, name: string): Promise<{ bin: Buffer; replayThreads: number | undefined }> {
  const output = join(tmp, `${name}.bin`);
  const work = join(tmp, `work-${name}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  const job: ExportJob = {
    file: BOOK,
    output,
    opts: { output, userValues: c.userValues, tmpDir: work, force: true },
    minGame: c.minGame,
    minScore: undefined,
    maxPly: c.maxPly,
    memory: c.memory,
    filter: splitFilterOf({ ratings: c.ratings, since: c.since }),
    threads,
    replayThreadGames: 100,
  };
  const r = await runExportJob(job, { onGames: () => {}, onKeys: () => {} });
  assert.deepEqual(readdirSync(work), [], `${name}: the scratch files are gone`);
  return { bin: readFileSync(output), replayThreads: r.replayThreads };
}

test('book export on several threads writes the .bin one thread writes', async () => {
  await buildTbk(BOOK, { inputs: [SAMPLE_GZ], split: { rating: true, speed: true, month: true }, tmpDir: tmp });
  // Some user values, for --user-values: a move of the start position valued, another forbidden.
  for (const args of [
    ['e2e4', '--value', '50'],
    ['d2d4', '--value', '0'],
  ]) {
    const r = spawnSync(process.execPath, [MAIN, 'book', 'set', BOOK, '--move', args[0]!, args[1]!, args[2]!], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  const cases: [string, Case][] = [
    ['filter', { ratings: '2200,2500', since: '2005-01' }],
    ['max-ply', { maxPly: 16 }],
    ['singles', { minGame: 1 }],
    ['filter-singles', { ratings: '2500', maxPly: 30, minGame: 1 }],
    // 256 KiB: each thread's log holds a few thousand plies, so every thread spills runs.
    ['filter-spilled', { ratings: '2200,2500', memory: 256 << 10 }],
    ['singles-spilled', { minGame: 0, memory: 256 << 10 }],
    ['user-values', { maxPly: 20, minGame: 1, userValues: true }],
    ['user-values-singles', { minGame: 1, userValues: true }],
  ];
  // Every case is checked, and the ones that differ are named together.
  const differ: string[] = [];
  for (const [name, c] of cases) {
    const one = await exportBin(c, 1, `${name}-1`);
    assert.equal(one.replayThreads, 1, name);
    assert.ok(one.bin.length > 0, `${name}: entries written`);
    // Three threads (ranges that do not divide the games evenly) where the threads spill, two elsewhere.
    for (const threads of name.endsWith('spilled') ? [2, 3] : [2]) {
      const many = await exportBin(c, threads, `${name}-${threads}`);
      assert.equal(many.replayThreads, threads, `${name}: ${threads} threads replayed the games`);
      if (!many.bin.equals(one.bin)) differ.push(`${name} on ${threads} threads`);
    }
  }
  assert.deepEqual(differ, []);
  // An export from the stored counts replays nothing.
  assert.equal((await exportBin({}, 2, 'stored')).replayThreads, undefined);
});

test('book export --threads: a bad count is refused before anything is written; auto is taken', () => {
  const out = join(tmp, 'cli.bin');
  for (const bad of ['0', '-1', 'two']) {
    const r = spawnSync(process.execPath, [MAIN, 'book', 'export', BOOK, '-o', out, '--min-games', '1', '--threads', bad, '--quiet'], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--threads/);
    assert.ok(!existsSync(out), `--threads ${bad}: nothing written`);
  }
  const ok = spawnSync(process.execPath, [MAIN, 'book', 'export', BOOK, '-o', out, '--min-games', '1', '--threads', 'auto', '--json', '--quiet'], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  const s = JSON.parse(ok.stdout) as { replayThreads: number; notes: string[] };
  // 2,000 games: a thread takes at least 20,000, so one thread replays them.
  assert.equal(s.replayThreads, 1);
  assert.deepEqual(s.notes, [], 'fewer threads than asked is not a reason the .bin differs from make-book');
  const said = spawnSync(process.execPath, [MAIN, 'book', 'export', BOOK, '-o', out, '--max-ply', '20', '--threads', '3', '--force', '--quiet'], { encoding: 'utf8' });
  assert.equal(said.status, 0, said.stderr);
  assert.match(said.stderr, /^note: the book's games were replayed on one thread, not 3: a thread takes at least 20,000 of them$/m);
});

test('a book written over (renamed onto its path) after the export opened it is refused by the replay threads, not read as the same book', async () => {
  const path = join(tmp, 'replaced.tbk');
  copyFileSync(BOOK, path);
  const reader = new FileReader(path);
  try {
    const r = TbkBook.open(reader, path, fastCrc32);
    if (!r.ok) throw r.error;
    // What another command's atomic write does: a new file renamed over the path (the same
    // bytes here, so only the file's identity tells them apart).
    copyFileSync(BOOK, `${path}.new`);
    renameSync(`${path}.new`, path);
    const work = join(tmp, 'work-replaced');
    mkdirSync(work);
    const bin = exportFromGames(r.value, { maxPly: 20, filter: {}, threads: 2, replayThreadGames: 100, tmpDir: work }, () => {});
    await assert.rejects(bin, /replaced\.tbk was written over while it was read/);
    assert.deepEqual(readdirSync(work), [], 'the scratch files are gone');
  } finally {
    reader.close();
  }
});

test('book export --threads 2 on 83,561 master games: make-book\'s halving replayed over the games the threads kept', () => {
  // Enough games for two threads at the CLI's own threshold; at --max-ply 8 the first moves pass
  // 16,384 games, so make-book halves them at moments the game order decides.
  const book = join(tmp, 'masters.tbk');
  const made = spawnSync(process.execPath, [MAIN, 'book', 'make', MASTERS_GZ, '-o', book, '--max-ply', '12', '--split', 'month', '--quiet', '--json'], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  assert.ok((JSON.parse(made.stdout) as { hotPositions: number }).hotPositions > 0, 'positions where make-book halves');
  for (const args of [['--max-ply', '8'], ['--since', '2000-01', '--max-ply', '10']]) {
    const bins = [1, 2].map((threads) => {
      const out = join(tmp, `masters-${threads}.bin`);
      const r = spawnSync(process.execPath, [MAIN, 'book', 'export', book, '-o', out, ...args, '--threads', String(threads), '--force', '--json', '--quiet'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as { replayThreads: number }).replayThreads, threads);
      return readFileSync(out);
    });
    assert.ok(bins[1]!.equals(bins[0]!), args.join(' '));
  }
});

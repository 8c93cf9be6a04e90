/**
 * Version 2 rich books against truth: a build spilled to disk in many runs is the in-memory
 * build byte for byte; the merged partial books of a sharded build are the single build byte
 * for byte; the Polyglot export is make-book's `.bin` byte for byte (tabiya's own builder, and
 * polyglot itself where installed), halving included (the bundled masters have positions past
 * 16,384 games); probes answer what the version 1 book of the same games answers; a version 1
 * book upgrades without loss.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { makeBook } from '../src/book/node/makeBook.js';
import { makeRichBook } from '../src/book/node/richMake.js';
import { openRichBook, fastCrc32 } from '../src/book/node/richFile.js';
import { learnGameSync } from '../src/book/node/richLearn.js';
import { buildBinBounded, buildTbk, type TbkBuildOptions, type TbkBuildSummary } from '../src/book/node/tbkBuild.js';
import { THREAD_RESERVE } from '../src/book/node/tbkRanges.js';
import { mergeTbk, addToTbk } from '../src/book/node/tbkCombine.js';
import type { BookJob, BookJobCallbacks } from '../src/book/node/bookJob.js';
import { exportTbkToBin } from '../src/book/node/tbkExport.js';
import { FileReader } from '../src/book/node/tbkFile.js';
import { upgradeV1 } from '../src/book/node/tbkUpgrade.js';
import { TbkBook } from '../src/book/rich/tbkBook.js';
import type { MakeOptions } from '../src/book/polyglot/make.js';
import { readPgn } from '../src/pgn/reader.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MASTERS_GZ = fileURLToPath(new URL('../../data/masters-2550.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const POLYGLOT = '/usr/games/polyglot';

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-tbk2-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.env.SOURCE_DATE_EPOCH = '1700000000';

function open(path: string): TbkBook {
  const r = TbkBook.open(new FileReader(path), path, fastCrc32);
  if (!r.ok) throw r.error;
  return r.value;
}

async function exported(book: TbkBook, opts: MakeOptions & { memory?: number }): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  await exportTbkToBin(book, { ...opts, tmpDir: tmp }, (b) => parts.push(b.slice()));
  return Buffer.concat(parts);
}

/**
 * Books several tests read, each built once per file: the sample as book make builds it, and the
 * bundled masters to ply 30 (positions past 16,384 games: halving), both in memory on one thread.
 * Every build of the same games is the same book byte for byte whatever its memory or threads (the
 * first test's point), so one build serves as the reference of each test that compares with it.
 */
const built = new Map<string, Promise<TbkBuildSummary>>();
function builtOnce(name: string, opts: TbkBuildOptions): Promise<TbkBuildSummary> {
  let b = built.get(name);
  if (b === undefined) built.set(name, (b = buildTbk(join(tmp, name), opts)));
  return b;
}
const sampleBook = async (): Promise<{ path: string; summary: TbkBuildSummary }> =>
  ({ path: join(tmp, 'sample.tbk'), summary: await builtOnce('sample.tbk', { inputs: [SAMPLE_GZ], tmpDir: tmp }) });
const mastersBook = async (): Promise<{ path: string; summary: TbkBuildSummary }> =>
  ({ path: join(tmp, 'masters.tbk'), summary: await builtOnce('masters.tbk', { inputs: [MASTERS_GZ], maxPly: 30, tmpDir: tmp }) });

/** The first and second halves of the sample, as two PGN files. */
function halves(): [string, string] {
  const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n(?=\[Event )/);
  const a = join(tmp, 'a.pgn');
  const b = join(tmp, 'b.pgn');
  writeFileSync(a, games.slice(0, 1000).join('\n'));
  writeFileSync(b, games.slice(1000).join('\n'));
  return [a, b];
}

test('a build spilled in a hundred runs is the in-memory build, byte for byte', async () => {
  const { path: mem, summary: a } = await sampleBook();
  const spilled = join(tmp, 'spilled.tbk');
  const b = await buildTbk(spilled, { inputs: [SAMPLE_GZ], memory: 50_000, tmpDir: tmp });
  assert.equal(a.runs, 0);
  assert.ok(b.runs > 50, `${b.runs} runs`);
  assert.ok(readFileSync(mem).equals(readFileSync(spilled)));
  // Counted and finished on the main thread (as a shard is), in memory and spilled: the same book.
  for (const memory of [undefined, 50_000]) {
    const main = join(tmp, 'main-thread.tbk');
    const c = await buildTbk(main, { inputs: [SAMPLE_GZ], memory, tmpDir: tmp, rangeThreads: 0 });
    if (memory !== undefined) assert.ok(c.runs > 50, `${c.runs} runs on the main thread`);
    assert.ok(readFileSync(mem).equals(readFileSync(main)), `main thread, memory ${memory}`);
  }
  assert.equal(a.gamesUsed, 2000);
  // Every single position of the sample is found again through its game.
  assert.ok(a.singlePositions > 100_000, `${a.singlePositions} singles`);
});

test('--threads: key ranges built on worker threads give the single-threaded book, byte for byte (.tbk with splits and spills, min-games, bounded .bin)', async () => {
  const one = join(tmp, 'one.tbk');
  const o = { inputs: [SAMPLE_GZ], tmpDir: tmp, memory: 300_000, split: { rating: true, speed: true, month: true }, filter: { minElo: 2300 } };
  const a = await buildTbk(one, o);
  for (const threads of [2, 3]) {
    // The budget is split between the ranges: every range spills many runs.
    const out = join(tmp, `threads${threads}.tbk`);
    const b = await buildTbk(out, { ...o, threads });
    assert.ok(b.runs > 10 * threads, `${b.runs} runs`);
    assert.deepEqual({ ...b, seconds: 0, runs: 0, memoryToFit: 0 }, { ...a, output: out, seconds: 0, runs: 0, memoryToFit: 0 });
    assert.ok(readFileSync(one).equals(readFileSync(out)), `${threads} threads`);
  }
  // A min-games cut (no single positions kept); the bundled masters, with positions past 16,384
  // games (halving), in memory on one thread and in runs on two. Each thread's log gets half of
  // what the budget leaves past the second thread's reserve (THREAD_RESERVE): 2 MB, less than a
  // chunk may need, so every chunk waits aside for its games' numbers; then 600,000 plies of 30 a
  // game, so chunks are parsed into the log until it is nearly full, then spilled or set aside.
  const masters = { inputs: [MASTERS_GZ], tmpDir: tmp, maxPly: 12 };
  for (const m of [{ ...o, minGames: 3 }, { ...masters, memory: THREAD_RESERVE + 4_000_000 }, { ...masters, maxPly: 30, memory: THREAD_RESERVE + 2 * 24 * 600_000 }] as TbkBuildOptions[]) {
    // The single-threaded reference: to ply 30, the masters book the halving test reads too.
    const { path: whole, summary: a2 } = m.maxPly === 30 ? await mastersBook() : { path: join(tmp, 'whole.tbk'), summary: await buildTbk(join(tmp, 'whole.tbk'), m) };
    // The halving replay in slices of 5,000 games: 9 a thread, counted in order as they come back.
    const b2 = await buildTbk(join(tmp, 'two.tbk'), { ...m, threads: 2, halvingSlice: 5000 });
    assert.ok(b2.runs > 2, `${b2.runs} runs`);
    assert.deepEqual({ ...b2, seconds: 0, runs: 0, output: '', memoryToFit: 0 }, { ...a2, seconds: 0, runs: 0, output: '', memoryToFit: 0 });
    assert.ok(readFileSync(whole).equals(readFileSync(join(tmp, 'two.tbk'))), `${m.inputs[0]} to ply ${m.maxPly}`);
    if (m.inputs[0] === MASTERS_GZ) assert.ok(a2.hotPositions > 0, 'halving replayed');
    else assert.equal(a2.singlePositions, 0);
  }
  // To ply 30 (not make-book's 1,024): the masters still pass 16,384 games there (halving) and
  // still spill dozens of runs into 1 MB; the threads split the games, not the plies, so deeper
  // plies would add more rows of the same kind, not another case.
  const bins = await Promise.all([1, 2].map((threads) => buildBinBounded(join(tmp, `t${threads}.bin`), { inputs: [SAMPLE_GZ, MASTERS_GZ], tmpDir: tmp, memory: 1_000_000, threads, minGame: 3, maxPly: 30 })));
  assert.ok(bins.every((b) => b.runs > 10), `${bins.map((b) => b.runs).join(' and ')} runs`);
  assert.deepEqual(bins[1]!.counted, bins[0]!.counted);
  assert.ok(readFileSync(join(tmp, 't1.bin')).equals(readFileSync(join(tmp, 't2.bin'))));
});

test('partial books of shards merge into the single build, byte for byte; add continues a book', async () => {
  const [a, b] = halves();
  const single = join(tmp, 'ab.tbk');
  await buildTbk(single, { inputs: [a, b], tmpDir: tmp });
  const p0 = join(tmp, 'p0.tbk');
  const p1 = join(tmp, 'p1.tbk');
  await buildTbk(p0, { inputs: [a], partial: true, memory: 200_000, tmpDir: tmp });
  await buildTbk(p1, { inputs: [b], partial: true, tmpDir: tmp });
  assert.ok(open(p0).partial);
  // A shard's book is refused by every command that probes, not read as an empty book.
  for (const args of [['book', 'probe', p0], ['book', 'reach', p0, '--no-cache'], ['book', 'audit', p0, '--depth', '2', '--max-ply', '2']]) {
    const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 1, args.join(' '));
    assert.equal(r.stderr, `tabiya: ${p0}: a partial book (one shard of a sharded build): merge the shards with book merge first\n`, args.join(' '));
  }
  assert.ok(!existsSync(`${p0}.audit`), 'no audit journal');
  const merged = join(tmp, 'merged.tbk');
  const shares: number[] = [];
  let rows = 0;
  const m = await mergeTbk([p0, p1], merged, { memory: 300_000, tmpDir: tmp, onProgress: (share, n) => (shares.push(share), (rows = n)) });
  assert.equal(m.partials, 2);
  // Progress by key: rising through the key space, ending at 1 when the last row is written.
  assert.ok(shares.length > 2, `${shares.length} progress reports`);
  assert.ok(shares.every((x, i) => x >= 0 && x <= 1 && (i === 0 || x >= shares[i - 1]!)), `shares ${shares.join(' ')}`);
  assert.equal(shares.at(-1), 1);
  assert.ok(rows >= m.entries, `${rows} rows merged, ${m.entries} entries written`);
  assert.ok(readFileSync(single).equals(readFileSync(merged)), 'merged shards differ from the single build');
  // The shards in the other order are another book (the games' order decides make-book's ties).
  const added = join(tmp, 'a+b.tbk');
  await buildTbk(added, { inputs: [a], tmpDir: tmp });
  const percents: number[] = [];
  const r = await addToTbk(added, { inputs: [b], memory: 200_000, tmpDir: tmp, onFinishProgress: (done, total, unit) => (assert.deepEqual([total, unit], [100, '%']), percents.push(done)) });
  assert.deepEqual(r.notes, []);
  // One percentage: the book's games replayed (to 80, said before any row is written), then the rows merged and written.
  assert.ok(percents.every((x, i) => i === 0 || x >= percents[i - 1]!), `percents ${percents.join(' ')}`);
  assert.equal(percents[0], 80);
  assert.equal(percents.at(-1), 100);
  const x = open(single);
  const y = open(added);
  assert.equal(y.fields.changes, 2);
  for (const id of [2, 3, 5, 6, 7, 8]) assert.equal(x.section(id)?.crc, y.section(id)?.crc, `section ${id} of the added book`);
  // Whole books merge after their games are replayed: that is the progress's first 80%.
  const wholeShares: number[] = [];
  await mergeTbk([single, added], join(tmp, 'twice.tbk'), { tmpDir: tmp, onProgress: (share) => wholeShares.push(share) });
  assert.ok(wholeShares.every((v, i) => i === 0 || v >= wholeShares[i - 1]!), `shares ${wholeShares.join(' ')}`);
  assert.ok(Math.abs(wholeShares[0]! - 0.4) < 1e-9, `the first book's games (half of them) replayed: ${wholeShares[0]}`);
  assert.ok(wholeShares.includes(0.8));
  assert.equal(wholeShares.at(-1), 1);
});

test('Polyglot export equals make-book on the sample for every option set, singles included', async () => {
  const book = open((await sampleBook()).path);
  for (const o of [{}, { minGame: 1 }, { minGame: 2, colour: 'white' as const }, { minGame: 5, uniform: true }, { minGame: 1, minScore: 60 }, { minGame: 3, colour: 'black' as const }]) {
    const ref = join(tmp, 'ref.bin');
    await makeBook({ inputs: [SAMPLE_GZ], output: ref, ...o, colour: o.colour ?? 'both' });
    assert.ok((await exported(book, { ...o, memory: 200_000 })).equals(readFileSync(ref)), JSON.stringify(o));
  }
});

test('a build that spilled says the least --memory that keeps it in memory, on one thread and on two', async () => {
  const out = join(tmp, 'fit.tbk');
  // Counted on the main thread (as a shard is), the value is exact: one ply less spills.
  const main = { inputs: [SAMPLE_GZ], tmpDir: tmp, rangeThreads: 0 };
  const one = await buildTbk(out, { ...main, memory: 1_000_000 });
  assert.ok(one.runs > 0 && one.memoryToFit !== undefined && one.memoryToFit > 1_000_000, `${one.runs} runs, ${one.memoryToFit}`);
  assert.equal((await buildTbk(out, { ...main, memory: one.memoryToFit })).runs, 0);
  const short = await buildTbk(out, { ...main, memory: one.memoryToFit - 24 });
  assert.ok(short.runs > 0 && short.memoryToFit === one.memoryToFit, 'one ply less than enough spills');
  // On one worker thread (book make's default), with the room for a chunk in flight.
  const worker = await buildTbk(out, { inputs: [SAMPLE_GZ], tmpDir: tmp, memory: 1_000_000 });
  assert.ok(worker.runs > 0 && worker.memoryToFit !== undefined && worker.memoryToFit >= one.memoryToFit, `${worker.runs} runs, ${worker.memoryToFit}`);
  assert.equal((await buildTbk(out, { inputs: [SAMPLE_GZ], tmpDir: tmp, memory: worker.memoryToFit })).runs, 0);
  // Two threads: each thread's log holds its share of what the reserve leaves (threadCapacity).
  const two = await buildTbk(out, { inputs: [SAMPLE_GZ], tmpDir: tmp, memory: THREAD_RESERVE + 1_000_000, threads: 2 });
  assert.ok(two.runs > 0 && two.memoryToFit !== undefined, `${two.runs} runs`);
  const fits = await buildTbk(out, { inputs: [SAMPLE_GZ], tmpDir: tmp, memory: two.memoryToFit, threads: 2 });
  assert.equal(fits.runs, 0);
  assert.equal(fits.memoryToFit, undefined);
  // The command says it, as a --memory value that fits.
  const said = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, '-o', out, '--memory', '1M', '--tmp-dir', tmp], { encoding: 'utf8' });
  const m = /spilled +\d+ sorted runs \(--memory; (\d+M) would keep them in memory\)/.exec(said.stdout);
  assert.ok(m !== null, said.stdout);
  const again = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, '-o', out, '--memory', m[1]!, '--tmp-dir', tmp], { encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
  assert.doesNotMatch(again.stdout, /spilled/);
});

test('halving: the bundled masters (positions past 16,384 games) export as make-book, and spill identically', async () => {
  const { path: mem, summary: s } = await mastersBook();
  const spilled = join(tmp, 'masters-spilled.tbk');
  assert.ok(s.hotPositions > 0, 'the masters have positions where make-book halves');
  // Spilled, and the halving replayed 7,000 games at a time (12 slices counted one after the other).
  await buildTbk(spilled, { inputs: [MASTERS_GZ], maxPly: 30, memory: 8_000_000, tmpDir: tmp, halvingSlice: 7000 });
  assert.ok(readFileSync(mem).equals(readFileSync(spilled)));
  const ref = join(tmp, 'masters.bin');
  await makeBook({ inputs: [MASTERS_GZ], output: ref, maxPly: 30 });
  assert.ok((await exported(open(mem), {})).equals(readFileSync(ref)));
});

test('Polyglot export equals polyglot make-book itself', { skip: existsSync(POLYGLOT) ? false : 'polyglot is not installed' }, async () => {
  const pgn = join(tmp, 'sample.pgn');
  writeFileSync(pgn, gunzipSync(readFileSync(SAMPLE_GZ)));
  const path = join(tmp, 'pg.tbk');
  await buildTbk(path, { inputs: [pgn], maxPly: 40, tmpDir: tmp });
  const out = join(tmp, 'theirs.bin');
  const r = spawnSync(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', out, '-max-ply', '40', '-min-game', '2'], { cwd: tmp, encoding: 'utf8' });
  assert.match(r.stdout, /all done!\s*$/);
  assert.ok((await exported(open(path), { minGame: 2 })).equals(readFileSync(out)));
});

test('probes answer what the version 1 book of the same games answers, and v1 upgrades without loss', async () => {
  const v2 = (await sampleBook()).path;
  const v1 = join(tmp, 'probe-v1.tbk');
  await makeRichBook(v1, { inputs: [SAMPLE_GZ] });
  learnGameSync(v1, { startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: ['e2e4', 'c7c5', 'g1f3', 'd7d6', 'a2a3', 'h7h6', 'h2h3'], result: '1-0', engineColor: 0, evals: [null, null, 30, null, 25, null, 10] });
  const up = join(tmp, 'upgraded.tbk');
  copyFileSync(v1, join(tmp, 'probe-v1-copy.tbk'));
  upgradeV1(v1, up);
  const b2 = open(v2);
  const bu = open(up);
  const { book: b1, close } = openRichBook(v1, { memoryLimit: Infinity });
  const stats = (l: readonly { move: number; wins: number; draws: number; losses: number; ratedGames: number; avgElo: number; pgN: number; pgSum: number }[]): string =>
    l.map((e) => [e.move, e.wins, e.draws, e.losses, e.ratedGames, e.avgElo, e.pgN, e.pgSum].join(',')).sort().join(' ');
  const all = (l: readonly { move: number; dynWins: number; dynLosses: number; postBook: boolean; evalCp: number; userValue: number }[]): string =>
    l.map((e) => [e.move, e.dynWins, e.dynLosses, e.postBook, e.evalCp, e.userValue].join(',')).sort().join(' ');
  let n = 0;
  let probes = 0;
  let repeated = 0;
  await readPgn([SAMPLE_GZ], {
    move(pos) {
      if (n++ % 3 !== 0) return true;
      probes++;
      const e1 = b1.probe(pos);
      const e2 = b2.probe(pos);
      // Version 1 counts a repeated move each time in W/D/L; version 2 counts each game once and
      // keeps the repeats for make-book's counters, which agree everywhere.
      const counters = (l: readonly { move: number; pgN: number; pgSum: number }[]): string => l.map((e) => [e.move, e.pgN, e.pgSum].join(',')).sort().join(' ');
      assert.equal(counters(e2), counters(e1.filter((e) => !e.postBook)));
      const once = new Set(e2.filter((e) => e.pgN === e.wins + e.draws + e.losses + e.unfinished).map((e) => e.move));
      repeated += e2.length - once.size;
      assert.equal(stats(e2.filter((e) => once.has(e.move))), stats(e1.filter((e) => !e.postBook && once.has(e.move))));
      const eu = bu.probe(pos);
      assert.equal(stats(eu.filter((e) => !e.postBook)), stats(e1.filter((e) => !e.postBook)));
      assert.equal(all(eu), all(e1));
      return true;
    },
  });
  close();
  assert.ok(probes > 50_000);
  assert.ok(repeated > 0, 'some probes met a move that a game repeated');
  assert.equal(bu.notes.size, 4, 'the learned game: 2 book moves and PostBook moves');
  // The command: refusals say why, before anything is written; --force replaces another kind of file.
  const v1copy = join(tmp, 'probe-v1-copy.tbk');
  const pgnHere = join(tmp, 'here.pgn');
  writeFileSync(pgnHere, '[Event "x"]\n\n1. e4 *\n');
  const upgrade = (...args: string[]): { status: number | null; stderr: string } => spawnSync(process.execPath, [MAIN, 'book', 'upgrade', ...args], { encoding: 'utf8' });
  for (const [args, status, message] of [
    [[v1copy, '-o', join(tmp, 'up.bin')], 2, /up\.bin does not end in \.tbk/],
    [[join(tmp, 'none.tbk')], 1, /none\.tbk: no such file$/m],
    [[tmp], 1, /: is a directory, not a \.tbk book$/m],
    [[v1copy, '-o', join(tmp, 'fresh.tbk')], 0, /^$/],
  ] as const) {
    const r = upgrade(...args);
    assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
  }
  assert.ok(!existsSync(join(tmp, 'up.bin')));
  const pgnAsTbk = join(tmp, 'pgn-as.tbk');
  copyFileSync(pgnHere, pgnAsTbk);
  const refused = upgrade(v1copy, '-o', pgnAsTbk);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /give --force to replace it/);
  assert.equal(readFileSync(pgnAsTbk, 'utf8'), readFileSync(pgnHere, 'utf8'));
  assert.equal(upgrade(v1copy, '-o', pgnAsTbk, '--force').status, 0, 'the --force the refusal names exists');
  assert.equal(open(pgnAsTbk).fields.maxPly, bu.fields.maxPly);
});

test('hundreds of spilled runs under a low limit of open files, and more threads than the memory feeds: the same book', () => {
  const ref = join(tmp, 'limits-ref.tbk');
  assert.equal(spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, SAMPLE_GZ, '-o', ref, '--quiet'], { encoding: 'utf8' }).status, 0);
  // The sample twice, 64K of log: a run every few dozen games, more runs than the 64 files this process may open.
  const runs = join(tmp, 'limits-runs.tbk');
  const r = spawnSync('sh', ['-c', `ulimit -n 64 && exec "$0" "$@"`, process.execPath, MAIN, 'book', 'make', SAMPLE_GZ, SAMPLE_GZ, '-o', runs, '--memory', '64K', '--quiet', '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok((JSON.parse(r.stdout) as { runs: number }).runs > 64);
  assert.ok(readFileSync(runs).equals(readFileSync(ref)), 'the runs merged into the same book');
  // Eight threads with 1G: four own key ranges (each beyond the first sets 192M aside), and it is said first.
  const eight = join(tmp, 'limits-threads.tbk');
  const t = spawnSync(process.execPath, [MAIN, 'book', 'make', SAMPLE_GZ, SAMPLE_GZ, '-o', eight, '--threads', '8'], { encoding: 'utf8' });
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stderr, /^note: --threads 8 with --memory 1\.0G: 4 threads own key ranges \(each thread beyond the first sets aside 192M, and a thread's log needs 64M\); --memory 1\.9G gives all 8 their own$/m);
  assert.equal(t.stderr.match(/^note: --threads 8/gm)?.length, 1, 'said once');
  assert.ok(readFileSync(eight).equals(readFileSync(ref)));
});

test('Ctrl-C while the book is being written stops the build and leaves no book (the main thread is not busy writing it)', () => {
  const out = join(tmp, 'interrupted.tbk');
  const build = fileURLToPath(new URL('../src/book/node/tbkBuild.js', import.meta.url));
  // The signal comes from the first report of the writing phase, on the main thread.
  const script = `
    import { buildTbk } from ${JSON.stringify(build)};
    let sent = false;
    await buildTbk(${JSON.stringify(out)}, { inputs: [${JSON.stringify(MASTERS_GZ)}], tmpDir: ${JSON.stringify(tmp)}, onFinishProgress() {
      if (!sent) { sent = true; process.kill(process.pid, 'SIGINT'); }
    } });
    console.log('finished');`;
  const file = join(tmp, 'interrupt.mjs');
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8' });
  assert.equal(r.signal ?? r.status, 'SIGINT', `${r.status} ${r.stdout} ${r.stderr}`);
  assert.doesNotMatch(r.stdout, /finished/);
  assert.ok(!existsSync(out), 'no book');
  assert.deepEqual(readdirSync(tmp).filter((f) => f.includes('interrupted.tbk.tabiya-') || f.startsWith('tabiya-build-')), [], 'no temporary file or scratch directory');
});

test('Ctrl-C while book merge, book add or a shard build writes stops at once: the book as it was, no output, temporary file, scratch directory or lock', async () => {
  const dir = mkdtempSync(join(tmp, 'sigint-'));
  const book = join(dir, 'masters.tbk');
  // The masters book the tests above built (83,561 games to ply 30), copied: a book of real size.
  copyFileSync((await mastersBook()).path, book);
  const before = readFileSync(book);
  const jobModule = fileURLToPath(new URL('../src/book/node/bookJob.js', import.meta.url));
  const out = join(dir, 'out.tbk');
  // Each job runs in a worker (bookJob.ts); the signal comes from the first report of its writing phase.
  const cases: { job: BookJob; on: keyof BookJobCallbacks }[] = [
    { job: { kind: 'merge', paths: [book, book], output: out, opts: { tmpDir: dir } }, on: 'onProgress' },
    { job: { kind: 'mergeToBin', paths: [book, book], output: join(dir, 'out.bin'), opts: { tmpDir: dir } }, on: 'onProgress' },
    { job: { kind: 'add', path: book, opts: { inputs: [SAMPLE_GZ], tmpDir: dir } }, on: 'onFinishProgress' },
    { job: { kind: 'build', output: out, opts: { inputs: [MASTERS_GZ, SAMPLE_GZ], shard: { index: 0, count: 2 }, tmpDir: dir } }, on: 'onFinishProgress' },
  ];
  for (const { job, on } of cases) {
    const script = `
      import { runBookJob } from ${JSON.stringify(jobModule)};
      let sent = false;
      await runBookJob(${JSON.stringify(job)}, { ${on}() {
        if (!sent) { sent = true; process.kill(process.pid, 'SIGINT'); }
      } });
      console.log('finished');`;
    const file = join(tmp, 'interrupt-job.mjs');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8' });
    assert.equal(r.signal ?? r.status, 'SIGINT', `${job.kind}: ${r.status} ${r.stdout} ${r.stderr}`);
    assert.doesNotMatch(r.stdout, /finished/);
    assert.deepEqual(readdirSync(dir), ['masters.tbk'], `${job.kind}: nothing left but the book`);
    assert.ok(readFileSync(book).equals(before), `${job.kind}: the book unchanged`);
  }
  rmSync(dir, { recursive: true, force: true });
});

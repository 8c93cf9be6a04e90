/**
 * The long book commands that were not yet on a worker thread or showed no progress: `book
 * export`, `book merge` of Polyglot `.bin` books and `book reach` while it indexes a book. A
 * signal stops them at once (exit by the signal, 130 or 143 in a shell), with no output and no
 * temporary file; in a log (stderr not a terminal) they write progress lines and a last line
 * saying where the job ended.
 *
 * Progress lines in a log come every few seconds; the commands run here with a clock that moves
 * on 10 s at every reading (a preload, on the main thread only), so that every update is a line
 * whatever the machine's speed. The signal is sent once the first line says the job is under way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const DATA = fileURLToPath(new URL('../../../shared/data/games/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-long-jobs-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string): string => join(tmp, name);

const CLOCK = at('clock.mjs');
writeFileSync(CLOCK, "import { isMainThread } from 'node:worker_threads';\nif (isMainThread) {\n  const real = Date.now;\n  let skew = 0;\n  Date.now = () => real() + (skew += 10_000);\n}\n");
const ENV = { ...process.env, TABIYA_CACHE_DIR: at('cache') };

function tabiya(args: string[], clock = true): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, [...(clock ? ['--import', CLOCK] : []), MAIN, ...args], { cwd: tmp, encoding: 'utf8', env: ENV, timeout: 120_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

/** The first `bytes` of the 389,323 master games, cut after a whole game. */
async function firstGames(bytes: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  const input = createReadStream(join(DATA, 'pgnmentor_players_dedup.pgn.gz'));
  const gunzip = input.pipe(createGunzip());
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= bytes) break;
  }
  input.destroy();
  const text = Buffer.concat(parts).toString('utf8');
  return text.slice(0, text.lastIndexOf('\n\n[Event ') + 1);
}

/** Files of tabiya's that a run left: temporaries next to outputs, scratch directories. */
function leftovers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.includes('.tabiya-') || n.includes('tabiya-build'));
}

/** Runs a command, sends `signal` when its stderr first matches `underWay`, and says how it ended. */
async function interrupted(args: string[], underWay: RegExp, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; sent: boolean }> {
  const child = spawn(process.execPath, ['--import', CLOCK, MAIN, ...args], { cwd: tmp, env: ENV, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let sent = false;
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (!sent && underWay.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const end = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, sig) => done({ code, signal: sig })));
  clearTimeout(timer);
  return { ...end, stderr, sent };
}

// A book of 16,000 master games (a few seconds to export with its single games), and one of the
// 2,000-game sample for the progress lines.
const big = firstGames(10_000_000).then((pgn) => {
  writeFileSync(at('big.pgn'), pgn);
  const r = tabiya(['book', 'make', 'big.pgn', '-o', 'big.tbk', '--quiet'], false);
  assert.equal(r.status, 0, r.stderr);
  rmSync(at('big.pgn'));
});
const SAMPLE = join(DATA, 'pgnmentor_players_sample2000.pgn.gz');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} ends book export at once: no output, no temporary file, no scratch directory`, { timeout: 120_000 }, async () => {
    await big;
    mkdirSync(at(`scratch-${signal}`));
    // --min-games 1: the book's games are replayed for the positions of single games, into runs.
    const r = await interrupted(['book', 'export', 'big.tbk', '-o', `out-${signal}.bin`, '--min-games', '1', '--tmp-dir', `scratch-${signal}`], /book export: replaying games: /, signal);
    assert.ok(r.sent, `the export ended before it said it was under way: ${r.stderr}`);
    // On the main thread the signal waited for the whole export: the .bin was written and put in place.
    assert.deepEqual({ code: r.code, signal: r.signal }, { code: null, signal }, r.stderr);
    assert.doesNotMatch(r.stderr, /wrote /);
    assert.ok(!existsSync(at(`out-${signal}.bin`)), 'no output');
    assert.deepEqual(leftovers(tmp), []);
    assert.deepEqual(readdirSync(at(`scratch-${signal}`)), []);
  });
}

test("book export's errors come from its worker thread in their own words and exit codes", async () => {
  await big;
  const r1 = tabiya(['book', 'export', 'big.tbk', '-o', 'x.bin', '--max-ply', '2000']);
  assert.equal(r1.status, 1);
  assert.equal(r1.stderr, "tabiya: big.tbk was counted with --max-ply 1024: its games are kept to that ply, so an export can go up to it, not to 2000\n");
  const r2 = tabiya(['book', 'export', 'big.tbk', '-o', 'x.bin', '--ratings', '1600']);
  assert.equal(r2.status, 2);
  assert.equal(r2.stderr, 'tabiya: big.tbk: the book has no rating split (build it with --split rating)\n');
  assert.ok(!existsSync(at('x.bin')));
  assert.deepEqual(leftovers(tmp), []);
});

test('book export shows its progress in a log: the games replayed, then the .bin written, each with a last line; --quiet shows none', () => {
  assert.equal(tabiya(['book', 'make', SAMPLE, '-o', 'sample.tbk', '--quiet'], false).status, 0);
  for (const args of [['--min-games', '1'], ['--max-ply', '20', '--min-games', '1']]) {
    const r = tabiya(['book', 'export', 'sample.tbk', '-o', 'sample.bin', '--force', ...args]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.match(lines[0]!, /^book export: replaying games: [\d.]+% \d+ games, [\d.]+k? games\/s/, r.stderr);
    assert.ok(lines.some((l) => /^book export: replaying games: 100\.0% 2000 games, .*, in [\d.]+ s$/.test(l)), r.stderr);
    assert.ok(lines.some((l) => /^book export: writing: [\d.]+%, /.test(l)), r.stderr);
    assert.match(lines.at(-1)!, /^book export: writing: 100\.0%, .*, in [\d.]+ s$/, r.stderr);
    assert.match(r.stdout, /^wrote sample\.bin: \d+ entries/);
    const quiet = tabiya(['book', 'export', 'sample.tbk', '-o', 'sample.bin', '--force', '--quiet', ...args]);
    assert.equal(quiet.status, 0, quiet.stderr);
    assert.equal(quiet.stderr, '');
  }
});

/** A Polyglot book of `n` entries with increasing keys (1.e4 in each, weight 1). */
function syntheticBin(n: number, seed: number): Buffer {
  const b = Buffer.alloc(16 * n);
  for (let i = 0; i < n; i++) {
    // Keys spread over the range, the two books sharing about half of them.
    b.writeUInt32BE(0x80000000 + Math.floor((i * 0x7fffffff) / n), 16 * i);
    b.writeUInt32BE(i % 2 === 0 ? i : i + seed, 16 * i + 4);
    b.writeUInt16BE(12 * 64 + 28, 16 * i + 8);
    b.writeUInt16BE(1, 16 * i + 10);
  }
  return b;
}

test('book merge of .bin books shows its progress in a log and stops at once on SIGINT with no output or temporary file', { timeout: 120_000 }, async () => {
  writeFileSync(at('a.bin'), syntheticBin(2_000_000, 1));
  writeFileSync(at('b.bin'), syntheticBin(2_000_000, 2));
  const done = tabiya(['book', 'merge', 'a.bin', 'b.bin', '-o', 'ab.bin']);
  assert.equal(done.status, 0, done.stderr);
  assert.match(done.stderr, /^book merge: [\d.]+% \d+ entries, /m);
  assert.match(done.stderr, /^book merge: 100\.0% 4000000 entries, .*, in [\d.]+ s$/m);
  assert.match(tabiya(['book', 'merge', 'a.bin', 'b.bin', '-o', 'ab.bin', '--force', '--quiet']).stderr, /^$/);
  // Three books: two merged in memory, then with the third into the output.
  const r = await interrupted(['book', 'merge', 'a.bin', 'b.bin', 'ab.bin', '-o', 'abab.bin'], /book merge: /, 'SIGINT');
  assert.ok(r.sent, r.stderr);
  // On the main thread the merge went on to the end, put abab.bin in place and exited 0.
  assert.deepEqual({ code: r.code, signal: r.signal }, { code: null, signal: 'SIGINT' }, r.stderr);
  assert.ok(!existsSync(at('abab.bin')));
  assert.deepEqual(leftovers(tmp), []);
  for (const f of ['a.bin', 'b.bin', 'ab.bin']) rmSync(at(f));
});

test('book reach shows its progress in a log while it indexes a book, not when the index comes from the cache', () => {
  assert.equal(tabiya(['book', 'make', SAMPLE, '-o', 'reach.bin', '--min-games', '1', '--quiet'], false).status, 0);
  const walked = tabiya(['book', 'reach', 'reach.bin', '--plies', '2']);
  assert.equal(walked.status, 0, walked.stderr);
  assert.match(walked.stderr, /^book reach: indexing: [\d.]+%, [\d.]+k? %\/s, ETA \d+ s, \d+ positions$/m);
  assert.match(walked.stderr, /^book reach: indexing: 100\.0%, .*, in [\d.]+ s, \d+ positions$/m);
  const cached = tabiya(['book', 'reach', 'reach.bin', '--plies', '2']);
  assert.equal(cached.status, 0, cached.stderr);
  assert.equal(cached.stderr, '');
  assert.equal(tabiya(['book', 'reach', 'reach.bin', '--plies', '2', '--no-cache', '--quiet']).stderr, '');
});

test('book reach shows the progress of a long search (past 65,536 nodes), and none of a short one', () => {
  // After 1.e4 e5 2.Bc4 Nf6: six plies of both sides' moves, bounded to 200,000 nodes.
  const fen = 'rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3';
  const long = tabiya(['book', 'reach', 'reach.bin', '--fen', fen, '--plies', '6', '--max-nodes', '200000']);
  assert.equal(long.status, 0, long.stderr);
  assert.match(long.stderr, /^book reach: searching: [\d.]+%, .*ETA \d+ s, \d+ nodes$/m);
  assert.match(long.stderr, /^book reach: searching: 100\.0%, .*, in [\d.]+ s, 200000 nodes$/m);
  const short = tabiya(['book', 'reach', 'reach.bin', '--plies', '2']);
  assert.equal(short.status, 0, short.stderr);
  assert.doesNotMatch(short.stderr, /searching/);
  assert.equal(tabiya(['book', 'reach', 'reach.bin', '--fen', fen, '--plies', '6', '--max-nodes', '200000', '--quiet']).stderr, '');
});

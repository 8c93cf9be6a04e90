/** `npm run bench` as users run it: usage, a wrong name, a missing input, the load average, bad options, --help, temporary directories and child processes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('../bench/main.js', import.meta.url));
const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', cwd });

test('bench without a name prints the usage with every benchmark and exits 2', () => {
  const r = run(process.cwd());
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^usage: npm run bench -- <[a-zA-Z|-]+> \[args\]$/m);
  for (const name of ['perft', 'pgn', 'book', 'engine', 'tune', 'tbk', 'serve']) assert.match(r.stderr, new RegExp(`[<|]${name}[|>]`));
});

test('bench with a wrong name says which name is wrong', () => {
  const r = run(process.cwd(), 'perfft');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no benchmark named "perfft"/);
  assert.match(r.stderr, /usage: npm run bench/);
});

test('a missing default input is a message naming the file and the data directory, not a stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-bench-cli-'));
  try {
    // perftMake reads ../shared/data/suites/perft_standard.epd from the working directory.
    const cwd = join(dir, 'clone');
    mkdirSync(cwd);
    const r = run(cwd, 'perftMake', '--seconds', '0.1');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /bench perftMake: ENOENT: .*perft_standard\.epd/);
    assert.match(r.stderr, /\.\.\/shared\/data beside the clone/);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    assert.match(r.stderr, /load average at the start \d+\.\d\d \d+\.\d\d \d+\.\d\d on \d+ cores/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Every benchmark reads its command line through bench/args.ts: a wrong one stops it before any work.

test('an unknown option is an error with the usage, exit 2, before any work', () => {
  const r = run(process.cwd(), 'perft', '--bogus');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^bench perft: unknown option --bogus$/m);
  assert.match(r.stderr, /^usage: npm run bench -- perft \[--seconds S\]$/m);
  assert.equal(r.stdout, '', 'no figures: nothing was measured');
});

test('a value that is not a number is an error naming the option and the value, for any benchmark', () => {
  for (const [name, option, value, what] of [
    ['engine', '--runs', 'x', 'a whole number \\(at least 1\\)'],
    ['tune', '--positions', 'abc', 'a whole number \\(at least 1\\)'],
    ['hash', '--sizes', '2,x', 'a comma list of whole numbers \\(each at least 1\\)'],
  ]) {
    const r = run(process.cwd(), name!, option!, value!);
    assert.equal(r.status, 2, `${name} ${option} ${value}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^bench ${name}: ${option}: "${value}" is not ${what}$`, 'm'));
    assert.match(r.stderr, new RegExp(`^usage: npm run bench -- ${name} `, 'm'));
    assert.equal(r.stdout, '');
    assert.doesNotMatch(r.stderr, /^\s+at /m, 'a message, not a stack');
  }
});

test('a value out of range, a missing value, a stray argument are errors too', () => {
  const cases: [string[], RegExp][] = [
    [['aliases', '--runs', '0'], /^bench aliases: --runs: "0" is not a whole number \(at least 1\)$/m],
    [['audit', '--runs', '0'], /^bench audit: --runs: "0" is not a whole number \(at least 1\)$/m],
    [['reach', '--runs', 'x'], /^bench reach: --runs: "x" is not a whole number \(at least 1\)$/m],
    [['hash', '--runs', '0'], /^bench hash: --runs: "0" is not a whole number \(at least 1\)$/m],
    [['match', '--runs', '0'], /^bench match: --runs: "0" is not a whole number \(at least 1\)$/m],
    [['engine', '--runs'], /^bench engine: --runs: a value is needed$/m],
    [['wasm-ab', 'a.wasm'], /^bench wasm-ab: 1 of 2 arguments given: it takes BASE\.wasm and NEW\.wasm$/m],
    [['pgn', '--games', '10', '--full'], /^bench pgn: --games and --full: one or the other$/m],
  ];
  for (const [args, message] of cases) {
    const r = run(process.cwd(), ...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});

test('--help prints the usage with every option, its help and default, and exits 0', () => {
  const r = run(process.cwd(), 'book', '--help');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^usage: npm run bench -- book \[--games N\] \[--runs R\] \[--threads 1,2\] \[--polyglot-args "\.\.\."\] \[FILE\]$/m);
  assert.match(r.stdout, /^ {2}--games N +\S.*\(at least 1; default 100000\)$/m);
  assert.match(r.stdout, /^ {2}--threads T,T +\S.*default 1,2\)$/m);
  assert.match(r.stdout, /^ {2}-h, --help +this help$/m);
  assert.doesNotMatch(r.stdout, /book make:/, 'nothing built');
  assert.equal(run(process.cwd(), 'perft', '-h').status, 0);
});

// bench/cleanup.ts: the benchmarks' temporary directories go however the process ends.

const TEMP_DIR = new URL('../bench/cleanup.js', import.meta.url).href;

/** A process that makes a temporary directory with a file in it, prints its path, then `then` (JavaScript). */
function withTempDir(then: string) {
  const script = `import { tempDir } from ${JSON.stringify(TEMP_DIR)};
    import { writeFileSync } from 'node:fs';
    const dir = tempDir('tabiya-bench-cli-test-');
    writeFileSync(dir + '/data', 'x'.repeat(1000));
    process.stdout.write(dir + '\\n');
    ${then}`;
  return spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
}

async function pathAndEnd(child: ReturnType<typeof withTempDir>, signal?: NodeJS.Signals): Promise<{ dir: string; code: number | null; signal: NodeJS.Signals | null }> {
  let out = '';
  const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  await new Promise<void>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve();
    }),
  );
  const dir = out.trim();
  assert.ok(existsSync(join(dir, 'data')), `${dir} made`);
  if (signal) child.kill(signal);
  else child.stdin!.end();
  const [code, sig] = await ended;
  return { dir, code, signal: sig };
}

/**
 * Waits for `dir` to go (the watcher removes it once this process has ended), up to 30 seconds:
 * on a loaded machine the watcher's own Node.js takes seconds to start.
 */
async function gone(dir: string): Promise<boolean> {
  for (let i = 0; i < 600 && existsSync(dir); i++) await new Promise((r) => setTimeout(r, 50));
  return !existsSync(dir);
}

test('a temporary directory goes when the benchmark is interrupted, even in a synchronous loop, or killed', async () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
    // A busy loop: the event loop never runs again, as in perft or a search.
    const r = await pathAndEnd(withTempDir('for (;;);'), signal);
    assert.equal(r.signal, signal, 'the signal ends the process at once, as before');
    assert.ok(await gone(r.dir), `${r.dir} removed after ${signal}`);
  }
});

test('a temporary directory goes at a normal exit', async () => {
  // It ends when its standard input does, after the directory has been seen.
  const r = await pathAndEnd(withTempDir('process.stdin.resume();'));
  assert.equal(r.code, 0);
  assert.ok(!existsSync(r.dir), 'removed by the exit itself, not later');
});

/** Whether process `pid` is alive (signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a program the benchmark runs beside itself ends when the benchmark is killed, even by a signal sent to it alone', async () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    // As a book build or the server of `bench serve`: its own input closed, so it would run on.
    const script = `import { ownChild } from ${JSON.stringify(TEMP_DIR)};
      import { spawn } from 'node:child_process';
      const c = ownChild(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }));
      process.stdout.write(c.pid + '\\n');
      for (;;);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    await new Promise<void>((resolve) =>
      parent.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve();
      }),
    );
    const pid = Number(out.trim());
    assert.ok(alive(pid), 'the child runs');
    const ended = new Promise((resolve) => parent.on('exit', resolve));
    parent.kill(signal); // the benchmark alone, not its process group
    await ended;
    for (let i = 0; i < 600 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    const left = alive(pid);
    if (left) process.kill(pid, 'SIGKILL');
    assert.ok(!left, `the child ${pid} ended after ${signal} to the benchmark`);
  }
});

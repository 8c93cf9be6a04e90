/**
 * The test command's runner: every compiled `*.test.js` under dist/ whose TypeScript source still
 * exists, under Node's test runner, two files at a time. Listing the files (instead of handing
 * `node --test` the directory) keeps helper modules beside the tests from being run as tests, and
 * skips compiled tests left behind in dist/ after their source was deleted or renamed.
 *
 *   node dist/scripts/run-tests.js [--match TEXT]... [--long] [--timeout-min M] [extra node --test flags]
 *
 * --match keeps the files whose path contains one of the texts; --long gives the fuzz and
 * crash-safety tests their long budgets (`npm run fuzz`; see test/support/budget.ts);
 * --timeout-min stops the run after M minutes (default 45, none with --long; 0: no limit).
 * The run fails when a test started and got no verdict (see test-verdicts.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingVerdicts, slowest } from './test-verdicts.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = join(ROOT, 'dist');

function testFiles(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (e.name.endsWith('.test.js') && existsSync(join(ROOT, relative(DIST, p)).replace(/\.js$/, '.ts'))) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const matches: string[] = [];
let long = false;
let timeoutMinutes: number | undefined;
const rest: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--match' && i + 1 < args.length) matches.push(args[++i]!);
  else if (args[i] === '--long') long = true;
  else if (args[i] === '--timeout-min' && i + 1 < args.length) {
    timeoutMinutes = Number(args[++i]);
    if (!Number.isFinite(timeoutMinutes) || timeoutMinutes < 0) {
      console.error(`--timeout-min wants a number of minutes (0: no limit), not ${args[i]}`);
      process.exit(2);
    }
  }
  else rest.push(args[i]!);
}

const files = testFiles(DIST, [])
  .filter((f) => matches.length === 0 || matches.some((m) => relative(DIST, f).includes(m)))
  .sort();
if (files.length === 0) {
  console.error(matches.length > 0 ? `no compiled test under ${DIST} matches ${matches.join(', ')}` : `no compiled tests under ${DIST}: run "tsc -p ." first`);
  process.exit(1);
}
// Caches the tests make (reach indexes) go to a directory of their own, removed after the run.
const cache = mkdtempSync(join(tmpdir(), 'tabiya-test-cache-'));
const verdictFile = join(cache, 'verdicts.jsonl');
const env = { ...process.env, TABIYA_CACHE_DIR: cache, ...(long ? { TABIYA_BUDGET: 'long' } : {}) };
// No --test-force-exit: with it, Node's runner can lose the last results of a test file and still
// exit 0 (nodejs/node#64833). A file that leaves something open (a server, a socket, a browser)
// then keeps the run from ending; the watchdog below ends it and names the file instead.
// Beside the usual report on stdout, test-verdicts.ts records each test's start and verdict
// with its file, so that a start without a verdict fails the run however the runner lost it.
const reporter = process.stdout.isTTY ? 'spec' : 'tap';
const child = spawn(
  process.execPath,
  [
    '--test', '--test-concurrency=2',
    `--test-reporter=${reporter}`, '--test-reporter-destination=stdout',
    `--test-reporter=${join(DIST, 'scripts/test-verdicts.js')}`, `--test-reporter-destination=${verdictFile}`,
    ...rest, ...files,
  ],
  { stdio: 'inherit', env, detached: true },
);
// The whole run's limit: the suite takes about 15 minutes on 2 cores; --long runs are not limited.
const limitMinutes = timeoutMinutes ?? (long ? 0 : 45);
let timedOut = false;
const watchdog = limitMinutes > 0
  ? setTimeout(() => {
      timedOut = true;
      const running = runningTestFiles(child.pid!);
      console.error(`\nrun-tests: the run took more than ${limitMinutes} minutes and was stopped` +
        (running.length > 0 ? `; still running (a test file that leaves a server, socket or child process open never ends):\n  ${running.join('\n  ')}` : ''));
      killGroup(child.pid!);
    }, limitMinutes * 60_000)
  : undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => { killGroup(child.pid!); process.exit(130); });
const status = await new Promise<number>((done) => child.on('exit', (code) => done(code ?? 1)));
if (watchdog !== undefined) clearTimeout(watchdog);

let failed = status !== 0 || timedOut;
const record = existsSync(verdictFile) ? readFileSync(verdictFile, 'utf8') : '';
// Where the time went, also (above all) when the run was stopped for taking too long.
const slow = slowest(record, 8);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1).padStart(6)} s`;
console.log(`\n# slowest test files (sum of their tests${timedOut ? ', those that finished' : ''}):`);
for (const f of slow.files) console.log(`#  ${seconds(f.ms)}  ${relative(ROOT, f.file)}`);
console.log('# slowest tests:');
for (const t of slow.tests) console.log(`#  ${seconds(t.ms)}  ${relative(ROOT, t.file)}: ${t.name.length > 100 ? `${t.name.slice(0, 100)}…` : t.name}`);
if (!timedOut) {
  const { unfinished, silentFiles } = missingVerdicts(record, files);
  if (unfinished.length > 0 || silentFiles.length > 0) {
    failed = true;
    console.error(`\nrun-tests: the test runner lost results, so this run proves nothing about them:`);
    for (const e of unfinished) console.error(`  started, no verdict: ${relative(ROOT, e.file)}: ${e.name}`);
    for (const f of silentFiles) console.error(`  no result at all: ${relative(ROOT, f)}`);
  }
}
rmSync(cache, { recursive: true, force: true });
process.exit(failed ? (status !== 0 ? status : 1) : 0);

/** The test files the runner's child processes are still running (their command lines name them). */
function runningTestFiles(parent: number): string[] {
  const out: string[] = [];
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        for (const a of args) if (a.endsWith('.test.js')) out.push(relative(ROOT, a));
      } catch { /* the process ended meanwhile */ }
    }
  } catch { /* no /proc: the message names no file */ }
  return out;
}

function killGroup(pid: number): void {
  try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
}

/**
 * SIGHUP (a terminal window closed, an ssh session dropped, a batch script's session ended)
 * stops `tabiya match`, `tabiya serve` and `tabiya book audit` as SIGTERM does: the same
 * cleanup, the same report and the same word on how to go on, with the status 129 (128 + 1)
 * a shell shows for it (docs/cli.md). They died by the signal's default action, with nothing
 * said. Two ways in:
 *
 * - `kill -HUP` with standard error gone (its reader closed: every write to it fails with
 *   EPIPE), which must not turn the stop into a crash;
 * - a real terminal closed under the command (test/fixtures/hangup.py, on a pseudo-terminal:
 *   SIGHUP to its foreground process group, EIO on every write after). Node 20 aborts at exit
 *   (SIGABRT, 134; or SIGSEGV, 139) when it cannot restore such a terminal's settings, also at
 *   the end of a command that outlived its terminal without a SIGHUP (src/node/stopSignals.ts).
 *   Skipped without python3.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants as fsConstants, existsSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const HANGUP = fileURLToPath(new URL('../../test/fixtures/hangup.py', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-hangup-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const PYTHON = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;
const NO_PTY = PYTHON ? false : 'python3 (with its pty module) is not installed: no terminal to close';

// tabiya's own engine under a name of this file's: the check that no engine outlives the runner
// sees only these (Node runs a symlinked main script from where it points).
const ENGINE = join(tmp, 'tabiya-hangup-engine.js');
symlinkSync(MAIN, ENGINE);
const MATCH = ['match', '--engine', 'name=A', 'cmd=node', `arg=${ENGINE}`, 'arg=uci', '--engine', 'name=B', 'cmd=node', `arg=${ENGINE}`, 'arg=uci', '--each', 'nodes=2000'];
const enginesLeft = (): number => (spawnSync('pgrep', ['-f', ENGINE], { encoding: 'utf8' }).stdout.trim().split('\n').filter((l) => l !== '').length);

// A tiny book with two planted blunders (as test/book-audit.test.ts), 25 positions to audit.
const LINES = [
  '1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5',
  '1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5#',
  '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6',
  '1. d4 d5 2. c4 e6 3. Nc3 Nf6',
];
writeFileSync(join(tmp, 'traps.pgn'), LINES.flatMap((m) => ['1-0', '0-1', '1/2-1/2'].map((r) => `[Event "x"]\n[Result "${r}"]\n\n${m} ${r}\n`)).join('\n'));
const made = spawnSync(process.execPath, [MAIN, 'book', 'make', 'traps.pgn', '-o', 'traps.tbk', '--quiet'], { cwd: tmp, encoding: 'utf8' });
assert.equal(made.status, 0, made.stderr);
const BOOK = join(tmp, 'traps.tbk');
// Deep enough that the audit is far from done when it is stopped after a few positions.
const AUDIT = ['book', 'audit', BOOK, '--depth', '12', '--threads', '1'];

/** How a process ended: `exit N`, or killed by a signal (an abort is SIGABRT, 6). */
function howEnded(code: number | null, signal: NodeJS.Signals | number | null): string {
  if (code !== null) return `exit ${code}`;
  return `killed by signal ${typeof signal === 'number' ? signal : constants.signals[signal!]} (status ${128 + (typeof signal === 'number' ? signal : constants.signals[signal!])})`;
}
const EXIT_129 = 'exit 129';

interface Stopped {
  status: string;
  stdout: string;
}

/**
 * Runs `tabiya args` with standard error gone (its reader closed at once), waits until `ready()`,
 * sends SIGHUP and returns the shell's status and what was printed on stdout.
 */
async function hangUpWithoutStderr(args: string[], ready: (stdout: string) => boolean): Promise<Stopped> {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.destroy();
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  const ended = new Promise<string>((resolve) => child.on('close', (code, signal) => resolve(howEnded(code, signal))));
  const deadline = Date.now() + 60_000;
  while (!ready(stdout) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  assert.ok(ready(stdout), `never ready: ${stdout}`);
  child.kill('SIGHUP');
  return { status: await ended, stdout };
}

/** Closes the terminal of `tabiya args` once `marker` shows (hangup.py); `out` as hangup.py takes it. */
function hangUpTerminal(marker: string, out: string, args: string[]): { status: string; seen: boolean } {
  const r = spawnSync('python3', [HANGUP, marker, out, '--', process.execPath, MAIN, ...args], { cwd: tmp, encoding: 'utf8', timeout: 150_000 });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { code: number | null; signal: number | null; seen: boolean };
  return { status: howEnded(j.code, j.signal), seen: j.seen };
}

const journalGames = (pgn: string): number => readFileSync(`${pgn}.journal`, 'utf8').split('\n').filter((l) => l.startsWith('{"type":"game"')).length;
const auditRecords = (journal: string): number => readFileSync(journal, 'utf8').split('\n').filter((l) => l.startsWith('{"key"')).length;

test('match: SIGHUP stops the games, reports, says how to resume (129), with stderr gone; --resume goes on', { timeout: 180_000 }, async () => {
  const pgn = join(tmp, 'kill.pgn');
  // One game at a time: the second has just begun when the signal is sent.
  const run = [...MATCH, '--games', '4', '--pgnout', pgn];
  const r = await hangUpWithoutStderr(run, (out) => out.includes('Finished game 1 '));
  assert.equal(r.status, EXIT_129, r.stdout);
  const m = /Match interrupted after (\d+) games?\. To resume it, run the same command with --resume\./.exec(r.stdout);
  assert.ok(m, r.stdout);
  const played = Number(m[1]);
  assert.ok(played >= 1 && played < 4, r.stdout);
  assert.equal(journalGames(pgn), played, 'the journal holds the games the report counts');
  assert.equal(enginesLeft(), 0, 'no engine outlives the runner');
  // The same command with --resume plays on from there.
  const resumed = spawnSync(process.execPath, [MAIN, ...run, '--resume'], { cwd: tmp, encoding: 'utf8', timeout: 120_000 });
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stdout, new RegExp(`Resuming: ${played} of 4 games already played`));
  assert.match(resumed.stdout, /Finished match/);
  assert.equal(readFileSync(pgn, 'utf8').match(/^\[Event /gm)?.length, 4);
});

test('match: its terminal closed, it exits 129 (not an abort), the report in its log, the journal kept', { skip: NO_PTY, timeout: 180_000 }, () => {
  // A script run as `tabiya match ... > log 2>&1` whose session ends: stdin is the terminal.
  const pgn = join(tmp, 'log.pgn');
  const log = join(tmp, 'match.log');
  const r = hangUpTerminal('Finished game 1 ', log, [...MATCH, '--games', '20', '--pgnout', pgn]);
  assert.ok(r.seen);
  const out = readFileSync(log, 'utf8');
  assert.equal(r.status, EXIT_129, `${out}${readFileSync(`${log}.err`, 'utf8')}`);
  const played = Number(/Match interrupted after (\d+) games?\. To resume it, run the same command with --resume\./.exec(out)?.[1]);
  assert.ok(played >= 1, out);
  assert.equal(journalGames(pgn), played);
  assert.match(readFileSync(`${log}.err`, 'utf8'), /Interrupting the match/);
  // Everything on the terminal that goes away: nothing can be said, and nothing must crash.
  const pgn2 = join(tmp, 'tty.pgn');
  const tty = hangUpTerminal('Finished game 1 ', '-', [...MATCH, '--games', '20', '--pgnout', pgn2]);
  assert.ok(tty.seen);
  assert.equal(tty.status, EXIT_129);
  assert.ok(journalGames(pgn2) >= 1);
  assert.equal(enginesLeft(), 0, 'no engine outlives the runner');
});

test('serve: SIGHUP closes it and says so (129), with stderr gone or its terminal closed', { timeout: 120_000 }, async () => {
  const r = await hangUpWithoutStderr(['serve', BOOK, '--port', '0'], (out) => out.includes('Ctrl-C stops it'));
  assert.equal(r.status, EXIT_129, r.stdout);
  if (!PYTHON) return;
  const log = join(tmp, 'serve.log');
  const t = hangUpTerminal('Ctrl-C stops it', log, ['serve', BOOK, '--port', '0']);
  assert.ok(t.seen);
  assert.equal(t.status, EXIT_129);
  assert.equal(readFileSync(`${log}.err`, 'utf8'), 'tabiya serve: stopped (SIGHUP: its terminal or session closed)\n');
  const tty = hangUpTerminal('Ctrl-C stops it', '-', ['serve', BOOK, '--port', '0']);
  assert.equal(tty.status, EXIT_129);
});

test('book audit: SIGHUP says what the journal holds and that the same command goes on (129); the next run does', { timeout: 180_000 }, async () => {
  const journal = join(tmp, 'kill.audit');
  const child = spawn(process.execPath, [MAIN, ...AUDIT, '--journal', journal], { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const ended = new Promise<string>((resolve) => child.on('close', (code, signal) => resolve(howEnded(code, signal))));
  const deadline = Date.now() + 60_000;
  while (!(existsSync(journal) && auditRecords(journal) >= 3) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGHUP');
  assert.equal(await ended, EXIT_129, err);
  const done = auditRecords(journal);
  assert.match(err, new RegExp(`interrupted: ${done} of 25 positions searched in this run are in the journal ${journal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; the same command goes on from there`));
  // With stderr gone as well, it still ends the same way.
  const quiet = await hangUpWithoutStderr([...AUDIT, '--journal', journal], () => auditRecords(journal) >= done + 2);
  assert.equal(quiet.status, EXIT_129);
  const kept = auditRecords(journal);
  const next = spawnSync(process.execPath, [MAIN, ...AUDIT, '--journal', journal, '--json', '--quiet'], { cwd: tmp, encoding: 'utf8', timeout: 120_000 });
  assert.equal(next.status, 0, next.stderr);
  const j = JSON.parse(next.stdout) as { fromJournal: number; searched: number; flagged: unknown[] };
  assert.equal(j.fromJournal, kept);
  assert.equal(j.searched, 25 - kept);
  assert.equal(j.flagged.length, 2);
});

test('book audit: its terminal closed, it exits 129 (not an abort) with the journal kept', { skip: NO_PTY, timeout: 120_000 }, () => {
  const journal = join(tmp, 'tty.audit');
  const r = hangUpTerminal(`@${journal}:4`, '-', [...AUDIT, '--journal', journal]);
  assert.ok(r.seen);
  assert.equal(r.status, EXIT_129);
  assert.ok(auditRecords(journal) >= 3);
  const log = join(tmp, 'audit.log');
  const l = hangUpTerminal(`@${journal}:${auditRecords(journal) + 3}`, log, [...AUDIT, '--journal', journal]);
  assert.equal(l.status, EXIT_129);
  assert.match(readFileSync(`${log}.err`, 'utf8'), /interrupted: \d+ of \d+ positions searched in this run are in the journal .*; the same command goes on from there/);
});

test('a command that outlives its terminal without a hangup (a job left running at logout) ends as usual after its work, not by an abort', { skip: NO_PTY, timeout: 120_000 }, async () => {
  // `pgn clean FIFO`: it waits for its input on a FIFO that this test writes only once the
  // terminal is gone. setsid puts it in a session of its own, which the hangup does not reach,
  // as a background job of a shell that exits without huponexit; its stdin and stderr stay on
  // the terminal, its report goes to a file.
  const fifo = join(tmp, 'input.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const go = join(tmp, 'go');
  const status = join(tmp, 'outlived.status');
  const inner = `"${process.execPath}" "${MAIN}" pgn clean "${fifo}" -o outlived.pgn > outlived.log; echo $? > "${status}"`;
  const harness = spawn('python3', [HANGUP, `@${go}:1`, '-', '--', 'sh', '-c', `setsid sh -c '${inner}' & wait`], { cwd: tmp, stdio: ['ignore', 'pipe', 'inherit'] });
  const closed = new Promise<void>((resolve) => harness.on('close', () => resolve()));
  // The command has opened its input: it is running, on the terminal.
  let fd = -1;
  for (const deadline = Date.now() + 60_000; fd < 0 && Date.now() < deadline; ) {
    try {
      fd = openSync(fifo, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK);
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  assert.ok(fd >= 0, 'the command never opened its input');
  writeFileSync(go, '\n');
  await closed;
  writeSync(fd, readFileSync(join(tmp, 'traps.pgn')));
  closeSync(fd);
  for (const deadline = Date.now() + 60_000; !existsSync(status) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
  assert.equal(readFileSync(status, 'utf8').trim(), '0', 'exit status (134: Node aborted restoring the terminal that is gone)');
  assert.match(readFileSync(join(tmp, 'outlived.log'), 'utf8'), /12 games written to outlived\.pgn/);
});

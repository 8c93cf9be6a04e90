/**
 * What a benchmark leaves behind, cleaned up however the run ends (SIGINT, SIGTERM, even SIGKILL
 * or a crash):
 * - its temporary directories (a decompressed collection, built books: hundreds of MB), removed
 *   by the benchmark when it is done (`removeTempDir`), at a normal exit, or by the watcher;
 * - the programs it runs beside itself (book builds, engines, the server of `bench serve`), which
 *   a signal sent to the benchmark alone (`kill PID`, a batch system's time limit) does not reach:
 *   the watcher sends them SIGTERM once the benchmark has gone (`ownChild`).
 *
 * Signal handlers would not do: a handler runs only when the event loop is free, and most
 * benchmarks spend seconds to minutes in synchronous loops (perft, searches, gunzip), during
 * which Ctrl-C would then do nothing. Instead the first directory starts a small watcher
 * process, in its own process group (a Ctrl-C at the terminal does not reach it), that reads
 * the directories made and removed, and the child processes started and ended, on a pipe from
 * this process; when the pipe closes (this process has ended, however) it removes the
 * directories still there and ends the children still running. It removes only directories named
 * `tabiya-*` in the system's temporary directory. The benchmark's own exit status (130 for
 * SIGINT, 143 for SIGTERM) is left as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The watcher: lines `["+", dir]`, `["-", dir]`, `["p", pid]` and `["q", pid]` on standard input;
 * at its end, removes the directories and ends the processes still listed.
 */
const WATCHER = `
const { rmSync } = require('node:fs');
const { sep } = require('node:path');
const root = process.argv[1];
const live = new Set();
const pids = new Set();
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { text += c; });
process.stdin.on('end', () => {
  for (const line of text.split('\\n')) {
    if (line === '') continue;
    const [op, dir] = JSON.parse(line);
    if (op === '+') live.add(dir); else if (op === '-') live.delete(dir);
    else if (op === 'p') pids.add(dir); else pids.delete(dir);
  }
  for (const pid of pids) try { process.kill(pid, 'SIGTERM'); } catch {}
  for (const dir of live) if (dir.startsWith(root) && !dir.slice(root.length).includes(sep)) rmSync(dir, { recursive: true, force: true });
});
`;

const live = new Set<string>();
let watcher: Socket | undefined;

function tell(op: '+' | '-' | 'p' | 'q', what: string | number): void {
  if (watcher === undefined) {
    const child = spawn(process.execPath, ['-e', WATCHER, join(tmpdir(), 'tabiya-')], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    child.on('error', () => {});
    child.unref();
    watcher = child.stdin as unknown as Socket;
    watcher.on('error', () => {});
    watcher.unref();
    process.on('exit', () => {
      for (const d of live) rmSync(d, { recursive: true, force: true });
    });
  }
  watcher.write(JSON.stringify([op, what]) + '\n');
}

/** A new directory `tabiya-...` in the system's temporary directory, removed at the latest when this process ends. */
export function tempDir(prefix: string): string {
  if (!prefix.startsWith('tabiya-')) throw new Error(`tempDir: the prefix must start with "tabiya-", not "${prefix}"`);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  live.add(dir);
  tell('+', dir);
  return dir;
}

/** Removes a directory of `tempDir` and everything in it. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  if (live.delete(dir)) tell('-', dir);
}

/**
 * Ends `child` with SIGTERM if this process ends first, however (the watcher above); forgotten
 * when the child exits. Returns the child.
 */
export function ownChild<C extends ChildProcess>(child: C): C {
  const pid = child.pid;
  if (pid === undefined) return child;
  tell('p', pid);
  child.once('exit', () => {
    if (watcher !== undefined) tell('q', pid);
  });
  return child;
}

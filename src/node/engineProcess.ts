/**
 * Engines as child processes: the Node transport behind the match runner's players.
 *
 * - stdout is split into lines as it arrives (no polling), `\r` stripped, and a line longer than
 *   `MAX_LINE` is cut so an engine printing garbage without newlines cannot exhaust memory.
 * - Lines sent in the same tick are written together (one system call per search, not two).
 * - stderr goes to a file when asked, and its last lines are kept for error messages.
 * - Every live engine is registered; `killAllEngines` runs on process exit, so no engine outlives
 *   the runner (the CLI also calls it on SIGINT, SIGTERM and SIGHUP before exiting).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { EngineSpec } from '../match/engineSpec.js';
import type { EngineTransport } from '../match/player.js';
import { ioReason } from '../book/node/atomicWrite.js';

const MAX_LINE = 1 << 20;
const TAIL = 20;
const live = new Set<ChildProcessWithoutNullStreams>();
let hooked = false;

/** Kills every engine process still running (synchronous, safe in an exit handler). */
export function killAllEngines(): void {
  for (const c of live) {
    try {
      c.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

/** Number of engine processes currently alive (for tests and diagnostics). */
export function liveEngineCount(): number {
  return live.size;
}

class ProcessTransport implements EngineTransport {
  onLine: (line: string) => void = () => {};
  onExit: (why: string) => void = () => {};
  private buf = '';
  private readonly errTail: string[] = [];
  private errBuf = '';
  private gone = false;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly errFile: WriteStream | undefined,
    label: string,
  ) {
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.data(chunk));
    child.stderr.on('data', (chunk: string) => this.errData(chunk));
    // EPIPE and friends: the exit event reports the end.
    child.stdin.on('error', () => {});
    child.on('exit', (code, sig) => this.exited(sig ? `${label} was killed by ${sig}` : `${label} exited with code ${code}`));
    child.on('error', (e) => this.exited(`${label}: ${e.message}`));
  }

  private data(chunk: string): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      if (nl < 0) break;
      let line = this.buf + chunk.slice(start, nl);
      this.buf = '';
      if (line.endsWith('\r')) line = line.slice(0, -1);
      start = nl + 1;
      this.onLine(line);
    }
    this.buf += chunk.slice(start);
    if (this.buf.length > MAX_LINE) {
      const line = this.buf.slice(0, MAX_LINE);
      this.buf = '';
      this.onLine(line);
    }
  }

  private errData(chunk: string): void {
    this.errFile?.write(chunk);
    const parts = (this.errBuf + chunk).split('\n');
    this.errBuf = (parts.pop() ?? '').slice(-4096);
    for (const p of parts) {
      if (p.trim() === '') continue;
      if (this.errTail.length >= TAIL) this.errTail.shift();
      this.errTail.push(p.slice(0, 500));
    }
  }

  private exited(why: string): void {
    if (this.gone) return;
    this.gone = true;
    live.delete(this.child);
    if (this.buf !== '') {
      const rest = this.buf;
      this.buf = '';
      this.onLine(rest);
    }
    this.errFile?.end();
    this.onExit(why);
  }

  send(line: string): void {
    if (this.gone) return;
    // Lines sent in one go (position + go, new + force + level …) leave in one write: one system
    // call instead of several, flushed before any I/O is processed, so no latency is added.
    if (this.outBuf === '') queueMicrotask(this.flush);
    this.outBuf += line + '\n';
  }

  private outBuf = '';

  private readonly flush = (): void => {
    const text = this.outBuf;
    this.outBuf = '';
    if (text !== '' && !this.gone && this.child.stdin.writable) this.child.stdin.write(text);
  };

  kill(): void {
    if (this.gone) return;
    try {
      this.child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }

  stderrTail(): string[] {
    return this.errBuf.trim() !== '' ? [...this.errTail, this.errBuf] : [...this.errTail];
  }
}

/** Starts `spec.cmd` with its arguments in `spec.dir`; resolves once the process is running. */
export function spawnEngine(spec: EngineSpec): Promise<EngineTransport> {
  if (!hooked) {
    hooked = true;
    process.once('exit', killAllEngines);
  }
  return new Promise<EngineTransport>((resolvePromise, reject) => {
    // A relative command with dir= is looked up in that directory, as cutechess does.
    const cmd = spec.dir !== undefined && !isAbsolute(spec.cmd) && /[\\/]/.test(spec.cmd) ? resolve(spec.dir, spec.cmd) : spec.cmd;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(cmd, spec.args, { cwd: spec.dir, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    const errFile = spec.stderrFile !== undefined ? createWriteStream(spec.stderrFile, { flags: 'a' }) : undefined;
    // A log that cannot be written (full disk) is said once, and the game goes on without it.
    errFile?.once('error', (e) => process.stderr.write(`warning: ${spec.stderrFile}: cannot write ${spec.name}'s stderr: ${ioReason(e)}\n`));
    const onError = (e: Error): void => {
      errFile?.end();
      reject(e);
    };
    child.once('error', onError);
    child.once('spawn', () => {
      child.off('error', onError);
      live.add(child);
      resolvePromise(new ProcessTransport(child, errFile, `${spec.name} (pid ${child.pid})`));
    });
  });
}

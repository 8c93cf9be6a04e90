/**
 * A scripted client for `tabiya uci` / `tabiya xboard` run as a child process: write lines,
 * wait for a line matching a pattern (with a hang bound), and tell in which order lines came.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/**
 * How long `expect` waits for a line by default: a hang bound, not a speed. Every answer the
 * tests wait for comes in well under a second on an idle machine; the bound is there so that a
 * line that never comes fails the test saying which, with the last lines seen.
 */
export const EXPECT_HANG_MS = 30_000;

export class EngineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: { text: string }[] = [];
  private buffer = '';
  private waiters: { re: RegExp; from: number; resolve: (l: string) => void }[] = [];

  constructor(command: 'uci' | 'xboard', args: readonly string[] = []) {
    this.child = spawn(process.execPath, [MAIN, command, ...args], { stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const text = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.lines.push({ text });
        this.waiters = this.waiters.filter((w) => {
          if (this.lines.length - 1 >= w.from && w.re.test(text)) {
            w.resolve(text);
            return false;
          }
          return true;
        });
      }
    });
  }

  send(line: string): void {
    this.child.stdin.write(line + '\n');
  }

  /** The next line (from now on) matching `re`. */
  expect(re: RegExp, timeoutMs = EXPECT_HANG_MS): Promise<string> {
    const from = this.lines.length;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}; last lines: ${this.lines.slice(-5).map((l) => l.text).join(' | ')}`)), timeoutMs);
      this.waiters.push({ re, from, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  }

  /** The index in `lines` of the last line matching `re` (-1: none). */
  lastIndex(re: RegExp): number {
    for (let i = this.lines.length - 1; i >= 0; i--) if (re.test(this.lines[i]!.text)) return i;
    return -1;
  }

  /** The text of the lines from index `from` on. */
  since(from: number): string[] {
    return this.lines.slice(from).map((l) => l.text);
  }

  /** Kills the process if it is still running (cleanup after a failed test). */
  kill(): void {
    if (this.child.exitCode === null && !this.child.killed) this.child.kill();
  }

  /** Sends quit and waits for the process to exit; returns its exit code. */
  quit(command = 'quit'): Promise<number | null> {
    return new Promise((resolve) => {
      this.child.on('exit', (code) => resolve(code));
      this.send(command);
    });
  }
}

/**
 * Runs `tabiya uci|xboard` with `lines` piped into it and the pipe closed after them, as a
 * script does (`printf '…' | tabiya uci`). Resolves with what it printed and its exit code; a
 * process still running after `timeoutMs` is killed and the promise rejects.
 */
export function pipeInto(command: 'uci' | 'xboard', lines: readonly string[], timeoutMs = 30000): Promise<{ out: string[]; code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, command], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(lines.map((l) => l + '\n').join(''));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tabiya ${command} still running after ${timeoutMs} ms; it printed: ${stdout.split('\n').slice(-5).join(' | ')}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ out: stdout.split('\n').filter((l) => l !== ''), code, stderr });
    });
  });
}

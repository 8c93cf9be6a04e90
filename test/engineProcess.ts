/**
 * A scripted client for `tabiya uci` / `tabiya xboard` run as a child process: write lines,
 * wait for a line matching a pattern (with a timeout), and measure how long answers take.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

export class EngineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: { text: string; at: number }[] = [];
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
        this.lines.push({ text, at: performance.now() });
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

  send(line: string): number {
    this.child.stdin.write(line + '\n');
    return performance.now();
  }

  /** The next line (from now on) matching `re`. */
  expect(re: RegExp, timeoutMs = 10000): Promise<string> {
    const from = this.lines.length;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}; last lines: ${this.lines.slice(-5).map((l) => l.text).join(' | ')}`)), timeoutMs);
      this.waiters.push({ re, from, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  }

  /** Time at which the last line matching `re` arrived. */
  arrival(re: RegExp): number {
    for (let i = this.lines.length - 1; i >= 0; i--) if (re.test(this.lines[i]!.text)) return this.lines[i]!.at;
    return NaN;
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

/** Running the built `tabiya` command and reading PGN files in integration tests. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePgn } from '../../src/pgn/parser.js';
import { makeUci } from '../../src/notation/uci.js';

/** The repository root (this file runs from dist/test/helpers). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CLI = resolve(ROOT, 'dist/src/cli/main.js');
export const FIXTURES = resolve(ROOT, 'test/fixtures/engines');
export const DATA = resolve(ROOT, '../shared/data');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `tabiya args…`; `onStdout` sees output as it comes and may return true to send SIGINT. */
export function runCli(args: readonly string[], opts: { timeoutMs?: number; onStdout?: (all: string) => boolean; signal?: NodeJS.Signals } = {}): Promise<CliRun> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 55_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!signalled && opts.onStdout?.(stdout)) {
        signalled = true;
        child.kill(opts.signal ?? 'SIGINT');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

export interface PgnGameInfo {
  tags: Map<string, string>;
  /** Main line in UCI. */
  uci: string[];
  comments: string[];
  result: string;
}

/** Reads a PGN file with our reader; throws on any broken game. */
export function readGames(file: string): PgnGameInfo[] {
  const games: PgnGameInfo[] = [];
  let cur: PgnGameInfo | undefined;
  const errors: string[] = [];
  parsePgn(
    readFileSync(file),
    {
      beginGame: () => void (cur = { tags: new Map(), uci: [], comments: [], result: '' }),
      tag: (n, v) => void cur!.tags.set(n, v),
      move: (pos, m) => void cur!.uci.push(makeUci(m, pos.chess960)),
      comment: (c) => void cur!.comments.push(c.replace(/\s+/g, ' ')),
      endGame: (r) => {
        cur!.result = r;
        games.push(cur!);
      },
      error: (e) => void errors.push(`${e.file}:${e.line}: ${e.message}`),
    },
    { file },
  );
  if (errors.length > 0) throw new Error(`PGN errors: ${errors.join('; ')}`);
  return games;
}

const PGN_EXTRACT = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((p) => existsSync(p));

/** pgn-extract's reading of a PGN file as UCI move lists, or undefined when it is not installed. */
export function pgnExtractUci(file: string): { games: string[][]; log: string } | undefined {
  if (!PGN_EXTRACT) return undefined;
  const r = spawnSync(PGN_EXTRACT, ['-s', '-Wuci', '--nocomments', '--notags', '-w', '100000', file], { encoding: 'utf8' });
  const games = r.stdout
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter((b) => b !== '')
    .map((b) => b.split(/\s+/).slice(0, -1));
  return { games, log: r.stderr };
}

/** Pids of running processes whose command line contains `needle` (Linux /proc). */
export function processesMatching(needle: string): number[] {
  const r = spawnSync('pgrep', ['-f', needle], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number)
    .filter((pid) => pid !== process.pid);
}

/**
 * `npm run bench -- pgn [--games N | --full] [--runs R] [FILE]`: PGN parse + full legal replay
 * of every main-line move, on real games, against `pgn-extract -s -o /dev/null` (the C tool
 * people clean databases with) and against chessops (PgnParser + parseSan + play), all on the
 * same uncompressed file, in one run. Prints games/s (wall clock and CPU time, best of R runs),
 * the ratios, and how much our resident memory grew while reading (it should not).
 *
 * Default input: the first 60,000 games of ../shared/data/games/pgnmentor_players_dedup.pgn.gz,
 * decompressed once to a temporary file so no tool pays for gunzip.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { PgnParser as ChessopsParser, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { readPgn } from '../src/pgn/reader.js';
import { benchArgs } from './args.js';
import { removeTempDir, tempDir } from './cleanup.js';

const DATA = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const PGN_EXTRACT = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((p) => existsSync(p));

interface Timing {
  games: number;
  plies: number;
  wall: number;
  cpu: number;
}

const cpuNow = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

async function ours(file: string): Promise<Timing> {
  let plies = 0;
  const w0 = performance.now();
  const c0 = cpuNow();
  const s = await readPgn(file, { move: () => void plies++ });
  return { games: s.games, plies, wall: (performance.now() - w0) / 1000, cpu: cpuNow() - c0 };
}

/** Resident memory of a fresh process reading the file, at 10 %, 50 % and 100 % of it (MiB). */
function memoryProfile(file: string): number[] {
  const reader = new URL('../src/pgn/reader.js', import.meta.url).href;
  const script = `import { readPgn } from ${JSON.stringify(reader)};
    const marks = [0.1, 0.5]; const rss = [];
    await readPgn(process.argv[1], { move() {} }, { onProgress(p) {
      if (marks.length && p.bytes >= marks[0] * p.totalBytes) { marks.shift(); rss.push(process.memoryUsage.rss()); }
    } });
    rss.push(process.memoryUsage.rss());
    process.stdout.write(JSON.stringify(rss.map((x) => x / 2 ** 20)));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { encoding: 'utf8' });
  return JSON.parse(r.stdout) as number[];
}

async function chessops(file: string): Promise<Timing> {
  let games = 0;
  let plies = 0;
  const w0 = performance.now();
  const c0 = cpuNow();
  const parser = new ChessopsParser((game) => {
    const start = startingPosition(game.headers);
    if (start.isErr) return;
    const pos = start.value;
    for (const node of game.moves.mainline()) {
      const move = parseSan(pos, node.san);
      if (move === undefined) return;
      pos.play(move);
      plies++;
    }
    games++;
  });
  const decoder = new TextDecoder();
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 18 })) parser.parse(decoder.decode(chunk as Uint8Array, { stream: true }), { stream: true });
  parser.parse(decoder.decode());
  return { games, plies, wall: (performance.now() - w0) / 1000, cpu: cpuNow() - c0 };
}

function pgnExtract(file: string): Timing {
  const w0 = performance.now();
  // bash's `time` gives the child's own CPU seconds (user + sys).
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; time ${PGN_EXTRACT} -s -o /dev/null "$0" 2>/dev/null`, file], { encoding: 'utf8' });
  const wall = (performance.now() - w0) / 1000;
  const [u, s] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { games: NaN, plies: NaN, wall, cpu: u! + s! };
}

function prepare(given: string | undefined, limit: number): { file: string; cleanup(): void } {
  if (given !== undefined) return { file: given, cleanup() {} };
  const text = gunzipSync(readFileSync(DATA)).toString('latin1');
  let end = text.length;
  if (Number.isFinite(limit)) {
    let n = 0;
    const re = /^\[Event /gm;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (++n > limit) {
        end = m.index;
        break;
      }
    }
  }
  const dir = tempDir('tabiya-bench-pgn-');
  const file = join(dir, 'games.pgn');
  writeFileSync(file, text.slice(0, end), 'latin1');
  return { file, cleanup: () => removeTempDir(dir) };
}

const rate = (games: number, secs: number): string => `${Math.round(games / secs).toLocaleString('en-US')}`;

export async function main(args: string[]): Promise<void> {
  const a = benchArgs('pgn', args, {
    usage: '[--games N | --full] [--runs R] [FILE]',
    options: {
      games: { kind: 'int', default: 60_000, min: 1, help: 'the first N games of the default input' },
      full: { kind: 'flag', help: 'every game of the default input' },
      runs: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'runs of each tool; the best is kept' },
    },
    positionals: { max: 1, names: 'FILE' },
  });
  const { runs } = a.values;
  const given = a.positionals[0];
  if (a.given.has('games') && a.values.full) a.fail('--games and --full: one or the other');
  if (given !== undefined && (a.given.has('games') || a.values.full)) a.fail(`--games and --full choose from the default input; ${given} is read whole`);
  const { file, cleanup } = prepare(given, a.values.full ? Infinity : a.values.games);
  try {
    const mb = statSync(file).size / 2 ** 20;
    process.stdout.write(`input: ${file} (${mb.toFixed(1)} MiB), best of ${runs} runs, interleaved\n`);
    const best: Record<string, Timing> = {};
    const keep = (name: string, t: Timing): void => {
      const b = best[name];
      best[name] = b === undefined ? t : { ...t, wall: Math.min(b.wall, t.wall), cpu: Math.min(b.cpu, t.cpu) };
    };
    for (let r = 0; r < runs; r++) {
      keep('tabiya', await ours(file));
      if (PGN_EXTRACT !== undefined) keep('pgn-extract', pgnExtract(file));
      keep('chessops', await chessops(file));
    }
    const t = best.tabiya!;
    const games = t.games;
    process.stdout.write(`games ${games.toLocaleString('en-US')}, plies ${t.plies.toLocaleString('en-US')} (chessops: ${best.chessops!.games} games, ${best.chessops!.plies} plies)\n\n`);
    process.stdout.write('tool              games/s (wall)   games/s (CPU)\n');
    for (const [name, b] of Object.entries(best)) {
      process.stdout.write(`${name.padEnd(16)}  ${rate(games, b.wall).padStart(14)}   ${rate(games, b.cpu).padStart(13)}\n`);
    }
    process.stdout.write('\n');
    for (const anchor of ['pgn-extract', 'chessops']) {
      const a = best[anchor];
      if (a === undefined) continue;
      process.stdout.write(`ratio tabiya / ${anchor}: ${(a.wall / t.wall).toFixed(2)}x wall, ${(a.cpu / t.cpu).toFixed(2)}x CPU\n`);
    }
    if (PGN_EXTRACT === undefined) process.stdout.write('pgn-extract not installed: no pgn-extract figure\n');
    const rss = memoryProfile(file);
    process.stdout.write(`tabiya resident memory at 10 % / 50 % / 100 % of the file: ${rss.map((x) => x.toFixed(0)).join(' / ')} MiB\n`);
  } finally {
    cleanup();
  }
}

/**
 * `npm run gen:games -- --games N --out FILE [options]`: Lichess-like PGN made from real master
 * games, to test and measure tabiya at the scale of the Lichess database dumps (docs/pgn.md,
 * "Generated Lichess-like games"). `.zst` is written through the zstd program, `.gz` through
 * zlib, anything else as plain PGN; `-` writes plain PGN to stdout.
 *
 *   --games N          games to write (required)
 *   --out FILE         output file (required)
 *   --seed S           random seed (default 1): the same seed and N give the same file
 *   --threads T        generator threads (default: the number of cores)
 *   --source FILE      the real games (default ../shared/data/games/pgnmentor_players_dedup.pgn.gz)
 *   --openings DIR     Lichess opening names (default ../shared/data/openings)
 *   --clock-share X    share of timed games with [%clk] comments (default 0.85)
 *   --start DATE       first UTC date, YYYY-MM-DD (default 2024-01-01)
 *   --days D           days the games spread over, in time order (default 31)
 *   --players P        size of the player pool (default N / 25, at least 1000)
 *   --level L          zstd or gzip level (default 3 for zstd, 6 for gzip)
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { buildCorpus, type Corpus } from './genGames/corpus.js';
import { GameGenerator, type GeneratorOptions } from './genGames/generator.js';
import { loadOpenings } from './genGames/openings.js';
import { makePlayers } from './genGames/players.js';
import { openSink, type Sink } from './genGames/sink.js';
import { exitAfterSignal, onStopSignals } from '../src/node/stopSignals.js';
import type { BatchRequest, WorkerSetup } from './genGames/worker.js';

const SHARED = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const BATCH = 2000;

const USAGE = `usage: npm run gen:games -- --games N --out FILE [--seed S] [--threads T] [--source FILE]
       [--openings DIR] [--clock-share X] [--start YYYY-MM-DD] [--days D] [--players P] [--level L]
Lichess-like PGN made from real master games (docs/pgn.md); .zst, .gz or plain by the file name, - for stdout.`;

/** A bad argument: the message and the usage on stderr, exit 2 (as the tabiya command does). */
function fail(message: string): never {
  process.stderr.write(`gen-games: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let parsed: ReturnType<typeof parseOptions>;
try {
  parsed = parseOptions();
} catch (e) {
  fail((e as Error).message);
}
const values = parsed.values;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

function parseOptions() {
  return parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      games: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
      threads: { type: 'string' },
      source: { type: 'string', default: `${SHARED}games/pgnmentor_players_dedup.pgn.gz` },
      openings: { type: 'string', default: `${SHARED}openings` },
      'clock-share': { type: 'string', default: '0.85' },
      start: { type: 'string', default: '2024-01-01' },
      days: { type: 'string', default: '31' },
      players: { type: 'string' },
      level: { type: 'string' },
    },
  });
}

function number(name: string, text: string | undefined, min: number, max: number): number {
  const v = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(v) || v < min || v > max) fail(`--${name}: "${text}" is not a number in ${min}..${max}`);
  return v;
}

const games = Math.floor(number('games', values.games, 1, 2 ** 46));
if (values.out === undefined) fail('--out FILE is required');
const out = values.out;
const threads = Math.floor(number('threads', values.threads ?? String(availableParallelism()), 1, 256));
const start = Date.parse(`${values.start}T00:00:00Z`);
if (Number.isNaN(start)) fail(`--start: "${values.start}" is not a date YYYY-MM-DD`);
const options: GeneratorOptions = {
  seed: Math.floor(number('seed', values.seed, 0, 2 ** 32 - 1)) >>> 0,
  clockShare: number('clock-share', values['clock-share'], 0, 1),
  start,
  span: number('days', values.days, 1e-3, 36_500) * 86_400_000,
  total: games,
};
const playerCount = Math.floor(number('players', values.players ?? String(Math.max(1000, Math.ceil(games / 25))), 2, 1e7));
const level = values.level === undefined ? undefined : Math.floor(number('level', values.level, 1, 19));

// The inputs are checked before the output is opened, so that a missing one is said as such
// (not a stack trace) and leaves no temporary file behind.
for (const [name, path, kind] of [['source', values.source, 'file'], ['openings', values.openings, 'directory']] as const) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined) fail(`--${name}: ${path}: no such ${kind}${path.startsWith(SHARED) ? ' (the default needs ../shared/data beside the repository; give --' + name + ')' : ''}`);
  if (kind === 'file' ? !st.isFile() : !st.isDirectory()) fail(`--${name}: ${path} is not a ${kind}`);
}

const log = (s: string): void => void process.stderr.write(`gen-games: ${s}\n`);
const t0 = performance.now();
const openings = loadOpenings(values.openings);
const sink = openSink(out, level);
// Ctrl-C, SIGTERM or a hangup before the end: the temporary file goes with the run, as tabiya's
// own outputs' do (docs/cli.md), instead of staying beside OUT as OUT.PID.tmp; 128 + n after.
onStopSignals((sig) => {
  sink.abort();
  exitAfterSignal(sig);
});
let corpus: Corpus;
try {
  corpus = await buildCorpus(values.source, openings);
} catch (e) {
  sink.abort();
  throw e;
}
const t1 = performance.now();
log(`${corpus.games} source games, ${corpus.moveStart.length - corpus.games} plies, ${corpus.groupStart.length - 1} indexed positions, read in ${((t1 - t0) / 1000).toFixed(1)} s`);

let lastReport = performance.now();
let written = 0;
try {
  written = threads === 1 ? await generateHere(corpus, sink) : await generateInWorkers(corpus, sink);
  await sink.close();
} catch (e) {
  sink.abort();
  throw e;
}
const seconds = (performance.now() - t1) / 1000;
log(`${games} games, ${(written / 1e6).toFixed(0)} MB of PGN, to ${out} in ${seconds.toFixed(1)} s: ${Math.round(games / seconds)} games/s with ${threads} thread(s)`);

async function generateHere(c: Corpus, s: Sink): Promise<number> {
  const generator = new GameGenerator(c, makePlayers(playerCount, options.seed), openings.headers, options);
  let bytes = 0;
  for (let index = 0; index * BATCH < games; index++) {
    const chunk = generator.batch(index, index * BATCH, Math.min(games, (index + 1) * BATCH));
    bytes += chunk.length;
    await s.write(chunk);
    progress(index);
  }
  return bytes;
}

/** Batches go to whichever worker is free, a few ahead of the writing, and are written in order. */
async function generateInWorkers(c: Corpus, s: Sink): Promise<number> {
  const setup: WorkerSetup = { corpus: c, openingHeaders: openings.headers, players: playerCount, options };
  const workers = Array.from({ length: threads }, () => new Worker(new URL('./genGames/worker.js', import.meta.url), { workerData: setup }));
  const batches = Math.ceil(games / BATCH);
  const done = new Map<number, Uint8Array>();
  // Two requests per worker keep it busy while the main thread writes.
  const idle = [...workers, ...workers];
  let next = 0;
  let sent = 0;
  let bytes = 0;
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const feed = (): void => {
    while (idle.length > 0 && sent < batches && sent - next < 3 * threads) {
      const r: BatchRequest = { index: sent, from: sent * BATCH, to: Math.min(games, (sent + 1) * BATCH) };
      sent++;
      idle.pop()!.postMessage(r);
    }
  };
  for (const w of workers) {
    w.on('message', (m: { index: number; bytes: Uint8Array }) => {
      done.set(m.index, m.bytes);
      idle.push(w);
      feed();
      wake?.();
    });
    w.on('error', (e) => void ((failure = e), wake?.()));
  }
  feed();
  try {
    while (next < batches) {
      if (failure) throw failure;
      const chunk = done.get(next);
      if (chunk === undefined) {
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      done.delete(next);
      bytes += chunk.length;
      await s.write(chunk);
      progress(next);
      next++;
      feed();
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return bytes;
}

function progress(index: number): void {
  const now = performance.now();
  if (now - lastReport < 5000) return;
  lastReport = now;
  const n = Math.min(games, (index + 1) * BATCH);
  log(`${n} games (${((100 * n) / games).toFixed(1)}%), ${Math.round(n / ((now - t1) / 1000))} games/s`);
}

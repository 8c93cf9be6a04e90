/**
 * `npm run bench -- tbk [--games N] [--shards K] [--probes P] [--memory SIZE] [--threads T] [--repeat R] [FILE]`: rich books
 * (`.tbk` version 2) against Polyglot books, on the same games, in one run.
 * `npm run bench -- tbk --probe-only BOOK.tbk [--bin BOOK.bin] [--probes P] [--cache-mib M]`: part 3
 * alone, on a book built before (a large one takes long to build); `--cache-mib` sets the book's
 * page cache (default PROBE_CACHE_BYTES of openTbk.ts, as the engine opens a book).
 *
 *   1. Build: `tabiya book make GAMES -o X.tbk` against `-o X.bin` and against
 *      `polyglot make-book` (the anchor, when installed): wall time, games/s, peak resident
 *      memory, output size per game and against the gzip-compressed PGN; the `.tbk` again with
 *      `--threads T` (default 2): its speed-up over one thread and its peak memory (worker
 *      threads live in the one process, so its peak counts them). The one-thread and T-thread
 *      builds are taken in turns, R times each (default 3), and their medians compared: a
 *      shared machine's drift then falls on both alike.
 *   2. Sharded build: K `book make --shard I/K` partial books and their `book merge`, against
 *      the single build (each run one after the other here; on a cluster they run at once).
 *   3. Probe latency in µs per position on the .tbk file, without loading it: cold (the file
 *      evicted from the OS page cache; the OS cache warm but the book just opened) and warm (the
 *      same positions again), against PolyglotReader on the .bin in memory (bench/tbkProbe.ts).
 *
 * Default input: the whole 389k-game collection ../shared/data/games/pgnmentor_players_dedup.pgn.gz,
 * whole games, decompressed once to a plain file (polyglot cannot read gzip).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { benchArgs } from './args.js';
import { firstGames, measure, type Run } from './processRun.js';
import { probeLatency } from './tbkProbe.js';
import { removeTempDir, tempDir } from './cleanup.js';

const DATA = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const POLYGLOT = '/usr/games/polyglot';

const fmt = (x: number, d = 2): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(d));

export async function main(args: string[]): Promise<void> {
  const a = benchArgs('tbk', args, {
    usage: ['[--games N] [--shards K] [--probes P] [--memory SIZE] [--threads T] [--repeat R] [FILE]', '--probe-only BOOK.tbk [--bin BOOK.bin] [--probes P] [--cache-mib M]'],
    options: {
      games: { kind: 'int', default: Infinity, min: 1, defaultText: 'every game', help: 'the first N games of the input' },
      shards: { kind: 'int', default: 4, min: 1, arg: 'K', help: 'partial books of the sharded build' },
      probes: { kind: 'int', default: 20_000, min: 1, arg: 'P', help: 'positions probed' },
      memory: { kind: 'string', default: '1G', arg: 'SIZE', help: 'book make --memory' },
      threads: { kind: 'int', default: 2, min: 1, arg: 'T', help: 'threads of the second .tbk build' },
      repeat: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'builds on one and on T threads, in turns; the medians are compared' },
      'probe-only': { kind: 'string', arg: 'BOOK.tbk', help: 'only the probe latency (part 3), on this book' },
      bin: { kind: 'string', arg: 'BOOK.bin', help: 'with --probe-only: the Polyglot book to compare with' },
      'cache-mib': { kind: 'number', min: 0, arg: 'M', defaultText: 'PROBE_CACHE_BYTES of openTbk.ts', help: "the book's page cache in MiB" },
    },
    positionals: { max: 1, names: 'FILE' },
  });
  const { games, shards, probes, memory, threads, repeat, bin } = a.values;
  const probeOnly = a.values['probe-only'];
  const file = a.positionals[0] ?? DATA;
  const cacheMib = a.values['cache-mib'];
  const cacheBytes = cacheMib === undefined ? undefined : cacheMib * 2 ** 20;
  if (probeOnly !== undefined) {
    const unused = [...a.given].filter((k) => !['probe-only', 'bin', 'probes', 'cache-mib'].includes(k));
    if (unused.length > 0 || a.positionals.length > 0) a.fail(`--probe-only builds nothing: ${[...unused.map((k) => `--${k}`), ...a.positionals].join(', ')} would be ignored`);
    probeLatency(probeOnly, bin, probes, cacheBytes);
    return;
  }
  // One build time for every book (the convention of reproducible builds), so that the books of
  // one and several threads can be compared byte for byte: a book records when it was made.
  process.env.SOURCE_DATE_EPOCH ??= '1700000000';
  if (bin !== undefined) a.fail('--bin: only with --probe-only (the full run builds its own .bin)');
  const dir = tempDir('tabiya-bench-tbk-');
  try {
    const pgn = join(dir, 'games.pgn');
    const n = firstGames(file, games, pgn);
    const gz = gzipSync(readFileSync(pgn)).length;
    console.log(`tbk: ${n} games (${(statSync(pgn).size / 2 ** 20).toFixed(0)} MiB of PGN, ${(gz / 2 ** 20).toFixed(1)} MiB gzip), whole games, --memory ${memory}`);

    // 1. Builds.
    const rows: [string, Run, number][] = [];
    const size = (f: string): number => statSync(join(dir, f)).size;
    const tab = (out: string, ...extra: string[]): Promise<Run> => measure(process.execPath, [CLI, 'book', 'make', pgn, '-o', out, '--quiet', '--memory', memory, ...extra], dir);
    if (existsSync(POLYGLOT)) rows.push(['polyglot make-book .bin', await measure(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', join(dir, 'pg.bin')], dir), size('pg.bin')]);
    rows.push(['tabiya .bin', await tab('x.bin'), size('x.bin')]);
    const ones: Run[] = [];
    const manys: Run[] = [];
    for (let k = 0; k < repeat; k++) {
      ones.push(await tab('x.tbk'));
      manys.push(await tab('t.tbk', '--threads', String(threads)));
    }
    const median = (runs: Run[]): Run => [...runs].sort((a, b) => a.wall - b.wall)[runs.length >> 1]!;
    rows.push(['tabiya .tbk', median(ones), size('x.tbk')]);
    rows.push([`tabiya .tbk --threads ${threads}`, median(manys), size('t.tbk')]);
    rows.push(['tabiya .tbk --split rating,speed,month', await tab('s.tbk', '--split', 'rating,speed,month'), size('s.tbk')]);
    const anchor = rows[0]!;
    console.log(`${'build'.padEnd(40)} ${'wall s'.padStart(8)} ${'games/s'.padStart(9)} ${'peak MiB'.padStart(9)} ${'MiB'.padStart(8)} ${'B/game'.padStart(7)} ${'/gzip'.padStart(6)} ${'time ratio'.padStart(11)}`);
    for (const [name, r, bytes] of rows) {
      console.log(
        `${name.padEnd(40)} ${fmt(r.wall).padStart(8)} ${Math.round(n / r.wall).toString().padStart(9)} ${fmt(r.peak, 0).padStart(9)} ${fmt(bytes / 2 ** 20, 1).padStart(8)} ${Math.round(bytes / n).toString().padStart(7)} ${fmt(bytes / gz).padStart(6)} ${fmt(r.wall / anchor[1].wall).padStart(11)}`,
      );
    }
    console.log(`time ratio: against ${anchor[0]}; .tbk holds W/D/L, ratings and every game (singles), the .bin make-book's weights of moves in 3+ games`);
    const one = rows.find((r) => r[0] === 'tabiya .tbk')!;
    const many = rows.find((r) => r[0] === `tabiya .tbk --threads ${threads}`)!;
    const binBuild = rows.find((r) => r[0] === 'tabiya .bin')!;
    const same = readFileSync(join(dir, 'x.tbk')).subarray(4096).equals(readFileSync(join(dir, 't.tbk')).subarray(4096));
    console.log(
      `threads: .tbk on ${threads} threads at ${fmt(one[1].wall / many[1].wall)}× the speed of 1 thread (above 1: faster; medians of ${repeat} runs each, taken in turns: ${fmt(many[1].wall)} s against ${fmt(one[1].wall)} s; ` +
        `run by run ${ones.map((r, k) => fmt(r.wall / manys[k]!.wall)).join(', ')}×), ` +
        `peak ${fmt(many[1].peak, 0)} MiB against ${fmt(one[1].peak, 0)} MiB (the whole process: worker threads share it) with --memory ${memory}; ` +
        `rich build against tabiya .bin: ${fmt(one[1].wall / binBuild[1].wall)}× the time (goal: at most 1); books ${same ? 'identical' : 'DIFFERENT'} past the superblock`,
    );

    // 2. Sharded build and merge.
    let shardWall = 0;
    let shardLongest = 0;
    let shardPeak = 0;
    const parts: string[] = [];
    for (let s = 0; s < shards; s++) {
      const part = `part${s}.tbk`;
      const r = await tab(part, '--shard', `${s}/${shards}`);
      shardWall += r.wall;
      shardLongest = Math.max(shardLongest, r.wall);
      shardPeak = Math.max(shardPeak, r.peak);
      parts.push(part);
    }
    const merge = await measure(process.execPath, [CLI, 'book', 'merge', ...parts, '-o', 'merged.tbk', '--memory', memory], dir);
    const single = rows.find((r) => r[0] === 'tabiya .tbk')![1];
    console.log(
      `sharded: ${shards} shards ${fmt(shardWall)} s in all (${fmt(shardWall / shards)} s each on average, the longest ${fmt(shardLongest)} s, peak ${fmt(shardPeak, 0)} MiB), merge ${fmt(merge.wall)} s (peak ${fmt(merge.peak, 0)} MiB); ` +
        // On K machines at once the shards end with the longest one, and the merge comes after it.
        `on ${shards} machines ${fmt(shardLongest + merge.wall)} s against ${fmt(single.wall)} s single: ${fmt(single.wall / (shardLongest + merge.wall))}× (test/slurm-recipe.test.ts shows the merged book is the single one)`,
    );

    // 3. Probe latency.
    probeLatency(join(dir, 'x.tbk'), join(dir, 'x.bin'), probes, cacheBytes);
  } finally {
    removeTempDir(dir);
  }
}

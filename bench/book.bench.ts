/**
 * `npm run bench -- book [--games N] [--runs R] [--threads 1,2] [--polyglot-args "..."] [FILE]`:
 * `polyglot make-book` against `tabiya book make`, single-threaded and with worker threads, on
 * the same real games with the same options, in one run. Prints wall time, games/s, peak
 * resident memory of each process, the ratios to polyglot, and whether the books are identical.
 *
 * Default input: the first 100,000 games of ../shared/data/games/pgnmentor_players_dedup.pgn.gz,
 * decompressed once to a temporary file (polyglot cannot read gzip). Default options: polyglot's
 * own (whole games, -min-game 3). Each tool runs as its own process, timed from spawn to exit;
 * peak memory comes from GNU time (%M) when /usr/bin/time exists, else from sampling
 * /proc/PID/status (VmHWM). Runs alternate between the tools; the best of R runs is kept.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { firstGames, measure, type Run } from './processRun.js';
import { removeTempDir, tempDir } from './cleanup.js';

const DATA = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const POLYGLOT = '/usr/games/polyglot';

/** polyglot make-book options → ours. */
function oursArgs(pg: string[]): string[] {
  const map: Record<string, string> = { '-max-ply': '--max-ply', '-min-game': '--min-games', '-min-score': '--min-score', '-only-white': '--only-white', '-only-black': '--only-black', '-uniform': '--uniform' };
  return pg.map((a) => map[a] ?? a);
}

const fmt = (x: number, d = 2): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(d));

export async function main(args: string[]): Promise<void> {
  const a = benchArgs('book', args, {
    usage: '[--games N] [--runs R] [--threads 1,2] [--polyglot-args "..."] [FILE]',
    options: {
      games: { kind: 'int', default: 100_000, min: 1, help: 'the first N games of a .pgn.gz input; a plain FILE is read whole' },
      runs: { kind: 'int', default: 1, min: 1, arg: 'R', help: 'runs of each tool; the best is kept' },
      threads: { kind: 'list', default: [1, 2], min: 1, arg: 'T,T', help: 'a tabiya build with each number of threads' },
      'polyglot-args': { kind: 'string', default: '', arg: '"..."', defaultText: "polyglot's own", help: 'polyglot make-book options, also given to tabiya book make' },
    },
    positionals: { max: 1, names: 'FILE' },
  });
  const { games, runs, threads } = a.values;
  const pgArgs = a.values['polyglot-args'].split(/\s+/).filter(Boolean);
  const file: string | undefined = a.positionals[0];
  if (file !== undefined && !file.endsWith('.gz') && a.given.has('games')) a.fail(`--games: ${file} is not a .gz file and is read whole`);
  if (!existsSync(POLYGLOT)) {
    process.stderr.write(`book bench: ${POLYGLOT} is not installed (apt-get install polyglot)\n`);
    process.exitCode = 1;
    return;
  }
  const dir = tempDir('tabiya-bench-book-');
  try {
    const pgn = join(dir, 'games.pgn');
    if (file !== undefined && !file.endsWith('.gz')) writeFileSync(pgn, readFileSync(file));
    const count = firstGames(file ?? DATA, file !== undefined && !file.endsWith('.gz') ? Infinity : games, pgn);
    const n = file !== undefined && !file.endsWith('.gz') ? (readFileSync(pgn, 'latin1').match(/^\[Event /gm) ?? []).length : count;
    const mb = statSync(pgn).size / 2 ** 20;
    console.log(`book make: ${n} games (${fmt(mb, 1)} MiB of PGN), options: ${pgArgs.length > 0 ? pgArgs.join(' ') : "polyglot's defaults"}; best of ${runs} run(s)`);

    const best = new Map<string, Run>();
    const keep = (name: string, r: Run): void => {
      const b = best.get(name);
      best.set(name, b === undefined ? r : { wall: Math.min(b.wall, r.wall), peak: Math.max(b.peak, r.peak) });
    };
    for (let r = 0; r < runs; r++) {
      keep('polyglot', await measure(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', join(dir, 'polyglot.bin'), ...pgArgs], dir));
      for (const t of threads) {
        const out = join(dir, `tabiya-${t}.bin`);
        keep(`tabiya ${t}`, await measure(process.execPath, [CLI, 'book', 'make', pgn, '-o', out, '--quiet', '--threads', String(t), ...oursArgs(pgArgs)], dir));
      }
    }
    const ref = readFileSync(join(dir, 'polyglot.bin'));
    const pg = best.get('polyglot')!;
    console.log(`${'tool'.padEnd(26)} ${'wall s'.padStart(8)} ${'games/s'.padStart(9)} ${'peak MiB'.padStart(9)} ${'speed ×'.padStart(8)} ${'memory ×'.padStart(9)}  book`);
    const row = (name: string, r: Run, same: string): void => {
      console.log(
        `${name.padEnd(26)} ${fmt(r.wall).padStart(8)} ${Math.round(n / r.wall).toString().padStart(9)} ${fmt(r.peak, 0).padStart(9)} ${fmt(pg.wall / r.wall).padStart(8)} ${fmt(r.peak / pg.peak).padStart(9)}  ${same}`,
      );
    };
    row('polyglot make-book', pg, `${ref.length / 16} entries`);
    for (const t of threads) {
      const same = readFileSync(join(dir, `tabiya-${t}.bin`)).equals(ref) ? 'identical' : 'DIFFERENT';
      row(`tabiya book make -t ${t}`, best.get(`tabiya ${t}`)!, same);
    }
    console.log('speed × = polyglot wall time / ours (above 1: faster); memory × = our peak / polyglot\'s (below 1: smaller)');
  } finally {
    removeTempDir(dir);
  }
}

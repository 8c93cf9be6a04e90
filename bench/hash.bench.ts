/**
 * `npm run bench -- hash [--sizes 2,16,64,256] [--movetime MS] [--positions N] [--runs R]`: nodes per
 * second in play by hash table size: `tabiya uci` searching the first N middlegame positions of
 * the bench (default 6, 2,000 ms each, one thread) with Hash set to each size, against
 * Ethereal 12 (`/usr/games/ethereal-chess`, Debian's `ethereal-chess`, the next rung of
 * docs/strength.md) and Stockfish (`/usr/games/stockfish`) on the same positions in the same
 * run, those installed. Every node probes the table, and a table larger than the caches misses
 * them (and the TLB) on most probes (Ethereal refuses a table under 2 MB); engines in C prefetch the bucket as they make the move,
 * which WebAssembly cannot (docs/strength.md, Ethereal 12). Prints each engine's rate at each
 * size, its rate at the largest size over the smallest, and ours over each anchor's. With
 * `--runs R` every size and engine is measured R times (the whole round again, in turns) and
 * the best rate of each is kept, as the engine benchmark does.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BENCH_POSITIONS } from '../src/engine/bench.js';
import { benchArgs } from './args.js';
import { uciNodeRate, type Figure } from './engine.bench.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const ANCHORS: [string, string][] = [
  ['Ethereal 12', '/usr/games/ethereal-chess'],
  ['Stockfish', '/usr/games/stockfish'],
];

export async function main(args: string[]): Promise<void> {
  const { sizes, movetime, positions: count, runs } = benchArgs('hash', args, {
    usage: '[--sizes 2,16,64,256] [--movetime MS] [--positions N] [--runs R]',
    options: {
      sizes: { kind: 'list', default: [2, 16, 64, 256], min: 1, arg: 'MB,MB', help: 'hash table sizes in MB' },
      movetime: { kind: 'int', default: 2000, min: 100, arg: 'MS', help: 'milliseconds a position' },
      positions: { kind: 'int', default: 6, min: 1, help: 'the first N middlegame positions of the bench' },
      runs: { kind: 'int', default: 1, min: 1, arg: 'R', help: 'rounds of every size and engine; the best rate of each is kept' },
    },
  }).values;
  // The start position is left out: the middlegame is where the table fills.
  const positions = BENCH_POSITIONS.slice(1).filter((f) => f.split(' ')[0]!.replace(/[^a-zA-Z]/g, '').length > 20).slice(0, count);
  const engines: [string, string, string[]][] = [['tabiya', process.execPath, [CLI, 'uci']], ...ANCHORS.filter(([, p]) => existsSync(p)).map(([n, p]): [string, string, string[]] => [n, p, []])];
  console.log(`hash: ${positions.length} positions at movetime ${movetime} ms, one thread, best of ${runs}, load average ${loadavg()[0]!.toFixed(2)}`);
  const rate = new Map<string, Figure[]>(engines.map(([name]) => [name, []]));
  // Sizes in turn, engines alternating within each, so that a busy moment hits all of them;
  // then the whole round again, R times.
  for (let r = 0; r < runs; r++) {
    for (const [i, mb] of sizes.entries()) {
      for (const [name, cmd, a] of engines) {
        const f = await uciNodeRate(cmd, a, { Hash: mb, Threads: 1 }, positions, movetime);
        const kept = rate.get(name)!;
        if (kept[i] === undefined || f.nps > kept[i].nps) kept[i] = f;
        process.stderr.write(`run ${r + 1}, Hash ${mb} MB: ${name} ${f.nps} nodes/s\n`);
      }
    }
  }
  const head = `${'engine'.padEnd(12)}${sizes.map((mb) => `${mb} MB`.padStart(12)).join('')}${`${sizes.at(-1)} / ${sizes[0]} MB`.padStart(16)}`;
  console.log(head);
  for (const [name] of engines) {
    const r = rate.get(name)!;
    console.log(`${name.padEnd(12)}${r.map((f) => String(f.nps).padStart(12)).join('')}${(r.at(-1)!.nps / Math.max(1, r[0]!.nps)).toFixed(2).padStart(16)}`);
  }
  const ours = rate.get('tabiya')!;
  for (const [name] of engines.slice(1)) {
    const r = rate.get(name)!;
    console.log(`${`tabiya / ${name}`.padEnd(24)}${sizes.map((mb, i) => `${mb} MB ${(ours[i]!.nps / Math.max(1, r[i]!.nps)).toFixed(2)}`).join(', ')}`);
  }
}

/**
 * `npm run bench -- tbk [--games N] [--runs R] [--max-ply P] [--lookups L] [FILE]`: rich books
 * against our Polyglot reader and builder, on the same games, in one run.
 *
 *   1. Build time: `tabiya book make GAMES -o X.tbk` against `-o X.bin` (each its own process,
 *      timed from spawn to exit, alternating, best of R runs).
 *   2. Lookup latency in µs: the same keys looked up in the .tbk (in memory, and on disk through
 *      positional reads) and in the .bin (PolyglotReader in memory): random hits (positions
 *      from the games), random misses (random keys), and full probes of real positions with
 *      legal-move checking (`RichBook.probe` against `PolyglotReader.moves`).
 *
 * Default input: the first 20,000 games of ../shared/data/games/pgnmentor_players_dedup.pgn.gz,
 * whole games (make-book's default max-ply). The .bin for lookups is made with --min-games 1, so
 * both books hold the same positions.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { openRichBook } from '../src/book/node/richFile.js';
import { PolyglotReader } from '../src/book/polyglot/reader.js';
import { RichBook } from '../src/book/rich/reader.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { parsePgn } from '../src/pgn/parser.js';

const DATA = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

async function wall(args: string[], cwd: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`tabiya ${args.join(' ')} exited with ${code}: ${err.slice(-400)}`);
  return (performance.now() - t0) / 1000;
}

/** Mean µs per call of `fn(i)` over `n` calls, best of 5 passes (after one warm-up pass). */
function latency(n: number, fn: (i: number) => number): number {
  let best = Infinity;
  let sink = 0;
  for (let pass = 0; pass < 6; pass++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) sink += fn(i);
    const us = ((performance.now() - t0) * 1000) / n;
    if (pass > 0) best = Math.min(best, us);
  }
  if (sink === -1) console.log('');
  return best;
}

export async function main(args: string[]): Promise<void> {
  let games = 20_000;
  let runs = 2;
  let maxPly = 1024;
  let lookups = 20_000;
  let file = DATA;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--games') games = Number(args[++i]);
    else if (a === '--runs') runs = Number(args[++i]);
    else if (a === '--max-ply') maxPly = Number(args[++i]);
    else if (a === '--lookups') lookups = Number(args[++i]);
    else file = a;
  }
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-bench-tbk-'));
  try {
    const raw = readFileSync(file);
    const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('latin1');
    const cut = text.split(/\n(?=\[Event )/).slice(0, games);
    const pgn = join(dir, 'games.pgn');
    writeFileSync(pgn, cut.join('\n'), 'latin1');
    console.log(`tbk: ${cut.length} games, max-ply ${maxPly}; build best of ${runs} run(s); ${lookups} lookups per case`);

    // 1. build time
    let tbk = Infinity;
    let bin = Infinity;
    const common = ['book', 'make', pgn, '--quiet', '--max-ply', String(maxPly)];
    for (let r = 0; r < runs; r++) {
      bin = Math.min(bin, await wall([...common, '-o', 'x.bin'], dir));
      tbk = Math.min(tbk, await wall([...common, '-o', 'x.tbk'], dir));
    }
    await wall([...common, '-o', 'all.bin', '--min-games', '1'], dir);
    console.log(`${'build'.padEnd(34)} ${'.tbk'.padStart(10)} ${'.bin'.padStart(10)} ${'.tbk/.bin'.padStart(10)}`);
    console.log(`${'book make, wall s'.padEnd(34)} ${tbk.toFixed(2).padStart(10)} ${bin.toFixed(2).padStart(10)} ${(tbk / bin).toFixed(2).padStart(10)}`);

    // 2. lookups
    const bytes = new Uint8Array(readFileSync(join(dir, 'x.tbk')));
    const rich = unwrap(RichBook.open(bytes, 'x.tbk'));
    const disk = openRichBook(join(dir, 'x.tbk'), { memoryLimit: 0 });
    const poly = unwrap(PolyglotReader.from(new Uint8Array(readFileSync(join(dir, 'all.bin'))), 'all.bin'));
    const positions: Position[] = [];
    parsePgn(cut.slice(0, 4000).join('\n'), {
      move(pos, _m, ply) {
        if (ply >= Math.min(maxPly, 30)) return false;
        if (positions.length < 200_000) positions.push(pos.clone());
        return true;
      },
    });
    let seed = 12345;
    const rnd = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      return seed >>> 0;
    };
    const hits = Array.from({ length: lookups }, () => positions[rnd() % positions.length]!);
    const hitHi = new Int32Array(hits.map((p) => p.keyHi));
    const hitLo = new Int32Array(hits.map((p) => p.keyLo));
    const missHi = new Int32Array(lookups).map(() => rnd());
    const missLo = new Int32Array(lookups).map(() => rnd());
    const rows: [string, number, number, number][] = [];
    const add = (name: string, f: (b: 'mem' | 'disk' | 'bin') => (i: number) => number): void => {
      rows.push([name, latency(lookups, f('mem')), latency(lookups, f('disk')), latency(lookups, f('bin'))]);
    };
    add('key lookup, hit', (b) => (b === 'bin' ? (i) => poly.entriesOf(hitHi[i]!, hitLo[i]!).length : (i) => (b === 'mem' ? rich : disk.book).movesOf(hitHi[i]!, hitLo[i]!).length));
    add('key lookup, miss', (b) => (b === 'bin' ? (i) => poly.entriesOf(missHi[i]!, missLo[i]!).length : (i) => (b === 'mem' ? rich : disk.book).movesOf(missHi[i]!, missLo[i]!).length));
    add('probe position (legal moves), hit', (b) => (b === 'bin' ? (i) => poly.moves(hits[i]!, { minWeight: 0 }).length : (i) => (b === 'mem' ? rich : disk.book).probe(hits[i]!).length));
    disk.close();
    console.log(`${'lookup, µs'.padEnd(34)} ${'.tbk mem'.padStart(10)} ${'.tbk disk'.padStart(10)} ${'.bin mem'.padStart(10)} ${'mem ratio'.padStart(10)} ${'disk ratio'.padStart(10)}`);
    for (const [name, mem, dsk, b] of rows) {
      console.log(`${name.padEnd(34)} ${mem.toFixed(2).padStart(10)} ${dsk.toFixed(2).padStart(10)} ${b.toFixed(2).padStart(10)} ${(mem / b).toFixed(2).padStart(10)} ${(dsk / b).toFixed(2).padStart(10)}`);
    }
    console.log(`books: .tbk ${rich.size} entries (${(bytes.length / 2 ** 20).toFixed(1)} MiB), .bin (--min-games 1) ${poly.size} entries; ratio = .tbk / .bin (below 1: faster)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- zstd [FILE.pgn.zst] [--level L] [--long] [--runs R]`: reading zstd PGN.
 * Our figure is the decompressed bytes per second that tabiya's PGN source (`openPgnFile`:
 * magic-byte detection, the zstd program in a child process, chunks handed to the parser)
 * delivers; the anchor is the zstd program alone, `zstd -dc FILE > /dev/null`. Then whole
 * `tabiya pgn stats` runs on the same games as .pgn.zst, plain .pgn and .pgn.gz, to show what
 * decompression adds to a real read. Best of R runs (default 3), interleaved. With the default
 * input, the `.pgn.gz` it is made from is read the same way: openPgnFile (Node's zlib, in this
 * process) against the gzip program alone, `gzip -dc FILE > /dev/null`.
 *
 * Default input: the 389k master games (../shared/data/games/pgnmentor_players_dedup.pgn.gz)
 * recompressed with `zstd -L` (default 3; `--long` adds --long=31, as large dumps are made).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { openPgnFile } from '../src/pgn/nodeSource.js';
import { findProgram } from '../src/pgn/decompressProgram.js';
import { benchArgs } from './args.js';
import { removeTempDir, tempDir } from './cleanup.js';

const DATA = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

interface Inputs {
  zst: string;
  plain?: string;
  gz?: string;
  made: string;
}

function prepare(given: string | undefined, level: number, longRange: boolean, zstd: string, dir: string): Inputs {
  if (given !== undefined) return { zst: given, made: 'given' };
  const long = longRange ? ['--long=31'] : [];
  const plain = join(dir, 'games.pgn');
  const text = gunzipSync(readFileSync(DATA));
  writeFileSync(plain, text);
  const zst = join(dir, 'games.pgn.zst');
  const t0 = performance.now();
  const r = spawnSync(zstd, ['-q', `-${level}`, ...long, '-T0', plain, '-o', zst]);
  if (r.status !== 0) throw new Error(`zstd -${level} failed: ${r.stderr}`);
  return { zst, plain, gz: DATA, made: `zstd -${level}${long.length ? ' --long=31' : ''} in ${((performance.now() - t0) / 1000).toFixed(1)} s` };
}

/** Seconds for tabiya's PGN source to deliver every decompressed byte, and how many. */
async function ours(file: string): Promise<{ seconds: number; bytes: number }> {
  const t0 = performance.now();
  let bytes = 0;
  for await (const chunk of openPgnFile(file).chunks) bytes += chunk.length;
  return { seconds: (performance.now() - t0) / 1000, bytes };
}

/** Seconds for `program -dc [flags] file > /dev/null`: the decompressor alone. */
function anchor(program: string, file: string, flags = ['-q', '--long=31']): number {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', `"$0" -dc ${flags.join(' ')} "$1" > /dev/null`, program, file]);
  if (r.status !== 0) throw new Error(`${program} -dc failed: ${r.stderr}`);
  return (performance.now() - t0) / 1000;
}

function pgnStats(file: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [MAIN, 'pgn', 'stats', file, '--quiet', '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pgn stats ${file} failed: ${r.stderr}`);
  return (performance.now() - t0) / 1000;
}

export async function main(args: string[]): Promise<void> {
  const a = benchArgs('zstd', args, {
    usage: '[FILE.pgn.zst] [--level L] [--long] [--runs R]',
    options: {
      level: { kind: 'int', default: 3, min: 1, max: 19, arg: 'L', help: 'zstd level of the recompressed default input' },
      long: { kind: 'flag', help: 'recompress the default input with --long=31' },
      runs: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'runs of each; the best is kept' },
    },
    positionals: { max: 1, names: 'FILE.pgn.zst' },
  });
  const { runs, level, long } = a.values;
  const given = a.positionals[0];
  if (given !== undefined && (a.given.has('level') || long)) a.fail(`--level and --long recompress the default input; ${given} is read as it is`);
  const zstd = findProgram('zstd');
  if (zstd === undefined) {
    process.stdout.write('zstd not installed (apt-get install zstd): no zstd benchmark\n');
    return;
  }
  const dir = tempDir('tabiya-bench-zstd-');
  try {
    const input = prepare(given, level, long, zstd, dir);
    const zstMiB = statSync(input.zst).size / 2 ** 20;
    let best = { seconds: Infinity, bytes: 0 };
    let bestAnchor = Infinity;
    for (let r = 0; r < runs; r++) {
      const o = await ours(input.zst);
      if (o.seconds < best.seconds) best = o;
      bestAnchor = Math.min(bestAnchor, anchor(zstd, input.zst));
    }
    const mb = best.bytes / 1e6;
    process.stdout.write(`input: ${input.zst} (${zstMiB.toFixed(1)} MiB, ${(best.bytes / 2 ** 20).toFixed(1)} MiB of PGN, ${input.made}), best of ${runs} runs\n\n`);
    process.stdout.write('decompression                     MB/s of PGN (wall)\n');
    process.stdout.write(`tabiya openPgnFile (zstd -dc)     ${(mb / best.seconds).toFixed(0).padStart(8)}\n`);
    process.stdout.write(`zstd -dc > /dev/null              ${(mb / bestAnchor).toFixed(0).padStart(8)}\n`);
    process.stdout.write(`ratio tabiya / zstd -dc: ${(bestAnchor / best.seconds).toFixed(2)}x\n\n`);
    if (input.plain === undefined) return;
    const gzip = findProgram('gzip');
    if (gzip !== undefined && input.gz !== undefined) {
      let bestGz = { seconds: Infinity, bytes: 0 };
      let bestGzip = Infinity;
      for (let r = 0; r < runs; r++) {
        const o = await ours(input.gz);
        if (o.seconds < bestGz.seconds) bestGz = o;
        bestGzip = Math.min(bestGzip, anchor(gzip, input.gz, []));
      }
      const gzMb = bestGz.bytes / 1e6;
      process.stdout.write(`tabiya openPgnFile (.gz, zlib)    ${(gzMb / bestGz.seconds).toFixed(0).padStart(8)}\n`);
      process.stdout.write(`gzip -dc > /dev/null              ${(gzMb / bestGzip).toFixed(0).padStart(8)}\n`);
      process.stdout.write(`ratio tabiya / gzip -dc: ${(bestGzip / bestGz.seconds).toFixed(2)}x\n\n`);
    }
    const kinds: [string, string][] = [
      ['.pgn.zst', input.zst],
      ['.pgn', input.plain],
      ['.pgn.gz', input.gz!],
    ];
    const times = new Map<string, number>();
    for (let r = 0; r < runs; r++) for (const [k, f] of kinds) times.set(k, Math.min(times.get(k) ?? Infinity, pgnStats(f)));
    process.stdout.write('tabiya pgn stats (whole run)      seconds (wall)\n');
    for (const [k] of kinds) process.stdout.write(`${k.padEnd(32)}  ${times.get(k)!.toFixed(2).padStart(8)}\n`);
    process.stdout.write(`ratio .pgn / .pgn.zst: ${(times.get('.pgn')! / times.get('.pgn.zst')!).toFixed(2)}x; .pgn.gz / .pgn.zst: ${(times.get('.pgn.gz')! / times.get('.pgn.zst')!).toFixed(2)}x\n`);
  } finally {
    removeTempDir(dir);
  }
}

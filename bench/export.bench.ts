/**
 * `npm run bench -- export [--games N] [--max-ply P] [--repeat R] [--threads T] [FILE]`: `tabiya
 * book export X.tbk -o X.bin --max-ply P` of a `.tbk` counted to every ply, which replays the
 * book's games to count them to P plies (rich-books.md, export), on one thread and on T
 * (`--threads`), against `polyglot make-book -max-ply P` on the same games (the anchor, when
 * installed: it writes the same `.bin`, which the bench checks) and `tabiya book make -o X.bin
 * --max-ply P`, in one run. Each export's median of R, taken in turns.
 *
 * Default input: the 389k-game collection ../shared/data/games/pgnmentor_players_dedup.pgn.gz.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { firstGames, measure, type Run } from './processRun.js';
import { removeTempDir, tempDir } from './cleanup.js';

const DATA = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const POLYGLOT = '/usr/games/polyglot';

const fmt = (x: number, d = 2): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(d));

export async function main(args: string[]): Promise<void> {
  const a = benchArgs('export', args, {
    usage: ['[--games N] [--max-ply P] [--repeat R] [--threads T] [FILE]'],
    options: {
      games: { kind: 'int', default: Infinity, min: 1, defaultText: 'every game', help: 'the first N games of the input make the book' },
      'max-ply': { kind: 'int', default: 16, min: 1, arg: 'P', help: 'the plies the export counts (the book counts every ply)' },
      repeat: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'exports of each kind; the median is reported' },
      threads: { kind: 'int', default: 2, min: 1, arg: 'T', help: 'threads of the second export (book export --threads T), taken in turns with the first' },
    },
    positionals: { max: 1, names: 'FILE' },
  });
  const { games, repeat, threads } = a.values;
  const maxPly = a.values['max-ply'];
  const file = a.positionals[0] ?? DATA;
  const dir = tempDir('tabiya-bench-export-');
  try {
    const pgn = join(dir, 'games.pgn');
    const n = firstGames(file, games, pgn);
    console.log(`export: a .tbk of ${n} games (every ply) exported with --max-ply ${maxPly}`);
    const tabiya = (...argv: string[]): Promise<Run> => measure(process.execPath, [CLI, 'book', ...argv, '--quiet'], dir);
    await tabiya('make', pgn, '-o', 'book.tbk');
    const ones: Run[] = [];
    const manys: Run[] = [];
    for (let r = 0; r < repeat; r++) {
      ones.push(await tabiya('export', 'book.tbk', '-o', 'one.bin', '--force', '--max-ply', String(maxPly)));
      manys.push(await tabiya('export', 'book.tbk', '-o', 'many.bin', '--force', '--max-ply', String(maxPly), '--threads', String(threads)));
    }
    const median = (runs: Run[]): Run => [...runs].sort((x, y) => x.wall - y.wall)[runs.length >> 1]!;
    const rows: [string, Run][] = [];
    if (existsSync(POLYGLOT)) rows.push([`polyglot make-book -max-ply ${maxPly}`, await measure(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', join(dir, 'pg.bin'), '-max-ply', String(maxPly)], dir)]);
    rows.push([`tabiya book make -o .bin --max-ply ${maxPly}`, await tabiya('make', pgn, '-o', 'made.bin', '--max-ply', String(maxPly))]);
    rows.push([`tabiya book export (median of ${repeat})`, median(ones)]);
    rows.push([`tabiya book export --threads ${threads}`, median(manys)]);
    console.log(`${''.padEnd(44)} ${'wall s'.padStart(8)} ${'peak MiB'.padStart(9)} ${'time ratio'.padStart(11)}`);
    const anchor = rows[0]![1];
    for (const [name, r] of rows) console.log(`${name.padEnd(44)} ${fmt(r.wall).padStart(8)} ${fmt(r.peak, 0).padStart(9)} ${fmt(r.wall / anchor.wall).padStart(11)}`);
    const one = readFileSync(join(dir, 'one.bin'));
    const same = [['book make', 'made.bin'], ...(existsSync(POLYGLOT) ? [['polyglot make-book', 'pg.bin']] : []), [`--threads ${threads}`, 'many.bin']].map(([what, f]) => `${what} ${readFileSync(join(dir, f!)).equals(one) ? 'identical' : 'DIFFERS'}`);
    console.log(`time ratio: against ${rows[0]![0]}; exports one by one ${ones.map((r) => fmt(r.wall)).join(', ')} s; on ${threads} threads ${manys.map((r) => fmt(r.wall)).join(', ')} s (${fmt(median(ones).wall / median(manys).wall)}× the speed of one)`);
    console.log(`the export's .bin against: ${same.join(', ')}`);
  } finally {
    removeTempDir(dir);
  }
}

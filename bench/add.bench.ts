/**
 * `npm run bench -- add [--games N] [--add K] [--memory SIZE] [--repeat R] [--threads T] [FILE]`: `tabiya book add`
 * of K games (default 1) to a `.tbk` of N games, against rebuilding the book from all N + K
 * games, which is what a Polyglot user does (make-book has no add): `polyglot make-book` (the
 * anchor, when installed) and `tabiya book make`, in one run.
 *
 * An add costs more than its K games: the book keeps the positions seen in one game only as an
 * index into its games (rich-books.md), so an add replays every game the book keeps to find
 * them, and writes the whole book again. The figure to watch is the add's time against the
 * rebuilds'. Each add starts from a fresh copy of the book; the median of R adds is reported,
 * on one thread and on T (`--threads`, the replay shared out), taken in turns.
 *
 * Default input: the whole 389k-game collection ../shared/data/games/pgnmentor_players_dedup.pgn.gz;
 * the games added are the first K of ../shared/data/games/pgnmentor_players_sample2000.pgn.gz.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { firstGames, measure, type Run } from './processRun.js';
import { removeTempDir, tempDir } from './cleanup.js';

const DATA = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));
const MORE = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const POLYGLOT = '/usr/games/polyglot';

const fmt = (x: number, d = 2): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(d));

export async function main(args: string[]): Promise<void> {
  const a = benchArgs('add', args, {
    usage: ['[--games N] [--add K] [--memory SIZE] [--repeat R] [--threads T] [FILE]'],
    options: {
      games: { kind: 'int', default: Infinity, min: 1, defaultText: 'every game', help: 'the first N games of the input make the book' },
      add: { kind: 'int', default: 1, min: 1, arg: 'K', help: 'games added to it' },
      memory: { kind: 'string', default: '1G', arg: 'SIZE', help: 'book make and book add --memory' },
      repeat: { kind: 'int', default: 3, min: 1, arg: 'R', help: 'adds, each to a fresh copy of the book; the median is reported' },
      threads: { kind: 'int', default: 2, min: 1, arg: 'T', help: 'threads of the second add (book add --threads T), taken in turns with the first' },
    },
    positionals: { max: 1, names: 'FILE' },
  });
  const { games, add, memory, repeat, threads } = a.values;
  const file = a.positionals[0] ?? DATA;
  const dir = tempDir('tabiya-bench-add-');
  try {
    const base = join(dir, 'games.pgn');
    const more = join(dir, 'more.pgn');
    const all = join(dir, 'all.pgn');
    const n = firstGames(file, games, base);
    const k = firstGames(MORE, add, more);
    writeFileSync(all, Buffer.concat([readFileSync(base), Buffer.from('\n'), readFileSync(more)]));
    console.log(`add: ${k} game(s) added to a book of ${n} games, --memory ${memory}`);

    const tabiya = (...argv: string[]): Promise<Run> => measure(process.execPath, [CLI, 'book', ...argv, '--quiet', '--memory', memory], dir);
    await tabiya('make', base, '-o', 'base.tbk');
    const adds: Run[] = [];
    const manys: Run[] = [];
    for (let r = 0; r < repeat; r++) {
      copyFileSync(join(dir, 'base.tbk'), join(dir, 'added.tbk'));
      adds.push(await tabiya('add', 'added.tbk', more));
      copyFileSync(join(dir, 'base.tbk'), join(dir, 'added.tbk'));
      manys.push(await tabiya('add', 'added.tbk', more, '--threads', String(threads)));
    }
    const median = (runs: Run[]): Run => [...runs].sort((x, y) => x.wall - y.wall)[runs.length >> 1]!;
    const added = median(adds);
    const rows: [string, Run][] = [];
    if (existsSync(POLYGLOT)) rows.push(['polyglot make-book, all games', await measure(POLYGLOT, ['make-book', '-pgn', all, '-bin', join(dir, 'pg.bin')], dir)]);
    rows.push(['tabiya book make .tbk, all games', await tabiya('make', all, '-o', 'rebuilt.tbk')]);
    rows.push([`tabiya book add, ${k} game(s) (median of ${repeat})`, added]);
    rows.push([`tabiya book add --threads ${threads} (median of ${repeat})`, median(manys)]);
    console.log(`${''.padEnd(44)} ${'wall s'.padStart(8)} ${'peak MiB'.padStart(9)} ${'time ratio'.padStart(11)}`);
    const anchor = rows[0]![1];
    for (const [name, r] of rows) console.log(`${name.padEnd(44)} ${fmt(r.wall).padStart(8)} ${fmt(r.peak, 0).padStart(9)} ${fmt(r.wall / anchor.wall).padStart(11)}`);
    console.log(`time ratio: against ${rows[0]![0]}; adds one by one ${adds.map((r) => fmt(r.wall)).join(', ')} s; on ${threads} threads ${manys.map((r) => fmt(r.wall)).join(', ')} s (${fmt(added.wall / median(manys).wall)}× the speed of one)`);
  } finally {
    removeTempDir(dir);
  }
}

/**
 * `tabiya demo` (what `npm start` runs): builds the default opening book from the master games
 * bundled in data/, with a progress bar, then prints the build summary and the book moves of
 * the start position and after 1.e4.
 */
import { DEFAULT_BOOK, DEFAULT_BOOK_OPTIONS, DEFAULT_GAMES } from '../../book/node/defaultBook.js';
import { openBook } from '../../book/node/openBook.js';
import type { Position } from '../../core/position.js';
import { makeSan } from '../../notation/san.js';
import { report } from '../output.js';
import { formatSummary, runBookMake } from './bookMake.js';
import { positionOf } from './bookProbe.js';

export interface DemoOptions {
  output?: string;
  threads?: string;
  quiet?: boolean;
  json?: boolean;
  force?: boolean;
}

interface Shown {
  line: string;
  moves: { san: string; uci: string; weight: number; share: number }[];
}

export async function demoCommand(opts: DemoOptions): Promise<void> {
  const output = opts.output ?? DEFAULT_BOOK;
  const { summary } = await runBookMake(
    [DEFAULT_GAMES],
    {
      output,
      maxPly: String(DEFAULT_BOOK_OPTIONS.maxPly),
      minGames: String(DEFAULT_BOOK_OPTIONS.minGame),
      threads: opts.threads ?? '1',
      quiet: opts.quiet,
      json: opts.json,
      force: opts.force,
      errors: '5',
    },
    'building the default book',
  );
  const book = await openBook(output);
  const shown: Shown[] = [];
  for (const line of ['', 'e4']) {
    const pos: Position = positionOf(undefined, line);
    const moves = await book.moves(pos);
    const total = moves.reduce((n, m) => n + m.weight, 0);
    shown.push({
      line: line === '' ? 'start position' : `after 1.${line}`,
      moves: moves.map((m) => ({ san: makeSan(pos, m.move), uci: m.uci, weight: m.weight, share: Math.round((1000 * m.weight) / total) / 10 })),
    });
  }
  await book.close();
  report(opts.json, { book: summary, options: DEFAULT_BOOK_OPTIONS, positions: shown }, () => {
    const lines = [`default book from ${DEFAULT_GAMES}`, `(--max-ply ${DEFAULT_BOOK_OPTIONS.maxPly} --min-games ${DEFAULT_BOOK_OPTIONS.minGame})`, formatSummary(summary)];
    for (const s of shown) {
      lines.push('', `book moves, ${s.line}:`);
      for (const m of s.moves) lines.push(`  ${m.san.padEnd(6)} ${String(m.weight).padStart(6)}  ${m.share.toFixed(1).padStart(5)}%`);
    }
    return lines.join('\n');
  });
}

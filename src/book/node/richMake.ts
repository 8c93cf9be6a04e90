/**
 * `book make … -o X.tbk` and `book add X.tbk …` in Node: PGN files (plain, .gz, stdin) counted
 * into a rich book, with the Polyglot builder's inputs, filters and error handling
 * (makeBook.ts): a broken game is skipped and reported, an unreadable input or one without a
 * single readable game (or without any game: empty, only comments) is a failure naming the file, and the book is written crash-safely
 * (richFile.ts), so a failed run leaves the old book as it was.
 *
 * `add` continues the counts where the book left them (make-book's counters, halving and
 * creation order included), so a book made from A and then added B equals one made from A and
 * B in one run, and stays exactly exportable, as long as the max-ply is the same and the book
 * was not built with a min-games cut (dropped moves would restart from zero).
 */
import { existsSync } from 'node:fs';
import { PgnFilter, filterVisitor, type PgnFilterOptions } from '../../pgn/filter.js';
import { PgnParser } from '../../pgn/parser.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { BookError } from '../polyglot/select.js';
import { RichGameVisitor } from '../rich/build.js';
import { FLAG_EXACT, FLAG_IMPORTED, FLAG_MERGED } from '../rich/format.js';
import { RichTable } from '../rich/table.js';
import { encodeBook, hasData, type BookInfo } from '../rich/writer.js';
import { checkEachInput, countPerInput, expectedEntries, openInput } from './inputs.js';
import { fastCrc32, openRichBook, replaceRichBook, withBookLock, writeBookFile } from './richFile.js';
import { loadTable } from '../rich/load.js';
import { bookTime } from '../rich/clock.js';

export interface RichMakeOptions {
  /** PGN files ('-' = stdin), read in order as one stream of games. */
  inputs: readonly string[];
  /** Plies counted per game (default 1024, make-book's). */
  maxPly?: number;
  /** Moves seen in fewer games are left out of a new book (default 0: keep all). */
  minGames?: number;
  filter?: PgnFilterOptions;
  onProgress?(done: number, total: number, games: number): void;
  onError?(e: PgnGameError): void;
}

export interface RichMakeSummary {
  output: string;
  inputs: readonly string[];
  gamesRead: number;
  gamesSkipped: number;
  gamesFiltered: Record<string, number>;
  gamesUsed: number;
  positions: number;
  entries: number;
  /** Entries before this run (add), 0 for make. */
  entriesBefore: number;
  bytesWritten: number;
  /** Polyglot export of the result: exact, imported or approximate (see export.ts). */
  exportKind: string;
  notes: string[];
  seconds: number;
}

/** Builds a new book from PGN. */
export async function makeRichBook(output: string, opts: RichMakeOptions): Promise<RichMakeSummary> {
  const started = performance.now();
  const maxPly = opts.maxPly ?? 1024;
  const inputs = opts.inputs.map((p) => openInput(p));
  const table = new RichTable(expectedEntries(inputs, maxPly));
  const counts = await countGames(table, inputs, maxPly, opts);
  const minGames = opts.minGames ?? 0;
  const now = bookTime();
  const info: BookInfo = {
    flags: FLAG_EXACT,
    games: counts.used,
    maxPly: Math.min(maxPly, 0xffff),
    minGames,
    learnedGames: 0,
    changes: 1,
    created: now,
    meta: { tool: 'tabiya book make', inputs: [...opts.inputs], maxPly, minGames, filter: opts.filter ?? {}, runs: [{ at: now, inputs: [...opts.inputs], games: counts.used }] },
  };
  // make-book counts unfinished games too (pgN): a move it would keep is never cut here.
  const keep = (r: number): boolean => hasData(table, r) && (minGames <= 1 || table.games(r) >= minGames || table.pgN[r]! >= minGames);
  const bytes = encodeBook(table, info, keep, fastCrc32);
  replaceRichBook(output, bytes);
  return summary(output, opts, counts, 0, bytes, 'exact', [], started);
}

/** Counts more games into an existing book (Terra: add games to a book). */
export async function addToRichBook(path: string, opts: RichMakeOptions): Promise<RichMakeSummary> {
  const started = performance.now();
  if (!existsSync(path)) throw new BookError('ERR_BOOK_READ', `${path}: no such book`);
  const inputs = opts.inputs.map((p) => openInput(p));
  return withBookLock(path, async () => {
    const { book, close } = openRichBook(path, { memoryLimit: Infinity, verify: true });
    close();
    const { table, info } = loadTable(book, expectedEntries(inputs, opts.maxPly ?? book.header.maxPly));
    const before = book.size;
    const maxPly = opts.maxPly ?? (book.header.maxPly === 0 ? 1024 : book.header.maxPly);
    const notes: string[] = [];
    if ((info.flags & FLAG_EXACT) !== 0) {
      if (maxPly !== book.header.maxPly) notes.push(`max-ply ${maxPly} differs from the book's ${book.header.maxPly}: Polyglot export becomes approximate`);
      if (book.header.minGames > 1) notes.push(`the book was built with --min-games ${book.header.minGames}, so the dropped moves restart from zero: Polyglot export becomes approximate`);
      if (notes.length > 0) info.flags &= ~FLAG_EXACT;
    }
    if ((info.flags & FLAG_IMPORTED) !== 0) {
      notes.push('the book was imported from a .bin: Polyglot export becomes approximate');
      info.flags = (info.flags & ~FLAG_IMPORTED) | FLAG_MERGED;
    }
    const counts = await countGames(table, inputs, maxPly, opts);
    info.games += counts.used;
    info.changes++;
    const runs = Array.isArray(info.meta.runs) ? (info.meta.runs as unknown[]) : [];
    info.meta = { ...info.meta, runs: [...runs, { at: bookTime(), inputs: [...opts.inputs], games: counts.used, maxPly }] };
    const bytes = encodeBook(table, info, undefined, fastCrc32);
    writeBookFile(path, bytes);
    const kind = (info.flags & FLAG_EXACT) !== 0 ? 'exact' : 'approximate';
    return summary(path, opts, counts, before, bytes, kind, notes, started);
  });
}

interface Counts {
  games: number;
  errors: number;
  used: number;
  positions: number;
  rejected: Record<string, number>;
}

async function countGames(table: RichTable, inputs: ReturnType<typeof openInput>[], maxPly: number, opts: RichMakeOptions): Promise<Counts> {
  if (inputs.length === 0) throw new BookError('ERR_BOOK_INPUT', 'no PGN input given');
  const { perFile, onError } = countPerInput(inputs, opts.onError);
  const games = new RichGameVisitor(table, maxPly, onError);
  const filter = opts.filter === undefined ? undefined : new PgnFilter(opts.filter);
  const visitor: PgnVisitor = filter === undefined ? games : filterVisitor(filter, games);
  const parser = new PgnParser(visitor);
  const total = inputs.reduce((n, s) => n + (s.source.size ?? 0), 0);
  let before = 0;
  for (const input of inputs) {
    const source = input.source;
    const gamesBefore = parser.games;
    parser.begin(source.name);
    for await (const chunk of source.chunks) {
      parser.push(chunk);
      opts.onProgress?.(before + (source.bytesRead?.() ?? 0), total, parser.games);
    }
    if (input.failure === undefined) parser.end();
    perFile.get(source.name)!.games += parser.games - gamesBefore;
    before += source.size ?? 0;
  }
  checkEachInput(inputs, perFile);
  return { games: parser.games, errors: parser.errors, used: games.games, positions: games.positions, rejected: filter === undefined ? {} : { ...filter.rejected } };
}

function summary(output: string, opts: RichMakeOptions, c: Counts, before: number, bytes: Uint8Array, kind: string, notes: string[], started: number): RichMakeSummary {
  const entries = new DataView(bytes.buffer, bytes.byteOffset).getUint32(20);
  return {
    output,
    inputs: opts.inputs,
    gamesRead: c.games,
    gamesSkipped: c.errors,
    gamesFiltered: c.rejected,
    gamesUsed: c.used,
    positions: c.positions,
    entries,
    entriesBefore: before,
    bytesWritten: bytes.length,
    exportKind: kind,
    notes,
    seconds: (performance.now() - started) / 1000,
  };
}

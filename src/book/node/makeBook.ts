/**
 * `book make` in Node: PGN files (plain, .gz, stdin) → a Polyglot book, byte-identical to
 * `polyglot make-book` on the same clean input and options (polyglot.md §2).
 *
 * Single-threaded, the PGN reader replays games straight into the accumulator; with
 * `threads > 1` the work is split by chunks of games and by key partitions (parallel.ts), and
 * the book is the same byte for byte.
 *
 * Where PolyGlot aborts, this skips: a broken game is reported (file:line and why) and left
 * out. An input that cannot be read, or yields no game at all (empty, only comments, only broken
 * games), is a failure naming the file and nothing is written;
 * the book is written to a temporary file and renamed, so a failed or interrupted run never
 * leaves a half-written book.
 */
import { availableParallelism } from 'node:os';
import { PgnFilter, filterVisitor, type PgnFilterOptions } from '../../pgn/filter.js';
import { PgnParser } from '../../pgn/parser.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { BookGameVisitor } from '../polyglot/collect.js';
import { BookAccumulator, type MakeOptions } from '../polyglot/make.js';
import { BookError } from '../polyglot/select.js';
import { writeFileAtomic } from './atomicWrite.js';
import { checkEachInput, countPerInput, expectedEntries, openInput, type Built, type Input, type InputCount } from './inputs.js';
import { runThreaded } from './parallel.js';

export interface MakeBookOptions extends MakeOptions {
  /** PGN files ('-' = stdin); read in order, as one stream of games. */
  inputs: readonly string[];
  /** Output path ('-' = stdout). */
  output: string;
  /** Plies recorded per game (default 1024). */
  maxPly?: number;
  /** Threads that parse and accumulate (default 1: no workers). */
  threads?: number;
  /** Bytes of PGN per chunk handed to a thread (default 1 MiB). */
  chunkBytes?: number;
  /** Game filters applied before replay. */
  filter?: PgnFilterOptions;
  /** Progress in input bytes read (compressed bytes for .gz). */
  onProgress?(done: number, total: number, games: number): void;
  /** Each broken game, as it is skipped. */
  onError?(e: PgnGameError): void;
}

export interface MakeBookSummary {
  output: string;
  inputs: readonly string[];
  /** Games read cleanly (before filters). */
  gamesRead: number;
  /** Broken games skipped. */
  gamesSkipped: number;
  /** Games left out by filters, by reason. */
  gamesFiltered: Record<string, number>;
  /** Games whose moves went into the book. */
  gamesUsed: number;
  /** Moves recorded (positions scanned). */
  positions: number;
  /** Distinct (position, move) pairs. */
  uniqueEntries: number;
  /** Moves that repeated an existing pair. */
  duplicates: number;
  /** Entries written after filtering. */
  entriesKept: number;
  bytesWritten: number;
  threads: number;
  seconds: number;
}

export async function makeBook(opts: MakeBookOptions): Promise<MakeBookSummary> {
  const started = performance.now();
  if (opts.inputs.length === 0) throw new BookError('ERR_BOOK_INPUT', 'no PGN input given');
  const maxPly = opts.maxPly ?? 1024;
  const threads = Math.max(1, Math.min(opts.threads ?? 1, 64));
  const sources = opts.inputs.map((path) => openInput(path));
  const totalBytes = sources.reduce((n, s) => n + (s.source.size ?? 0), 0);
  const { perFile, onError } = countPerInput(sources, opts.onError);
  const built = threads > 1 ? await runThreaded(opts, sources, maxPly, threads, totalBytes, perFile, onError) : await runSingle(opts, sources, maxPly, totalBytes, perFile, onError);
  const counts = built.counts;

  checkEachInput(sources, perFile);
  await writeFileAtomic(opts.output, built.bytes);
  return {
    output: opts.output,
    inputs: opts.inputs,
    gamesRead: counts.games,
    gamesSkipped: counts.errors,
    gamesFiltered: counts.rejected,
    gamesUsed: counts.used,
    positions: built.added,
    uniqueEntries: built.size,
    duplicates: built.added - built.size,
    entriesKept: built.kept,
    bytesWritten: built.bytes.length,
    threads,
    seconds: (performance.now() - started) / 1000,
  };
}

async function runSingle(
  opts: MakeBookOptions,
  inputs: Input[],
  maxPly: number,
  totalBytes: number,
  perFile: Map<string, InputCount>,
  onError: (e: PgnGameError) => void,
): Promise<Built> {
  const acc = new BookAccumulator(expectedEntries(inputs, maxPly));
  const book = new BookGameVisitor({ game: (lo, hi, w, n, r) => acc.addGame(lo, hi, w, 0, n, r) }, maxPly, onError);
  const filter = opts.filter === undefined ? undefined : new PgnFilter(opts.filter);
  const visitor: PgnVisitor = filter === undefined ? book : filterVisitor(filter, book);
  const parser = new PgnParser(visitor);
  let before = 0;
  let raw = 0;
  for (const input of inputs) {
    const source = input.source;
    const file = perFile.get(source.name)!;
    const gamesBefore = parser.games;
    parser.begin(source.name);
    for await (const chunk of source.chunks) {
      parser.push(chunk);
      raw = before + (source.bytesRead?.() ?? 0);
      opts.onProgress?.(raw, totalBytes, parser.games);
    }
    if (input.failure === undefined) parser.end();
    file.games += parser.games - gamesBefore;
    before += source.size ?? 0;
  }
  const counts = { games: parser.games, errors: parser.errors, used: book.games, rejected: filter === undefined ? {} : { ...filter.rejected } };
  if (inputs.some((i) => i.failure !== undefined)) return { counts, bytes: new Uint8Array(0), kept: 0, size: acc.size, added: acc.added };
  const finished = acc.finish(opts);
  return { counts, bytes: finished.bytes, kept: finished.kept, size: acc.size, added: acc.added };
}

/** Default thread count for `--threads auto`. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

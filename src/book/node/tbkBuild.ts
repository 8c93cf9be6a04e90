/**
 * Building a version 2 `.tbk` in Node, in bounded memory: PGN games are counted into an
 * accumulator that grows up to `--memory` and is then spilled as a sorted run to a scratch
 * directory (workDir.ts); the book's games go to scratch files as they come. At the end the
 * runs are merged by key (mergeRuns.ts) and written as the book's sections: stored positions,
 * the single-position index, make-book's halved counters (recomputed by replaying the games),
 * and the games themselves. A build that spilled a hundred runs writes the same bytes as one
 * that spilled none.
 */
import { PgnFilter, filterVisitor, type PgnFilterOptions } from '../../pgn/filter.js';
import { PgnParser } from '../../pgn/parser.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { BookError } from '../polyglot/select.js';
import { BookBuilder, type BuildSinks } from '../rich/builder.js';
import { FLAG_GAMES_ONCE, FLAG_PARTIAL, SECTION, type BookFields } from '../rich/container.js';
import { PlyLog, RECORD_BYTES } from '../rich/plyLog.js';
import { finishRows, type FinishSummary, type RowCursor, type SingleSink } from '../rich/finish.js';
import { FLAG_EXACT } from '../rich/format.js';
import { GameReader } from '../rich/gameReader.js';
import { GAME_RECORD_SIZE, putGameRecord, readGameRecord } from '../rich/games.js';
import type { TbkBook } from '../rich/tbkBook.js';
import { replayHalving, type HalvedCounters } from '../rich/halving.js';
import { RunMerger, type MergeInput } from '../rich/mergeRuns.js';
import { PositionWriter, repeatsOf, type StoredPosition } from '../rich/positions.js';
import { RetrievalBuilder } from '../rich/retrievalBuilder.js';
import { RunReader, RunRow, RunWriter } from '../rich/runs.js';
import { NO_SPLITS, type SplitKinds } from '../rich/splits.js';
import { bookTime } from '../rich/clock.js';
import { encodeHalved, halvedLength } from '../rich/tbkBook.js';
import { checkEachInput, countPerInput, expectedEntries, inputOf, openInput, type Input } from './inputs.js';
import { rangeLocator, rangeSource, shardInputs, type Shard } from './shards.js';
import { statSync } from 'node:fs';
import { fastCrc32 } from './richFile.js';
import { TwoStepTbkFile, fileSection, memorySection, writeTbkFile, type SectionSource } from './tbkFile.js';
import { binFromRows, writeBinAtomic } from './binFromRows.js';
import type { MakeOptions } from '../polyglot/make.js';
import { ScratchError, ScratchFile, WorkDir, type ScratchFiles } from './workDir.js';
import { RetrievalRange, type RangePieces } from '../rich/retrievalRange.js';
import { partitionBitsFor } from '../rich/retrievalBuilder.js';
import { readInputsThreaded } from './tbkParallel.js';
import { memoryForThreads, readRanges, type RangeBuild } from './tbkRanges.js';
import type { ParsedGames } from './tbkParseChunk.js';

/** Default memory budget of the accumulator: 1 GiB. */
export const DEFAULT_MEMORY = 1 << 30;

export interface TbkBuildOptions {
  /** PGN files ('-' = stdin), read in order as one stream of games. */
  inputs: readonly string[];
  /** Plies counted per game (default 1024, make-book's). */
  maxPly?: number;
  /** Moves seen in fewer games are left out (default 0: keep all; then the games are kept too). */
  minGames?: number;
  split?: SplitKinds;
  filter?: PgnFilterOptions;
  /** Memory budget of the accumulator in bytes (default DEFAULT_MEMORY). */
  memory?: number;
  /** Where spilled runs go (default: the system's temporary directory). */
  tmpDir?: string;
  /** Write a partial book (one shard of a sharded build: its rows as a run, to be merged). */
  partial?: boolean;
  /** Build shard I of N of the inputs (shards.ts): a partial book. */
  shard?: Shard;
  /**
   * Worker threads that parse the PGN (default 1: the main thread parses; tbkParallel.ts); in
   * `book add`, threads that replay the book's games (singlesThreads.ts).
   */
  threads?: number;
  /** `book add`: the inputs as the book's history names them (default `inputs`; an import through the explorer: the user's file, not the server's copy). */
  inputNames?: readonly string[];
  /** `book add`: the fewest games a replay thread takes (default 20,000; fewer games, fewer threads). */
  replayThreadGames?: number;
  /**
   * Of those, how many own key ranges (default: all; 0: the main thread counts and finishes, as
   * for a shard). `book make` gives fewer when the memory would leave each a log too small to be
   * useful (tbkRanges.ts threadsFor).
   */
  rangeThreads?: number;
  onProgress?(done: number, total: number, games: number): void;
  /**
   * Progress of the finishing (runs merged, positions written): plies done of all counted (`book
   * add`: percent of the key space, with `unit` '%').
   */
  onFinishProgress?(done: number, total: number, unit?: string): void;
  onError?(e: PgnGameError): void;
  /** Games the halving replay takes at a time (default HALVING_SLICE of halving.ts; tests make it small). */
  halvingSlice?: number;
}

export interface TbkBuildSummary {
  output: string;
  inputs: readonly string[];
  gamesRead: number;
  gamesSkipped: number;
  gamesFiltered: Record<string, number>;
  gamesUsed: number;
  positions: number;
  /** Distinct (position, move) pairs. */
  entries: number;
  /** Positions stored with their moves, and positions seen in one game only. */
  storedPositions: number;
  singlePositions: number;
  /** Positions where make-book halved its counters. */
  hotPositions: number;
  /** Runs spilled to disk (0: the build fitted in memory). */
  runs: number;
  /** When runs were spilled by `book make`: the least `--memory` that would have kept them in memory. */
  memoryToFit?: number;
  bytesWritten: number;
  seconds: number;
  /** `book add`: the threads the book's games were replayed on (fewer than asked when it has too few games). */
  replayThreads?: number;
}

export interface CountedInputs {
  games: number;
  errors: number;
  used: number;
  positions: number;
  rejected: Record<string, number>;
}

/** Reads the inputs through `visitor` (filters applied), with make-book's failure rules. */
export async function readInputs(inputs: Input[], visitor: PgnVisitor, filterOptions: PgnFilterOptions | undefined, opts: { onProgress?: TbkBuildOptions['onProgress']; onError?: TbkBuildOptions['onError'] }, used: () => number): Promise<CountedInputs> {
  if (inputs.length === 0) throw new BookError('ERR_BOOK_INPUT', 'no PGN input given');
  const { perFile, onError } = countPerInput(inputs, opts.onError);
  const filter = filterOptions === undefined ? undefined : new PgnFilter(filterOptions);
  const inner = filter === undefined ? visitor : filterVisitor(filter, visitor);
  const counting: PgnVisitor = { ...forward(inner), error: (e) => (inner.error?.(e), onError(e)) };
  const parser = new PgnParser(counting);
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
  return { games: parser.games, errors: parser.errors, used: used(), positions: 0, rejected: filter === undefined ? {} : { ...filter.rejected } };
}

/** The visitor's methods bound to it (so a wrapper can replace one of them), and the tags it reads. */
function forward(v: PgnVisitor): PgnVisitor {
  const out: { -readonly [K in keyof PgnVisitor]: PgnVisitor[K] } = { tagNames: v.tagNames };
  for (const k of ['beginGame', 'tag', 'endTags', 'move', 'endGame', 'nullMove', 'comment', 'nag', 'beginVariation', 'endVariation', 'variationMove'] as const) {
    const f = (v as Record<string, unknown>)[k];
    if (typeof f === 'function') (out as Record<string, unknown>)[k] = f.bind(v);
  }
  return out;
}

/** Rows of the ply log in run order. */
export class TableCursor implements RowCursor {
  private i = 0;

  constructor(private readonly table: PlyLog) {
    table.sort();
  }

  next(row: RunRow): boolean {
    if (this.i >= this.table.size) return false;
    this.i = this.table.rowAt(this.i, row);
    return true;
  }

  takeSingles(single: SingleSink): number {
    const from = this.i;
    this.i = this.table.takeSingles(from, single);
    return this.i - from;
  }

  sameKey(): boolean {
    return this.table.sameKeyAt(this.i);
  }
}

/**
 * Rows passed through, reporting progress: each row counts the plies (games) it sums, so the
 * count reaches the plies logged when the last row is read, however many runs were merged.
 */
export class ProgressCursor implements RowCursor {
  private done = 0;
  private rows = 0;

  readonly takeSingles?: (single: SingleSink) => number;
  readonly sameKey?: () => boolean;

  constructor(
    private readonly inner: RowCursor,
    private readonly total: number,
    private readonly report: (done: number, total: number) => void,
  ) {
    const take = inner.takeSingles?.bind(inner);
    const same = inner.sameKey?.bind(inner);
    if (take === undefined || same === undefined) return;
    this.sameKey = same;
    this.takeSingles = (single) => {
      const n = take(single);
      // A single is one row of one game.
      this.done += n;
      const before = this.rows;
      this.rows += n;
      if (before >>> 16 !== this.rows >>> 16) this.report(this.done, this.total);
      return n;
    };
  }

  next(row: RunRow): boolean {
    if (!this.inner.next(row)) {
      this.report(Math.max(this.done, this.total), this.total);
      return false;
    }
    this.done += row.occurrences();
    if ((++this.rows & 0xffff) === 0) this.report(this.done, this.total);
    return true;
  }
}

/** Writes the ply log's rows as a sorted run into a scratch file. */
export function spillTable(table: PlyLog, file: ScratchFile): void {
  const w = new RunWriter((b) => file.append(b));
  const cursor = new TableCursor(table);
  const row = new RunRow();
  while (cursor.next(row)) w.write(row);
  w.drain();
}

/** Bits of a game number: enough for every game of the book. */
export function gameBits(games: number): number {
  let b = 1;
  while (2 ** b < games) b++;
  return b;
}

/** The games of a book being written: records and codes in scratch files, FEN starts in memory. */
export class GameStore {
  readonly records: ScratchFile;
  readonly codes: ScratchFile;
  readonly fens: [number, string][] = [];

  constructor(work: WorkDir) {
    this.records = work.create('games.rec');
    this.codes = work.create('games.mov');
  }

  get count(): number {
    return this.records.size / GAME_RECORD_SIZE;
  }

  /** Appends another book's games after these (their codes offsets moved along). */
  appendBook(book: TbkBook): void {
    const games = book.gameReader(1 << 20);
    if (games === undefined) return;
    const first = this.count;
    const shift = this.codes.size;
    const recSec = book.section(SECTION.GAMES)!;
    const codeSec = book.section(SECTION.MOVES)!;
    const chunk = GAME_RECORD_SIZE * 65536;
    for (let o = 0; o < recSec.length; o += chunk) {
      const b = book.source.read(recSec.offset + o, Math.min(chunk, recSec.length - o)).slice();
      if (shift > 0) {
        for (let i = 0; i < b.length; i += GAME_RECORD_SIZE) {
          const r = readGameRecord(b, i);
          putGameRecord(b, i, r.movesOffset + shift, r.codes, r);
        }
      }
      this.records.append(b);
    }
    for (let o = 0; o < codeSec.length; o += 1 << 22) this.codes.append(book.source.read(codeSec.offset + o, Math.min(1 << 22, codeSec.length - o)));
    for (const [g, fen] of book.fens) this.fens.push([g + first, fen]);
  }

  /** Move codes of all games (about their plies): what sizes the single-position index, the same however the book was built. */
  totalCodes(): number {
    let n = 0;
    const chunk = GAME_RECORD_SIZE * 65536;
    for (let o = 0; o < this.records.size; o += chunk) {
      const b = this.records.read(o, chunk);
      for (let i = 0; i < b.length; i += GAME_RECORD_SIZE) n += b[i + 6]! | (b[i + 7]! << 8);
    }
    return n;
  }

  /** Appends the games of a chunk parsed by a worker (their codes offsets moved along); returns the number of its first game. */
  takeChunk(r: Pick<ParsedGames, 'records' | 'codes' | 'fens'>): number {
    const first = this.count;
    const shift = this.codes.size;
    const rec = r.records;
    for (let i = 0; i < rec.length; i += GAME_RECORD_SIZE) {
      const g = readGameRecord(rec, i);
      putGameRecord(rec, i, g.movesOffset + shift, g.codes, g);
    }
    this.records.append(rec);
    this.codes.append(r.codes);
    for (const [g, fen] of r.fens) this.fens.push([g + first, fen]);
    return first;
  }

  /** The games stored so far; `name` says whose they are in errors. */
  reader(name = 'the games read'): GameReader {
    const r = this.records;
    const c = this.codes;
    return new GameReader({ readAt: (o, n) => r.read(o, n), size: r.size }, { readAt: (o, n) => c.read(o, n), size: c.size }, this.fens, 1 << 20, name);
  }
}

/** Counts PGN games into an accumulator that grows to the budget, then spills runs. */
export class Accumulation {
  readonly runs: ScratchFile[] = [];
  readonly builder: BookBuilder;
  private readonly sinks: BuildSinks;

  constructor(work: WorkDir, store: GameStore, o: { maxPly: number; split: SplitKinds; memory: number; expected: number }) {
    // The log costs memory only as records reach its pages (plyLog.ts).
    const table = new PlyLog(PlyLog.capacityFor(o.memory));
    const runs = this.runs;
    this.sinks = {
        full(t) {
          const run = work.create('run');
          spillTable(t, run);
          // Read back a window at a time when the runs are merged, not held open till then.
          run.close();
          runs.push(run);
          t.clear();
          return t;
        },
        games(rec, cod) {
          store.records.append(rec);
          store.codes.append(cod);
        },
      };
    this.builder = new BookBuilder(table, o.maxPly, o.split, this.sinks, () => {}, store.count, store.codes.size);
  }

  /** Takes a chunk parsed by a worker (tbkParallel.ts): its games after the store's, its plies into the log. */
  takeChunk(store: GameStore, r: ParsedGames): void {
    const first = store.takeChunk(r);
    const log = this.builder.table;
    for (let from = 0, n = r.plies.length / 6; from < n; ) {
      from += log.append(r.plies, from, first);
      if (from < n) this.builder.table = this.sinks.full(log);
    }
  }

  /** The counted rows in run order (the table alone, or the runs merged), once the input is read. */
  rows(): { source: RowCursor } {
    this.builder.flushGames();
    return { source: runMerger(this.runs, this.builder.table) };
  }
}

/**
 * The rows of spilled runs and of the log still in memory, merged: the log is sorted and read
 * in place rather than spilled as one more run (written and read back for nothing).
 */
export function runMerger(runs: readonly ScratchFile[], log?: PlyLog): RowCursor {
  const table = log === undefined ? undefined : new TableCursor(log);
  if (runs.length === 0 && table !== undefined) return table;
  const inputs: MergeInput[] = runs.map((f) => ({ reader: new RunReader((o, n) => f.read(o, n), 0, f.size, f.path, (into, o) => f.readInto(into, o)), gameOffset: 0 }));
  if (table !== undefined) inputs.push({ reader: table, gameOffset: 0 });
  return new RunMerger(inputs);
}

export interface WriteBookOptions {
  /** The merged rows; or, finished already by several threads (tbkRanges.ts), `finished`. */
  rows?: RowCursor;
  finished?: FinishedBook;
  /** make-book's counters of the hot positions, replayed already (tbkRanges.ts); else replayed here. */
  halved?: HalvedCounters[];
  store: GameStore;
  fields: BookFields;
  meta: Record<string, unknown>;
  notes?: Uint8Array;
  split: SplitKinds;
  minGames: number;
  partial?: boolean;
  work: WorkDir;
  halvingSlice?: number;
}

/** The finished rows as the book's sections: positions, their block index, single positions. */
export interface FinishedBook {
  summary: FinishSummary;
  positions: SectionSource;
  blocks: Uint8Array;
  singles?: SectionSource;
}

function finishedBook(f: FinishedRows): FinishedBook {
  return { summary: f.summary, positions: fileSection(SECTION.POSITIONS, f.positions), blocks: f.blocks, singles: f.singles === undefined ? undefined : fileSection(SECTION.SINGLES, f.singles) };
}

/** Keys the single-position index is sized for: the games' move codes, the same however the book was built. */
export function expectedSingles(store: GameStore): number {
  return Math.max(store.totalCodes(), 1 << 16);
}

/** Finishes merged rows into a book file; returns what was written. */
export function writeBook(output: string, o: WriteBookOptions): { summary: FinishSummary; bytes: number } {
  const fens = o.store.fens;
  let sections: SectionSource[];
  let fin: FinishSummary;
  if (o.partial) {
    const meta = memorySection(SECTION.META, json(o.meta));
    // A shard: its rows as one run, for book merge to finish.
    const run = o.work.create('partial');
    const w = new RunWriter((b) => run.append(b));
    const row = new RunRow();
    let n = 0;
    while (o.rows!.next(row)) {
      w.write(row);
      n++;
    }
    w.drain();
    o.fields.flags |= FLAG_PARTIAL;
    fin = { rows: n, singles: 0, stored: 0, storedMoves: 0, hot: [] };
    sections = [meta, memorySection(SECTION.FENS, json(fens)), fileSection(SECTION.GAMES, o.store.records), fileSection(SECTION.MOVES, o.store.codes), fileSection(SECTION.RUN, run)];
  } else {
    const split = o.split.rating || o.split.speed || o.split.month;
    const written = o.finished ?? finishedBook(finishBook(o.rows!, { split, minGames: o.minGames, games: o.store.count, expectedSingles: expectedSingles(o.store), work: o.work }));
    fin = written.summary;
    const halved = memorySection(SECTION.HALVED, encodeHalved(o.halved ?? replayHalving(fin.hot, o.store.reader(), o.halvingSlice)));
    sections = finishedSections(o, written, halved);
  }
  return { summary: fin, bytes: writeTbkFile(output, o.fields, sections) };
}

/** A finished book's sections in file order, `halved` its halving counters (or their length only, to come). */
function finishedSections(o: WriteBookOptions, written: FinishedBook, halved: SectionSource): SectionSource[] {
  const fin = written.summary;
  const counts = { storedPositions: fin.stored, storedMoves: fin.storedMoves, singlePositions: fin.singles, hotPositions: fin.hot.length };
  const meta = memorySection(SECTION.META, json({ ...o.meta, counts }));
  const sections = [meta, memorySection(SECTION.FENS, json(o.store.fens)), halved, memorySection(SECTION.BLOCKS, written.blocks)];
  if (o.notes !== undefined && o.notes.length > 0) sections.push(memorySection(SECTION.NOTES, o.notes));
  if (o.minGames <= 1) sections.push(fileSection(SECTION.GAMES, o.store.records), fileSection(SECTION.MOVES, o.store.codes));
  sections.push(written.positions);
  if (written.singles !== undefined) sections.push(written.singles);
  return sections;
}

/**
 * Writes a book finished by the build's threads while they replay the games for the halving
 * counters (`halving`, under way): the file's other sections go to disk meanwhile
 * (TwoStepTbkFile), the counters last.
 */
async function writeBookWhileHalving(output: string, o: WriteBookOptions & { finished: FinishedBook }, halving: Promise<HalvedCounters[]>): Promise<{ summary: FinishSummary; bytes: number }> {
  const late = { id: SECTION.HALVED, length: halvedLength(o.finished.summary.hot), crc: 0, chunks: () => [] };
  const file = new TwoStepTbkFile(output, o.fields, finishedSections(o, o.finished, late), new Set([SECTION.HALVED]));
  try {
    await file.early();
    const halved = memorySection(SECTION.HALVED, encodeHalved(await halving));
    return { summary: o.finished.summary, bytes: file.finish([halved]) };
  } catch (e) {
    file.abort();
    throw e;
  }
}

/** Builds a new book from PGN. */
export async function buildTbk(output: string, opts: TbkBuildOptions): Promise<TbkBuildSummary> {
  const started = performance.now();
  const maxPly = opts.maxPly ?? 1024;
  const split = opts.split ?? NO_SPLITS;
  const minGames = opts.minGames ?? 0;
  // Taken before the inputs are cut into shards (shards.ts reads the size for its cuts).
  const inputSizes = opts.shard === undefined ? undefined : opts.inputs.map((p) => sizeOf(p));
  const inputs = opts.shard === undefined ? opts.inputs.map((p) => openInput(p)) : shardOpen(opts.inputs, opts.shard);
  const partial = opts.partial === true || opts.shard !== undefined;
  const work = new WorkDir(opts.tmpDir);
  const memory = opts.memory ?? DEFAULT_MEMORY;
  let ranges: RangeBuild | undefined;
  try {
    const store = new GameStore(work);
    let counted: CountedInputs;
    let games: number;
    let positions: number;
    let runs: number;
    let rows: RowCursor | undefined;
    let finished: FinishedBook | undefined;
    let halving: Promise<HalvedCounters[]> | undefined;
    let memoryToFit: number | undefined;
    // Threads that own key ranges (fewer than parse when the memory is short: tbkRanges.ts
    // threadsFor). One is a worker too: the main thread then only reads the input and stays
    // free for a Ctrl-C, which a finish on the main thread (seconds to minutes of synchronous
    // work) would hold until the book was written. 0: count and finish on the main thread.
    const rangeThreads = partial ? 0 : Math.min(opts.rangeThreads ?? opts.threads ?? 1, opts.threads ?? 1);
    if (rangeThreads >= 1) {
      // Every thread owns a key range and finishes it (tbkRanges.ts).
      ranges = await readRanges(inputs, { ...opts, threads: rangeThreads, maxPly, split, memory }, store, work);
      counted = ranges.counted;
      games = counted.used;
      positions = counted.positions;
      const report = opts.onFinishProgress;
      const anySplit = split.rating || split.speed || split.month;
      const done = await ranges.finish({ split: anySplit, minGames, games: store.count, expectedSingles: expectedSingles(store) }, report && ((d) => report(d, positions)));
      finished = done.book;
      runs = done.runs;
      if (runs > 0) memoryToFit = memoryForThreads(done.needed, rangeThreads);
      // The threads replay the games for the halving while the book's other sections are written.
      halving = ranges.halving(finished.summary.hot, store, opts.halvingSlice);
      halving.catch(() => {});
    } else {
      const acc = new Accumulation(work, store, { maxPly, split, memory, expected: expectedEntries(inputs, maxPly) });
      counted = await countInputs(inputs, acc, store, { ...opts, maxPly, split });
      games = acc.builder.games;
      positions = acc.builder.positions;
      const source = acc.rows().source;
      rows = opts.onFinishProgress === undefined ? source : new ProgressCursor(source, positions, opts.onFinishProgress);
      runs = acc.runs.length;
      // The log holds RECORD_BYTES a ply (PlyLog.capacityFor); a shard's partial book logs the same.
      if (runs > 0) memoryToFit = positions * RECORD_BYTES;
    }
    const now = bookTime();
    const fields: BookFields = {
      flags: (minGames > 1 ? 0 : FLAG_EXACT) | FLAG_GAMES_ONCE,
      games,
      maxPly: Math.min(maxPly, 0xffff),
      minGames,
      learnedGames: 0,
      changes: 1,
      created: now,
      modified: now,
      splits: splitBits(split),
    };
    const meta: Record<string, unknown> = { tool: 'tabiya book make', inputs: [...opts.inputs], maxPly, minGames, filter: opts.filter ?? {}, split, runs: [{ at: now, inputs: [...opts.inputs], games }] };
    if (opts.shard !== undefined) {
      meta.shard = `${opts.shard.index}/${opts.shard.count}`;
      // For book merge to tell a shard of another build: the inputs as they were read (a shard
      // of a file that grew since the others were built would hold other games).
      meta.inputSizes = inputSizes;
    }
    const write: WriteBookOptions = { rows, finished, store, fields, meta, split, minGames, partial, work, halvingSlice: opts.halvingSlice };
    const { summary: fin, bytes } = halving === undefined ? writeBook(output, write) : await writeBookWhileHalving(output, { ...write, finished: finished! }, halving);
    return {
      output,
      inputs: opts.inputs,
      gamesRead: counted.games,
      gamesSkipped: counted.errors,
      gamesFiltered: counted.rejected,
      gamesUsed: games,
      positions,
      entries: partial ? fin.rows : fin.singles + fin.storedMoves,
      storedPositions: fin.stored,
      singlePositions: fin.singles,
      hotPositions: fin.hot.length,
      runs,
      memoryToFit,
      bytesWritten: bytes,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (e) {
    throw e instanceof ScratchError ? e.forOutput(output) : e;
  } finally {
    await ranges?.close();
    work.remove();
  }
}

/**
 * Reads the inputs into the accumulation and the store: on the main thread, or parsed by
 * `threads` workers (tbkParallel.ts) with the same result.
 */
async function countInputs(
  inputs: Input[],
  acc: Accumulation,
  store: GameStore,
  o: { threads?: number; maxPly: number; split: SplitKinds; filter?: PgnFilterOptions; onProgress?: TbkBuildOptions['onProgress']; onError?: TbkBuildOptions['onError'] },
): Promise<CountedInputs> {
  const builder = acc.builder;
  const threads = o.threads ?? 1;
  if (threads <= 1) {
    const counted = await readInputs(inputs, builder, o.filter, o, () => builder.games);
    for (const f of builder.fens) store.fens.push(f);
    return { ...counted, positions: builder.positions };
  }
  const counted = await readInputsThreaded(inputs, { ...o, threads }, (r) => acc.takeChunk(store, r));
  builder.games = counted.used;
  builder.positions = counted.positions;
  return counted;
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/** The inputs of one shard, opened. */
function shardOpen(files: readonly string[], shard: Shard): Input[] {
  const s = shardInputs(files, shard);
  if (s.kind === 'files') return s.files.map((p) => openInput(p));
  const input = inputOf(rangeSource(s.file, s.start, s.end), 1);
  input.locate = rangeLocator(s.file, s.start, `shard ${shard.index}/${shard.count} from byte ${s.start}`);
  // More shards than the file has games: this shard's range holds none, and the others read
  // them all. An empty partial book, so that the array of shards and its merge go through.
  if (s.start === s.end) input.emptyShard = true;
  return [input];
}

export function splitBits(split: SplitKinds): number {
  return (split.rating ? 1 : 0) | (split.speed ? 2 : 0) | (split.month ? 4 : 0);
}

/** What finishing merged rows wrote: positions and their block index, and the single positions. */
export interface FinishedRows {
  summary: FinishSummary;
  positions: ScratchFile;
  blocks: Uint8Array;
  singles: ScratchFile | undefined;
  /** With `range`: the single-position index's partitions (slots in `singles`) and shared keys. */
  pieces?: RangePieces;
}

/** How to finish rows: the book's options, and the key range for one thread's share. */
export interface FinishOptions {
  split: boolean;
  minGames: number;
  games: number;
  expectedSingles: number;
  work: ScratchFiles;
  /** Rows of keys whose high half is in [from, to) only: the share of one thread (tbkRanges.ts). */
  range?: { from: number; to: number };
}

/**
 * Writes the stored positions and the single-position index of merged rows into scratch
 * files. With `minGames` above 1, moves seen in fewer games are left out, and so are all
 * single positions (the book then keeps no games).
 */
export function finishBook(cursor: RowCursor, o: FinishOptions): FinishedRows {
  const positions = o.work.create('positions');
  const pw = new PositionWriter((b) => positions.append(b), fastCrc32);
  const keepSingles = o.minGames <= 1;
  const singles = keepSingles ? o.work.create('singles') : undefined;
  const append = (chunk: Uint8Array): void => singles!.append(chunk);
  const index = { bits: gameBits(o.games), partitionBits: partitionBitsFor(o.expectedSingles, gameBits(o.games)) };
  const range = keepSingles && o.range !== undefined ? new RetrievalRange({ ...index, ...o.range }, append) : undefined;
  const rb = keepSingles && range === undefined ? new RetrievalBuilder(index, append) : undefined;
  const singleSink = range ?? rb;
  const summary = finishRows(cursor, o.split, {
    single(keyHi, keyLo, game) {
      singleSink?.add(keyHi, keyLo, game);
    },
    stored(p: StoredPosition) {
      if (o.minGames > 1) {
        // As make-book's -min-game: every occurrence counts, a game's repeats included.
        p.moves = p.moves.filter((m) => m.wins + m.draws + m.losses + m.unfinished + repeatsOf(m) >= o.minGames || m.weight !== undefined);
        if (p.moves.length === 0) return;
      }
      pw.write(p);
    },
  });
  const blocks = pw.finish();
  rb?.finish();
  const pieces = range?.finish();
  // What was kept (a min-games cut drops moves, positions and every single game).
  summary.stored = pw.positions;
  summary.storedMoves = pw.moves;
  if (!keepSingles) summary.singles = 0;
  return { summary, positions, blocks, singles, pieces };
}

function json(v: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(v));
}


export interface BinBuildOptions extends MakeOptions {
  inputs: readonly string[];
  /** Worker threads that parse the PGN (default 1). */
  threads?: number;
  maxPly?: number;
  filter?: PgnFilterOptions;
  memory?: number;
  tmpDir?: string;
  onProgress?(done: number, total: number, games: number): void;
  onError?(e: PgnGameError): void;
}

/**
 * make-book in bounded memory: the games counted into the accumulator (spilled as runs when it
 * fills), the runs merged, and the `.bin` written from the merged rows (binFromRows.ts, with
 * make-book's halving replayed from the games kept in the scratch directory). Byte for byte the
 * `.bin` the in-memory builder writes.
 */
export async function buildBinBounded(output: string, opts: BinBuildOptions): Promise<{ counted: CountedInputs; games: number; positions: number; unique: number; kept: number; runs: number; bytes: number }> {
  const maxPly = opts.maxPly ?? 1024;
  const inputs = opts.inputs.map((p) => openInput(p));
  const work = new WorkDir(opts.tmpDir);
  try {
    const store = new GameStore(work);
    const acc = new Accumulation(work, store, { maxPly, split: NO_SPLITS, memory: opts.memory ?? DEFAULT_MEMORY, expected: expectedEntries(inputs, maxPly) });
    const builder = acc.builder;
    const counted = await countInputs(inputs, acc, store, { ...opts, maxPly, split: NO_SPLITS });
    const { source } = acc.rows();
    const counts = { unique: 0 };
    const { kept, bytes } = writeBinAtomic(output, (sink) => binFromRows(source, store.reader(), opts, work, sink, counts));
    return { counted, games: builder.games, positions: builder.positions, unique: counts.unique, kept, runs: acc.runs.length, bytes };
  } catch (e) {
    throw e instanceof ScratchError ? e.forOutput(output) : e;
  } finally {
    work.remove();
  }
}

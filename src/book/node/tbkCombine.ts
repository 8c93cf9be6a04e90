/**
 * Version 2 books combined: `book add` (more games into a book) and `book merge` (several books,
 * or the partial books of a sharded build, into one). Both rebuild the book from rows: the
 * books' rows (bookRows.ts, or a partial's run) and the new games' rows, merged by key with
 * every book's games numbered after the books before it, the games concatenated, and the
 * result finished as a fresh build finishes (tbkBuild.ts). So a book made from A and then added
 * B, and the merge of the partial books of A and B, are byte for byte the book made from A and B
 * in one run.
 */
import { BookError } from '../polyglot/select.js';
import { bookTime } from '../rich/clock.js';
import { FLAG_EXACT, FLAG_MERGED } from '../rich/format.js';
import { FLAG_GAMES_ONCE, FLAG_PARTIAL, SECTION, countsGamesOnce, type BookFields } from '../rich/container.js';
import { RunMerger, type MergeInput, type RowSource } from '../rich/mergeRuns.js';
import { Notes } from '../rich/notes.js';
import { RunReader, type RunRow } from '../rich/runs.js';
import type { CellStats, MoveStats } from '../rich/positions.js';
import type { SplitKinds } from '../rich/splits.js';
import { TbkBook } from '../rich/tbkBook.js';
import { BookRows, gameRows, singleRows, storedPositions } from './bookRows.js';
import { singleRowsThreaded } from './singlesThreads.js';
import { expectedEntries, openInput } from './inputs.js';
import { fastCrc32, withBookLock } from './richFile.js';
import { FileReader } from './tbkFile.js';
import { Accumulation, DEFAULT_MEMORY, GameStore, readInputs, splitBits, writeBook, type TbkBuildOptions, type TbkBuildSummary } from './tbkBuild.js';
import { ScratchError, WorkDir } from './workDir.js';
import { binFromRows, writeBinAtomic } from './binFromRows.js';
import type { MakeOptions } from '../polyglot/make.js';

/** Opens a version 2 book for a rebuild, checking every section. */
export function openForRebuild(path: string): { book: TbkBook; file: FileReader } {
  const file = new FileReader(path);
  const r = TbkBook.open(file, path, fastCrc32);
  if (!r.ok) {
    file.close();
    throw r.error;
  }
  const v = r.value.verify(fastCrc32);
  if (!v.ok) {
    file.close();
    throw v.error;
  }
  return { book: r.value, file };
}

function splitsOf(book: TbkBook): SplitKinds {
  return book.splits;
}

/** A book's rows as a merge input: a partial's run, or the book's positions and single games. */
function rowsOf(book: TbkBook, gameOffset: number, memory: number, work: WorkDir, onGames?: (done: number, total: number) => void): MergeInput {
  if (book.partial) {
    const run = book.section(SECTION.RUN)!;
    return { reader: new RunReader((o, n) => book.source.read(run.offset + o, n), 0, run.length, book.name), gameOffset };
  }
  return { reader: new BookRows(book, singleRows(book, memory, work, onGames)), gameOffset };
}

/**
 * The share of the finishing phase of `book add` (and of `book merge` of whole books) spent
 * replaying the books' games for their single positions (the rest: merging and writing). Measured on a book of 389,323 games with
 * one game added: 34 s of replay, 8 s of writing.
 */
const REPLAY_SHARE = 0.8;

/** Counts more games into a book (Terra: add games to a book). */
export async function addToTbk(path: string, opts: TbkBuildOptions): Promise<TbkBuildSummary & { notes: string[] }> {
  const started = performance.now();
  const inputs = opts.inputs.map((p) => openInput(p));
  return withBookLock(path, async () => {
    const { book, file } = openForRebuild(path);
    const work = new WorkDir(opts.tmpDir);
    try {
      if (book.partial) throw new BookError('ERR_BOOK_PARTIAL', `${path}: a partial book (one shard of a sharded build): merge the shards with book merge first`);
      const split = splitsOf(book);
      const maxPly = opts.maxPly ?? book.fields.maxPly;
      const memory = opts.memory ?? DEFAULT_MEMORY;
      const notes: string[] = [];
      const fields: BookFields = { ...book.fields, changes: book.fields.changes + 1, modified: bookTime() };
      // The games added count once a position; a book that counted none before (imported) then does too.
      if (countsGamesOnce(book.fields)) fields.flags |= FLAG_GAMES_ONCE;
      if ((fields.flags & FLAG_EXACT) !== 0) {
        if (maxPly !== book.fields.maxPly) notes.push(`max-ply ${maxPly} differs from the book's ${book.fields.maxPly}: Polyglot export becomes approximate`);
        if (book.games === undefined) notes.push('the book keeps no games (it was built with a min-games cut or converted): Polyglot export becomes approximate');
        if (notes.length > 0) fields.flags &= ~FLAG_EXACT;
      }
      const store = new GameStore(work);
      store.appendBook(book);
      const firstNew = store.count;
      const acc = new Accumulation(work, store, { maxPly, split, memory, expected: expectedEntries(inputs, maxPly) });
      const builder = acc.builder;
      const counted = await readInputs(inputs, builder, opts.filter, opts, () => builder.games - firstNew);
      for (const f of builder.fens) store.fens.push(f);
      const fresh = acc.rows();
      // One percentage for the phase: the book's games replayed, then the rows merged and written.
      const finish = opts.onFinishProgress;
      const percent = finish && ((share: number): void => finish(Math.round(share * 1000) / 10, 100, '%'));
      const replayed = percent && ((done: number, total: number): void => percent((REPLAY_SHARE * done) / Math.max(1, total)));
      // The replay on opts.threads threads (singlesThreads.ts); `threads` of a make parse PGN.
      let replayThreads = 1;
      let old: MergeInput;
      if (book.partial || (opts.threads ?? 1) < 2) old = rowsOf(book, 0, memory, work, replayed);
      else {
        const singles = await singleRowsThreaded(book, path, memory, work, opts.threads ?? 1, replayed, opts.replayThreadGames);
        old = { reader: new BookRows(book, singles.rows), gameOffset: 0 };
        replayThreads = singles.threads;
      }
      const merged = new RunMerger([old, { reader: fresh.source, gameOffset: 0 }]);
      const rows = withKeyProgress(merged, percent && ((share) => percent(REPLAY_SHARE + (1 - REPLAY_SHARE) * share)));
      fields.games = book.fields.games + (builder.games - firstNew);
      const runs = Array.isArray(book.meta.runs) ? (book.meta.runs as unknown[]) : [];
      const meta = { ...book.meta, runs: [...runs, { at: fields.modified, inputs: [...(opts.inputNames ?? opts.inputs)], games: builder.games - firstNew, maxPly }] };
      const { summary: fin, bytes } = writeBook(path, { rows, store, fields, meta, notes: book.notes.encode(), split, minGames: book.fields.minGames, work });
      return {
        output: path,
        inputs: opts.inputs,
        gamesRead: counted.games,
        gamesSkipped: counted.errors,
        gamesFiltered: counted.rejected,
        gamesUsed: builder.games - firstNew,
        positions: builder.positions,
        entries: fin.singles + fin.storedMoves,
        storedPositions: fin.stored,
        singlePositions: fin.singles,
        hotPositions: fin.hot.length,
        runs: acc.runs.length,
        bytesWritten: bytes,
        seconds: (performance.now() - started) / 1000,
        replayThreads,
        notes,
      };
    } catch (e) {
      throw e instanceof ScratchError ? e.forOutput(path) : e;
    } finally {
      work.remove();
      file.close();
    }
  });
}

export interface TbkRecountSummary {
  output: string;
  games: number;
  /** Moves whose stored counts changed: their W/D/L had counted a game more than once. */
  movesChanged: number;
  entries: number;
  bytesWritten: number;
  seconds: number;
}

/**
 * Counts a book's games again, each once a position (repeats.ts), for a book made before repeats
 * were kept apart: its W/D/L then counted a repeated move each time. The book is rebuilt from the
 * games it keeps, as `book add` rebuilds it, with its notes, history and make-book's counters
 * (which count every occurrence, so the Polyglot export does not change); written to `output`
 * (the book itself: in place, crash-safely, under its lock). Refused for a book that keeps no
 * games or holds moves imported from a Polyglot book, which no game gives.
 */
export function recountTbk(path: string, output: string, opts: { memory?: number; tmpDir?: string } = {}): TbkRecountSummary {
  const started = performance.now();
  const { book, file } = openForRebuild(path);
  const work = new WorkDir(opts.tmpDir);
  try {
    if (book.partial) throw new BookError('ERR_BOOK_PARTIAL', `${path}: a partial book (one shard of a sharded build): merge the shards with book merge first`);
    if (book.games === undefined) throw new BookError('ERR_BOOK_RECOUNT', `${path} keeps no games (it was built with a min-games cut or converted): its W/D/L cannot be counted again; build it again from the PGN with book make`);
    let changed = 0;
    for (const p of storedPositions(book)) {
      for (const m of p.moves) {
        if (m.weight !== undefined) throw new BookError('ERR_BOOK_RECOUNT', `${path} holds moves imported from a Polyglot book, which no game gives: its W/D/L cannot be counted again; build it again from the PGN with book make`);
      }
    }
    const memory = opts.memory ?? DEFAULT_MEMORY;
    const store = new GameStore(work);
    store.appendBook(book);
    const rows = countChanges(gameRows(book, memory, work), book, () => changed++);
    const fields: BookFields = { ...book.fields, flags: book.fields.flags | FLAG_GAMES_ONCE, changes: book.fields.changes + 1, modified: bookTime() };
    const runs = Array.isArray(book.meta.runs) ? (book.meta.runs as unknown[]) : [];
    const meta = { ...book.meta, runs: [...runs, { at: fields.modified, tool: 'tabiya book upgrade', recounted: 'each game once a position' }] };
    const { summary: fin, bytes } = writeBook(output, { rows, store, fields, meta, notes: book.notes.encode(), split: book.splits, minGames: book.fields.minGames, work });
    return { output, games: book.fields.games, movesChanged: changed, entries: fin.singles + fin.storedMoves, bytesWritten: bytes, seconds: (performance.now() - started) / 1000 };
  } catch (e) {
    throw e instanceof ScratchError ? e.forOutput(output) : e;
  } finally {
    work.remove();
    file.close();
  }
}

/**
 * Passes rows through, calling `changed` once for each (position, move) whose counts differ from
 * what `book` stores for it. Only a move with repeats can differ: a game that came back to a
 * position is what a book made before repeats were kept apart counted more than once. But a
 * book added to or merged after such a build already holds the later games' repeats apart, so
 * a move with repeats is compared with its stored record rather than counted as changed.
 */
function countChanges(inner: RowSource, book: TbkBook, changed: () => void): RowSource {
  const take = inner.takeSingles?.bind(inner);
  const same = inner.sameKey?.bind(inner);
  let hi = -1;
  let lo = -1;
  let move = -1;
  let cells: CellStats[] = [];
  let repeats = false;
  const settle = (): void => {
    if (move >= 0 && repeats && !sameCounts(cells, book.stored(hi, lo)?.moves.find((m) => m.move === move))) changed();
    cells = [];
    repeats = false;
  };
  return {
    next(row: RunRow): boolean {
      if (!inner.next(row)) {
        settle();
        move = -1;
        return false;
      }
      if (row.keyHi !== hi || row.keyLo !== lo || row.move !== move) {
        settle();
        hi = row.keyHi;
        lo = row.keyLo;
        move = row.move;
      }
      if (row.repeats() > 0) repeats = true;
      cells.push({ cell: row.cell, wins: row.wins, draws: row.draws, losses: row.losses, unfinished: row.unfinished, rated: row.rated, ratingSum: row.ratingSum, repeatWins: row.repeatWins, repeatDraws: row.repeatDraws, repeatLosses: row.repeatLosses, repeatUnfinished: row.repeatUnfinished });
      return true;
    },
    takeSingles: take,
    sameKey: same,
  };
}

/** Whether a move's counts, cell by cell, are those a book stores for it. */
function sameCounts(cells: readonly CellStats[], stored: MoveStats | undefined): boolean {
  if (stored === undefined) return false;
  const was = stored.cells !== undefined && stored.cells.length > 0 ? stored.cells : [stored];
  if (was.length !== cells.length) return false;
  return cells.every((c, i) => {
    const w = was[i]!;
    return (
      c.cell === w.cell &&
      c.wins === w.wins &&
      c.draws === w.draws &&
      c.losses === w.losses &&
      c.unfinished === w.unfinished &&
      c.rated === w.rated &&
      c.ratingSum === w.ratingSum &&
      (c.repeatWins ?? 0) === (w.repeatWins ?? 0) &&
      (c.repeatDraws ?? 0) === (w.repeatDraws ?? 0) &&
      (c.repeatLosses ?? 0) === (w.repeatLosses ?? 0) &&
      (c.repeatUnfinished ?? 0) === (w.repeatUnfinished ?? 0)
    );
  });
}

export interface TbkMergeOptions {
  /** Leave out moves with fewer games (0: keep all). */
  minGames?: number;
  /** The books' names in the merged book's record (default: their paths; a version 1 book is read through an upgraded copy). */
  names?: readonly string[];
  memory?: number;
  tmpDir?: string;
  /** Threads that replay each whole book's games for its single positions (singlesThreads.ts; default 1). */
  threads?: number;
  /** The fewest games a replay thread takes (default 20,000). */
  replayThreadGames?: number;
  /** Called now and then while the merged rows are written: the share of the key space done (0 to 1) and the rows so far. */
  onProgress?(share: number, rows: number): void;
}

export interface TbkMergeSummary {
  output: string;
  inputs: readonly string[];
  games: number;
  partials: number;
  /** The cut applied: opts.minGames, else the shards' own --min-games (0 for other books). */
  minGames: number;
  entries: number;
  storedPositions: number;
  singlePositions: number;
  bytesWritten: number;
  seconds: number;
}

/**
 * Merges books in order: statistics added, games concatenated, notes combined (the first book
 * with a user value, NAG, comment or mark for a move wins; learned results add). Partial books
 * (shards) merge into the book a single build of all their games would have made.
 */
export async function mergeTbk(paths: readonly string[], output: string, opts: TbkMergeOptions = {}): Promise<TbkMergeSummary> {
  const started = performance.now();
  const opened = paths.map((p) => openForRebuild(p));
  const work = new WorkDir(opts.tmpDir);
  try {
    const books = shardOrder(opened.map((o) => o.book));
    const first = books[0]!;
    for (const b of books) {
      const s = b.splits;
      if (s.rating !== first.splits.rating || s.speed !== first.splits.speed || s.month !== first.splits.month) throw new BookError('ERR_BOOK_MERGE', `${b.name}: split by ${describe(s)}, but ${first.name} by ${describe(first.splits)}: books merge only with the same splits`);
      if (b.fields.maxPly !== first.fields.maxPly && books.every((x) => x.partial)) throw new BookError('ERR_BOOK_MERGE', `${b.name}: shards of one build must have the same max-ply (${b.fields.maxPly} against ${first.fields.maxPly})`);
    }
    const { store, inputs, games, progress } = await mergeSources(books, opts.memory ?? DEFAULT_MEMORY, work, opts);
    const allPartial = books.every((b) => b.partial);
    const minGames = opts.minGames ?? (allPartial ? first.fields.minGames : 0);
    const now = bookTime();
    // With every game kept, a merge is make-book over the books' games in order: exact, unless cut.
    const exact = books.every((b) => (b.fields.flags & FLAG_EXACT) !== 0 && (b.games !== undefined || b.partial) && b.fields.maxPly === first.fields.maxPly);
    const fields: BookFields = {
      flags: (exact && minGames <= 1 ? FLAG_EXACT : 0) | (allPartial ? 0 : FLAG_MERGED) | (books.every((b) => countsGamesOnce(b.fields)) ? FLAG_GAMES_ONCE : 0),
      games,
      maxPly: first.fields.maxPly,
      minGames,
      learnedGames: books.reduce((n, b) => n + b.fields.learnedGames, 0),
      changes: 1,
      created: allPartial ? Math.min(...books.map((b) => b.fields.created)) : now,
      modified: allPartial ? Math.max(...books.map((b) => b.fields.modified)) : now,
      splits: splitBits(first.splits),
    };
    fields.flags &= ~FLAG_PARTIAL;
    // The shards of a build merge into the record a single build would have written: the
    // shards of one `--shard I/N` build each record all its inputs.
    const shardsOfOne = allPartial && books.every((b, i) => b.meta.shard === `${i}/${books.length}` && JSON.stringify(b.meta.inputs) === JSON.stringify(first.meta.inputs));
    const allInputs = shardsOfOne ? (first.meta.inputs as string[]) : books.flatMap((b) => (Array.isArray(b.meta.inputs) ? (b.meta.inputs as string[]) : []));
    const firstMeta = { ...first.meta };
    delete firstMeta.shard;
    delete firstMeta.inputSizes;
    // minGames as the merge applied it (the shards record their own --min-games, or none when
    // the cut is given to the merge), so that the record is the single build's too.
    const meta = allPartial
      ? { ...firstMeta, minGames, inputs: allInputs, runs: [{ at: fields.created, inputs: allInputs, games }] }
      : { tool: 'tabiya book merge', merged: books.map((b) => ({ name: opts.names?.[paths.indexOf(b.name)] ?? b.name, games: b.fields.games, meta: b.meta })), minGames };
    const notes = mergeNotes(books.map((b) => b.notes));
    const rows = withKeyProgress(new RunMerger(inputs), progress);
    const { summary, bytes } = writeBook(output, { rows, store, fields, meta, notes: notes.encode(), split: first.splits, minGames, work });
    return {
      output,
      inputs: paths,
      games,
      partials: books.filter((b) => b.partial).length,
      minGames,
      entries: summary.singles + summary.storedMoves,
      storedPositions: summary.stored,
      singlePositions: summary.singles,
      bytesWritten: bytes,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (e) {
    throw e instanceof ScratchError ? e.forOutput(output) : e;
  } finally {
    work.remove();
    for (const o of opened) o.file.close();
  }
}

/**
 * The books in the order to merge them: as given, except that the shards of one `--shard I/N`
 * build are put in shard order, and must all be there (a missing or repeated shard would give a
 * book that is not the single build's, without a word).
 */
function shardOrder(books: TbkBook[]): TbkBook[] {
  const tagged = books.map((b) => ({ b, m: typeof b.meta.shard === 'string' ? /^(\d+)\/(\d+)$/.exec(b.meta.shard) : null }));
  if (!tagged.every((t) => t.b.partial && t.m !== null)) {
    if (tagged.some((t) => t.m !== null) && tagged.some((t) => t.m === null)) throw new BookError('ERR_BOOK_MERGE', 'shards of a --shard build merge only with the other shards of that build');
    return books;
  }
  const n = Number(tagged[0]!.m![2]);
  const first = tagged[0]!;
  for (const t of tagged) {
    const other = Number(t.m![2]) !== n ? `it is one of ${t.m![2]} shards, ${first.b.name} one of ${n}` : buildDifference(t.b.meta, first.b.meta, first.b.name);
    if (other !== undefined) throw new BookError('ERR_BOOK_MERGE', `${t.b.name}: shard ${t.m![0]} of another build than ${first.b.name} (shard ${first.m![0]}): ${other}; build every shard with the same inputs and options`);
  }
  const byIndex = new Map<number, TbkBook>();
  for (const t of tagged) {
    const i = Number(t.m![1]);
    if (byIndex.has(i)) throw new BookError('ERR_BOOK_MERGE', `shard ${i}/${n} given twice: ${byIndex.get(i)!.name} and ${t.b.name}`);
    byIndex.set(i, t.b);
  }
  const missing = [...Array(n).keys()].filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new BookError('ERR_BOOK_MERGE', `shards ${missing.map((i) => `${i}/${n}`).join(', ')} are missing: a merge of some shards is not the book of the build`);
  return [...Array(n).keys()].map((i) => byIndex.get(i)!);
}

/**
 * What the shards of one build share, as recorded in their meta by `book make --shard`: a shard
 * built with other options (filters, max-ply, splits), or from an input that changed in between
 * (another size: a byte range cut at other places), would merge into a book no single build
 * writes, without a word.
 */
const BUILD_KEYS: readonly (readonly [string, string])[] = [
  ['inputs', 'inputs'],
  ['inputSizes', "inputs' sizes in bytes (an input changed between the shards' builds)"],
  ['maxPly', '--max-ply'],
  ['minGames', '--min-games'],
  ['filter', 'game filters'],
  ['split', '--split'],
];

/** How shard `meta` differs from the first shard's, in words, or undefined when they are of one build. */
function buildDifference(meta: Record<string, unknown>, first: Record<string, unknown>, firstName: string): string | undefined {
  for (const [key, what] of BUILD_KEYS) {
    const a = JSON.stringify(meta[key] ?? null);
    const b = JSON.stringify(first[key] ?? null);
    if (a !== b) return `its ${what}: ${a.length > 200 ? `${a.slice(0, 200)}…` : a}, ${firstName}'s: ${b.length > 200 ? `${b.slice(0, 200)}…` : b}`;
  }
  return undefined;
}

/** The rows of books to merge (each one's games numbered after the books before it) and their games, concatenated. */
/**
 * The merge inputs of books, their games in one store. Whole books are replayed for their single
 * positions first, the most of a merge's time: `onProgress` is told that as the first
 * REPLAY_SHARE of the work, and the returned `progress` maps the rows' merge onto the rest.
 */
async function mergeSources(
  books: readonly TbkBook[],
  memory: number,
  work: WorkDir,
  opts: Pick<TbkMergeOptions, 'onProgress' | 'threads' | 'replayThreadGames'>,
): Promise<{ store: GameStore; inputs: MergeInput[]; games: number; progress: TbkMergeOptions['onProgress'] }> {
  const onProgress = opts.onProgress;
  const store = new GameStore(work);
  const inputs: MergeInput[] = [];
  let games = 0;
  const replayed = books.filter((b) => !b.partial).reduce((n, b) => n + b.fields.games, 0);
  let before = 0;
  for (const b of books) {
    const base = before;
    const replay = onProgress && replayed > 0 ? (done: number, total: number) => onProgress((REPLAY_SHARE * (base + (done * b.fields.games) / Math.max(1, total))) / replayed, 0) : undefined;
    // A book's name is its path (openForRebuild): the replay's threads open it again.
    const threaded = !b.partial && (opts.threads ?? 1) >= 2;
    inputs.push(threaded ? { reader: new BookRows(b, (await singleRowsThreaded(b, b.name, memory, work, opts.threads!, replay, opts.replayThreadGames)).rows), gameOffset: store.count } : rowsOf(b, store.count, memory, work, replay));
    if (!b.partial) before += b.fields.games;
    store.appendBook(b);
    games += b.fields.games;
  }
  const progress = onProgress && replayed > 0 ? (share: number, rows: number) => onProgress(REPLAY_SHARE + (1 - REPLAY_SHARE) * share, rows) : onProgress;
  return { store, inputs, games, progress };
}

/**
 * The Polyglot `.bin` of books merged: what `book export` of their `.tbk` merge would write. For
 * the partial books of a sharded `.bin` build, byte for byte the `.bin` a single build writes.
 */
export async function mergeTbkToBin(paths: readonly string[], output: string, opts: TbkMergeOptions & MakeOptions = {}): Promise<{ games: number; kept: number; bytes: number; minGame: number }> {
  const opened = paths.map((p) => openForRebuild(p));
  const work = new WorkDir(opts.tmpDir);
  try {
    const books = shardOrder(opened.map((o) => o.book));
    // Shards built with --min-games N are the .bin a single `book make --min-games N -o X.bin`
    // writes; without one, make-book's default (3).
    const recorded = books.every((b) => b.partial) ? books[0]!.fields.minGames : 0;
    const minGame = opts.minGame ?? (recorded > 0 ? recorded : 3);
    const { store, inputs, games, progress } = await mergeSources(books, opts.memory ?? DEFAULT_MEMORY, work, opts);
    const { kept, bytes } = writeBinAtomic(output, (sink) => binFromRows(withKeyProgress(new RunMerger(inputs), progress), store.reader(`the games of ${paths.join(', ')}`), { ...opts, minGame }, work, sink));
    return { games, kept, bytes, minGame };
  } catch (e) {
    throw e instanceof ScratchError ? e.forOutput(output) : e;
  } finally {
    work.remove();
    for (const o of opened) o.file.close();
  }
}

/**
 * Rows passed through, reporting how far the merge is. The rows come in key order and Zobrist keys
 * are spread evenly over their range, so the share of the key space passed is the share of the
 * work done, with no count of the inputs' rows to make first.
 */
class KeyProgress implements RowSource {
  private rows = 0;

  constructor(
    private readonly inner: RowSource,
    private readonly report: (share: number, rows: number) => void,
  ) {}

  next(row: RunRow): boolean {
    if (!this.inner.next(row)) {
      this.report(1, this.rows);
      return false;
    }
    if ((++this.rows & 0xffff) === 0) this.report(row.keyHi / 0x1_0000_0000, this.rows);
    return true;
  }
}

export function withKeyProgress(rows: RowSource, report: ((share: number, rows: number) => void) | undefined): RowSource {
  return report === undefined ? rows : new KeyProgress(rows, report);
}

function describe(s: SplitKinds): string {
  const parts = (['rating', 'speed', 'month'] as const).filter((k) => s[k]);
  return parts.length === 0 ? 'nothing' : parts.join(',');
}

/** Notes of several books as one: user values, NAGs, comments and marks of the first book that has them; learning added. */
export function mergeNotes(all: readonly Notes[]): Notes {
  const out = new Notes();
  for (const notes of all) {
    for (const n of notes.all()) {
      const had = out.get(n.keyHi, n.keyLo, n.move);
      const m = out.edit(n.keyHi, n.keyLo, n.move, n.black);
      if (had === undefined) {
        Object.assign(m, { ...n, audit: n.audit });
        continue;
      }
      m.dynWins += n.dynWins;
      m.dynDraws += n.dynDraws;
      m.dynLosses += n.dynLosses;
      if (n.evalCount > 0) {
        m.evalCp = Math.round((m.evalCp * m.evalCount + n.evalCp * n.evalCount) / (m.evalCount + n.evalCount));
        m.evalCount = Math.min(0xffff, m.evalCount + n.evalCount);
      }
      m.postBook = m.postBook && n.postBook;
      if (m.userValue < 0) m.userValue = n.userValue;
      if (m.nag === 0) m.nag = n.nag;
      if (m.comment === '') m.comment = n.comment;
      m.forbidden ||= n.forbidden;
      m.audit ??= n.audit;
      if (m.learn === 0) m.learn = n.learn;
    }
  }
  return out;
}

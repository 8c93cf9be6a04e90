/**
 * `tabiya book export X.tbk -o X.bin [make-book's options]`: the Polyglot book of a rich book,
 * byte-identical to `polyglot make-book` on the same games when the book was counted in one
 * pass (see rich/export.ts); otherwise it says why it may differ, and --exact refuses. It takes
 * every option of `book make` that shapes a `.bin`, so that the same options give the same
 * bytes; --max-ply can only be the one the games were counted with (the games are not kept).
 */
import { openRichBook } from '../../book/node/richFile.js';
import { writeFileAtomic } from '../../book/node/atomicWrite.js';
import { runBookJob, type BookJobCallbacks } from '../../book/node/bookJob.js';
import { startProgress, type Progress } from '../../node/progress.js';
import { exportPolyglot } from '../../book/rich/export.js';
import { checkOutputs } from '../../node/outputs.js';
import { CliError, intOption, numberOption, sizeOption } from '../errors.js';
import { defaultThreads } from '../../book/node/makeBook.js';
import { replayThreadsNote } from './richMake.js';
import { report } from '../output.js';
import { bookErrors, splitFilterOf, tbkFileVersion } from './richCommon.js';
import { fastCrc32 } from '../../book/node/richFile.js';
import { FileReader } from '../../book/node/tbkFile.js';
import { exportFromGames, exportTbkToBin } from '../../book/node/tbkExport.js';
import { ScratchError } from '../../book/node/workDir.js';
import { TbkBook } from '../../book/rich/tbkBook.js';
import { exportKind } from '../../book/rich/format.js';
import { isOpenFilter, unanswerable, type SplitFilter } from '../../book/rich/splits.js';
import { TREE_OPTIONS, bookTreeCommand, type BookTreeOptions } from './bookTree.js';

/** The options of the whole-book export (make-book's), by their option names. */
const WHOLE_BOOK_OPTIONS: [string, string][] = [
  ['maxPly', '--max-ply'], ['minGames', '--min-games'], ['minScore', '--min-score'], ['colour', '--only-white/--only-black'], ['uniform', '--uniform'],
  ['userValues', '--user-values'], ['exact', '--exact'], ['ratings', '--ratings'], ['speeds', '--speeds'], ['since', '--since'], ['until', '--until'],
  ['memory', '--memory'], ['threads', '--threads'], ['tmpDir', '--tmp-dir'],
];

export interface RichExportCliOptions {
  output: string;
  maxPly?: string;
  minGames?: string;
  minScore?: string;
  colour?: 'white' | 'black';
  uniform?: boolean;
  userValues?: boolean;
  exact?: boolean;
  ratings?: string;
  speeds?: string;
  since?: string;
  until?: string;
  memory?: string;
  threads?: string;
  tmpDir?: string;
  json?: boolean;
  force?: boolean;
  quiet?: boolean;
}

export async function richExportCommand(file: string, opts: RichExportCliOptions & BookTreeOptions, given: (name: string) => boolean = () => true): Promise<void> {
  // A tree (docs/serve.md's export): a .pgn, or a .bin of the positions below one.
  if (/\.pgn$/i.test(opts.output) || TREE_OPTIONS.some((o) => given(o))) {
    const wholeBook = WHOLE_BOOK_OPTIONS.filter(([o]) => given(o)).map(([, flag]) => flag);
    if (wholeBook.length > 0) throw new CliError(`${wholeBook.join(', ')}: ${wholeBook.length === 1 ? 'shapes' : 'shape'} make-book's .bin of the whole book, not a tree export (-o X.pgn, or --fen, --moves, --depth, --side, --max-moves)`, 2);
    return bookTreeCommand(file, opts);
  }
  // A .bin under a .tbk name would then be refused by every .tbk command as "bad signature".
  if (opts.output.toLowerCase().endsWith('.tbk')) throw new CliError(`book export writes a Polyglot .bin book; ${opts.output} ends in .tbk`, 2);
  // Defaults are make-book's; only options the user gave can conflict with an imported book.
  const minGame = given('minGames') ? intOption('--min-games', opts.minGames, 0, 65535) : undefined;
  const maxPly = intOption('--max-ply', opts.maxPly, 1);
  const minScore = given('minScore') ? numberOption('--min-score', opts.minScore, 0, 100) : undefined;
  const memory = sizeOption('--memory', opts.memory);
  const threads = opts.threads === undefined ? 1 : opts.threads === 'auto' ? defaultThreads() : intOption('--threads', opts.threads, 1, 64)!;
  checkOutputs([{ path: opts.output, kind: 'polyglot' }], [file], { force: opts.force });
  const t0 = performance.now();
  const filter = splitFilterOf(opts);
  // On a worker thread (bookJob.ts), as book merge and learn: reading a big book, replaying its
  // games and writing the .bin is seconds to minutes of synchronous work, and on the main thread
  // a Ctrl-C waited for all of it, put the output in place and only then ended the run.
  const progress = exportProgress(opts.quiet === true);
  const plain: ExportJob['opts'] = { ...opts };
  delete (plain as RichExportCliOptions).json;
  delete (plain as RichExportCliOptions).quiet;
  const job: ExportJob = { file, output: opts.output, opts: plain, minGame, minScore, maxPly, memory, filter, threads };
  const r = await bookErrors(() => runBookJob({ kind: 'export', job }, progress)).finally(() => progress.stop());
  if (r.data !== undefined) await writeFileAtomic('-', r.data);
  const seconds = (performance.now() - t0) / 1000;
  const exact = r.notes.length === 0;
  if (!opts.json) for (const n of r.notes) process.stderr.write(`note: ${n}\n`);
  // Not among the notes: those say why the .bin may differ from make-book, and this one does not.
  if (!opts.json && r.replayThreads !== undefined && r.replayThreads < threads) process.stderr.write(`note: ${replayThreadsNote(r.replayThreads, threads)}\n`);
  const value = { input: file, output: opts.output, exact, kind: r.kind, notes: r.notes, entries: r.entries, bytes: r.bytes, maxPly: r.maxPly, ...(r.replayThreads === undefined ? {} : { replayThreads: r.replayThreads }), seconds };
  report(opts.json, value, summary, opts.output);
  function summary(): string {
    const same = exact && r.kind === 'exact' ? ` (= polyglot make-book${r.maxPly > 0 && r.maxPly !== 1024 ? ` -max-ply ${r.maxPly}` : ''} with these options on the same games)` : exact ? ' (the imported .bin, as it was)' : ' (approximate)';
    return `wrote ${opts.output}: ${r.entries} entries${same} in ${seconds.toFixed(2)} s`;
  }
}

/**
 * The export's progress: the games replayed (for the positions of single games, another
 * --max-ply or a split filter), then the .bin written, by key (tbkExport.ts).
 */
function exportProgress(quiet: boolean): Required<Pick<BookJobCallbacks, 'onProgress' | 'onFinishProgress'>> & { stop(): void } {
  let games: Progress | undefined;
  let writing: Progress | undefined;
  return {
    onProgress(done, total) {
      games ??= startProgress({ label: 'book export: replaying games', total, unit: 'games', quiet });
      games.update(done);
    },
    onFinishProgress(done, total, unit) {
      if (writing === undefined) {
        games?.stop();
        games = undefined;
        writing = startProgress({ label: 'book export: writing', total, unit: unit ?? '%', quiet });
      }
      writing.update(done);
    },
    stop() {
      games?.stop();
      writing?.stop();
      games = writing = undefined;
    },
  };
}

/** What the export's worker thread is given (plain data: it crosses by structured clone). */
export interface ExportJob {
  file: string;
  output: string;
  opts: Omit<RichExportCliOptions, 'json' | 'quiet'>;
  minGame: number | undefined;
  minScore: number | undefined;
  maxPly: number | undefined;
  memory: number | undefined;
  filter: SplitFilter;
  /** Threads that replay the book's games (--threads). */
  threads: number;
  /** Games a replay thread takes at least (tests lower it; default MIN_GAMES_A_THREAD). */
  replayThreadGames?: number;
}

export interface ExportJobResult {
  kind: string;
  notes: string[];
  entries: number;
  bytes: number;
  maxPly: number;
  /** Threads that replayed the book's games, when they were replayed (a .tbk version 2). */
  replayThreads?: number;
  /** The .bin for standard output (`-o -`), written by the main thread; a file is written by the job. */
  data?: Uint8Array;
}

/** The export itself, on the job's worker thread: the book read, the .bin made and written (errors are CliErrors and book errors, as on the main thread). */
export async function runExportJob(j: ExportJob, progress: { onGames(done: number, total: number): void; onKeys(share: number): void }): Promise<ExportJobResult> {
  const { file, opts, minGame, minScore, maxPly } = j;
  const write = async (parts: Uint8Array | Uint8Array[]): Promise<Uint8Array | undefined> => {
    const data = Array.isArray(parts) ? Buffer.concat(parts) : parts;
    if (j.output === '-') return data;
    await writeFileAtomic(j.output, data);
    return undefined;
  };
  if (tbkFileVersion(file) === 2) return exportV2(file, opts, { minGame, minScore, maxPly, filter: j.filter, memory: j.memory, threads: j.threads, replayThreadGames: j.replayThreadGames, write, ...progress });
  const { book, close } = openRichBook(file, { memoryLimit: Infinity, verify: true });
  try {
    if (maxPly !== undefined && Math.min(maxPly, 0xffff) !== book.header.maxPly) throw new CliError(maxPlyRefusal(file, book.header.maxPly, maxPly), 1);
    const out = exportPolyglot(book, { minGame, minScore, colour: opts.colour ?? 'both', uniform: opts.uniform === true, userValues: opts.userValues === true });
    if (opts.exact && out.notes.length > 0) throw new CliError(`${file}: cannot export exactly: ${out.notes.join('; ')}`, 1);
    const data = await write(out.bytes);
    return { kind: out.kind, notes: out.notes, entries: out.kept, bytes: out.bytes.length, maxPly: book.header.maxPly, data };
  } finally {
    close();
  }
}

/** Why an export cannot have another max-ply than the book's: the games are not in the book. */
function maxPlyRefusal(file: string, counted: number, asked: number): string {
  const how = counted === 0 ? 'was imported from a .bin, whose games are unknown' : `was counted with --max-ply ${counted}`;
  return `${file} ${how}: an export with --max-ply ${asked} needs the games again (tabiya book make GAMES -o X.bin --max-ply ${asked})`;
}

/** The export of a version 2 book: from its stored counts, or from its games (another max-ply, a split filter). */
async function exportV2(
  file: string,
  opts: ExportJob['opts'],
  o: {
    minGame: number | undefined;
    minScore: number | undefined;
    maxPly: number | undefined;
    filter: SplitFilter;
    memory: number | undefined;
    threads: number;
    replayThreadGames: number | undefined;
    write(parts: Uint8Array[]): Promise<Uint8Array | undefined>;
    onGames(done: number, total: number): void;
    onKeys(share: number): void;
  },
): Promise<ExportJobResult> {
  const reader = new FileReader(file);
  try {
    const r = TbkBook.open(reader, file, fastCrc32);
    if (!r.ok) throw r.error;
    const book = r.value;
    const v = book.verify(fastCrc32);
    if (!v.ok) throw v.error;
    if (book.partial) throw new CliError(`${file} is a partial book (one shard of a sharded build): merge the shards first (tabiya book merge part-*.tbk -o ${opts.output})`, 1);
    const kind = exportKind(book.fields);
    const notes: string[] = [];
    const replayed = { threads: 0 };
    const options = { minGame: o.minGame, minScore: o.minScore, colour: opts.colour ?? 'both', uniform: opts.uniform === true, userValues: opts.userValues === true, memory: o.memory, tmpDir: opts.tmpDir, onGames: o.onGames, onKeys: o.onKeys, threads: o.threads, replayThreadGames: o.replayThreadGames, replayed } as const;
    const maxPly = o.maxPly === undefined ? book.fields.maxPly : Math.min(o.maxPly, 0xffff);
    const fromGames = maxPly !== book.fields.maxPly || !isOpenFilter(o.filter);
    if (maxPly > book.fields.maxPly) throw new CliError(`${file} was counted with --max-ply ${book.fields.maxPly}: its games are kept to that ply, so an export can go up to it, not to ${maxPly}`, 1);
    if (fromGames && book.games === undefined) throw new CliError(maxPlyRefusal(file, book.fields.maxPly, maxPly), 1);
    if (!isOpenFilter(o.filter)) {
      const why = unanswerable(o.filter, book.splits);
      if (why !== undefined) throw new CliError(`${file}: ${why}`, 2);
    }
    if (kind === 'approximate') notes.push('the book was merged, added to with another max-ply, or cut by min-games: weights come from the counts and may differ from make-book where a position passed 16,384 games');
    if (opts.userValues) notes.push('--user-values: moves with a user value weigh their value (not make-book output)');
    if (opts.exact && notes.length > 0) throw new CliError(`${file}: cannot export exactly: ${notes.join('; ')}`, 1);
    const parts: Uint8Array[] = [];
    let size = 0;
    const sink = (b: Uint8Array): void => {
      parts.push(b.slice());
      size += b.length;
    };
    let entries: number;
    try {
      entries = fromGames ? await exportFromGames(book, { ...options, maxPly, filter: o.filter }, sink) : await exportTbkToBin(book, options, sink);
    } catch (e) {
      // Spilled runs that do not fit (a full --tmp-dir): named as book make names them, with
      // the output and the directory the user chose, not the removed build directory.
      throw e instanceof ScratchError ? e.forOutput(opts.output) : e;
    }
    const data = await o.write(parts);
    return { kind, notes, entries, bytes: size, maxPly, replayThreads: replayed.threads === 0 ? undefined : replayed.threads, data };
  } finally {
    reader.close();
  }
}

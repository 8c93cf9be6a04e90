/**
 * `tabiya book make PGN... -o BOOK.bin`: polyglot make-book, byte for byte, with what polyglot
 * lacks: broken games skipped and listed, [FEN] games replayed from their own position, game
 * filters, several inputs (.gz, stdin), a progress bar, a summary, worker threads, and an
 * output written to a temporary file and renamed.
 */
import { checkOutputs } from '../../node/outputs.js';
import { startProgress, formatRate, progressNote } from '../../node/progress.js';
import { defaultThreads, makeBook, type MakeBookSummary } from '../../book/node/makeBook.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { CliError, intOption, numberOption, sizeOption } from '../errors.js';
import { statSync } from 'node:fs';
import { expansionOf, expectedEntries } from '../../book/node/inputs.js';
import { DEFAULT_MEMORY, buildBinBounded } from '../../book/node/tbkBuild.js';
import { report } from '../output.js';
import { checkInputs, formatError } from './pgnCommon.js';
import { filterOptionsFromCli } from './pgnFilter.js';

export interface BookMakeCliOptions {
  output: string;
  memory?: string;
  tmpDir?: string;
  maxPly?: string;
  minGames?: string;
  minScore?: string;
  /** Set by --only-white / --only-black, the last one given wins (as in polyglot). */
  colour?: 'white' | 'black';
  uniform?: boolean;
  minElo?: string;
  player?: string[];
  white?: string[];
  black?: string[];
  result?: string[];
  fromStart?: boolean;
  dateFrom?: string;
  dateTo?: string;
  tag?: string[];
  threads?: string;
  errors?: string;
  quiet?: boolean;
  json?: boolean;
  force?: boolean;
}

export interface BookMakeRun {
  summary: MakeBookSummary;
  skipped: PgnGameError[];
}

/** Runs make-book from command-line options (also used by `tabiya demo`). */
export async function runBookMake(files: string[], opts: BookMakeCliOptions, label = 'book make'): Promise<BookMakeRun> {
  checkInputs(files);
  checkOutputs([{ path: opts.output, kind: 'polyglot' }], files, { force: opts.force });
  const threads = opts.threads === undefined ? 1 : opts.threads === 'auto' ? defaultThreads() : intOption('--threads', opts.threads, 1, 64)!;
  const listed = intOption('--errors', opts.errors ?? '20', 0)!;
  let filter;
  try {
    filter = filterOptionsFromCli(opts);
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(e.message, 2);
    throw e;
  }
  const hasFilter = Object.values(filter).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
  let bar: ReturnType<typeof startProgress> | undefined;
  const skipped: PgnGameError[] = [];
  let errors = 0;
  const onSkip = (e: PgnGameError): void => {
    errors++;
    if (skipped.length < 1000) skipped.push(e);
    // Above the bar, which goes on (a bar started again measured its rate from the restart).
    if (errors <= listed && !opts.quiet && !opts.json) progressNote(`skipped: ${formatError(e)}`);
  };
  // The line for the broken games not listed, after either builder (the bounded one, the default
  // for large and piped inputs, left it out).
  const moreSkipped = (): void => {
    if (errors > listed && !opts.quiet && !opts.json) process.stderr.write(`skipped ${errors - listed} more broken games (--errors N lists more)\n`);
  };
  const memory = sizeOption('--memory', opts.memory);
  try {
    const common = {
      inputs: files,
      maxPly: intOption('--max-ply', opts.maxPly ?? '1024', 1),
      minGame: intOption('--min-games', opts.minGames ?? '3', 0, 65535),
      minScore: numberOption('--min-score', opts.minScore ?? '0', 0, 100),
      colour: opts.colour ?? 'both',
      uniform: opts.uniform === true,
      filter: hasFilter ? filter : undefined,
    } as const;
    if (boundedBuild(files, common.maxPly ?? 1024, memory)) {
      // Counting in runs within --memory (or when the input's size is unknown or too large for
      // the in-memory builder): the same bytes, the PGN parsed by --threads workers.
      const t0 = performance.now();
      const r = await buildBinBounded(opts.output, {
        ...common,
        memory,
        tmpDir: opts.tmpDir,
        threads,
        onProgress(done, total, games) {
          bar ??= startProgress({ label, total, unit: 'B', quiet: opts.quiet || opts.output === '-' });
          bar.update(done, `${games} games`);
        },
        onError: onSkip,
      });
      bar?.stop();
      moreSkipped();
      const summary: MakeBookSummary = {
        output: opts.output,
        inputs: files,
        gamesRead: r.counted.games,
        gamesSkipped: r.counted.errors,
        gamesFiltered: r.counted.rejected,
        gamesUsed: r.games,
        positions: r.positions,
        uniqueEntries: r.unique,
        duplicates: r.positions - r.unique,
        entriesKept: r.kept,
        bytesWritten: r.bytes,
        threads,
        seconds: (performance.now() - t0) / 1000,
      };
      return { summary, skipped };
    }
    const summary = await makeBook({
      inputs: files,
      output: opts.output,
      maxPly: intOption('--max-ply', opts.maxPly ?? '1024', 1),
      minGame: intOption('--min-games', opts.minGames ?? '3', 0, 65535),
      minScore: numberOption('--min-score', opts.minScore ?? '0', 0, 100),
      colour: opts.colour ?? 'both',
      uniform: opts.uniform === true,
      threads,
      filter: hasFilter ? filter : undefined,
      onProgress(done, total, games) {
        bar ??= startProgress({ label, total, unit: 'B', quiet: opts.quiet || opts.output === '-' });
        bar.update(done, `${games} games`);
      },
      onError: onSkip,
    });
    bar?.stop();
    moreSkipped();
    return { summary, skipped };
  } catch (e) {
    bar?.stop();
    throw e instanceof Error && 'code' in e ? new CliError((e as Error).message, 1) : e;
  }
}

/**
 * Whether a `.bin` build counts in runs within a memory budget: when --memory is given, when an
 * input's size is unknown (standard input), or when the in-memory builder's table (about 40
 * bytes a distinct move, estimated from the inputs' size) would pass the default budget.
 */
function boundedBuild(files: readonly string[], maxPly: number, memory: number | undefined): boolean {
  if (memory !== undefined) return true;
  if (files.includes('-')) return true;
  const entries = expectedEntries(files.map((f) => ({ source: { name: f, size: statSync(f).size, chunks: [] }, expansion: expansionOf(f), failure: undefined })), maxPly);
  return entries * 40 > DEFAULT_MEMORY;
}

export async function bookMakeCommand(files: string[], opts: BookMakeCliOptions): Promise<void> {
  const { summary: s, skipped } = await runBookMake(files, opts);
  if (s.entriesKept === 0) process.stderr.write(`note: ${emptyBookNote(s.output, s.gamesUsed, s.positions, binThresholds(opts))}\n`);
  const value = { ...s, skippedGames: skipped.slice(0, 100) };
  // With the book on stdout, the summary goes to stderr.
  report(opts.json, value, () => formatSummary(s), opts.output);
}

/**
 * The make-book thresholds a move of a .bin had to pass, as given: naming --min-score or a
 * colour the user did not give sent them looking for options they never used. make-book also
 * drops a move whose side lost every game with it (weight 0, polyglot.md §2.5), whatever the
 * options, which can empty a book of few games by itself.
 */
function binThresholds(opts: BookMakeCliOptions): string {
  const given = [`--min-games ${opts.minGames ?? 3}`];
  if (opts.minScore !== undefined && Number(opts.minScore) > 0) given.push(`--min-score ${opts.minScore}`);
  if (opts.colour !== undefined) given.push(`--only-${opts.colour}`);
  const last = given.pop()!;
  return `${given.length > 0 ? `${given.join(', ')} and ` : ''}${last}, with a draw or a win for the side that played it`;
}

/**
 * Why a book from games that were read holds no move: a valid empty book is the truthful
 * result, but a script should hear about it.
 */
export function emptyBookNote(output: string, gamesUsed: number, positions: number, thresholds: string): string {
  if (gamesUsed === 0) return `${output} is empty: no game passed the game filters`;
  // Games without a move (Lichess's abandoned games, a file of headers): no threshold is to blame.
  if (positions === 0) return `${output} is empty: ${gamesUsed === 1 ? 'the game used has' : `the ${gamesUsed} games used have`} no moves`;
  return `${output} is empty: no move of ${gamesUsed === 1 ? 'the one game' : `the ${gamesUsed} games`} passed ${thresholds}`;
}

/** The summary, in the spirit of GNU Chess's book report. */
export function formatSummary(s: MakeBookSummary): string {
  const filtered = Object.entries(s.gamesFiltered).filter(([, n]) => n > 0);
  const gps = (s.gamesRead + s.gamesSkipped) / Math.max(s.seconds, 1e-6);
  const lines = [
    `games read        ${s.gamesRead}${s.gamesSkipped > 0 ? `, ${s.gamesSkipped} broken and skipped` : ''}`,
  ];
  if (filtered.length > 0) lines.push(`games filtered    ${filtered.map(([k, n]) => `${n} (${k})`).join(', ')}; ${s.gamesUsed} used`);
  lines.push(
    `positions scanned ${s.positions}`,
    `unique entries    ${s.uniqueEntries} (${s.duplicates} duplicates)`,
    `entries kept      ${s.entriesKept}`,
    `wrote ${s.output}: ${s.bytesWritten} bytes in ${s.seconds.toFixed(2)} s (${formatRate(gps)} games/s${s.threads > 1 ? `, ${s.threads} threads` : ''})`,
  );
  return lines.join('\n');
}

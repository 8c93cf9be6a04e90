/**
 * What the `.tbk` commands share: book errors as CLI errors, progress over PGN inputs, the list
 * of skipped games, and the filter options of `book make`.
 */
import { withBookLock } from '../../book/node/richFile.js';
import { tbkFileVersion, type AnyRichBook } from '../../book/node/openTbk.js';
import { isOpenFilter, parseBands, parseMonth, parseSpeeds, unanswerable, type SplitFilter } from '../../book/rich/splits.js';
export { openAnyRichBook, tbkFileVersion } from '../../book/node/openTbk.js';
import { upgradeV1 } from '../../book/node/tbkUpgrade.js';
import { progressNote, startProgress } from '../../node/progress.js';
import type { PgnFilterOptions } from '../../pgn/filter.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { CliError, intOption } from '../errors.js';
import { formatError } from './pgnCommon.js';
import { filterOptionsFromCli } from './pgnFilter.js';

/**
 * Runs `fn`, turning coded errors (BookError, ParseError) into CLI errors with exit code 1. A
 * CliError thrown on a job's worker thread (bookJob.ts) arrives as a plain Error with its name
 * and exit code: it is made a CliError again, so its message and code reach the user as such.
 */
export async function bookErrors<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof Error && !(e instanceof CliError) && e.name === 'CliError') {
      const code = (e as { exitCode?: unknown }).exitCode;
      throw new CliError(e.message, typeof code === 'number' ? code : 1);
    }
    throw e instanceof Error && 'code' in e && !(e instanceof CliError) ? new CliError(e.message, 1) : e;
  }
}

/** Progress over input bytes, and the broken games: the first `listed` printed, up to 100 kept. */
export class PgnJob {
  readonly skipped: PgnGameError[] = [];
  errors = 0;
  private bar: ReturnType<typeof startProgress> | undefined;
  private finishing: ReturnType<typeof startProgress> | undefined;
  private readonly listed: number;

  constructor(
    private readonly label: string,
    private readonly opts: { quiet?: boolean; json?: boolean; errors?: string },
  ) {
    this.listed = intOption('--errors', opts.errors ?? '20', 0)!;
  }

  readonly onProgress = (done: number, total: number, games: number): void => {
    this.bar ??= startProgress({ label: this.label, total, unit: 'B', quiet: this.opts.quiet });
    this.bar.update(done, `${games} games`);
  };

  /** The finishing phase of a build (runs merged, book written): a bar of its own. */
  readonly onFinishProgress = (done: number, total: number, unit = 'plies'): void => {
    if (this.finishing === undefined) {
      this.bar?.stop();
      this.bar = undefined;
      this.finishing = startProgress({ label: `${this.label}: writing`, total, unit, quiet: this.opts.quiet });
    }
    this.finishing.update(done);
  };

  readonly onError = (e: PgnGameError): void => {
    this.errors++;
    if (this.skipped.length < 100) this.skipped.push(e);
    // Above the bar, which goes on (a bar started again measured its rate from the restart).
    if (this.errors <= this.listed && !this.opts.quiet && !this.opts.json) progressNote(`skipped: ${formatError(e)}`);
  };

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
    this.finishing?.stop();
    this.finishing = undefined;
    if (this.errors > this.listed && !this.opts.quiet && !this.opts.json) process.stderr.write(`skipped ${this.errors - this.listed} more broken games (--errors N lists more)\n`);
  }
}

/** The game filters of `book make`, or undefined when none is given. */
export function filtersOf(opts: Parameters<typeof filterOptionsFromCli>[0]): PgnFilterOptions | undefined {
  let filter: PgnFilterOptions;
  try {
    filter = filterOptionsFromCli(opts);
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(e.message, 2);
    throw e;
  }
  const has = Object.values(filter).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
  return has ? filter : undefined;
}

/** Percentages with one decimal. */
export function pct(part: number, whole: number): number {
  return whole > 0 ? Math.round((1000 * part) / whole) / 10 : 0;
}

/** Commands that read Polyglot books only, given a .tbk: say how to get a .bin. */
export function polyglotOnly(file: string, command: string): never {
  throw new CliError(`${file}: ${command} reads Polyglot books; write one with: tabiya book export ${file} -o ${file.replace(/\.tbk$/i, '')}.bin`, 2);
}

/**
 * Before a change: a version 1 book is first upgraded in place to version 2 (nothing is lost;
 * tbkUpgrade.ts), which is what every change writes. Returns the note that says so, if any.
 */
export function upgradeIfV1(path: string): string[] {
  if (tbkFileVersion(path) !== 1) return [];
  withBookLock(path, () => upgradeV1(path, path));
  return [`${path} was a version 1 book: upgraded to version 2 (all its statistics, user values and learning kept; tabiya before 0.2 cannot read it)`];
}


/** The query-time filters of `book probe` and `book export` (--ratings, --speeds, --since, --until). */
export function splitFilterOf(opts: { ratings?: string; speeds?: string; since?: string; until?: string }): SplitFilter {
  try {
    const f: SplitFilter = {};
    if (opts.ratings !== undefined) f.bands = parseBands(opts.ratings);
    if (opts.speeds !== undefined) f.speeds = parseSpeeds(opts.speeds);
    if (opts.since !== undefined) {
      const m = parseMonth(opts.since, 'since');
      if (m === undefined) throw new RangeError(`--since: "${opts.since}" is not YYYY-MM or YYYY`);
      f.since = m;
    }
    if (opts.until !== undefined) {
      const m = parseMonth(opts.until, 'until');
      if (m === undefined) throw new RangeError(`--until: "${opts.until}" is not YYYY-MM or YYYY`);
      f.until = m;
    }
    if (f.since !== undefined && f.until !== undefined && f.since > f.until) throw new RangeError(`--since ${opts.since} is after --until ${opts.until}`);
    return f;
  } catch (e) {
    throw new CliError((e as Error).message, 2);
  }
}

/** Refuses a filter the book cannot answer (exit 2, naming the book). */
export function checkFilterFits(path: string, book: AnyRichBook, filter: SplitFilter): void {
  if (isOpenFilter(filter)) return;
  if (book.version === 1) throw new CliError(`${path}: a version 1 book keeps no splits (rebuild it with book make --split ...)`, 2);
  const why = unanswerable(filter, book.v2!.splits);
  if (why !== undefined) throw new CliError(`${path}: ${why}`, 2);
}

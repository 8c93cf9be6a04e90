/**
 * What the `.tbk` commands share: book errors as CLI errors, progress over PGN inputs, the list
 * of skipped games, and the filter options of `book make`.
 */
import { startProgress } from '../../node/progress.js';
import type { PgnFilterOptions } from '../../pgn/filter.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { CliError, intOption } from '../errors.js';
import { formatError } from './pgnCommon.js';
import { filterOptionsFromCli } from './pgnFilter.js';

/** Runs `fn`, turning coded errors (BookError, ParseError) into CLI errors with exit code 1. */
export async function bookErrors<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw e instanceof Error && 'code' in e && !(e instanceof CliError) ? new CliError(e.message, 1) : e;
  }
}

/** Progress over input bytes, and the broken games: the first `listed` printed, up to 100 kept. */
export class PgnJob {
  readonly skipped: PgnGameError[] = [];
  errors = 0;
  private bar: ReturnType<typeof startProgress> | undefined;
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

  readonly onError = (e: PgnGameError): void => {
    this.errors++;
    if (this.skipped.length < 100) this.skipped.push(e);
    if (this.errors <= this.listed && !this.opts.quiet && !this.opts.json) {
      this.bar?.stop();
      this.bar = undefined;
      process.stderr.write(`skipped: ${formatError(e)}\n`);
    }
  };

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
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

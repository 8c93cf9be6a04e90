/**
 * `tabiya pgn filter FILE... -o OUT`: copies the games that pass tag and main-line conditions,
 * byte for byte as they stand in the input (comments, variations and spelling kept). Broken
 * games are dropped and listed.
 */
import { PgnFilter, dateBoundError, parseDateBound, parseTagCondition, type PgnFilterOptions } from '../../pgn/filter.js';
import { filterVisitor } from '../../pgn/filter.js';
import { positionFromFen } from '../../notation/fen.js';
import { readPgn } from '../../pgn/reader.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { CliError, intOption } from '../errors.js';
import { checkOutputs } from '../../node/outputs.js';
import { report } from '../output.js';
import { ErrorLister, OutputFile, checkInputs, checkRead, progressOf } from './pgnCommon.js';

export interface PgnFilterCliOptions {
  output: string;
  errors?: string;
  minElo?: string;
  player?: string[];
  white?: string[];
  black?: string[];
  result?: string[];
  fromStart?: boolean;
  minPlies?: string;
  maxPlies?: string;
  dateFrom?: string;
  dateTo?: string;
  tag?: string[];
  position?: string[];
  dedupe?: boolean;
  json?: boolean;
  quiet?: boolean;
  force?: boolean;
}

const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];
/** Broken games listed in --json (all are counted). */
const MAX_LISTED = 1000;

/** The filter options of the command line (shared with `tabiya book make`). */
export function filterOptionsFromCli(opts: Omit<PgnFilterCliOptions, 'output'>): PgnFilterOptions {
  for (const r of opts.result ?? []) if (!RESULTS.includes(r)) throw new CliError(`--result: "${r}" is not one of ${RESULTS.join(' ')}`, 2);
  const tags = (opts.tag ?? []).map((t) => {
    const c = parseTagCondition(t);
    if (c === undefined) throw new CliError(`--tag: "${t}" is not Name=value`, 2);
    return c;
  });
  for (const [name, value] of [['--date-from', opts.dateFrom], ['--date-to', opts.dateTo]] as const) {
    const bad = value === undefined ? undefined : dateBoundError(value);
    if (bad !== undefined) throw new CliError(`${name}: ${bad}`, 2);
  }
  if (opts.dateFrom !== undefined && opts.dateTo !== undefined && parseDateBound(opts.dateFrom, '00')! > parseDateBound(opts.dateTo, '99')!) {
    throw new CliError(`--date-from ${opts.dateFrom} is after --date-to ${opts.dateTo}: no game could pass`, 2);
  }
  for (const fen of opts.position ?? []) {
    const r = positionFromFen(fen);
    if (!r.ok) throw new CliError(`--position: "${fen}" is not a FEN: ${r.error.message}`, 2);
  }
  const minPlies = intOption('--min-plies', opts.minPlies, 0);
  const maxPlies = intOption('--max-plies', opts.maxPlies, 0);
  if (minPlies !== undefined && maxPlies !== undefined && minPlies > maxPlies) throw new CliError(`--min-plies ${minPlies} is above --max-plies ${maxPlies}: no game could pass`, 2);
  return {
    minElo: intOption('--min-elo', opts.minElo, 0, 5000),
    players: opts.player,
    whites: opts.white,
    blacks: opts.black,
    results: opts.result,
    fromStart: opts.fromStart,
    minPlies,
    maxPlies,
    dateFrom: opts.dateFrom,
    dateTo: opts.dateTo,
    tags,
    positions: opts.position,
    dedupe: opts.dedupe,
  };
}

export async function pgnFilterCommand(files: string[], opts: PgnFilterCliOptions): Promise<void> {
  checkInputs(files);
  checkOutputs([{ path: opts.output, kind: 'pgn' }], files, { force: opts.force });
  let filter: PgnFilter;
  try {
    filter = new PgnFilter(filterOptionsFromCli(opts));
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(e.message, 2);
    throw e;
  }
  const out = new OutputFile(opts.output);
  const errors: PgnGameError[] = [];
  const progress = progressOf('pgn filter', opts.quiet);
  const lister = new ErrorLister('skipped', opts.errors, !opts.quiet && !opts.json);
  let written = 0;
  let eol = '\n';
  try {
    const summary = await readPgn(
      files,
      filterVisitor(filter, {
        gameText(bytes) {
          out.write(bytes.slice());
          eol = lineEnding(bytes, eol);
          out.write(eol + eol);
          written++;
        },
        // The reader goes on past a null move only for a visitor that takes them, so the moves
        // after one are checked too and a game broken there is dropped, not copied.
        nullMove() {},
        error(e) {
          if (errors.length < MAX_LISTED) errors.push(e);
          lister.add(e);
        },
      }),
      { onProgress: progress.onProgress },
    );
    progress.stop();
    lister.end();
    checkRead(summary, opts.output);
    out.close();
    report(
      opts.json,
      { games: summary.games, errors: summary.errors, written, rejected: filter.rejected, output: opts.output, seconds: summary.seconds, brokenGames: errors },
      () => {
        const why = Object.entries(filter.rejected).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
        return (
          `${written} of ${summary.games} valid games written to ${opts.output}` +
          (why.length > 0 ? `; rejected: ${why.join(', ')}` : '') +
          (summary.errors > 0 ? `; ${summary.errors} broken games skipped` : '')
        );
      },
      opts.output,
    );
  } catch (e) {
    progress.stop();
    out.abort();
    throw e;
  }
}

/**
 * The line end of a game's text (its first one), so that the blank line after it matches the
 * game's own: LF, CRLF, or a lone CR (old Mac files, which the reader takes as line ends too).
 * A game on one line has none; it takes `previous`, the convention of the games before it.
 */
function lineEnding(bytes: Uint8Array, previous = '\n'): string {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10) return '\n';
    if (bytes[i] === 13) return bytes[i + 1] === 10 ? '\r\n' : '\r';
  }
  return previous;
}

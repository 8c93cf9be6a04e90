/**
 * The opening suite of `--openings file= format= order= plies= start= policy=` (docs/match.md),
 * read and checked for `tabiya match` and the tuners that play games (`tune spsa`): EPD, PGN (the
 * first `plies` of each game) or a Polyglot book (random lines of `plies` plies). A file that
 * cannot be read, or holds no usable opening, is refused before any engine starts; unusable
 * records are skipped with a warning naming file and line.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { PolyglotReader } from '../../book/polyglot/reader.js';
import { unwrap } from '../../core/result.js';
import { BookOpenings, OpeningList, parseEpdOpenings, parsePgnOpenings, type OpeningSource } from '../../match/openings.js';
import { readInputFile } from '../../node/matchFiles.js';
import { notText } from '../../node/textFile.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { CliError } from '../errors.js';

/**
 * The format of an opening suite without format=, told by its name: .bin is a Polyglot book,
 * .epd an EPD suite, compressed or not (.epd.gz, .epd.zst, .epd.bz2: docs/match.md), else PGN.
 */
export function openingsFormat(file: string): 'polyglot' | 'epd' | 'pgn' {
  return /\.bin$/i.test(file) ? 'polyglot' : /\.epd(\.(gz|zst|bz2))?$/i.test(file) ? 'epd' : 'pgn';
}

/** Reads the suite `o` describes; `command` names the command in error messages. */
export function loadOpenings(o: ReadonlyMap<string, string>, seed: number, warn: (m: string) => void, command: string): OpeningSource {
  function fail(message: string): never {
    throw new CliError(`${command}: ${message}`, 2);
  }
  // A file that holds bad data: exit 1, where a bad option is a usage error (2).
  function badData(message: string): never {
    throw new CliError(`${command}: ${message}`, 1);
  }
  const num = (key: string, dflt: number, min: number): number => {
    const v = o.get(key);
    if (v === undefined) return dflt;
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n)) fail(`--openings: ${key}=${v} is not a whole number`);
    if (n < min) fail(`--openings: ${key}=${v} is below ${min}`);
    return n;
  };
  const file = o.get('file');
  if (!file) fail('--openings: file= is required');
  if (!existsSync(file)) badData(`--openings: ${file}: no such file`);
  const format = o.get('format') ?? openingsFormat(file);
  const order = o.get('order') ?? 'sequential';
  if (order !== 'sequential' && order !== 'random') fail(`--openings: order=${order} is not sequential or random`);
  const start = num('start', 1, 1);
  const pliesText = o.get('plies');
  const plies = pliesText === undefined ? undefined : num('plies', 0, format === 'polyglot' ? 1 : 0);
  const policy = o.get('policy') ?? 'default';
  if (policy !== 'default' && policy !== 'encounter' && policy !== 'round') fail(`--openings: policy=${policy} is not default, encounter or round`);
  if (format !== 'epd' && format !== 'pgn' && format !== 'polyglot') fail(`--openings: format=${format} is not epd, pgn or polyglot`);
  if (statSync(file).isDirectory()) badData(`--openings: ${file} is a directory`);
  if (format === 'polyglot') {
    const book = PolyglotReader.from(readFileSync(file), file);
    if (!book.ok) badData(`--openings: ${book.error.message}`);
    for (const w of book.value.warnings) warn(w);
    // Lines are walked from the start position: a book without it would give every game no opening at all.
    if (book.value.moves(unwrap(positionFromFen(STARTING_FEN))).length === 0) badData(`--openings: ${file} has no move for the start position, so it gives no opening line`);
    return new BookOpenings(book.value, plies ?? 16, seed);
  }
  const what = format === 'epd' ? 'EPD text' : 'PGN text';
  let bytes: Buffer;
  try {
    // Its messages start with the file's name and say what is wrong (damaged, cut, unreadable).
    bytes = readInputFile(file);
  } catch (e) {
    badData(`--openings: ${(e as Error).message}`);
  }
  const bad = notText(bytes, what);
  if (bad) badData(`--openings: ${file}:${bad.line}: ${bad.message}`);
  const { openings, errors, shortened } = format === 'epd' ? { ...parseEpdOpenings(bytes.toString('utf8'), file), shortened: [] } : parsePgnOpenings(bytes, file, plies);
  for (const e of errors.slice(0, 5)) warn(`${e.file}:${e.line}: ${e.message} (skipped)`);
  if (errors.length > 5) warn(`${file}: ${errors.length} unusable records skipped in all`);
  // Used up to the null move, but said: the line played is shorter than the one written.
  for (const e of shortened.slice(0, 5)) warn(`${e.file}:${e.line}: ${e.message} (the moves after it are not played)`);
  if (shortened.length > 5) warn(`${file}: ${shortened.length} openings ended early by a null move in all`);
  if (openings.length === 0) badData(`--openings: ${file} holds no usable opening${errors.length > 0 ? ` (${errors.length} unusable records)` : ' (it is empty)'}`);
  return new OpeningList(openings, { order, start, seed });
}

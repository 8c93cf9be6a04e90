/**
 * The PGN inputs of make-book: opened up front (a missing file stops the run before any work),
 * with read failures recorded instead of thrown mid-stream, and a size hint for the accumulator.
 */
import type { Compression } from '../../pgn/compression.js';
import { fileCompression, openPgnFile, type PgnSource } from '../../pgn/nodeSource.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { BookError } from '../polyglot/select.js';
import { ioReason } from './atomicWrite.js';

export interface Input {
  source: PgnSource;
  /** About how many bytes of PGN each byte of the file holds (1 for plain PGN). */
  expansion: number;
  /** Set when reading the file failed (missing, unreadable, damaged compression). */
  failure: string | undefined;
  /** An empty byte range of a sharded build (book make --shard): no game is expected in it. */
  emptyShard?: boolean;
  /** Turns a broken game's place within this input into its place in the file (a shard's byte range). */
  locate?(e: PgnGameError): PgnGameError;
}

/** Opens a PGN input; read errors are recorded (and end that input) instead of thrown mid-run. */
export function openInput(path: string): Input {
  let source: PgnSource;
  try {
    source = openPgnFile(path);
  } catch (e) {
    throw new BookError('ERR_BOOK_INPUT', `${path}: cannot read: ${ioReason(e)}`);
  }
  return inputOf(source, expansionOf(path));
}

/** A PGN source as an input (read errors recorded, as openInput does); `expansion`: how much larger its text is than its bytes. */
export function inputOf(source: PgnSource, expansion: number): Input {
  const input: Input = { source, failure: undefined, expansion };
  const inner = source.chunks;
  source.chunks = (async function* () {
    try {
      for await (const c of inner) yield c;
    } catch (e) {
      input.failure = (e as Error).message;
    }
  })();
  return input;
}

/**
 * PGN compresses about 3.3 times with gzip (the 389k master games: 272 MB in 83 MB of .gz), a
 * little better with zstd at its default level, and about 7 times in the Lichess dumps.
 */
const EXPANSION: Record<Compression, number> = { gzip: 3.3, zstd: 3.3, bzip2: 4 };

export function expansionOf(path: string): number {
  if (path === '-') return 1;
  try {
    const compression = fileCompression(path);
    return compression === undefined ? 1 : EXPANSION[compression];
  } catch {
    return 1;
  }
}

export interface Counts {
  games: number;
  errors: number;
  used: number;
  rejected: Record<string, number>;
}

export interface Built {
  counts: Counts;
  bytes: Uint8Array;
  kept: number;
  size: number;
  added: number;
}

/**
 * A guess at the distinct (position, move) pairs the inputs will give, so the accumulator's
 * table is sized once instead of doubling (and rehashing) its way up. Master games run about
 * 8.3 bytes of PGN per move and 710 per game, and about 3 in 4 moves of whole games are new
 * pairs; the guess stays on the low side, since a table too large only costs memory.
 */
export function expectedEntries(inputs: Input[], maxPly: number): number {
  let bytes = 0;
  for (const i of inputs) bytes += (i.source.size ?? 0) * i.expansion;
  const moves = Math.min(bytes / 8.3, (bytes / 710) * maxPly);
  const fresh = maxPly >= 60 ? 0.75 : maxPly >= 30 ? 0.4 : 0.15;
  return Math.max(1 << 14, Math.floor(moves * fresh));
}

/** Games read from one input, broken games, and the first broken one. */
export interface InputCount {
  games: number;
  errors: number;
  first?: PgnGameError;
}

/** What the builders count per input: a counter per file, and the error hook that feeds it. */
export function countPerInput(inputs: Input[], onError?: (e: PgnGameError) => void): { perFile: Map<string, InputCount>; onError: (e: PgnGameError) => void } {
  const perFile = new Map<string, InputCount>();
  const located = new Map<string, (e: PgnGameError) => PgnGameError>();
  for (const s of inputs) {
    perFile.set(s.source.name, { games: 0, errors: 0 });
    if (s.locate !== undefined) located.set(s.source.name, s.locate);
  }
  return {
    perFile,
    onError(raw) {
      const f = perFile.get(raw.file);
      const e = located.get(raw.file)?.(raw) ?? raw;
      if (f !== undefined) {
        f.errors++;
        f.first ??= e;
      }
      onError?.(e);
    },
  };
}

/**
 * Fails, naming the file, when an input could not be read or gave no game at all: empty, only
 * comments, or only broken games. A book built from nothing would be a valid empty file that
 * hides the mistake (a wrong path, an empty download), so nothing is written.
 */
export function checkEachInput(inputs: Input[], perFile: Map<string, InputCount>): void {
  for (const s of inputs) {
    const name = s.source.name;
    if (s.failure !== undefined) throw new BookError('ERR_BOOK_INPUT', `${name}: cannot read: ${s.failure}`);
    const f = perFile.get(name)!;
    if (f.games === 0 && s.emptyShard !== true) throw noGameError(name, f.first);
  }
}

/** The error for an input without a game: its first broken game, or that it holds none. */
export function noGameError(name: string, first: PgnGameError | undefined): BookError {
  if (first !== undefined) return new BookError('ERR_BOOK_INPUT', `${first.file}: no readable game (first error at line ${first.line}, column ${first.column}: ${first.message})`);
  return new BookError('ERR_BOOK_INPUT', `${name}: no game in it (the input is empty or holds only comments)`);
}

/**
 * The parsing of one chunk of PGN on a worker thread (tbkParseWorker.ts, tbkRangeWorker.ts):
 * into what a version 2 book takes from it — the game records and move codes (games.ts) and the
 * log of counted plies (plyLog.ts) — numbered from 0 within the chunk; the main thread
 * renumbers them in chunk order, so the book is the single-threaded one byte for byte.
 * The plies are logged in shared memory and the input is a shared buffer: they cross threads
 * by reference, never transferred (book/sharedBuffers.ts).
 */
import { PgnFilter, filterVisitor, type PgnFilterOptions } from '../../pgn/filter.js';
import { PgnParser } from '../../pgn/parser.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { LastGame } from '../polyglot/partition.js';
import { BookBuilder } from '../rich/builder.js';
import { Bytes } from '../rich/games.js';
import { PlyLog } from '../rich/plyLog.js';
import type { SplitKinds } from '../rich/splits.js';

export interface ParseSetup {
  maxPly: number;
  split: SplitKinds;
  filter?: PgnFilterOptions;
}

export interface ParseRequest {
  id: number;
  file: string;
  bytes: Uint8Array;
}

export interface ParsedGames {
  id: number;
  /** The chunk's plies: PlyLog records (6 words each), games numbered from 0. */
  plies: Int32Array;
  /** Game records (codes offsets from 0) and move codes. */
  records: Uint8Array;
  codes: Uint8Array;
  fens: [number, string][];
  /** Games read, games counted (after filters), plies counted. */
  parsed: number;
  games: number;
  positions: number;
  errors: PgnGameError[];
  /** The parser's number of the last game begun (error game numbers continue across chunks). */
  lastGame: number;
  /** Line breaks in the chunk, as the scanner counts them (error lines are numbered from 1 in each chunk). */
  lines: number;
  rejected: Record<string, number>;
  input: Uint8Array;
}

/** Records a chunk's log needs: a ply costs at least two bytes of movetext ("e4 "), so the log never fills. */
export function chunkLogSize(bytes: number): number {
  return Math.max(1024, bytes >>> 1);
}

/**
 * Parses one chunk (whole games) into games and plies. With `into` (an empty log of at least
 * chunkLogSize records, kept by the caller from chunk to chunk), the plies stay there and
 * `plies` is empty.
 */
export function parseChunk(setup: ParseSetup, req: ParseRequest, into?: PlyLog): ParsedGames {
  const log = into ?? new PlyLog(chunkLogSize(req.bytes.length), true);
  const records = new Bytes(1 << 16);
  const codes = new Bytes(1 << 18);
  const errors: PgnGameError[] = [];
  const builder = new BookBuilder(
    log,
    setup.maxPly,
    setup.split,
    {
      full() {
        throw new Error('ply log of a chunk is full');
      },
      games(rec, cod) {
        records.reserve(rec.length);
        records.data.set(rec, records.length);
        records.length += rec.length;
        codes.reserve(cod.length);
        codes.data.set(cod, codes.length);
        codes.length += cod.length;
      },
    },
    (e) => errors.push(e),
  );
  const filter = setup.filter === undefined ? undefined : new PgnFilter(setup.filter);
  const tracked = new LastGame(filter === undefined ? builder : filterVisitor(filter, builder));
  const parser = new PgnParser(tracked);
  parser.begin(req.file);
  parser.push(req.bytes);
  parser.end();
  builder.flushGames();
  return {
    id: req.id,
    plies: into === undefined ? log.records() : new Int32Array(0),
    records: records.view().slice(),
    codes: codes.view().slice(),
    fens: builder.fens,
    parsed: parser.games,
    games: builder.games,
    positions: builder.positions,
    errors,
    lastGame: tracked.lastGame,
    lines: parser.currentLine - 1,
    rejected: filter === undefined ? {} : { ...filter.rejected },
    input: req.bytes,
  };
}


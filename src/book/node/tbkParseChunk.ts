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
 * Parses chunk after chunk into one log, kept from chunk to chunk, and hands each chunk's plies
 * out as a copy of the part used. A log for the worst case (chunkLogSize: 12 MiB for a chunk of
 * 1 MiB, where a chunk of Lichess games logs about 0.8 MiB) made anew for each chunk is zeroed
 * in full by the allocator once glibc's malloc serves it from its heap (its mmap threshold
 * rises to the size of the blocks freed, up to 32 MiB: mallopt(3), M_MMAP_THRESHOLD), and the
 * logs waiting for the collector made a .bin build of 100,000 generated games at --memory 32M
 * peak at 336 MB on two threads against 144 MB on one (221 MB with one log a thread).
 */
export class ChunkParser {
  private log: PlyLog | undefined;
  /** Logs made so far: one, unless a chunk larger than all before it came. */
  logsMade = 0;

  constructor(private readonly setup: ParseSetup) {}

  parse(req: ParseRequest): ParsedGames {
    const room = chunkLogSize(req.bytes.length);
    if (this.log === undefined || this.log.capacity < room) {
      this.log = new PlyLog(room);
      this.logsMade++;
    }
    this.log.clear();
    const r = parseChunk(this.setup, req, this.log);
    r.plies = this.log.records();
    return r;
  }
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


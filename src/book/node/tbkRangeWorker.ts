/**
 * Worker thread of a rich build with `--threads N` (tbkRanges.ts). Each worker does two jobs:
 *   - it parses chunks of PGN (tbkParseWorker.ts) and cuts their logged plies into one piece per
 *     key range, which the main thread hands, in input order and with their games' numbers, to
 *     the ranges' owners;
 *   - it owns one key range: it logs that range's plies, sorts and spills runs when its share of
 *     the memory budget is full, and at the end merges its runs and writes the range's stored
 *     positions and its part of the single-position index, as the single-threaded build would;
 *   - last, it replays a slice of the games for make-book's halving of the hot positions
 *     (halving.ts), which the main thread counts in game order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PlyLog } from '../rich/plyLog.js';
import { GameReader } from '../rich/gameReader.js';
import { halvingEvents } from '../rich/halving.js';
import type { FinishSummary, HotPosition, RowCursor } from '../rich/finish.js';
import type { RangePieces } from '../rich/retrievalRange.js';
import { ProgressCursor, finishBook, runMerger, spillTable, type FinishOptions } from './tbkBuild.js';
import { chunkLogSize, parseChunk, type ParseRequest, type ParseSetup } from './tbkParseChunk.js';
import { ScratchFile, threadFiles } from './workDir.js';
import { cutByRange } from './tbkRanges.js';

export interface RangeSetup {
  parse: ParseSetup;
  /** This worker's range, of `ranges`. */
  range: number;
  ranges: number;
  /** Records of the range's ply log (its share of the memory budget). */
  capacity: number;
  /** The build's scratch directory. */
  dir: string;
}

/** Plies of one chunk in this worker's range, and the number of the chunk's first game. */
export interface TakeRequest {
  kind: 'take';
  id: number;
  plies: Int32Array;
  gameBase: number;
}

/** A chunk to parse; with `owners` (balancedOwners of tbkRanges.ts), its plies cut by range. */
export interface RangeParseRequest extends ParseRequest {
  kind?: undefined;
  owners?: Uint8Array;
}

export interface FinishRequest {
  kind: 'finish';
  options: Omit<FinishOptions, 'work' | 'range'>;
  /** This worker's range of keys' high halves. */
  range: { from: number; to: number };
}

/** Games [from, to) of the build's game store (files by path) to replay for the halving. */
export interface HalvingRequest {
  kind: 'halving';
  hot: HotPosition[];
  from: number;
  to: number;
  records: { path: string; size: number };
  codes: { path: string; size: number };
  fens: [number, string][];
}

/** The slice's events for each hot position (halvingEvents). */
export interface HalvingReply {
  kind: 'halving';
  range: number;
  events: Uint32Array[];
}

/** What a range wrote: files the main thread reads (by path), the block index, the index pieces. */
export interface RangeFinished {
  kind: 'finished';
  range: number;
  runs: number;
  /** Plies the range logged in all. */
  logged: number;
  summary: FinishSummary;
  positions: { path: string; size: number; crc: number };
  blocks: Uint8Array;
  singles?: { path: string; size: number };
  pieces?: RangePieces;
}

/** The range's plies and spilled runs. */
class RangeLog {
  readonly runs: ScratchFile[] = [];
  /** Plies of the range logged in all. */
  logged = 0;
  private readonly log: PlyLog;

  constructor(
    capacity: number,
    private readonly files: ReturnType<typeof threadFiles>,
  ) {
    this.log = new PlyLog(capacity);
  }

  take(plies: Int32Array, gameBase: number): void {
    this.logged += plies.length / 6;
    for (let from = 0, n = plies.length / 6; from < n; ) {
      from += this.log.append(plies, from, gameBase);
      if (from < n) this.spill();
    }
  }

  /** The range's rows in run order: the runs and the log merged. */
  rows(): RowCursor {
    return runMerger(this.runs, this.log);
  }

  private spill(): void {
    const run = this.files.create('run');
    spillTable(this.log, run);
    this.runs.push(run);
    this.log.clear();
  }
}

if (parentPort !== null) {
  const port = parentPort;
  const setup = workerData as RangeSetup;
  const files = threadFiles(setup.dir, `r${setup.range}`);
  const log = new RangeLog(setup.capacity, files);
  // One log for every chunk parsed here: allocated once, not once a chunk.
  let chunkLog = new PlyLog(1024);
  port.on('message', (m: RangeParseRequest | TakeRequest | FinishRequest | HalvingRequest) => {
    if (m.kind === 'take') {
      log.take(m.plies, m.gameBase);
      port.postMessage({ kind: 'took', id: m.id });
    } else if (m.kind === 'halving') {
      const records = ScratchFile.reopen(m.records.path, m.records.size, 0);
      const codes = ScratchFile.reopen(m.codes.path, m.codes.size, 0);
      try {
        const games = new GameReader({ readAt: (o, n) => records.read(o, n), size: records.size }, { readAt: (o, n) => codes.read(o, n), size: codes.size }, m.fens, 1 << 20, 'the games read');
        const events = halvingEvents(m.hot, games, m.from, m.to);
        port.postMessage({ kind: 'halving', range: setup.range, events } satisfies HalvingReply, events.map((e) => e.buffer as ArrayBuffer));
      } finally {
        records.close();
        codes.close();
      }
    } else if (m.kind === 'finish') {
      const { range } = setup;
      const rows = new ProgressCursor(log.rows(), 0, (done) => port.postMessage({ kind: 'progress', range, done }));
      const f = finishBook(rows, { ...m.options, work: files, range: m.range });
      const out: RangeFinished = {
        kind: 'finished',
        range,
        runs: log.runs.length,
        logged: log.logged,
        summary: f.summary,
        positions: { path: f.positions.path, size: f.positions.size, crc: f.positions.crc },
        blocks: f.blocks.slice(),
        singles: f.singles === undefined ? undefined : { path: f.singles.path, size: f.singles.size },
        pieces: f.pieces,
      };
      f.positions.close();
      f.singles?.close();
      port.postMessage(out);
    } else {
      if (chunkLog.capacity < chunkLogSize(m.bytes.length)) chunkLog = new PlyLog(chunkLogSize(m.bytes.length));
      chunkLog.clear();
      const r = parseChunk(setup.parse, m, chunkLog);
      // Until the main thread has sampled the first chunk, plies go back whole, for it to cut.
      const pieces = m.owners === undefined ? undefined : cutByRange(chunkLog.view(), chunkLog.size, m.owners, setup.ranges);
      const plies = pieces === undefined ? chunkLog.records() : r.plies;
      const transfer = [...(pieces ?? [plies]).map((p) => p.buffer as ArrayBuffer), r.records.buffer as ArrayBuffer, r.codes.buffer as ArrayBuffer, r.input.buffer as ArrayBuffer];
      port.postMessage({ ...r, kind: 'parsed', plies, pieces }, transfer);
    }
  });
}

/**
 * Worker thread of a rich build with `--threads N` (tbkRanges.ts). Each worker:
 *   - parses the chunks of PGN it is given (tbkParseChunk.ts) straight into its own ply log, a
 *     SharedArrayBuffer: the chunk's games are numbered from 0 until the main thread, which
 *     keeps the games in input order, sends the number of its first game, added in place;
 *   - when its log is full, sorts it and spills it as a run cut by key cell (cellRuns.ts), once
 *     every chunk in the log has its games' numbers (until then chunks wait aside, in order);
 *   - at the end of the input sorts its log; then finishes one key range from every thread's
 *     log, read in place (logMerge.ts), and every thread's runs: the range's stored positions and
 *     its part of the single-position index, as the single-threaded build writes them;
 *   - last, replays slices of the games for make-book's halving of the hot positions
 *     (halving.ts), which the main thread counts in game order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PlyLog, RECORD_WORDS } from '../rich/plyLog.js';
import { GameReader } from '../rich/gameReader.js';
import { HalvingReplay } from '../rich/halving.js';
import { LogMerge, firstFrom } from '../rich/logMerge.js';
import { RunMerger, type MergeInput } from '../rich/mergeRuns.js';
import { RANGE_BITS } from '../rich/positions.js';
import type { FinishSummary, HotPosition } from '../rich/finish.js';
import type { RangePieces } from '../rich/retrievalRange.js';
import { CellRunReader, holdsCells, spillByCell, type CellRun } from './cellRuns.js';
import { ProgressCursor, finishBook, type FinishOptions } from './tbkBuild.js';
import { chunkLogSize, parseChunk, type ParseRequest, type ParseSetup } from './tbkParseChunk.js';
import { ScratchFile, threadFiles } from './workDir.js';
import { joinTemps, type TempLink } from '../../node/tempFiles.js';

export interface RangeSetup {
  parse: ParseSetup;
  /** This worker's number: it finishes range `worker` of as many as there are workers. */
  worker: number;
  /** Records of the worker's ply log (its share of the memory budget). */
  capacity: number;
  /** The build's scratch directory. */
  dir: string;
  /** The process's temporaries: no file is made here while a signal removes the directory. */
  temps: TempLink;
}

/** The number of the first game of chunk `id`, parsed here. */
export interface BaseRequest {
  kind: 'base';
  id: number;
  gameBase: number;
}

/** The input is read: sort the log and say what this worker holds. */
export interface SortRequest {
  kind: 'sort';
}

/** A sorted log, in shared memory. */
export interface SharedLog {
  buffer: SharedArrayBuffer;
  size: number;
}

export interface Sorted {
  kind: 'sorted';
  worker: number;
  log: SharedLog;
  runs: CellRun[];
  /** Plies logged per key cell (RANGE_BITS), spilled ones included. */
  cells: Float64Array;
  /** Records the log would have needed to hold every ply it was given, room for a chunk included. */
  needed: number;
}

export interface FinishRequest {
  kind: 'finish';
  options: Omit<FinishOptions, 'work' | 'range'>;
  /** The range to finish: keys whose high half is in [from, to), whole key cells. */
  range: { from: number; to: number };
  /** Every worker's sorted log and runs. */
  logs: SharedLog[];
  runs: CellRun[];
}

/** What the halving replay needs, sent with a worker's first slice: the hot positions and the build's game store (files by path). */
export interface HalvingSetup {
  hot: HotPosition[];
  records: { path: string; size: number };
  codes: { path: string; size: number };
  fens: [number, string][];
}

/** Games [from, to) to replay for the halving, slice `slice` of them; `last`: the worker's last slice. */
export interface HalvingRequest {
  kind: 'halving';
  slice: number;
  from: number;
  to: number;
  last: boolean;
  setup?: HalvingSetup;
}

/** The slice's events for each hot position (HalvingReplay). */
export interface HalvingReply {
  kind: 'halving';
  slice: number;
  events: Uint32Array[];
}

/** What a range wrote: files the main thread reads (by path), the block index, the index pieces. */
export interface RangeFinished {
  kind: 'finished';
  range: number;
  summary: FinishSummary;
  positions: { path: string; size: number; crc: number };
  blocks: Uint8Array;
  singles?: { path: string; size: number };
  pieces?: RangePieces;
}

/** A chunk parsed here whose games' numbers are not known yet: its records in the log, or aside. */
type Waiting = { id: number; from: number; to: number; aside?: undefined } | { id: number; aside: Int32Array };

/** The worker's log, its spilled runs, and the chunks waiting for their games' numbers. */
class ThreadLog {
  readonly log: PlyLog;
  readonly runs: CellRun[] = [];
  readonly cells = new Float64Array(2 ** RANGE_BITS);
  /** Plies given to this worker, and the records a log holding them all would have needed. */
  logged = 0;
  needed = 0;
  private readonly waiting: Waiting[] = [];
  /** Chunks that wait aside (they come after every one waiting in the log). */
  private aside = 0;
  private side = new PlyLog(1024);

  constructor(
    capacity: number,
    private readonly setup: ParseSetup,
    private readonly files: ReturnType<typeof threadFiles>,
  ) {
    this.log = new PlyLog(capacity, true);
  }

  /**
   * Parses a chunk into the log when it surely fits; else, when no chunk in the log waits for
   * its games' numbers, spills first; else into a log aside, copied in once numbered.
   */
  parse(req: ParseRequest): ReturnType<typeof parseChunk> {
    const room = chunkLogSize(req.bytes.length);
    this.needed = Math.max(this.needed, this.logged + room);
    const log = this.log;
    if (this.aside === 0 && log.capacity - log.size < room && this.waiting.length === 0 && log.size > 0) this.spill();
    let r: ReturnType<typeof parseChunk>;
    if (this.aside === 0 && log.capacity - log.size >= room) {
      const from = log.size;
      r = parseChunk(this.setup, req, log);
      this.waiting.push({ id: req.id, from, to: log.size });
    } else {
      if (this.side.capacity < room) this.side = new PlyLog(room);
      this.side.clear();
      r = parseChunk(this.setup, req, this.side);
      this.waiting.push({ id: req.id, aside: this.side.records() });
      this.aside++;
    }
    this.logged += r.positions;
    return r;
  }

  /** The games of the oldest waiting chunk begin at `gameBase`. */
  numbered(id: number, gameBase: number): void {
    const w = this.waiting.shift();
    if (w === undefined || w.id !== id) throw new Error(`game numbers for chunk ${id} came out of order`);
    if (w.aside === undefined) {
      this.log.moveGames(w.from, w.to, gameBase);
      return;
    }
    this.aside--;
    const n = w.aside.length / RECORD_WORDS;
    for (let from = 0; from < n; ) {
      from += this.log.append(w.aside, from, gameBase);
      if (from < n) this.spill();
    }
  }

  /** Sorts the log, once the input is read and every chunk numbered. */
  sorted(): Sorted {
    if (this.waiting.length > 0) throw new Error(`${this.waiting.length} chunks still wait for their games' numbers`);
    this.log.sort();
    this.log.countCells(RANGE_BITS, this.cells);
    return { kind: 'sorted', worker: 0, log: { buffer: this.log.buffer as SharedArrayBuffer, size: this.log.size }, runs: this.runs, cells: this.cells, needed: this.needed };
  }

  private spill(): void {
    this.log.countCells(RANGE_BITS, this.cells);
    const file = this.files.create('run');
    try {
      this.runs.push(spillByCell(this.log, file));
    } finally {
      file.close();
    }
    this.log.clear();
  }
}

/** The rows of one key range: every thread's sorted log and runs, merged. */
function rangeRows(m: FinishRequest): { rows: MergeInput['reader']; close(): void } {
  const cellFrom = m.range.from / 2 ** (32 - RANGE_BITS);
  const cellTo = m.range.to / 2 ** (32 - RANGE_BITS);
  const logs = new LogMerge(
    m.logs.map((l) => {
      const words = new Int32Array(l.buffer, 0, l.size * RECORD_WORDS);
      return { words, from: firstFrom(words, l.size, m.range.from), to: firstFrom(words, l.size, m.range.to) };
    }),
  );
  const runs = m.runs.filter((r) => holdsCells(r, cellFrom, cellTo)).map((r) => new CellRunReader(r, cellFrom, cellTo));
  if (runs.length === 0) return { rows: logs, close() {} };
  const inputs: MergeInput[] = runs.map((reader) => ({ reader, gameOffset: 0 }));
  inputs.push({ reader: logs, gameOffset: 0 });
  return { rows: new RunMerger(inputs), close: () => runs.forEach((r) => r.close()) };
}

/** The halving replay over the build's game store, kept from slice to slice. */
function openHalving(s: HalvingSetup): { replay: HalvingReplay; close(): void } {
  const records = ScratchFile.reopen(s.records.path, s.records.size, 0);
  const codes = ScratchFile.reopen(s.codes.path, s.codes.size, 0);
  const games = new GameReader({ readAt: (o, n) => records.read(o, n), size: records.size }, { readAt: (o, n) => codes.read(o, n), size: codes.size }, s.fens, 1 << 20, 'the games read');
  return {
    replay: new HalvingReplay(s.hot, games),
    close() {
      records.close();
      codes.close();
    },
  };
}

if (parentPort !== null) {
  const port = parentPort;
  const setup = workerData as RangeSetup;
  joinTemps(setup.temps);
  const files = threadFiles(setup.dir, `w${setup.worker}`);
  const log = new ThreadLog(setup.capacity, setup.parse, files);
  let halving: ReturnType<typeof openHalving> | undefined;
  port.on('message', (m: ParseRequest | BaseRequest | SortRequest | FinishRequest | HalvingRequest) => {
    if (!('kind' in m)) {
      const r = log.parse(m);
      // Nothing is transferred (book/sharedBuffers.ts): the input is shared, the games' records copied.
      port.postMessage({ ...r, kind: 'parsed', worker: setup.worker });
    } else if (m.kind === 'base') {
      log.numbered(m.id, m.gameBase);
    } else if (m.kind === 'sort') {
      port.postMessage({ ...log.sorted(), worker: setup.worker });
    } else if (m.kind === 'finish') {
      const range = setup.worker;
      const { rows, close } = rangeRows(m);
      try {
        const cursor = new ProgressCursor(rows, 0, (done) => port.postMessage({ kind: 'progress', range, done }));
        const f = finishBook(cursor, { ...m.options, work: files, range: m.range });
        const out: RangeFinished = {
          kind: 'finished',
          range,
          summary: f.summary,
          positions: { path: f.positions.path, size: f.positions.size, crc: f.positions.crc },
          blocks: f.blocks.slice(),
          singles: f.singles === undefined ? undefined : { path: f.singles.path, size: f.singles.size },
          pieces: f.pieces,
        };
        f.positions.close();
        f.singles?.close();
        port.postMessage(out);
      } finally {
        close();
      }
    } else if (m.kind === 'halving') {
      if (m.setup !== undefined) halving = openHalving(m.setup);
      const events = halving!.replay.events(m.from, m.to);
      if (m.last) halving!.close();
      port.postMessage({ kind: 'halving', slice: m.slice, events } satisfies HalvingReply);
    }
  });
}

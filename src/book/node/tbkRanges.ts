/**
 * A rich build on several threads, partitioned by key range (`book make -o X.tbk --threads N`).
 *
 * The main thread reads the input and cuts it into chunks at game starts, dealt to the workers in
 * turn (tbkRangeWorker.ts). Each worker parses its chunks straight into its own ply log, in
 * shared memory, and sorts and spills it within its share of the memory budget; the main thread
 * keeps the games in input order (their numbers, the game store) and sends each chunk's worker
 * the number of its first game, which the worker adds in place. No ply crosses a thread while
 * the input is read. At the end every worker sorts its log, and the positions' keys are dealt
 * into N ranges of the 256 key cells of positions.ts (RANGE_BITS), contiguous, holding about
 * equal shares of all the plies. Every worker then finishes one range, reading that range's
 * records from every log in place (logMerge.ts) and its segments of every run (cellRuns.ts),
 * and writes the range's positions and its part of the single-position index at once; the main
 * thread only joins the pieces: the positions' files one after the other (their CRC-32s
 * combined), the block index with its offsets moved along, and the index's partitions in order.
 * Blocks never cross a range boundary (positions.ts) and index partitions shared by two ranges
 * are solved here from both halves, so the book is the single-threaded one, byte for byte.
 * Last, the workers replay slices of the games, dealt in turn, for make-book's halving
 * (halving.ts); the slices are counted here in order as they come back, while this thread
 * writes the rest of the book (tbkBuild.ts, writeBookWhileHalving).
 *
 * Memory: each worker's log gets an equal share of `--memory` after a reserve per extra thread
 * (THREAD_RESERVE: its V8 heap, its chunks in flight, its share of the finishing), as one
 * thread's log gets all of it.
 */
import { Worker } from 'node:worker_threads';
import { SECTION } from '../rich/container.js';
import { crc32Combine } from '../rich/crcCombine.js';
import { PlyLog, RECORD_BYTES } from '../rich/plyLog.js';
import { RANGE_BITS, INDEX_LINE } from '../rich/positions.js';
import { RetrievalBuilder, partitionBitsFor } from '../rich/retrievalBuilder.js';
import { isSolved } from '../rich/retrievalRange.js';
import type { FinishSummary, HotPosition } from '../rich/finish.js';
import { HALVING_SLICE, HalvingCount, type HalvedCounters } from '../rich/halving.js';
import type { Input } from './inputs.js';
import { readInputsThreaded, type ThreadedReadOptions } from './tbkParallel.js';
import type { ParsedGames } from './tbkParseChunk.js';
import type { BaseRequest, FinishRequest, HalvingReply, HalvingRequest, HalvingSetup, RangeFinished, RangeSetup, Sorted, SortRequest } from './tbkRangeWorker.js';
import { fileChunks, fileSection, type SectionSource } from './tbkFile.js';
import { gameBits, type CountedInputs, type FinishedBook, type GameStore } from './tbkBuild.js';
import { ScratchFile, reviveWorkerError, type WorkDir } from './workDir.js';
import { tempGateLink } from '../../node/tempFiles.js';

/** Memory set aside for each thread beyond the first, out of the budget. */
export const THREAD_RESERVE = 192 * 2 ** 20;
/** Chunks in flight per thread (being parsed, or parsed and waiting for the ones before). */
const CHUNKS_PER_THREAD = 4;

/**
 * Which of n ranges each of the 2^RANGE_BITS key cells of positions.ts goes to: contiguous runs
 * of cells holding about equal numbers of plies (`plies`, per cell), cut where possible at
 * multiples of 8 cells (32 parts of the key space), so that the single-position index's
 * partitions of a large book seldom straddle two ranges.
 */
export function balancedOwners(plies: Float64Array, n: number): Uint8Array {
  const cells = 2 ** RANGE_BITS;
  const weight = new Float64Array(cells);
  for (let c = 0; c < cells; c++) weight[c] = 1 + (plies[c] ?? 0);
  const total = weight.reduce((a, b) => a + b, 0);
  const step = n <= 16 ? 8 : 1;
  const owners = new Uint8Array(cells);
  let owner = 0;
  let sum = 0;
  for (let c = 0; c < cells; c++) {
    // A new range begins at the first allowed cut once the ones before have their share.
    if (owner < n - 1 && c % step === 0 && sum >= ((owner + 1) * total) / n - (weight[c]! * step) / 2) owner++;
    owners[c] = owner;
    sum += weight[c]!;
  }
  return owners;
}

/** The high halves of the keys where ranges begin, from the owners of the cells: range i is [bounds[i], bounds[i + 1]). */
export function rangeBounds(owners: Uint8Array, n: number): number[] {
  const bounds = new Array<number>(n + 1).fill(2 ** 32);
  for (let c = owners.length - 1; c >= 0; c--) bounds[owners[c]!] = c * 2 ** (32 - RANGE_BITS);
  bounds[0] = 0;
  // A range with no cell (more threads than cells) is empty: it begins where the next one does.
  for (let i = n - 1; i > 0; i--) bounds[i] = Math.min(bounds[i]!, bounds[i + 1]!);
  return bounds;
}

/** Records of each worker's ply log: equal shares of the budget once the extra threads' reserve is out. */
export function threadCapacity(memory: number, threads: number): number {
  return PlyLog.capacityFor(Math.max(memory - (threads - 1) * THREAD_RESERVE, 0) / threads);
}

/**
 * The least log a thread of a threaded build is given. Below it a thread spills a run every few
 * thousand games (thousands of small runs: slow, and reading them back costs more than the
 * thread gains), so the build uses fewer threads instead (threadsFor).
 */
export const MIN_THREAD_LOG = 64 * 2 ** 20;

/** The most threads, up to `wanted`, for which `memory` gives each thread's log MIN_THREAD_LOG or more. */
export function threadsFor(memory: number, wanted: number): number {
  for (let t = wanted; t > 1; t--) if ((memory - (t - 1) * THREAD_RESERVE) / t >= MIN_THREAD_LOG) return t;
  return 1;
}

/** The least `--memory` with which `threads` threads each get MIN_THREAD_LOG. */
export function memoryForThreadCount(threads: number): number {
  return threads * MIN_THREAD_LOG + (threads - 1) * THREAD_RESERVE;
}

/** The least `--memory` whose workers' logs hold `needed` records each (threadCapacity's inverse). */
export function memoryForThreads(needed: number, threads: number): number {
  return threads * needed * RECORD_BYTES + (threads - 1) * THREAD_RESERVE;
}

export interface RangeBuild {
  counted: CountedInputs;
  /** Sorts every worker's log, then finishes every range on its thread and joins them. */
  finish(o: FinishRequest['options'], onProgress?: (done: number) => void): Promise<{ book: FinishedBook; runs: number; needed: number }>;
  /** make-book's counters of the hot positions, the games replayed in slices of at most `slice` games dealt to the threads in turn (halving.ts). */
  halving(hot: readonly HotPosition[], store: GameStore, slice?: number): Promise<HalvedCounters[]>;
  /** Ends the workers. */
  close(): Promise<void>;
}

/** Reads the inputs on `threads` workers, each with its own log; the games go to `store`. */
export async function readRanges(inputs: Input[], o: ThreadedReadOptions & { memory: number }, store: GameStore, work: WorkDir): Promise<RangeBuild> {
  // A range is at least one of the 256 cells of the key space.
  const n = Math.min(o.threads, 2 ** RANGE_BITS);
  const capacity = threadCapacity(o.memory, n);
  const workers = Array.from({ length: n }, (_, worker) => {
    const setup: RangeSetup = { parse: { maxPly: o.maxPly, split: o.split, filter: o.filter }, worker, capacity, dir: work.path, temps: tempGateLink() };
    return new Worker(new URL('./tbkRangeWorker.js', import.meta.url), { workerData: setup });
  });
  const take = (r: ParsedGames): void => {
    const gameBase = store.takeChunk(r);
    const req: BaseRequest = { kind: 'base', id: r.id, gameBase };
    workers[(r as ParsedGames & { worker: number }).worker]!.postMessage(req);
  };
  const close = async (): Promise<void> => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
  /** Hands every worker's messages to `on` until it settles the promise; a worker's error or exit rejects it. */
  const listen = <T>(on: (m: { kind: string }, worker: number, settle: (v: T) => void) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      workers.forEach((w, i) => {
        w.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
        w.on('message', (m: { kind: string }) => {
          try {
            on(m, i, resolve);
          } catch (e) {
            reject(e);
          }
        });
        w.on('error', (e) => reject(reviveWorkerError(e)));
        w.on('exit', (code) => reject(new Error(`a build thread stopped (exit code ${code})`)));
      });
    });
  /** Every worker's answer of `kind` to `send(worker, i)`, by `pick`; progress reports go to `onProgress`. */
  const ask = async <T extends { kind: string }>(kind: string, send: (w: Worker, i: number) => void, pick: (m: T) => number, onProgress?: (m: { range: number; done: number }) => void): Promise<T[]> => {
    const got = new Array<T | undefined>(n).fill(undefined);
    const all = listen<T[]>((m, _w, settle) => {
      if (m.kind === 'progress') onProgress?.(m as unknown as { range: number; done: number });
      if (m.kind !== kind) return;
      got[pick(m as T)] = m as T;
      if (got.every((g) => g !== undefined)) settle(got as T[]);
    });
    workers.forEach(send);
    return all;
  };
  let counted: CountedInputs;
  try {
    counted = await readInputsThreaded(inputs, { ...o, threads: n }, take, { workers, message: () => {}, held: () => 0, window: CHUNKS_PER_THREAD * n, inTurn: true });
  } catch (e) {
    await close();
    throw e;
  }

  const finish = async (options: FinishRequest['options'], report?: (done: number) => void): Promise<{ book: FinishedBook; runs: number; needed: number }> => {
    const sorted = await ask<Sorted>('sorted', (w) => w.postMessage({ kind: 'sort' } satisfies SortRequest), (m) => m.worker);
    const cells = new Float64Array(2 ** RANGE_BITS);
    for (const s of sorted) for (let c = 0; c < cells.length; c++) cells[c]! += s.cells[c]!;
    const bounds = rangeBounds(balancedOwners(cells, n), n);
    const logs = sorted.map((s) => s.log);
    const runs = sorted.flatMap((s) => s.runs);
    const progress = new Array<number>(n).fill(0);
    const onProgress = (m: { range: number; done: number }): void => {
      progress[m.range] = m.done;
      report?.(progress.reduce((a, b) => a + b, 0));
    };
    const parts = await ask<RangeFinished>(
      'finished',
      (w, i) => w.postMessage({ kind: 'finish', options, range: { from: bounds[i]!, to: bounds[i + 1]! }, logs, runs } satisfies FinishRequest),
      (m) => m.range,
      onProgress,
    );
    return { book: joinRanges(parts, options, work), runs: runs.length, needed: Math.max(...sorted.map((s) => s.needed)) };
  };
  const halving = async (hot: readonly HotPosition[], store: GameStore, most = HALVING_SLICE): Promise<HalvedCounters[]> => {
    if (hot.length === 0) return [];
    // Slices of at most HALVING_SLICE games, as many for each worker, dealt in turn, two at a
    // time to each (the next one waits while the main thread writes the book, writeBookWhileHalving),
    // counted in order as they come back: memory holds a few slices' events, however many the games.
    const games = store.count;
    const slices = Math.ceil(Math.ceil(games / most) / n) * n;
    const size = Math.ceil(games / slices);
    const setup: HalvingSetup = { hot: [...hot], records: { path: store.records.path, size: store.records.size }, codes: { path: store.codes.path, size: store.codes.size }, fens: store.fens };
    const request = (w: number, slice: number): void => {
      const req: HalvingRequest = { kind: 'halving', slice, from: Math.min(slice * size, games), to: Math.min((slice + 1) * size, games), last: slice + n >= slices, setup: slice < n ? setup : undefined };
      workers[w]!.postMessage(req);
    };
    const count = new HalvingCount(hot);
    const waiting = new Map<number, Uint32Array[]>();
    let next = 0;
    const done = listen<void>((raw, w, settle) => {
      if (raw.kind !== 'halving') return;
      const m = raw as HalvingReply;
      waiting.set(m.slice, m.events);
      for (let e = waiting.get(next); e !== undefined; e = waiting.get(next)) {
        count.add(e);
        waiting.delete(next++);
      }
      if (next === slices) settle();
      else if (m.slice + 2 * n < slices) request(w, m.slice + 2 * n);
    });
    for (let slice = 0; slice < Math.min(2 * n, slices); slice++) request(slice % n, slice);
    await done;
    return count.result();
  };
  return { counted, finish, halving, close };
}

/** The book's sections from the ranges' pieces, in key order. */
function joinRanges(parts: readonly RangeFinished[], options: FinishRequest['options'], work: WorkDir): FinishedBook {
  const summary: FinishSummary = { rows: 0, singles: 0, stored: 0, storedMoves: 0, hot: [] };
  let length = 0;
  let crc = 0;
  let lines = 0;
  for (const f of parts) {
    summary.rows += f.summary.rows;
    summary.singles += f.summary.singles;
    summary.stored += f.summary.stored;
    summary.storedMoves += f.summary.storedMoves;
    for (const h of f.summary.hot) summary.hot.push(h);
    crc = crc32Combine(crc, f.positions.crc, f.positions.size);
    length += f.positions.size;
    lines += f.blocks.length;
  }
  // The block index: each range's lines, offsets moved past the ranges before it.
  const blocks = new Uint8Array(lines);
  const view = new DataView(blocks.buffer);
  let at = 0;
  let base = 0;
  for (const f of parts) {
    blocks.set(f.blocks, at);
    for (let o = at; o < at + f.blocks.length; o += INDEX_LINE) {
      const offset = view.getUint32(o + 8, true) + view.getUint32(o + 12, true) * 2 ** 32 + base;
      view.setUint32(o + 8, offset % 2 ** 32, true);
      view.setUint32(o + 12, Math.floor(offset / 2 ** 32), true);
    }
    at += f.blocks.length;
    base += f.positions.size;
  }
  const positions: SectionSource = {
    id: SECTION.POSITIONS,
    length,
    crc,
    *chunks() {
      for (const f of parts) yield* fileChunksAt(f.positions.path, f.positions.size);
    },
  };
  return { summary, positions, blocks, singles: options.minGames <= 1 ? joinSingles(parts, options, work) : undefined };
}

/** The single-position index: the ranges' solved partitions and, solved here, the ones they share. */
function joinSingles(parts: readonly RangeFinished[], options: FinishRequest['options'], work: WorkDir): SectionSource {
  const out = work.create('singles');
  const rb = new RetrievalBuilder({ bits: gameBits(options.games), partitionBits: partitionBitsFor(options.expectedSingles, gameBits(options.games)) }, (chunk) => out.append(chunk));
  for (const f of parts) {
    const file = ScratchFile.reopen(f.singles!.path, f.singles!.size, 0);
    try {
      let at = 0;
      for (const p of f.pieces!.parts) {
        if (isSolved(p)) {
          rb.addSolved(p.partition, p.keys, { seed: p.seed, log2: p.log2, segments: p.segments, data: file.read(at, p.bytes) });
          at += p.bytes;
        } else rb.addMany(p.hi, p.lo, p.values);
      }
    } finally {
      file.close();
    }
  }
  rb.finish();
  return fileSection(SECTION.SINGLES, out);
}

/** The bytes of a scratch file written by a thread, in pieces. */
function* fileChunksAt(path: string, size: number): Generator<Uint8Array> {
  const file = ScratchFile.reopen(path, size, 0);
  try {
    yield* fileChunks((o, n) => file.read(o, n), size);
  } finally {
    file.close();
  }
}

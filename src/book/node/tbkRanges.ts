/**
 * A rich build on several threads, partitioned by key range (`book make -o X.tbk --threads N`).
 *
 * Positions are split into N ranges of their Zobrist key's top bits (RANGE_BITS of
 * positions.ts: 256 cells of the key space, dealt out in N contiguous runs holding about equal
 * shares of the plies of the first chunk, which samples them: the keys are hashes, so only the
 * opening's popular positions make the cells unequal). Worker threads (tbkRangeWorker.ts) parse chunks of PGN and cut each chunk's plies
 * by range; the main thread keeps the games in input order (their numbers, the game store) and
 * hands each range's plies to the worker that owns it, which logs, sorts and spills them within
 * its share of the memory budget. At the end every worker merges its runs and writes its range's
 * positions and its part of the single-position index at once; the main thread only joins the
 * pieces: the positions' files one after the other (their CRC-32s combined), the block index
 * with its offsets moved along, and the index's partitions in order. Blocks never cross a range
 * boundary (positions.ts) and index partitions shared by two ranges are solved here from both
 * halves, so the book is the single-threaded one, byte for byte. Last, each worker replays a
 * slice of the games for make-book's halving (halving.ts), counted here in order.
 *
 * Memory: each range's log gets an equal share of half of `--memory` after a reserve per extra
 * thread (THREAD_RESERVE: its V8 heap, its chunks in flight, its index solver); the other half is
 * for the ranges' merges and writes, which run at once (rangeCapacity).
 */
import { Worker } from 'node:worker_threads';
import { SECTION } from '../rich/container.js';
import { crc32Combine } from '../rich/crcCombine.js';
import { PlyLog, RECORD_BYTES } from '../rich/plyLog.js';
import { RANGE_BITS, INDEX_LINE } from '../rich/positions.js';
import { RetrievalBuilder, partitionBitsFor } from '../rich/retrievalBuilder.js';
import { isSolved } from '../rich/retrievalRange.js';
import type { FinishSummary, HotPosition } from '../rich/finish.js';
import { countHalving, type HalvedCounters } from '../rich/halving.js';
import type { Input } from './inputs.js';
import { readInputsThreaded, type ThreadedReadOptions } from './tbkParallel.js';
import type { ParseRequest, ParsedGames } from './tbkParseChunk.js';
import type { FinishRequest, HalvingReply, HalvingRequest, RangeFinished, RangeParseRequest, RangeSetup, TakeRequest } from './tbkRangeWorker.js';
import { fileSection, type SectionSource } from './tbkFile.js';
import { gameBits, type CountedInputs, type FinishedBook, type GameStore } from './tbkBuild.js';
import { ScratchFile, reviveWorkerError, type WorkDir } from './workDir.js';

/** Memory set aside for each thread beyond the first, out of the budget. */
export const THREAD_RESERVE = 128 * 2 ** 20;
/** Chunks in flight per thread (parsed or being parsed, or their plies not yet logged). */
const CHUNKS_PER_THREAD = 4;
const W = 6;

/**
 * Which of n ranges each of the 2^RANGE_BITS key cells of positions.ts goes to: contiguous runs
 * of cells holding about equal numbers of the sampled plies (the first chunk's: the opening's
 * popular positions weigh the same everywhere in a collection), cut where possible at multiples
 * of 8 cells (32 parts of the key space), so that the single-position index's partitions of
 * a large book seldom straddle two ranges.
 */
export function balancedOwners(sample: Int32Array, n: number): Uint8Array {
  const cells = 2 ** RANGE_BITS;
  const weight = new Float64Array(cells).fill(1);
  for (let r = 1; r < sample.length; r += W) weight[sample[r]! >>> (32 - RANGE_BITS)]!++;
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

/** The ply log's records (`size` of them in `plies`) cut into one piece per range, each in log order. */
export function cutByRange(plies: Int32Array, size: number, owner: Uint8Array, n: number): Int32Array[] {
  const shift = 32 - RANGE_BITS;
  const count = new Int32Array(n);
  for (let r = 0; r < size; r++) count[owner[plies[r * W + 1]! >>> shift]!]!++;
  const out = Array.from(count, (c) => new Int32Array(c * W));
  const at = new Int32Array(n);
  for (let r = 0; r < size; r++) {
    const s = r * W;
    const o = owner[plies[s + 1]! >>> shift]!;
    const piece = out[o]!;
    let t = at[o]!;
    for (let k = 0; k < W; k++) piece[t++] = plies[s + k]!;
    at[o] = t;
  }
  return out;
}

/**
 * Records of each range's ply log: equal shares of half the budget once the extra threads'
 * reserve is out. Every worker merges its runs and writes its range at the same time, each
 * still holding its log, so the logs cannot take the whole budget as a single thread's does:
 * with the whole of it, `--threads 2 --memory 1G` peaked at 1.67 GB on 2 million generated games
 * with splits (1.22 GB on one thread).
 */
export function rangeCapacity(memory: number, threads: number): number {
  return PlyLog.capacityFor(Math.max(memory - (threads - 1) * THREAD_RESERVE, 0) / (2 * threads));
}

/** The least `--memory` whose ranges' logs hold `largest` plies each (rangeCapacity's inverse). */
export function memoryForRanges(largest: number, threads: number): number {
  return 2 * threads * largest * RECORD_BYTES + (threads - 1) * THREAD_RESERVE;
}

/** What a range's worker says besides parsed chunks. */
type RangeMessage = { kind: 'took'; id: number } | { kind: 'progress'; range: number; done: number } | RangeFinished;

export interface RangeBuild {
  counted: CountedInputs;
  /** Merges every range's runs and writes its pieces on its thread, then joins them. */
  finish(o: FinishRequest['options'], onProgress?: (done: number) => void): Promise<{ book: FinishedBook; runs: number; largest: number }>;
  /** make-book's counters of the hot positions, the games replayed in slices, one a thread (halving.ts). */
  halving(hot: readonly HotPosition[], store: GameStore): Promise<HalvedCounters[]>;
  /** Ends the workers. */
  close(): Promise<void>;
}

/** Reads the inputs on `threads` workers, each owning a key range; the games go to `store`. */
export async function readRanges(inputs: Input[], o: ThreadedReadOptions & { memory: number }, store: GameStore, work: WorkDir): Promise<RangeBuild> {
  // A range is at least one of the 256 cells of the key space.
  const n = Math.min(o.threads, 2 ** RANGE_BITS);
  const capacity = rangeCapacity(o.memory, n);
  const workers = Array.from({ length: n }, (_, range) => {
    const setup: RangeSetup = { parse: { maxPly: o.maxPly, split: o.split, filter: o.filter }, range, ranges: n, capacity, dir: work.path };
    return new Worker(new URL('./tbkRangeWorker.js', import.meta.url), { workerData: setup });
  });
  // Chunks whose plies some range has not logged yet: pieces outstanding.
  const held = new Map<number, number>();
  const progress = new Array<number>(n).fill(0);
  const finished = new Array<RangeFinished | undefined>(n).fill(undefined);
  let onFinished: (() => void) | undefined;
  let onProgress: ((done: number) => void) | undefined;
  const message = (_w: number, raw: { kind: string }): void => {
    const m = raw as RangeMessage;
    if (m.kind === 'took') {
      const left = held.get(m.id)! - 1;
      if (left === 0) held.delete(m.id);
      else held.set(m.id, left);
    } else if (m.kind === 'progress') {
      progress[m.range] = m.done;
      onProgress?.(progress.reduce((a, b) => a + b, 0));
    } else if (m.kind === 'finished') {
      finished[m.range] = m;
      onFinished?.();
    }
  };
  let owners: Uint8Array | undefined;
  const take = (r: ParsedGames): void => {
    // The first chunk in input order is the sample that sets the ranges.
    owners ??= balancedOwners(r.plies, n);
    const pieces = (r as ParsedGames & { pieces?: Int32Array[] }).pieces ?? cutByRange(r.plies, r.plies.length / W, owners, n);
    const gameBase = store.takeChunk(r);
    held.set(r.id, n);
    for (let w = 0; w < n; w++) {
      const req: TakeRequest = { kind: 'take', id: r.id, plies: pieces[w]!, gameBase };
      workers[w]!.postMessage(req, [req.plies.buffer as ArrayBuffer]);
    }
  };
  const close = async (): Promise<void> => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
  let counted: CountedInputs;
  try {
    const request = (req: ParseRequest): RangeParseRequest => (owners === undefined ? req : { ...req, owners });
    counted = await readInputsThreaded(inputs, { ...o, threads: n }, take, { workers, message, held: () => held.size, window: CHUNKS_PER_THREAD * n, request });
  } catch (e) {
    await close();
    throw e;
  }

  const finish = async (options: FinishRequest['options'], report?: (done: number) => void): Promise<{ book: FinishedBook; runs: number; largest: number }> => {
    onProgress = report;
    // The reading's listeners go: from now on every message is the finishing's.
    for (const w of workers) w.removeAllListeners('message');
    const all = new Promise<void>((resolve, reject) => {
      onFinished = () => {
        if (finished.every((f) => f !== undefined)) resolve();
      };
      for (const w of workers) {
        w.on('message', (m: { kind: string }) => {
          if (m.kind !== 'took') message(0, m);
        });
        w.on('error', (e) => reject(reviveWorkerError(e)));
        w.on('exit', (code) => reject(new Error(`a build thread stopped (exit code ${code})`)));
      }
    });
    const bounds = rangeBounds(owners ?? balancedOwners(new Int32Array(0), n), n);
    workers.forEach((w, i) => w.postMessage({ kind: 'finish', options, range: { from: bounds[i]!, to: bounds[i + 1]! } } satisfies FinishRequest));
    await all;
    const parts = finished as RangeFinished[];
    return { book: joinRanges(parts, options, work), runs: parts.reduce((s, f) => s + f.runs, 0), largest: Math.max(...parts.map((f) => f.logged)) };
  };
  const halving = async (hot: readonly HotPosition[], store: GameStore): Promise<HalvedCounters[]> => {
    if (hot.length === 0) return [];
    for (const w of workers) w.removeAllListeners('message');
    const slices = new Array<Uint32Array[] | undefined>(n).fill(undefined);
    const all = new Promise<void>((resolve, reject) => {
      for (const w of workers) {
        w.on('message', (m: HalvingReply) => {
          if (m.kind !== 'halving') return;
          slices[m.range] = m.events;
          if (slices.every((e) => e !== undefined)) resolve();
        });
        w.on('error', (e) => reject(reviveWorkerError(e)));
        w.on('exit', (code) => reject(new Error(`a build thread stopped (exit code ${code})`)));
      }
    });
    // Contiguous slices of the games, one a thread, counted in order.
    const games = store.count;
    const records = { path: store.records.path, size: store.records.size };
    const codes = { path: store.codes.path, size: store.codes.size };
    workers.forEach((w, i) => {
      const req: HalvingRequest = { kind: 'halving', hot: [...hot], from: Math.floor((games * i) / n), to: Math.floor((games * (i + 1)) / n), records, codes, fens: store.fens };
      w.postMessage(req);
    });
    await all;
    return countHalving(hot, slices as Uint32Array[][]);
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
    copyTo(write) {
      for (const f of parts) copyFile(f.positions.path, f.positions.size, write);
    },
  };
  return { summary, positions, blocks, singles: options.minGames <= 1 ? joinSingles(parts, options, work) : undefined };
}

/** The single-position index: the ranges' solved partitions and, solved here, the ones they share. */
function joinSingles(parts: readonly RangeFinished[], options: FinishRequest['options'], work: WorkDir): SectionSource {
  const out = work.create('singles');
  const rb = new RetrievalBuilder({ bits: gameBits(options.games), partitionBits: partitionBitsFor(options.expectedSingles) }, (chunk) => out.append(chunk));
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

function copyFile(path: string, size: number, write: (bytes: Uint8Array) => void): void {
  const file = ScratchFile.reopen(path, size, 0);
  try {
    const chunk = 1 << 22;
    for (let o = 0; o < size; o += chunk) write(file.read(o, Math.min(chunk, size - o)));
  } finally {
    file.close();
  }
}

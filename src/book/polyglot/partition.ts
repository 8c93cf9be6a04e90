/**
 * The unit of a parallel make-book build: one participant (a worker thread, or the main
 * thread itself) that parses PGN chunks and owns one key partition of the book.
 *
 * - `parse` replays a chunk (which starts at a game) and splits its games' moves by partition
 *   (key high mod N), packed as integers per game
 *     [count, result for White (-1, 0, 1), then per move: key low, key high, move | colour << 15];
 * - `part` receives this partition's part of a chunk and adds the parts strictly in chunk order;
 * - `finish` filters and sorts the partition into `.bin` bytes.
 *
 * All moves of a position share its key, hence its partition, and each partition sees them in
 * the original game order: counters, halving and first-seen order within a key are exactly
 * those of a single-threaded build, and merging the sorted partitions by key gives its book.
 * Browser-safe: the transport (worker_threads) lives in `book/node`.
 */
import { PgnFilter, filterVisitor, type PgnFilterOptions } from '../../pgn/filter.js';
import { PgnParser } from '../../pgn/parser.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { BookGameVisitor, type GameSink } from './collect.js';
import { BookAccumulator, type MakeOptions } from './make.js';
import { sharedInts } from '../sharedBuffers.js';

export interface PartitionSetup {
  /** This participant's partition, and the number of partitions. */
  index: number;
  partitions: number;
  /** Distinct (position, move) pairs this partition is expected to hold (a sizing hint). */
  expected: number;
  maxPly: number;
  filter: PgnFilterOptions | undefined;
}

export interface ParsedChunk {
  id: number;
  /** One packed buffer per partition, and the used length of each. */
  parts: Int32Array[];
  lengths: number[];
  /** Games read cleanly, and games that went into the book. */
  parsed: number;
  games: number;
  errors: PgnGameError[];
  /** Highest game number met in the chunk (games are numbered from 1 in each chunk). */
  lastGame: number;
  /** Line breaks in the chunk, as the scanner counts them (error lines are numbered from 1 in each chunk). */
  lines: number;
  rejected: Record<string, number>;
  /** The chunk's input, handed back for reuse. */
  input: Uint8Array;
}

export interface FinishedPartition {
  bytes: Uint8Array;
  kept: number;
  size: number;
  added: number;
}

const POOL_MAX = 16;

export class Partition {
  readonly acc: BookAccumulator;
  /**
   * Buffers for packed parts. A part travels to the participant that owns its partition, which
   * keeps the buffer once it has added it and packs its own next chunk into it: buffers
   * circulate instead of piling up as garbage.
   */
  private readonly pool: Int32Array[] = [];
  private readonly waiting = new Map<number, { data: Int32Array; length: number }>();
  private next = 0;

  constructor(readonly setup: PartitionSetup) {
    this.acc = new BookAccumulator(setup.expected);
  }

  /** Parses one chunk into per-partition parts. */
  parse(id: number, file: string, bytes: Uint8Array): ParsedChunk {
    const sink = new PartitionSink(this.setup.partitions, this);
    const errors: PgnGameError[] = [];
    const book = new BookGameVisitor(sink, this.setup.maxPly, (e) => errors.push(e));
    const filter = this.setup.filter === undefined ? undefined : new PgnFilter(this.setup.filter);
    const tracked = new LastGame(filter === undefined ? book : filterVisitor(filter, book));
    const parser = new PgnParser(tracked);
    parser.begin(file);
    parser.push(bytes);
    parser.end();
    return {
      id,
      parts: sink.data,
      lengths: sink.length,
      parsed: parser.games,
      games: book.games,
      errors,
      lastGame: tracked.lastGame,
      lines: parser.currentLine - 1,
      rejected: filter === undefined ? {} : { ...filter.rejected },
      input: bytes,
    };
  }

  /** Receives this partition's part of chunk `id`; returns the chunks added by this call. */
  part(id: number, data: Int32Array, length: number): number[] {
    this.waiting.set(id, { data, length });
    const added: number[] = [];
    for (let p = this.waiting.get(this.next); p !== undefined; p = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      this.acc.addPacked(p.data, p.length);
      this.give(p.data);
      added.push(this.next++);
    }
    return added;
  }

  finish(options: MakeOptions): FinishedPartition {
    const book = this.acc.finish(options);
    return { bytes: book.bytes, kept: book.kept, size: this.acc.size, added: this.acc.added };
  }

  /** A buffer of at least `min` ints, from the pool when possible. */
  take(min: number): Int32Array {
    const pool = this.pool;
    for (let i = pool.length - 1; i >= 0; i--) if (pool[i]!.length >= min) return pool.splice(i, 1)[0]!;
    let n = 1 << 18;
    while (n < min) n *= 2;
    return sharedInts(n);
  }

  give(b: Int32Array): void {
    if (this.pool.length < POOL_MAX) this.pool.push(b);
  }
}

/** Packs games into one growing Int32Array per partition. */
class PartitionSink implements GameSink {
  data: Int32Array[];
  length: number[];
  /** Per partition: where the current game's header is, or -1. */
  private readonly head: Int32Array;
  /** Partition = key high & mask when the count is a power of two, else key high mod n. */
  private readonly mask: number;

  constructor(
    private readonly n: number,
    private readonly buffers: Partition,
  ) {
    this.data = Array.from({ length: n }, () => buffers.take(0));
    this.length = new Array<number>(n).fill(0);
    this.head = new Int32Array(n).fill(-1);
    this.mask = (n & (n - 1)) === 0 ? n - 1 : -1;
  }

  game(keysLo: Int32Array, keysHi: Int32Array, words: Uint16Array, count: number, whiteResult: number): void {
    const n = this.n;
    const head = this.head;
    for (let i = 0; i < count; i++) {
      const p = this.mask >= 0 ? keysHi[i]! & this.mask : (keysHi[i]! >>> 0) % n;
      let o = this.length[p]!;
      if (head[p] === -1) {
        // First move of this game in partition p: room for all of the game's moves and a header.
        this.reserve(p, 2 + 3 * (count - i));
        head[p] = o;
        o += 2;
      }
      const d = this.data[p]!;
      d[o] = keysLo[i]!;
      d[o + 1] = keysHi[i]!;
      d[o + 2] = words[i]!;
      this.length[p] = o + 3;
    }
    for (let p = 0; p < n; p++) {
      const h = head[p]!;
      if (h < 0) continue;
      const d = this.data[p]!;
      d[h] = (this.length[p]! - h - 2) / 3;
      d[h + 1] = whiteResult;
      head[p] = -1;
    }
  }

  private reserve(p: number, extra: number): void {
    const need = this.length[p]! + extra;
    const old = this.data[p]!;
    if (need <= old.length) return;
    const d = this.buffers.take(Math.max(need, old.length * 2));
    d.set(old.subarray(0, this.length[p]!));
    this.buffers.give(old);
    this.data[p] = d;
  }
}

/**
 * A visitor passed through, noting the number of the last game begun (or broken): a chunk's
 * game numbers continue from the chunks before it.
 */
export class LastGame implements PgnVisitor {
  lastGame = 0;

  readonly tagNames: readonly string[] | undefined;

  constructor(private readonly inner: PgnVisitor) {
    this.tagNames = inner.tagNames;
  }

  beginGame(loc: Parameters<NonNullable<PgnVisitor['beginGame']>>[0]): void {
    this.lastGame = loc.game;
    this.inner.beginGame?.(loc);
  }

  tag(n: string, v: string): void {
    this.inner.tag?.(n, v);
  }

  endTags(pos: Parameters<NonNullable<PgnVisitor['endTags']>>[0]): boolean | void {
    // false (a game the filter rejected) must reach the parser, which then skips its movetext.
    return this.inner.endTags?.(pos);
  }

  move(pos: Parameters<NonNullable<PgnVisitor['move']>>[0], m: number, ply: number): boolean {
    return this.inner.move?.(pos, m, ply) ?? true;
  }

  endGame(r: Parameters<NonNullable<PgnVisitor['endGame']>>[0]): void {
    this.inner.endGame?.(r);
  }

  error(e: PgnGameError): void {
    if (e.game > this.lastGame) this.lastGame = e.game;
    this.inner.error?.(e);
  }
}

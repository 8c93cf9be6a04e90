/**
 * The accumulator of a book build: a log of the plies counted since the last spill, one record
 * per (position key, move, split cell, game, ply), appended in game order. When it is full (or
 * the input ends) it is sorted by key and the records of each (key, move, cell) are summed into
 * one row, in run order: the rows a spilled run holds (runs.ts) or the build finishes directly.
 * Counts are raw here: make-book's halving depends on the order of the games and is recomputed
 * at the end from the stored games (halving.ts), so a build that spilled a hundred runs and one
 * that spilled none give the same book.
 *
 * Why a log and not a hash table of rows: most positions of a large collection are played in
 * one game only, so a table spends a cache miss per ply to find a row that is new anyway, and
 * another per row to read the rows back in key order. Appending is sequential, and a two-pass
 * radix sort on the key's top bits (as in the MSD radix sorts of McIlroy, Bostic and McIlroy,
 * "Engineering radix sort", 1993) moves each record twice with a bounded fan-out, leaving
 * groups of a few records sorted by insertion. Measured on the 389k-game collection (all
 * plies, one thread): counting, sorting and reading back took 47 s of CPU with the table and
 * 15 s with the log (docs/rich-books.md, "Where the time goes").
 *
 * A record is 6 words (24 bytes): key low, key high, move | black << 16 | (result + 1) << 17,
 * cell, game, ply | rating << 16 (the mover's rating, 0 = none; ratings are at most 4000).
 */
import type { RunRow } from './runs.js';

/** Results from the mover's side, as `count` takes them. */
export const MOVER_WIN = 1;
export const MOVER_DRAW = 0;
export const MOVER_LOSS = -1;
export const MOVER_UNFINISHED = 2;

const W = 6;
/** Bytes a record costs, for sizing to a memory budget: the record and its copy while sorting. */
export const RECORD_BYTES = 2 * W * 4;

/** Top-level radix: the key's top 11 bits, then the next 11, then insertion sort. */
const RADIX_BITS = 11;
const BUCKETS = 1 << RADIX_BITS;
/** Groups at most this long are sorted by insertion; longer ones (a popular position) by merging. */
const INSERTION_MAX = 24;

export class PlyLog {
  /** Records logged since the last `clear`. */
  size = 0;
  private words: Int32Array;
  private spare = new Int32Array(0);
  private readonly counts = new Int32Array(BUCKETS + 1);
  private readonly counts2 = new Int32Array(BUCKETS + 1);
  private sorted = false;

  /** A log for `capacity` records (it does not grow: `count` says when it is full). */
  constructor(readonly capacity: number) {
    // The OS hands out the buffer's pages as records reach them.
    this.words = new Int32Array(capacity * W);
  }

  /** Records that fit a memory budget in bytes (at least 1024). */
  static capacityFor(budget: number): number {
    return Math.max(1024, Math.floor(budget / RECORD_BYTES));
  }

  /**
   * Logs one move: the position's key and side to move, the move, the game's split cell, the
   * result from the mover's side (MOVER_*), the mover's rating (0 = none), the game number and
   * the ply. Returns false, logging nothing, when the log is full.
   */
  count(keyLo: number, keyHi: number, black: number, move: number, cell: number, result: number, elo: number, game: number, ply: number): boolean {
    if (this.size === this.capacity) return false;
    const w = this.words;
    const o = this.size++ * W;
    w[o] = keyLo;
    w[o + 1] = keyHi;
    w[o + 2] = move | (black << 16) | ((result + 1) << 17);
    w[o + 3] = cell;
    w[o + 4] = game;
    w[o + 5] = ply | (elo << 16);
    this.sorted = false;
    return true;
  }

  /** The records logged (6 words each), in log order, in place: valid until the log changes. */
  view(): Int32Array {
    return this.words.subarray(0, this.size * W);
  }

  /** A copy of the records logged (6 words each), in log order. */
  records(): Int32Array {
    return this.words.slice(0, this.size * W);
  }

  /**
   * Appends records of another log (`records()` of a chunk parsed elsewhere) from record
   * `from`, their game numbers moved by `gameBase`, as many as fit; returns how many.
   */
  append(records: Int32Array, from: number, gameBase: number): number {
    const n = Math.min(records.length / W - from, this.capacity - this.size);
    const w = this.words;
    let t = this.size * W;
    for (let s = from * W, e = (from + n) * W; s < e; s += W, t += W) {
      copyRecord(records, s, w, t);
      w[t + 4]! += gameBase;
    }
    this.size += n;
    if (n > 0) this.sorted = false;
    return n;
  }

  /** Lets the sorting buffer go once the log is sorted for the last time (the next sort allocates one again). */
  releaseSpare(): void {
    this.spare = new Int32Array(0);
  }

  /** Empties the log for the next run. */
  clear(): void {
    this.size = 0;
    this.sorted = false;
  }

  /**
   * Sorts the records by key (unsigned), move and cell, keeping the log's order (game, ply)
   * among equal ones, so that the first record of a row is its first occurrence.
   */
  sort(): void {
    if (this.sorted) return;
    this.sorted = true;
    const n = this.size;
    if (this.spare.length < n * W) this.spare = new Int32Array(Math.min(this.capacity, Math.max(n, 1024)) * W);
    const a = this.words;
    const b = this.spare;
    const c1 = this.counts;
    // Pass 1, a → b by the key's top bits.
    c1.fill(0);
    for (let r = 0; r < n; r++) c1[(a[r * W + 1]! >>> (32 - RADIX_BITS)) + 1]!++;
    for (let d = 1; d <= BUCKETS; d++) c1[d]! += c1[d - 1]!;
    const next = this.counts2;
    next.set(c1);
    for (let r = 0; r < n; r++) {
      const s = r * W;
      copyRecord(a, s, b, next[a[s + 1]! >>> (32 - RADIX_BITS)]!++ * W);
    }
    // Pass 2, each bucket b → a by the next bits; then the small groups by insertion.
    const c2 = this.counts2;
    const shift = 32 - 2 * RADIX_BITS;
    for (let d = 0; d < BUCKETS; d++) {
      const start = c1[d]!;
      const end = c1[d + 1]!;
      if (end - start <= INSERTION_MAX) {
        a.set(b.subarray(start * W, end * W), start * W);
        this.sortSmall(start, end);
        continue;
      }
      c2.fill(0);
      for (let r = start; r < end; r++) c2[((b[r * W + 1]! >>> shift) & (BUCKETS - 1)) + 1]!++;
      c2[0] = start;
      for (let e = 1; e <= BUCKETS; e++) c2[e]! += c2[e - 1]!;
      for (let r = start; r < end; r++) {
        const s = r * W;
        copyRecord(b, s, a, c2[(b[s + 1]! >>> shift) & (BUCKETS - 1)]!++ * W);
      }
      // c2[e] is now the end of group e; group 0 starts at `start`.
      let s = start;
      for (let e = 0; e < BUCKETS; e++) {
        const g = c2[e]!;
        if (g - s > INSERTION_MAX) this.sortLarge(s, g);
        else if (g - s > 1) this.sortSmall(s, g);
        s = g;
      }
    }
  }

  /** Whether record i sorts after record j (key, move, cell; never for equal ones: stable). */
  private after(x: Int32Array, i: number, y: Int32Array, j: number): boolean {
    const ih = x[i + 1]! >>> 0;
    const jh = y[j + 1]! >>> 0;
    if (ih !== jh) return ih > jh;
    const il = x[i]! >>> 0;
    const jl = y[j]! >>> 0;
    if (il !== jl) return il > jl;
    const im = x[i + 2]! & 0xffff;
    const jm = y[j + 2]! & 0xffff;
    if (im !== jm) return im > jm;
    return x[i + 3]! >>> 0 > y[j + 3]! >>> 0;
  }

  /** Insertion sort of records [start, end) in place (stable). */
  private sortSmall(start: number, end: number): void {
    const a = this.words;
    const t = this.spare;
    for (let i = start + 1; i < end; i++) {
      if (!this.after(a, (i - 1) * W, a, i * W)) continue;
      // Hold record i in the spare buffer's slot for it (pass 2 is done with that slot).
      const h = i * W;
      for (let k = 0; k < W; k++) t[h + k] = a[h + k]!;
      let j = i - 1;
      while (j >= start && this.after(a, j * W, t, h)) {
        a.copyWithin((j + 1) * W, j * W, j * W + W);
        j--;
      }
      for (let k = 0; k < W; k++) a[(j + 1) * W + k] = t[h + k]!;
    }
  }

  /** A long group (a popular position): a stable merge sort through the spare buffer. */
  private sortLarge(start: number, end: number): void {
    const a = this.words;
    const order: number[] = [];
    for (let r = start; r < end; r++) order.push(r);
    // Array.prototype.sort is stable (ECMAScript 2019).
    order.sort((i, j) => (this.after(a, i * W, a, j * W) ? 1 : this.after(a, j * W, a, i * W) ? -1 : 0));
    const t = this.spare;
    for (let k = 0; k < order.length; k++) t.set(a.subarray(order[k]! * W, order[k]! * W + W), (start + k) * W);
    a.set(t.subarray(start * W, end * W), start * W);
  }

  /** The rows of the sorted log, one (key, move, cell) at a time, from record `from`; returns the next record's index. */
  rowAt(from: number, row: RunRow): number {
    const a = this.words;
    const o = from * W;
    const keyLo = a[o]!;
    const keyHi = a[o + 1]!;
    const mw = a[o + 2]!;
    const move = mw & 0xffff;
    const cell = a[o + 3]!;
    row.keyLo = keyLo >>> 0;
    row.keyHi = keyHi >>> 0;
    row.move = move;
    row.black = (mw >>> 16) & 1;
    row.cell = cell >>> 0;
    let wins = 0;
    let draws = 0;
    let losses = 0;
    let unfinished = 0;
    let rated = 0;
    let ratingSum = 0;
    let maxPly = 0;
    let stamp = Infinity;
    let r = from;
    const n = this.size;
    for (; r < n; r++) {
      const p = r * W;
      if (r > from && (a[p] !== keyLo || a[p + 1] !== keyHi || (a[p + 2]! & 0xffff) !== move || a[p + 3] !== cell)) break;
      const res = ((a[p + 2]! >>> 17) & 3) - 1;
      if (res === MOVER_WIN) wins++;
      else if (res === MOVER_DRAW) draws++;
      else if (res === MOVER_LOSS) losses++;
      else unfinished++;
      const pe = a[p + 5]!;
      const elo = pe >>> 16;
      if (elo > 0) {
        rated++;
        ratingSum += elo;
      }
      const ply = pe & 0xffff;
      if (ply > maxPly) maxPly = ply;
      const at = a[p + 4]! * 65536 + ply;
      if (at < stamp) stamp = at;
    }
    row.wins = wins;
    row.draws = draws;
    row.losses = losses;
    row.unfinished = unfinished;
    row.rated = rated;
    row.ratingSum = ratingSum;
    row.maxPly = maxPly;
    row.stamp = stamp;
    row.weight = -1;
    row.learn = 0;
    return r;
  }
}

/** Copies the record at word `s` of `from` to word `t` of `to` (V8 inlines it in the sort's loops). */
function copyRecord(from: Int32Array, s: number, to: Int32Array, t: number): void {
  to[t] = from[s]!;
  to[t + 1] = from[s + 1]!;
  to[t + 2] = from[s + 2]!;
  to[t + 3] = from[s + 3]!;
  to[t + 4] = from[s + 4]!;
  to[t + 5] = from[s + 5]!;
}

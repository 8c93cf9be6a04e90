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
 * radix sort on the key's top bits (the in-place MSD radix sort of McIlroy, Bostic and McIlroy,
 * "Engineering radix sort", 1993, "American flag sort") writes each record at most once a
 * pass, within the log itself, with a bounded fan-out, leaving groups of a few records sorted by
 * insertion. Measured on the 389k-game collection (all plies, one thread): counting, sorting
 * and reading back took 47 s of CPU with the table and 15 s with the log (docs/rich-books.md,
 * "Where the time goes").
 *
 * A record is 6 words (24 bytes): key low, key high, move | black << 16 | (result + 1) << 17 |
 * repeat << 19, cell, game, ply | rating << 16 (the mover's rating, 0 = none; ratings are at
 * most 4000). A repeat is an occurrence of the position that its game reaches again later (a
 * repetition: repeats.ts): a row counts a game at its last occurrence only, its repeats apart
 * (runs.ts).
 */
import type { RunRow } from './runs.js';
import { sharedInts } from '../sharedBuffers.js';

/** The record's repeat flag (in its third word). */
const REPEAT_BIT = 1 << 19;

/** Results from the mover's side, as `count` takes them. */
export const MOVER_WIN = 1;
export const MOVER_DRAW = 0;
export const MOVER_LOSS = -1;
export const MOVER_UNFINISHED = 2;

const W = 6;
/** Words of a record. */
export const RECORD_WORDS = W;
/** Bytes a record costs, for sizing to a memory budget (it is sorted in place). */
export const RECORD_BYTES = W * 4;
/** The most records one log holds: 2^32 words, V8's longest typed array (16 GiB of records). */
const MAX_CAPACITY = Math.floor(2 ** 32 / W);
/** Two records' room for moving records around while sorting. */
const TMP = new Int32Array(2 * W);

/** Top-level radix: the key's top 11 bits, then the next 11, then insertion sort. */
const RADIX_BITS = 11;
const BUCKETS = 1 << RADIX_BITS;
/** Groups at most this long are sorted by insertion; longer ones (a popular position) by comparison. */
const INSERTION_MAX = 24;

export class PlyLog {
  /** Records logged since the last `clear`. */
  size = 0;
  private words: Int32Array;
  /** Bucket bounds of the first radix pass, and of the second within one bucket. */
  private readonly counts = new Int32Array(BUCKETS + 1);
  private readonly counts2 = new Int32Array(BUCKETS + 1);
  /** The next free slot of each bucket during a pass. */
  private readonly next = new Int32Array(BUCKETS + 1);
  private sorted = false;

  /**
   * A log for `capacity` records (it does not grow: `count` says when it is full); with
   * `shared`, in a SharedArrayBuffer that other threads read once it is sorted (tbkRanges.ts).
   */
  constructor(
    readonly capacity: number,
    shared = false,
  ) {
    // The OS hands out the buffer's pages as records reach them.
    this.words = shared ? sharedInts(capacity * W) : new Int32Array(capacity * W);
  }

  /** The buffer of every record (shared when the log was made so). */
  get buffer(): ArrayBufferLike {
    return this.words.buffer;
  }

  /** Records that fit a memory budget in bytes (at least 1024). */
  static capacityFor(budget: number): number {
    // A typed array holds at most 2^32 elements in V8: a larger budget leaves the rest unused.
    return Math.max(1024, Math.min(Math.floor(budget / RECORD_BYTES), MAX_CAPACITY));
  }

  /**
   * Logs one move: the position's key and side to move, the move, the game's split cell, the
   * result from the mover's side (MOVER_*), the mover's rating (0 = none), the game number and
   * the ply; `repeat` 1 when the game reaches this position again later. Returns
   * false, logging nothing, when the log is full.
   */
  count(keyLo: number, keyHi: number, black: number, move: number, cell: number, result: number, elo: number, game: number, ply: number, repeat = 0): boolean {
    if (this.size === this.capacity) return false;
    const w = this.words;
    const o = this.size++ * W;
    w[o] = keyLo;
    w[o + 1] = keyHi;
    w[o + 2] = move | (black << 16) | ((result + 1) << 17) | (repeat << 19);
    w[o + 3] = cell;
    w[o + 4] = game;
    w[o + 5] = ply | (elo << 16);
    this.sorted = false;
    return true;
  }

  /** The records logged (6 words each), in place (in log order until `sort`): valid until the log changes. */
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

  /** Adds `base` to the game number of records [from, to): games numbered within their chunk, once the chunk's place is known. */
  moveGames(from: number, to: number, base: number): void {
    const w = this.words;
    for (let o = from * W + 4, e = to * W; o < e; o += W) w[o]! += base;
  }

  /** Adds the number of records of each key cell (the key's top `bits` bits) to `counts`. */
  countCells(bits: number, counts: Float64Array): void {
    const w = this.words;
    const shift = 32 - bits;
    for (let o = 1, e = this.size * W; o < e; o += W) counts[w[o]! >>> shift]!++;
  }

  /** Empties the log for the next run. */
  clear(): void {
    this.size = 0;
    this.sorted = false;
  }

  /**
   * Sorts the records by key (unsigned), move and cell, in place. The order of the records of
   * one row among themselves is left to the sort: a row sums them and takes their earliest
   * stamp (`rowAt`), whatever their order.
   */
  sort(): void {
    if (this.sorted) return;
    this.sorted = true;
    const n = this.size;
    const starts = this.counts;
    // Pass 1 by the key's top bits, then each bucket by the next bits; then the small groups by insertion.
    this.radixPass(0, n, 32 - RADIX_BITS, starts);
    const sub = this.counts2;
    const shift = 32 - 2 * RADIX_BITS;
    for (let d = 0; d < BUCKETS; d++) {
      const start = starts[d]!;
      const end = starts[d + 1]!;
      if (end - start <= INSERTION_MAX) {
        if (end - start > 1) this.sortSmall(start, end);
        continue;
      }
      this.radixPass(start, end, shift, sub);
      for (let e = 0; e < BUCKETS; e++) {
        const s = sub[e]!;
        const g = sub[e + 1]!;
        if (g - s > INSERTION_MAX) this.sortLarge(s, g);
        else if (g - s > 1) this.sortSmall(s, g);
      }
    }
  }

  /**
   * Permutes records [start, end) in place into buckets of RADIX_BITS bits of the key's high
   * word from bit `shift` (American flag sort: McIlroy, Bostic and McIlroy, "Engineering radix
   * sort", 1993: each record is written at most once, into the next free slot of its bucket,
   * following the cycles of the permutation through two records of scratch, so no second
   * buffer as large as the log is needed and the budget holds twice the records). Leaves the
   * buckets' bounds in `starts` (bucket e is [starts[e], starts[e + 1])).
   */
  private radixPass(start: number, end: number, shift: number, starts: Int32Array): void {
    const a = this.words;
    const mask = BUCKETS - 1;
    starts.fill(0);
    for (let r = start; r < end; r++) starts[((a[r * W + 1]! >>> shift) & mask) + 1]!++;
    starts[0] = start;
    for (let d = 1; d <= BUCKETS; d++) starts[d]! += starts[d - 1]!;
    const next = this.next;
    next.set(starts);
    const t = TMP;
    for (let d = 0; d < BUCKETS; d++) {
      const bucketEnd = starts[d + 1]!;
      for (let i = next[d]!; i < bucketEnd; i = next[d]!) {
        let b = (a[i * W + 1]! >>> shift) & mask;
        if (b === d) {
          next[d] = i + 1;
          continue;
        }
        // The cycle through record i: each record goes to the next free slot of its bucket,
        // displacing the one there, until a record of bucket d comes back to slot i.
        copyRecord(a, i * W, t, 0);
        do {
          const j = next[b]!++ * W;
          copyRecord(a, j, t, W);
          copyRecord(t, 0, a, j);
          copyRecord(t, W, t, 0);
          b = (t[1]! >>> shift) & mask;
        } while (b !== d);
        copyRecord(t, 0, a, i * W);
        next[d] = i + 1;
      }
    }
  }

  /** Whether record i sorts after record j (key, move, cell; never for equal ones). */
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

  /** Insertion sort of records [start, end) in place. */
  private sortSmall(start: number, end: number): void {
    const a = this.words;
    const t = TMP;
    for (let i = start + 1; i < end; i++) {
      if (!this.after(a, (i - 1) * W, a, i * W)) continue;
      copyRecord(a, i * W, t, 0);
      let j = i - 1;
      while (j >= start && this.after(a, j * W, t, 0)) {
        a.copyWithin((j + 1) * W, j * W, j * W + W);
        j--;
      }
      copyRecord(t, 0, a, (j + 1) * W);
    }
  }

  /**
   * A long group (a popular position, whose key bits cannot split it): its records' order
   * sorted by comparison, then applied in place along the permutation's cycles.
   */
  private sortLarge(start: number, end: number): void {
    const a = this.words;
    const n = end - start;
    const order = new Int32Array(n);
    for (let k = 0; k < n; k++) order[k] = start + k;
    order.sort((i, j) => (this.after(a, i * W, a, j * W) ? 1 : this.after(a, j * W, a, i * W) ? -1 : 0));
    // Slot start + k takes record order[k]; a slot done is marked -1.
    const t = TMP;
    for (let k = 0; k < n; k++) {
      if (order[k] === -1 || order[k] === start + k) continue;
      copyRecord(a, (start + k) * W, t, 0);
      let at = k;
      for (;;) {
        const from = order[at]!;
        order[at] = -1;
        if (from === start + k) {
          copyRecord(t, 0, a, (start + at) * W);
          break;
        }
        copyRecord(a, from * W, a, (start + at) * W);
        at = from - start;
      }
    }
  }

  /**
   * From record `from` of the sorted log, hands each position logged once (one record: a
   * single) to `single(keyHi, keyLo, game)` (the key's halves unsigned), and stops at the first
   * position logged more than once, or at the end; returns the record it stopped at. Most
   * positions of a large collection are singles: this reads their records in place, with no
   * row to fill for each.
   */
  takeSingles(from: number, single: (keyHi: number, keyLo: number, game: number) => void): number {
    const a = this.words;
    const n = this.size;
    let r = from;
    while (r < n) {
      const o = r * W;
      const lo = a[o]!;
      const hi = a[o + 1]!;
      if (r + 1 < n && a[o + W] === lo && a[o + W + 1] === hi) return r;
      single(hi >>> 0, lo >>> 0, a[o + 4]!);
      r++;
    }
    return r;
  }

  /** Whether record `r` of the sorted log has the key of record `r - 1` (false past the end). */
  sameKeyAt(r: number): boolean {
    const a = this.words;
    const o = r * W;
    return r > 0 && r < this.size && a[o] === a[o - W] && a[o + 1] === a[o - W + 1];
  }

  /** The rows of the sorted log, one (key, move, cell) at a time, from record `from`; returns the next record's index. */
  rowAt(from: number, row: RunRow): number {
    return rowAt(this.words, from, this.size, row);
  }
}

/**
 * The row of sorted records (6 words each, in `a`) from record `from` up to the first of
 * another (key, move, cell) or record `n`: counts summed, the earliest stamp; returns the next
 * record's index.
 */
export function rowAt(a: Int32Array, from: number, n: number, row: RunRow): number {
  const o = from * W;
  const keyLo = a[o]!;
  const keyHi = a[o + 1]!;
  const move = a[o + 2]! & 0xffff;
  const cell = a[o + 3]!;
  row.keyLo = keyLo >>> 0;
  row.keyHi = keyHi >>> 0;
  row.move = move;
  row.cell = cell >>> 0;
  let wins = 0;
  let draws = 0;
  let losses = 0;
  let unfinished = 0;
  let rated = 0;
  let ratingSum = 0;
  let repeatWins = 0;
  let repeatDraws = 0;
  let repeatLosses = 0;
  let repeatUnfinished = 0;
  let maxPly = 0;
  let stamp = Infinity;
  let black = 0;
  let r = from;
  for (; r < n; r++) {
    const p = r * W;
    if (r > from && (a[p] !== keyLo || a[p + 1] !== keyHi || (a[p + 2]! & 0xffff) !== move || a[p + 3] !== cell)) break;
    const mp = a[p + 2]!;
    // The key includes the side to move, so this is one bit for all; or'ed as RunRow.add does, whatever the order.
    black |= (mp >>> 16) & 1;
    const res = ((mp >>> 17) & 3) - 1;
    const pe = a[p + 5]!;
    const ply = pe & 0xffff;
    if (ply > maxPly) maxPly = ply;
    const at = a[p + 4]! * 65536 + ply;
    if (at < stamp) stamp = at;
    if ((mp & REPEAT_BIT) !== 0) {
      // The game is counted at its first occurrence, its rating with it.
      if (res === MOVER_WIN) repeatWins++;
      else if (res === MOVER_DRAW) repeatDraws++;
      else if (res === MOVER_LOSS) repeatLosses++;
      else repeatUnfinished++;
      continue;
    }
    if (res === MOVER_WIN) wins++;
    else if (res === MOVER_DRAW) draws++;
    else if (res === MOVER_LOSS) losses++;
    else unfinished++;
    const elo = pe >>> 16;
    if (elo > 0) {
      rated++;
      ratingSum += elo;
    }
  }
  row.black = black;
  row.wins = wins;
  row.draws = draws;
  row.losses = losses;
  row.unfinished = unfinished;
  row.rated = rated;
  row.ratingSum = ratingSum;
  row.repeatWins = repeatWins;
  row.repeatDraws = repeatDraws;
  row.repeatLosses = repeatLosses;
  row.repeatUnfinished = repeatUnfinished;
  row.maxPly = maxPly;
  row.stamp = stamp;
  row.weight = -1;
  row.learn = 0;
  return r;
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

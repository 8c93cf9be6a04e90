/**
 * The accumulator of a book build: one row per (position key, move, split cell) with the raw
 * counts of the games that played the move there, in a table of a fixed capacity. When it is
 * full the build spills it, sorted, as a run (runs.ts) and starts again; the runs are merged by
 * key at the end (mergeRuns.ts). Counts are raw here: make-book's halving depends on the order
 * of the games and is recomputed at the end from the stored games (halving.ts), so a build that
 * spilled a hundred runs and one that spilled none give the same book.
 *
 * Per row: wins, draws, losses (finished games, from the mover's side), unfinished games
 * (make-book counts them as draws), games whose mover was rated and the sum of those ratings,
 * the stamp of the first occurrence (game · 65536 + ply: the order make-book creates entries in,
 * which breaks its weight ties) and the highest ply the move was played at.
 *
 * Layout, for speed (measured on a build of 83k games: counting and reading back in key order
 * took 8 s with a column per field, where a row's fields cost one cache miss each): each row is
 * 64 bytes in one buffer, so a lookup or an update touches one cache line, and the index slots
 * carry a fingerprint of the row's key, so a probe past other rows reads the slots only (as
 * make-book's accumulator does, src/book/polyglot/make.ts). The row buffer is allocated at the
 * full capacity (the OS hands out its pages as rows reach them), but the index starts small and
 * doubles with the rows: an index sized for the whole budget costs a TLB miss and, at first, a
 * page fault per lookup (1.2 µs against 0.15 µs measured). Row words:
 *
 *    0 key low   1 key high   2 move | black << 16   3 cell
 *    4 wins      5 draws      6 losses                7 unfinished
 *    8 rated     9 highest ply   10-11 rating sum (f64)   12-13 stamp (f64)   14-15 unused
 */

/** Bytes a row costs, for sizing to a memory budget: the row, two index slots, and what sorting it for a run needs. */
export const ROW_BYTES = 64 + 8 + (4 + 4 + 8 + 4);

const W = 16;

/** Results from the mover's side, as `count` takes them. */
export const MOVER_WIN = 1;
export const MOVER_DRAW = 0;
export const MOVER_LOSS = -1;
export const MOVER_UNFINISHED = 2;

export class EntryTable {
  size = 0;
  /** The rows, 16 words each (see above). */
  readonly words: Int32Array;
  /** The same buffer as float64, for the rating sum (word 10) and the stamp (word 12). */
  readonly f64: Float64Array;
  private slots: Int32Array;
  private mask: number;
  /** Bits of a slot that hold the row number + 1 (the rest: the fingerprint). */
  private shift: number;

  /** A table for `capacity` rows (it does not grow: `count` says when it is full). */
  constructor(readonly capacity: number) {
    const buf = new ArrayBuffer(capacity * W * 4);
    this.words = new Int32Array(buf);
    this.f64 = new Float64Array(buf);
    this.shift = 0;
    this.slots = new Int32Array(0);
    this.mask = 0;
    this.index(1 << 16);
  }

  /** (Re)builds the index with `n` slots (a power of two) over the rows. */
  private index(n: number): void {
    let shift = 10;
    while (1 << shift < n && shift < 30) shift++;
    this.shift = shift;
    this.slots = new Int32Array(1 << shift);
    this.mask = (1 << shift) - 1;
    const w = this.words;
    for (let r = 0; r < this.size; r++) {
      const o = r * W;
      const h = w[o]! ^ Math.imul((w[o + 2]! & 0xffff) + 1, 0x9e3779b1) ^ Math.imul(w[o + 3]!, 0x85ebca6b);
      const fp = (w[o + 1]! ^ Math.imul(h, 0x27d4eb2f)) >>> shift;
      let i = h & this.mask;
      while (this.slots[i] !== 0) i = (i + 1) & this.mask;
      this.slots[i] = (r + 1) | (fp << shift);
    }
  }

  /** Rows that fit a memory budget in bytes (at least 1024). */
  static capacityFor(budget: number): number {
    return Math.max(1024, Math.floor(budget / ROW_BYTES));
  }

  /**
   * Counts one move: the position's key and side to move, the move, the game's split cell, the
   * result from the mover's side (MOVER_*), the mover's rating (0 = none), the game number and
   * the ply. Returns false, counting nothing, when the table is full.
   */
  count(keyLo: number, keyHi: number, black: number, move: number, cell: number, result: number, elo: number, game: number, ply: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    const shift = this.shift;
    const w = this.words;
    const mw = move | (black << 16);
    const h = keyLo ^ Math.imul(move + 1, 0x9e3779b1) ^ Math.imul(cell, 0x85ebca6b);
    const fp = (keyHi ^ Math.imul(h, 0x27d4eb2f)) >>> shift;
    let i = h & mask;
    let o: number;
    for (;;) {
      const s = slots[i]!;
      if (s === 0) {
        if (this.size === this.capacity) return false;
        if (this.size * 2 >= slots.length && slots.length < 1 << 30) {
          // Half full: double the index and look again.
          this.index(slots.length * 2);
          return this.count(keyLo, keyHi, black, move, cell, result, elo, game, ply);
        }
        const r = this.size++;
        slots[i] = (r + 1) | (fp << shift);
        o = r * W;
        w[o] = keyLo;
        w[o + 1] = keyHi;
        w[o + 2] = mw;
        w[o + 3] = cell;
        this.f64[(o >> 1) + 6] = game * 65536 + ply;
        break;
      }
      if (s >>> shift === fp) {
        o = ((s & mask) - 1) * W;
        if (w[o] === keyLo && w[o + 1] === keyHi && (w[o + 2]! & 0xffff) === move && w[o + 3] === cell) break;
      }
      i = (i + 1) & mask;
    }
    if (result === MOVER_WIN) w[o + 4]!++;
    else if (result === MOVER_DRAW) w[o + 5]!++;
    else if (result === MOVER_LOSS) w[o + 6]!++;
    else w[o + 7]!++;
    if (elo > 0) {
      w[o + 8]!++;
      this.f64[(o >> 1) + 5]! += elo;
    }
    if (ply > w[o + 9]!) w[o + 9] = ply;
    return true;
  }

  /** Empties the table for the next run. */
  clear(): void {
    this.words.fill(0, 0, this.size * W);
    this.size = 0;
    this.index(1 << 16);
  }

  keyLo(r: number): number {
    return this.words[r * W]!;
  }

  keyHi(r: number): number {
    return this.words[r * W + 1]!;
  }

  move(r: number): number {
    return this.words[r * W + 2]! & 0xffff;
  }

  black(r: number): number {
    return this.words[r * W + 2]! >>> 16;
  }

  cell(r: number): number {
    return this.words[r * W + 3]! >>> 0;
  }

  wins(r: number): number {
    return this.words[r * W + 4]!;
  }

  draws(r: number): number {
    return this.words[r * W + 5]!;
  }

  losses(r: number): number {
    return this.words[r * W + 6]!;
  }

  unfinished(r: number): number {
    return this.words[r * W + 7]!;
  }

  rated(r: number): number {
    return this.words[r * W + 8]!;
  }

  maxPly(r: number): number {
    return this.words[r * W + 9]!;
  }

  ratingSum(r: number): number {
    return this.f64[r * 8 + 5]!;
  }

  stamp(r: number): number {
    return this.f64[r * 8 + 6]!;
  }

  /**
   * Row numbers in run order: key (unsigned), then move, then cell. Rows are bucketed by the
   * key's top bits (about 8 rows a bucket) in one counting pass, with their sort fields moved
   * along so that each bucket is sorted by insertion in contiguous memory.
   */
  sortedRows(): Int32Array {
    const n = this.size;
    const w = this.words;
    let bits = 8;
    while (bits < 24 && 1 << (bits + 3) < n) bits++;
    const buckets = 1 << bits;
    const shift = 32 - bits;
    const counts = new Int32Array(buckets + 1);
    for (let r = 0; r < n; r++) counts[(w[r * W + 1]! >>> shift) + 1]!++;
    for (let d = 1; d <= buckets; d++) counts[d]! += counts[d - 1]!;
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    const mc = new Float64Array(n);
    const out = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      const o = r * W;
      const k = counts[w[o + 1]! >>> shift]!++;
      hi[k] = w[o + 1]!;
      lo[k] = w[o]!;
      mc[k] = (w[o + 2]! & 0xffff) * 0x100000000 + (w[o + 3]! >>> 0);
      out[k] = r;
    }
    let s = 0;
    for (let d = 0; d < buckets; d++) {
      const e = counts[d]!;
      for (let i = s + 1; i < e; i++) {
        const h = hi[i]!;
        const l = lo[i]!;
        const m = mc[i]!;
        const r = out[i]!;
        let j = i - 1;
        while (j >= s && (hi[j]! > h || (hi[j] === h && (lo[j]! > l || (lo[j] === l && mc[j]! > m))))) {
          hi[j + 1] = hi[j]!;
          lo[j + 1] = lo[j]!;
          mc[j + 1] = mc[j]!;
          out[j + 1] = out[j]!;
          j--;
        }
        hi[j + 1] = h;
        lo[j + 1] = l;
        mc[j + 1] = m;
        out[j + 1] = r;
      }
      s = e;
    }
    return out;
  }
}

/**
 * The accumulator of a book build: one row per (position key, move, split cell) with the raw
 * counts of the games that played the move there, in typed-array columns of a fixed capacity.
 * When it is full the build spills it, sorted, as a run (runs.ts) and starts again; the runs
 * are merged by key at the end (merge.ts). Counts are raw here: make-book's halving depends on
 * the order of the games and is recomputed at the end from the stored games (halving.ts), so a
 * build that spilled a hundred runs and one that spilled none give the same book.
 *
 * Per row: wins, draws, losses (finished games, from the mover's side), unfinished games
 * (make-book counts them as draws), games whose mover was rated and the sum of those ratings,
 * the stamp of the first occurrence (game · 65536 + ply: the order make-book creates entries in,
 * which breaks its weight ties) and the highest ply the move was played at.
 */

/**
 * Bytes of memory a row costs, for sizing to a memory budget: its columns, two index slots, and
 * the columns sorting it for a run needs (`sortedRows`).
 */
export const ROW_BYTES = 4 + 4 + 2 + 4 + 1 + 5 * 4 + 8 + 8 + 2 + 8 + (4 + 4 + 8 + 4);

/** Results from the mover's side, as `count` takes them. */
export const MOVER_WIN = 1;
export const MOVER_DRAW = 0;
export const MOVER_LOSS = -1;
export const MOVER_UNFINISHED = 2;

export class EntryTable {
  size = 0;
  readonly keyLo: Int32Array;
  readonly keyHi: Int32Array;
  readonly move: Uint16Array;
  readonly cell: Uint32Array;
  /** Bit 0: Black to move (Polyglot's --only-white/--only-black need it; a key does not say). */
  readonly black: Uint8Array;
  readonly wins: Uint32Array;
  readonly draws: Uint32Array;
  readonly losses: Uint32Array;
  readonly unfinished: Uint32Array;
  readonly rated: Uint32Array;
  readonly ratingSum: Float64Array;
  readonly stamp: Float64Array;
  readonly maxPly: Uint16Array;
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** A table for `capacity` rows (it does not grow: `count` says when it is full). */
  constructor(readonly capacity: number) {
    this.keyLo = new Int32Array(capacity);
    this.keyHi = new Int32Array(capacity);
    this.move = new Uint16Array(capacity);
    this.cell = new Uint32Array(capacity);
    this.black = new Uint8Array(capacity);
    this.wins = new Uint32Array(capacity);
    this.draws = new Uint32Array(capacity);
    this.losses = new Uint32Array(capacity);
    this.unfinished = new Uint32Array(capacity);
    this.rated = new Uint32Array(capacity);
    this.ratingSum = new Float64Array(capacity);
    this.stamp = new Float64Array(capacity);
    this.maxPly = new Uint16Array(capacity);
    let n = 1024;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n);
    this.mask = n - 1;
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
    let i = (keyLo ^ Math.imul(move + 1, 0x9e3779b1) ^ Math.imul(cell, 0x85ebca6b)) & mask;
    let r: number;
    for (;;) {
      const s = slots[i]!;
      if (s === 0) {
        if (this.size === this.capacity) return false;
        r = this.size++;
        slots[i] = r + 1;
        this.keyLo[r] = keyLo;
        this.keyHi[r] = keyHi;
        this.move[r] = move;
        this.cell[r] = cell;
        this.black[r] = black;
        this.stamp[r] = game * 65536 + ply;
        break;
      }
      r = s - 1;
      if (this.keyLo[r] === keyLo && this.keyHi[r] === keyHi && this.move[r] === move && this.cell[r] === cell) break;
      i = (i + 1) & mask;
    }
    if (result === MOVER_WIN) this.wins[r]!++;
    else if (result === MOVER_DRAW) this.draws[r]!++;
    else if (result === MOVER_LOSS) this.losses[r]!++;
    else this.unfinished[r]!++;
    if (elo > 0) {
      this.rated[r]!++;
      this.ratingSum[r]! += elo;
    }
    if (ply > this.maxPly[r]!) this.maxPly[r] = ply;
    return true;
  }

  /** A larger table holding this one's rows (the build grows its table up to the budget before it spills). */
  grown(capacity: number): EntryTable {
    const t = new EntryTable(capacity);
    const n = this.size;
    t.keyLo.set(this.keyLo.subarray(0, n));
    t.keyHi.set(this.keyHi.subarray(0, n));
    t.move.set(this.move.subarray(0, n));
    t.cell.set(this.cell.subarray(0, n));
    t.black.set(this.black.subarray(0, n));
    t.wins.set(this.wins.subarray(0, n));
    t.draws.set(this.draws.subarray(0, n));
    t.losses.set(this.losses.subarray(0, n));
    t.unfinished.set(this.unfinished.subarray(0, n));
    t.rated.set(this.rated.subarray(0, n));
    t.ratingSum.set(this.ratingSum.subarray(0, n));
    t.stamp.set(this.stamp.subarray(0, n));
    t.maxPly.set(this.maxPly.subarray(0, n));
    t.size = n;
    for (let r = 0; r < n; r++) {
      let i = (t.keyLo[r]! ^ Math.imul(t.move[r]! + 1, 0x9e3779b1) ^ Math.imul(t.cell[r]!, 0x85ebca6b)) & t.mask;
      while (t.slots[i] !== 0) i = (i + 1) & t.mask;
      t.slots[i] = r + 1;
    }
    return t;
  }

  /** Empties the table for the next run. */
  clear(): void {
    this.slots.fill(0);
    const n = this.size;
    this.wins.fill(0, 0, n);
    this.draws.fill(0, 0, n);
    this.losses.fill(0, 0, n);
    this.unfinished.fill(0, 0, n);
    this.rated.fill(0, 0, n);
    this.ratingSum.fill(0, 0, n);
    this.maxPly.fill(0, 0, n);
    this.size = 0;
  }

  /**
   * Row numbers in run order: key (unsigned), then move, then cell. Rows are bucketed by the
   * key's top bits (about 8 rows a bucket) in one counting pass, with their sort fields moved
   * along so that each bucket is sorted by insertion in contiguous memory: a general sort of
   * millions of rows spends its time in cache misses on the columns.
   */
  sortedRows(): Int32Array {
    const n = this.size;
    let bits = 8;
    while (bits < 24 && 1 << (bits + 3) < n) bits++;
    const buckets = 1 << bits;
    const shift = 32 - bits;
    const counts = new Int32Array(buckets + 1);
    for (let r = 0; r < n; r++) counts[(this.keyHi[r]! >>> shift) + 1]!++;
    for (let d = 1; d <= buckets; d++) counts[d]! += counts[d - 1]!;
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    const mc = new Float64Array(n);
    const out = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      const k = counts[this.keyHi[r]! >>> shift]!++;
      hi[k] = this.keyHi[r]!;
      lo[k] = this.keyLo[r]!;
      mc[k] = this.move[r]! * 0x100000000 + this.cell[r]!;
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

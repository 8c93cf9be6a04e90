/**
 * `merge-book`: a two-pointer merge of two sorted books, one key group at a time, streaming
 * (only the entries of one key are held), so books of any size merge in constant memory.
 *
 * Rules (polyglot.md §3):
 * - a key in one book only: its entries are copied verbatim (weight and learn);
 * - `priority: 'sum'` (PolyGlot 2.0.x): A's entries of the key in A's order, each B entry's
 *   weight added to the first A entry with the same move (learn stays A's), then B's other
 *   entries in B's order. No re-sorting inside the key, as PolyGlot.
 * - `priority: 'first'` (PolyGlot 1.4): A's entries only; B's entries of the key are skipped.
 * Weights saturate at 65535 by default; `wrap: true` reproduces PolyGlot's uint16 wrap-around.
 */
import { ENTRY_SIZE, MAX_WEIGHT, u32, writeEntry } from './format.js';
import { BookError } from './select.js';

/** Sequential access to a book's entries; `next()` loads the following entry into the fields. */
export interface EntryCursor {
  readonly name: string;
  next(): boolean;
  index: number;
  keyHi: number;
  keyLo: number;
  move: number;
  weight: number;
  learn: number;
}

/** A cursor over a book in memory. */
export class MemoryCursor implements EntryCursor {
  index = -1;
  keyHi = 0;
  keyLo = 0;
  move = 0;
  weight = 0;
  learn = 0;
  private readonly count: number;

  constructor(
    private readonly bytes: Uint8Array,
    readonly name: string,
  ) {
    this.count = Math.floor(bytes.length / ENTRY_SIZE);
  }

  next(): boolean {
    if (this.index + 1 >= this.count) return false;
    const o = ++this.index * ENTRY_SIZE;
    const b = this.bytes;
    this.keyHi = u32(b, o);
    this.keyLo = u32(b, o + 4);
    this.move = (b[o + 8]! << 8) | b[o + 9]!;
    this.weight = (b[o + 10]! << 8) | b[o + 11]!;
    this.learn = u32(b, o + 12);
    return true;
  }
}

/** Collects output entries into chunks handed to `flush`. */
export class EntrySink {
  private buf: Uint8Array;
  private n = 0;
  /** Entries written so far. */
  count = 0;

  constructor(
    private readonly flush: (bytes: Uint8Array) => void,
    chunkEntries = 4096,
  ) {
    this.buf = new Uint8Array(chunkEntries * ENTRY_SIZE);
  }

  push(keyHi: number, keyLo: number, move: number, weight: number, learn: number): void {
    writeEntry(this.buf, this.n++, keyHi, keyLo, move, weight, learn);
    this.count++;
    if (this.n * ENTRY_SIZE === this.buf.length) this.end();
  }

  /** Flushes what is buffered. */
  end(): void {
    if (this.n === 0) return;
    this.flush(this.buf.slice(0, this.n * ENTRY_SIZE));
    this.n = 0;
  }
}

export interface MergeOptions {
  /** 'sum' (PolyGlot 2.0.x, default) or 'first' (PolyGlot 1.4: the first book wins a key). */
  priority?: 'sum' | 'first';
  /** Wrap summed weights modulo 65536 like PolyGlot instead of saturating at 65535. */
  wrap?: boolean;
}

export interface MergeStats {
  entriesA: number;
  entriesB: number;
  written: number;
  /** Keys present in both books. */
  sharedKeys: number;
  /** B entries whose weight was added to an A entry. */
  summed: number;
  /** Sums that exceeded 65535 (saturated, or wrapped with `wrap`). */
  overflowed: number;
  /** B entries dropped by `priority: 'first'`. */
  skipped: number;
}

/** One key's entries, read ahead from a cursor, with a check that keys never go down. */
class Groups {
  hi: number[] = [];
  lo: number[] = [];
  mv: number[] = [];
  wt: number[] = [];
  ln: number[] = [];
  keyHi = 0;
  keyLo = 0;
  done = false;
  entries = 0;
  private pending: boolean;

  constructor(private readonly c: EntryCursor) {
    this.pending = c.next();
    this.load();
  }

  /** Loads the next key group; sets `done` at the end. */
  load(): void {
    this.mv.length = 0;
    this.wt.length = 0;
    this.ln.length = 0;
    if (!this.pending) {
      this.done = true;
      return;
    }
    const c = this.c;
    const h = c.keyHi;
    const l = c.keyLo;
    if (this.entries > 0 && (h < this.keyHi || (h === this.keyHi && l <= this.keyLo))) {
      throw new BookError(
        'ERR_BOOK_UNSORTED',
        `${c.name}: not a Polyglot book, or not sorted: the key of entry ${c.index} (byte ${c.index * ENTRY_SIZE}) is smaller than the key before it`,
        c.name,
        c.index * ENTRY_SIZE,
      );
    }
    this.keyHi = h;
    this.keyLo = l;
    do {
      this.mv.push(c.move);
      this.wt.push(c.weight);
      this.ln.push(c.learn);
      this.entries++;
      this.pending = c.next();
    } while (this.pending && c.keyHi === h && c.keyLo === l);
  }

  emit(out: EntrySink): void {
    for (let i = 0; i < this.mv.length; i++) out.push(this.keyHi, this.keyLo, this.mv[i]!, this.wt[i]!, this.ln[i]!);
  }
}

/** Merges book `a` with book `b` into `out`. */
export function mergeBooks(a: EntryCursor, b: EntryCursor, out: EntrySink, opts: MergeOptions = {}): MergeStats {
  const first = opts.priority === 'first';
  const wrap = opts.wrap === true;
  const ga = new Groups(a);
  const gb = new Groups(b);
  const stats: MergeStats = { entriesA: 0, entriesB: 0, written: 0, sharedKeys: 0, summed: 0, overflowed: 0, skipped: 0 };
  while (!ga.done || !gb.done) {
    const cmp = ga.done ? 1 : gb.done ? -1 : ga.keyHi !== gb.keyHi ? (ga.keyHi < gb.keyHi ? -1 : 1) : ga.keyLo === gb.keyLo ? 0 : ga.keyLo < gb.keyLo ? -1 : 1;
    if (cmp < 0) {
      ga.emit(out);
      ga.load();
      continue;
    }
    if (cmp > 0) {
      gb.emit(out);
      gb.load();
      continue;
    }
    stats.sharedKeys++;
    if (first) {
      stats.skipped += gb.mv.length;
      ga.emit(out);
    } else {
      const extra: number[] = [];
      for (let j = 0; j < gb.mv.length; j++) {
        const k = ga.mv.indexOf(gb.mv[j]!);
        if (k < 0) {
          extra.push(j);
          continue;
        }
        stats.summed++;
        const s = ga.wt[k]! + gb.wt[j]!;
        if (s > MAX_WEIGHT) stats.overflowed++;
        ga.wt[k] = s <= MAX_WEIGHT ? s : wrap ? s & 0xffff : MAX_WEIGHT;
      }
      ga.emit(out);
      for (const j of extra) out.push(gb.keyHi, gb.keyLo, gb.mv[j]!, gb.wt[j]!, gb.ln[j]!);
    }
    ga.load();
    gb.load();
  }
  out.end();
  stats.entriesA = ga.entries;
  stats.entriesB = gb.entries;
  stats.written = out.count;
  return stats;
}

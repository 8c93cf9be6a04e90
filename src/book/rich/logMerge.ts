/**
 * The k-way merge of sorted ply logs (plyLog.ts), read in place: the logs of a build's threads
 * (src/book/node/tbkRanges.ts), each sorted on its own thread, merged into one cursor of rows in
 * run order without copying a record. A binary heap of the logs by their next record, as in
 * mergeRuns.ts, but over records rather than decoded rows.
 *
 * Like one sorted log it hands single positions in bulk (RowSource.takeSingles), most of a large
 * collection: a position is a single when one record of all the logs has its key. The top's two
 * children hold the least key of the other logs, so the top log's records below it are read in a
 * row, as from one log, each a single unless the next record has its key.
 * Browser-safe.
 */
import { RECORD_WORDS as W, rowAt } from './plyLog.js';
import type { RowSource, SingleSink } from './mergeRuns.js';
import { RunRow } from './runs.js';

/** Records [from, to) of a sorted log's words. */
export interface LogSlice {
  words: Int32Array;
  from: number;
  to: number;
}

/** The first record of `size` sorted ones whose key's high half (unsigned) is at least `hi`. */
export function firstFrom(words: Int32Array, size: number, hi: number): number {
  let lo = 0;
  let up = size;
  while (lo < up) {
    const mid = (lo + up) >>> 1;
    if (words[mid * W + 1]! >>> 0 < hi) lo = mid + 1;
    else up = mid;
  }
  return lo;
}

export class LogMerge implements RowSource {
  private readonly words: Int32Array[] = [];
  /** Each log's next record and end. */
  private readonly at: number[] = [];
  private readonly end: number[] = [];
  /** Logs with records left, ordered by their next record (key, move, cell; then log). */
  private readonly heap: Int32Array;
  private size = 0;
  private readonly other = new RunRow();
  /** The key of the last row `next` gave, as the words hold it. */
  private lastHi = 0;
  private lastLo = 0;

  constructor(slices: readonly LogSlice[]) {
    for (const s of slices) {
      if (s.from >= s.to) continue;
      this.words.push(s.words);
      this.at.push(s.from);
      this.end.push(s.to);
    }
    this.heap = new Int32Array(this.words.length);
    for (let i = 0; i < this.words.length; i++) this.push(i);
  }

  takeSingles(single: SingleSink): number {
    const h = this.heap;
    let n = this.size === 2 ? this.takeSinglesOfTwo(single) : 0;
    while (this.size > 0) {
      const s = h[0]!;
      const a = this.words[s]!;
      const end = this.end[s]!;
      // The least next key of the other logs (at a child of the top): up to it, the top log's
      // positions are the only ones of their keys, and its records are read in a row.
      let boundHi = 2 ** 32;
      let boundLo = 0;
      if (this.size > 1) {
        const c = this.size > 2 && this.less(h[2]!, h[1]!) ? h[2]! : h[1]!;
        const o = this.at[c]! * W;
        boundHi = this.words[c]![o + 1]! >>> 0;
        boundLo = this.words[c]![o]! >>> 0;
      }
      const from = this.at[s]!;
      let r = from;
      let stop = false;
      for (; r < end; r++) {
        const o = r * W;
        const lo = a[o]!;
        const hi = a[o + 1]!;
        const uh = hi >>> 0;
        const ul = lo >>> 0;
        if (uh > boundHi || (uh === boundHi && ul >= boundLo)) {
          // Another log's key comes first (the heap moves to it), or is this one's (no single).
          stop = uh === boundHi && ul === boundLo;
          break;
        }
        if (r + 1 < end && a[o + W] === lo && a[o + W + 1] === hi) {
          stop = true;
          break;
        }
        single(uh, ul, a[o + 4]!);
      }
      n += r - from;
      this.moved(s, r);
      if (stop) return n;
    }
    return n;
  }

  /**
   * takeSingles for two logs (a build on two threads), as a plain two-way merge: each record is
   * compared with the other log's next key, kept in locals. Returns when a position is not a
   * single, or when one log ends (the heap then goes on with the other).
   */
  private takeSinglesOfTwo(single: SingleSink): number {
    const s = this.heap[0]!;
    const t = this.heap[1]!;
    const a = this.words[s]!;
    const b = this.words[t]!;
    const ea = this.end[s]! * W;
    const eb = this.end[t]! * W;
    let i = this.at[s]! * W;
    let j = this.at[t]! * W;
    let n = 0;
    let aLo = a[i]!;
    let aHi = a[i + 1]!;
    let bLo = b[j]!;
    let bHi = b[j + 1]!;
    for (;;) {
      const ua = aHi >>> 0;
      const ub = bHi >>> 0;
      if (ua < ub || (ua === ub && aLo >>> 0 < bLo >>> 0)) {
        if (i + W < ea && a[i + W] === aLo && a[i + W + 1] === aHi) break;
        single(ua, aLo >>> 0, a[i + 4]!);
        n++;
        i += W;
        if (i >= ea) break;
        aLo = a[i]!;
        aHi = a[i + 1]!;
      } else if (ua !== ub || aLo !== bLo) {
        if (j + W < eb && b[j + W] === bLo && b[j + W + 1] === bHi) break;
        single(ub, bLo >>> 0, b[j + 4]!);
        n++;
        j += W;
        if (j >= eb) break;
        bLo = b[j]!;
        bHi = b[j + 1]!;
      } else break;
    }
    // The heap again: a log that ended leaves it; else the one whose record comes first on top.
    this.at[s] = i / W;
    this.at[t] = j / W;
    this.size = 0;
    if (i < ea) this.push(s);
    if (j < eb) this.push(t);
    return n;
  }

  next(row: RunRow): boolean {
    if (this.size === 0) return false;
    const s = this.heap[0]!;
    this.moved(s, rowAt(this.words[s]!, this.at[s]!, this.end[s]!, row));
    // The same (key, move, cell) in other logs adds into the row.
    const other = this.other;
    while (this.size > 0) {
      const t = this.heap[0]!;
      const a = this.words[t]!;
      const o = this.at[t]! * W;
      if (a[o + 1]! >>> 0 !== row.keyHi || a[o]! >>> 0 !== row.keyLo || (a[o + 2]! & 0xffff) !== row.move || a[o + 3]! >>> 0 !== row.cell) break;
      this.moved(t, rowAt(a, this.at[t]!, this.end[t]!, other));
      row.add(other);
    }
    this.lastHi = row.keyHi | 0;
    this.lastLo = row.keyLo | 0;
    return true;
  }

  sameKey(): boolean {
    return this.size > 0 && this.hasKey(this.heap[0]!, this.lastHi, this.lastLo);
  }

  /** Whether log s's next record has the key (hi, lo) (as the words hold it). */
  private hasKey(s: number, hi: number, lo: number): boolean {
    const a = this.words[s]!;
    const o = this.at[s]! * W;
    return a[o + 1] === hi && a[o] === lo;
  }

  /** The top log, s, now goes on at record r: it leaves the heap at its end, else sinks to its place. */
  private moved(s: number, r: number): void {
    this.at[s] = r;
    if (r >= this.end[s]!) {
      const last = this.heap[--this.size]!;
      if (this.size === 0) return;
      this.heap[0] = last;
    }
    this.siftDown(0);
  }

  /** Whether log s's next record sorts before log t's (key, move, cell unsigned; then the log). */
  private less(s: number, t: number): boolean {
    const a = this.words[s]!;
    const b = this.words[t]!;
    const i = this.at[s]! * W;
    const j = this.at[t]! * W;
    const ah = a[i + 1]! >>> 0;
    const bh = b[j + 1]! >>> 0;
    if (ah !== bh) return ah < bh;
    const al = a[i]! >>> 0;
    const bl = b[j]! >>> 0;
    if (al !== bl) return al < bl;
    const am = a[i + 2]! & 0xffff;
    const bm = b[j + 2]! & 0xffff;
    if (am !== bm) return am < bm;
    const ac = a[i + 3]! >>> 0;
    const bc = b[j + 3]! >>> 0;
    if (ac !== bc) return ac < bc;
    return s < t;
  }

  private push(s: number): void {
    const h = this.heap;
    let k = this.size++;
    h[k] = s;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.less(h[k]!, h[p]!)) break;
      const x = h[k]!;
      h[k] = h[p]!;
      h[p] = x;
      k = p;
    }
  }

  private siftDown(k: number): void {
    const h = this.heap;
    const n = this.size;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= n) return;
      const r = l + 1;
      const m = r < n && this.less(h[r]!, h[l]!) ? r : l;
      if (!this.less(h[m]!, h[k]!)) return;
      const x = h[k]!;
      h[k] = h[m]!;
      h[m] = x;
      k = m;
    }
  }
}

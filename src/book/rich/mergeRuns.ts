/**
 * The k-way merge of sorted runs (runs.ts): rows come out in run order, rows of the same
 * (key, move, cell) from several runs added into one (counts summed, the earliest stamp kept).
 * A binary heap of the runs' current rows; memory is one window per run. Browser-safe.
 *
 * Stamps are game · 65536 + ply; a run whose games were numbered from 0 in a later shard is
 * given the number of games before it (`gameOffset`), so stamps compare across shards.
 */
import { RunRow, compareRows } from './runs.js';

/** Receives a single position: its key's halves (unsigned) and its one game. */
export type SingleSink = (keyHi: number, keyLo: number, game: number) => void;

/** A source of rows in run order (a run file, a table, a book). */
export interface RowSource {
  next(row: RunRow): boolean;
  /**
   * Optional, for a source that sees where a position's rows end without reading past them (a
   * sorted ply log): hands the single positions that come next (one row of one game, no
   * imported weight) to `single`, stopping before the first position that is not one; returns
   * how many. `next` reads on from there.
   */
  takeSingles?(single: SingleSink): number;
  /** Optional, with `takeSingles`: whether the next row has the key of the row `next` read last. */
  sameKey?(): boolean;
}

export interface MergeInput {
  reader: RowSource;
  /** Added to the game number of every stamp of this run. */
  gameOffset: number;
}

export class RunMerger {
  private readonly rows: RunRow[];
  private readonly heap: number[] = [];
  private readonly offsets: number[];

  constructor(private readonly inputs: readonly MergeInput[]) {
    this.rows = inputs.map(() => new RunRow());
    this.offsets = inputs.map((i) => i.gameOffset * 65536);
    for (let i = 0; i < inputs.length; i++) if (this.load(i)) this.push(i);
  }

  /** Fills `out` with the next merged row; false when every run is done. */
  next(out: RunRow): boolean {
    if (this.heap.length === 0) return false;
    const top = this.heap[0]!;
    out.copyFrom(this.rows[top]!);
    this.advance();
    while (this.heap.length > 0 && compareRows(this.rows[this.heap[0]!]!, out) === 0) {
      out.add(this.rows[this.heap[0]!]!);
      this.advance();
    }
    return true;
  }

  /** Loads run i's next row (stamp shifted); false when it is done. */
  private load(i: number): boolean {
    const r = this.rows[i]!;
    if (!this.inputs[i]!.reader.next(r)) return false;
    r.stamp += this.offsets[i]!;
    return true;
  }

  /** Replaces the top run's row with its next one (or drops the run) and restores the heap. */
  private advance(): void {
    const top = this.heap[0]!;
    if (this.load(top)) this.siftDown(0);
    else {
      const last = this.heap.pop()!;
      if (this.heap.length > 0) {
        this.heap[0] = last;
        this.siftDown(0);
      }
    }
  }

  private less(a: number, b: number): boolean {
    const c = compareRows(this.rows[a]!, this.rows[b]!);
    return c < 0 || (c === 0 && a < b);
  }

  private push(i: number): void {
    const h = this.heap;
    h.push(i);
    let k = h.length - 1;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.less(h[k]!, h[p]!)) break;
      [h[k], h[p]] = [h[p]!, h[k]!];
      k = p;
    }
  }

  private siftDown(k: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= h.length) return;
      const r = l + 1;
      const m = r < h.length && this.less(h[r]!, h[l]!) ? r : l;
      if (!this.less(h[m]!, h[k]!)) return;
      [h[k], h[m]] = [h[m]!, h[k]!];
      k = m;
    }
  }
}

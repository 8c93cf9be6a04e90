/**
 * `book merge` over files: two books are streamed (64 KiB reads) into the output, so books of
 * any size merge in constant memory. More than two inputs merge left to right (((A+B)+C)+…),
 * which is what running merge-book repeatedly does; the intermediate books are kept in memory.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { ENTRY_SIZE, u32 } from '../polyglot/format.js';
import { EntrySink, MemoryCursor, mergeBooks, type EntryCursor, type MergeOptions, type MergeStats } from '../polyglot/merge.js';
import { emptyWarning, notABookError, sizeError } from '../polyglot/reader.js';
import { BookError } from '../polyglot/select.js';
import { AtomicFileSync } from './atomicWrite.js';
import { ioReason } from './atomicWrite.js';

const BLOCK_ENTRIES = 4096;

/** Sequential reading of a book file. */
export class FileCursor implements EntryCursor {
  index = -1;
  keyHi = 0;
  keyLo = 0;
  move = 0;
  weight = 0;
  learn = 0;
  /** Entries in the file. */
  readonly count: number;
  private readonly fd: number;
  private readonly buf = new Uint8Array(BLOCK_ENTRIES * ENTRY_SIZE);
  private bufStart = 0;
  private bufCount = 0;
  /** Told the number of entries of each block read (progress). */
  onRead?: (entries: number) => void;

  constructor(readonly name: string) {
    let size: number;
    try {
      const info = statSync(name);
      if (!info.isFile()) throw new Error('not a regular file');
      size = info.size;
      this.fd = openSync(name, 'r');
    } catch (e) {
      throw new BookError('ERR_BOOK_READ', `${name}: cannot open: ${ioReason(e)}`, name);
    }
    this.count = Math.floor(size / ENTRY_SIZE);
    const head = new Uint8Array(Math.min(size, 512));
    readSync(this.fd, head, 0, head.length, 0);
    const bad = sizeError(name, size, head) ?? notABookError(name, head);
    if (bad !== undefined) {
      this.close();
      throw bad;
    }
  }

  next(): boolean {
    const i = this.index + 1;
    if (i >= this.count) return false;
    if (i >= this.bufStart + this.bufCount) {
      const n = Math.min(BLOCK_ENTRIES, this.count - i);
      let got = 0;
      while (got < n * ENTRY_SIZE) {
        const r = readSync(this.fd, this.buf, got, n * ENTRY_SIZE - got, i * ENTRY_SIZE + got);
        if (r === 0) throw new BookError('ERR_BOOK_READ', `${this.name}: the file shrank while being read`, this.name);
        got += r;
      }
      this.bufStart = i;
      this.bufCount = n;
      this.onRead?.(n);
    }
    const o = (i - this.bufStart) * ENTRY_SIZE;
    const b = this.buf;
    this.index = i;
    this.keyHi = u32(b, o);
    this.keyLo = u32(b, o + 4);
    this.move = (b[o + 8]! << 8) | b[o + 9]!;
    this.weight = (b[o + 10]! << 8) | b[o + 11]!;
    this.learn = u32(b, o + 12);
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }
}

export interface MergeFilesResult {
  /**
   * Over every step of the merge: `entriesA` the first book's entries, `entriesB` the later
   * books' together, `sharedKeys`, `summed`, `overflowed` and `skipped` added up over the steps.
   */
  stats: MergeStats;
  /** Entries of each input, in order. */
  entries: number[];
  warnings: string[];
}

/**
 * Merges book files into `output` (written atomically). `onProgress(done, total)` counts the
 * entries read from the files (every 64 blocks, about 4 MB, and at the end).
 */
export function mergeFiles(inputs: readonly string[], output: string, opts: MergeOptions & { onProgress?(done: number, total: number): void } = {}): MergeFilesResult {
  if (inputs.length < 2) throw new BookError('ERR_BOOK_INPUT', 'merge needs at least two books');
  const warnings: string[] = [];
  const cursors: FileCursor[] = [];
  try {
    for (const p of inputs) cursors.push(new FileCursor(p));
  } catch (e) {
    for (const c of cursors) c.close();
    throw e;
  }
  for (const c of cursors) if (c.count === 0) warnings.push(emptyWarning(c.name));
  const report = opts.onProgress;
  const total = cursors.reduce((n, c) => n + c.count, 0);
  if (report !== undefined) {
    let done = 0;
    let blocks = 0;
    for (const c of cursors) {
      c.onRead = (n) => {
        done += n;
        if ((++blocks & 63) === 0) report(done, total);
      };
    }
  }
  try {
    // Intermediate results of 3+ inputs stay in memory; the last merge streams to the file.
    let left: EntryCursor = cursors[0]!;
    const stats: MergeStats = { entriesA: cursors[0]!.count, entriesB: total - cursors[0]!.count, written: 0, sharedKeys: 0, summed: 0, overflowed: 0, skipped: 0 };
    // A summary of the last step alone read as the whole merge's: with three books it gave the
    // intermediate book's entries as the first book's, and none of the first step's sums.
    const add = (step: MergeStats): void => {
      stats.written = step.written;
      stats.sharedKeys += step.sharedKeys;
      stats.summed += step.summed;
      stats.overflowed += step.overflowed;
      stats.skipped += step.skipped;
    };
    for (let k = 1; k < cursors.length; k++) {
      const last = k === cursors.length - 1;
      if (last) {
        const out = new AtomicFileSync(output);
        try {
          add(mergeBooks(left, cursors[k]!, new EntrySink((b) => out.write(b)), opts));
          out.commit();
        } catch (e) {
          out.abort();
          throw e;
        }
      } else {
        const chunks: Uint8Array[] = [];
        add(mergeBooks(left, cursors[k]!, new EntrySink((b) => chunks.push(b)), opts));
        const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let o = 0;
        for (const c of chunks) {
          all.set(c, o);
          o += c.length;
        }
        left = new MemoryCursor(all, `merge of ${inputs.slice(0, k + 1).join(' + ')}`);
      }
    }
    report?.(total, total);
    return { stats, entries: cursors.map((c) => c.count), warnings };
  } finally {
    for (const c of cursors) c.close();
  }
}

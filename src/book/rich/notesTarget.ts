/**
 * Book learning (learn.ts) on a version 2 book: the games' statistics stay as they are and
 * what learning changes (the engine's results, PostBook records, evaluations) goes into the
 * book's notes. Rows are the (position, move) pairs learning touches, numbered as it asks
 * for them. Browser-safe.
 */
import type { LearnTarget } from './learn.js';
import type { Note } from './notes.js';
import type { TbkBook } from './tbkBook.js';
import { meanWithOne } from './runningMean.js';

const EVAL_MAX = 0xffff;

export class NotesTarget implements LearnTarget {
  private readonly rows: { keyHi: number; keyLo: number; move: number; black: boolean; postBook: boolean; note: Note | undefined }[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly book: TbkBook) {}

  get size(): number {
    return this.rows.length;
  }

  hasBookMoves(keyLo: number, keyHi: number): boolean {
    return this.book.movesOf(keyHi, keyLo).some((e) => !e.postBook && e.wins + e.draws + e.losses + e.unfinished + e.weight > 0);
  }

  find(keyLo: number, keyHi: number, move: number): number {
    const k = `${keyHi >>> 0}:${keyLo >>> 0}:${move}`;
    const known = this.index.get(k);
    if (known !== undefined) return known;
    const e = this.book.movesOf(keyHi, keyLo).find((x) => x.move === move);
    if (e === undefined) return -1;
    const r = this.rows.length;
    this.rows.push({ keyHi: keyHi >>> 0, keyLo: keyLo >>> 0, move, black: e.black, postBook: e.postBook, note: this.book.notes.get(keyHi, keyLo, move) });
    this.index.set(k, r);
    return r;
  }

  findOrCreate(keyLo: number, keyHi: number, move: number, black: number): number {
    const r = this.find(keyLo, keyHi, move);
    if (r >= 0) return r;
    const n = this.rows.length;
    this.rows.push({ keyHi: keyHi >>> 0, keyLo: keyLo >>> 0, move, black: black !== 0, postBook: false, note: undefined });
    this.index.set(`${keyHi >>> 0}:${keyLo >>> 0}:${move}`, n);
    return n;
  }

  isPostBook(r: number): boolean {
    return this.rows[r]!.postBook;
  }

  hasUserValue(r: number): boolean {
    return (this.rows[r]!.note?.userValue ?? -1) >= 0;
  }

  markPostBook(r: number): void {
    this.edit(r).postBook = true;
    this.rows[r]!.postBook = true;
  }

  addDynamic(r: number, result: number): void {
    const n = this.edit(r);
    if (result > 0) n.dynWins++;
    else if (result < 0) n.dynLosses++;
    else n.dynDraws++;
  }

  addEval(r: number, cp: number): void {
    const n = this.edit(r);
    n.evalCp = meanWithOne(n.evalCp, n.evalCount, cp);
    if (n.evalCount < EVAL_MAX) n.evalCount++;
  }

  private edit(r: number): Note {
    const row = this.rows[r]!;
    row.note ??= this.book.notes.edit(row.keyHi, row.keyLo, row.move, row.black);
    return row.note;
  }
}

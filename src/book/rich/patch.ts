/**
 * Changing a book's bytes in place, for the small changes book learning makes after a game:
 * existing entries are found by binary search and their dynamic statistics updated where they
 * stand; new entries (PostBook records) go into a small RichTable and are merged into the
 * sorted entries when the file is rebuilt. Loading a large book into a RichTable to change a
 * dozen entries costs most of an update; this costs a copy and the checksum.
 *
 * Row numbers: 0..n-1 are the book's entries, n.. the new ones. The result is the same file
 * as the RichTable route (load, learn, encode) gives, byte for byte, header times aside.
 */
import {
  E_DYN_DRAWS, E_DYN_LOSSES, E_DYN_WINS, E_EVAL, E_EVAL_N, E_FLAGS, E_MOVE, E_USER, EF_POSTBOOK, ENTRY_SIZE, HEADER_SIZE, USER_NONE,
  bookChecksum, getU16, getU32, putU16, putU32, writeHeader, type Crc32, type RichHeader,
} from './format.js';
import type { LearnTarget } from './learn.js';
import { RichTable } from './table.js';
import { encodeBook } from './writer.js';
import { bookTime } from './clock.js';
import { meanWithOne } from './runningMean.js';

export class BookPatch implements LearnTarget {
  /** Entries of the book. */
  readonly count: number;
  private readonly base: number;
  private readonly extra = new RichTable(64);

  /** `bytes`: the whole book, which is changed in place (pass a copy to keep the original). */
  constructor(
    private readonly bytes: Uint8Array,
    readonly header: RichHeader,
  ) {
    this.count = header.entries;
    this.base = header.entriesOffset;
    this.extra.nextSeq = header.nextSeq;
  }

  get size(): number {
    return this.count + this.extra.size;
  }

  private lowerBound(hi: number, lo: number): number {
    const b = this.bytes;
    let a = 0;
    let z = this.count;
    while (a < z) {
      const mid = (a + z) >>> 1;
      const o = this.base + mid * ENTRY_SIZE;
      const kh = getU32(b, o);
      if (kh < hi || (kh === hi && getU32(b, o + 4) < lo)) a = mid + 1;
      else z = mid;
    }
    return a;
  }

  hasBookMoves(keyLo: number, keyHi: number): boolean {
    const h = keyHi >>> 0;
    const l = keyLo >>> 0;
    for (let i = this.lowerBound(h, l); i < this.count; i++) {
      const o = this.base + i * ENTRY_SIZE;
      if (getU32(this.bytes, o) !== h || getU32(this.bytes, o + 4) !== l) break;
      if ((this.bytes[o + E_FLAGS]! & EF_POSTBOOK) === 0) return true;
    }
    return this.extra.hasBookMoves(keyLo, keyHi);
  }

  find(keyLo: number, keyHi: number, move: number): number {
    const h = keyHi >>> 0;
    const l = keyLo >>> 0;
    for (let i = this.lowerBound(h, l); i < this.count; i++) {
      const o = this.base + i * ENTRY_SIZE;
      if (getU32(this.bytes, o) !== h || getU32(this.bytes, o + 4) !== l) break;
      if (getU16(this.bytes, o + E_MOVE) === move) return i;
    }
    const r = this.extra.find(keyLo, keyHi, move);
    return r < 0 ? -1 : this.count + r;
  }

  findOrCreate(keyLo: number, keyHi: number, move: number, black: number): number {
    const i = this.find(keyLo, keyHi, move);
    return i >= 0 ? i : this.count + this.extra.findOrCreate(keyLo, keyHi, move, black);
  }

  isPostBook(r: number): boolean {
    return r < this.count ? (this.bytes[this.base + r * ENTRY_SIZE + E_FLAGS]! & EF_POSTBOOK) !== 0 : this.extra.isPostBook(r - this.count);
  }

  hasUserValue(r: number): boolean {
    return r < this.count ? this.bytes[this.base + r * ENTRY_SIZE + E_USER] !== USER_NONE : this.extra.hasUserValue(r - this.count);
  }

  markPostBook(r: number): void {
    if (r < this.count) this.bytes[this.base + r * ENTRY_SIZE + E_FLAGS]! |= EF_POSTBOOK;
    else this.extra.markPostBook(r - this.count);
  }

  addDynamic(r: number, result: number): void {
    if (r >= this.count) {
      this.extra.addDynamic(r - this.count, result);
      return;
    }
    const o = this.base + r * ENTRY_SIZE + (result > 0 ? E_DYN_WINS : result < 0 ? E_DYN_LOSSES : E_DYN_DRAWS);
    putU32(this.bytes, o, getU32(this.bytes, o) + 1);
  }

  addEval(r: number, cp: number): void {
    if (r >= this.count) {
      this.extra.addEval(r - this.count, cp);
      return;
    }
    const o = this.base + r * ENTRY_SIZE;
    const n = getU16(this.bytes, o + E_EVAL_N);
    const mean = (getU16(this.bytes, o + E_EVAL) << 16) >> 16;
    putU16(this.bytes, o + E_EVAL, meanWithOne(mean, n, cp) & 0xffff);
    if (n < 0xffff) putU16(this.bytes, o + E_EVAL_N, n + 1);
  }

  /** The changed book: new entries merged in, header counts updated, checksum recomputed. */
  finish(update: { learnedGames?: number; changes?: number }, crc?: Crc32): Uint8Array {
    const h = this.header;
    const metaLength = this.base - HEADER_SIZE;
    let out = this.bytes;
    if (this.extra.size > 0) {
      // The new entries, sorted and encoded by the writer, then merged by (key, move).
      const add = encodeBook(this.extra, { flags: 0, games: 0, maxPly: 0, minGames: 0, learnedGames: 0, changes: 0, created: 0, meta: {} }, () => true);
      const addBase = add.length - this.extra.size * ENTRY_SIZE;
      const k = this.extra.size;
      out = new Uint8Array(this.bytes.length + k * ENTRY_SIZE);
      out.set(this.bytes.subarray(0, this.base));
      let i = 0;
      let j = 0;
      let w = this.base;
      while (i < this.count || j < k) {
        const take = j >= k || (i < this.count && before(this.bytes, this.base + i * ENTRY_SIZE, add, addBase + j * ENTRY_SIZE));
        if (take) {
          // Copy the run of existing entries up to the next new one in one go.
          let e = i + 1;
          if (j < k) while (e < this.count && before(this.bytes, this.base + e * ENTRY_SIZE, add, addBase + j * ENTRY_SIZE)) e++;
          else e = this.count;
          out.set(this.bytes.subarray(this.base + i * ENTRY_SIZE, this.base + e * ENTRY_SIZE), w);
          w += (e - i) * ENTRY_SIZE;
          i = e;
        } else {
          out.set(add.subarray(addBase + j * ENTRY_SIZE, addBase + (j + 1) * ENTRY_SIZE), w);
          w += ENTRY_SIZE;
          j++;
        }
      }
    }
    writeHeader(
      out,
      {
        ...h,
        entries: this.count + this.extra.size,
        learnedGames: update.learnedGames ?? h.learnedGames,
        changes: update.changes ?? h.changes,
        nextSeq: this.extra.nextSeq,
        checksum: 0,
        modified: bookTime(),
      },
      metaLength,
    );
    putU32(out, 24, bookChecksum(out, crc));
    return out;
  }
}

/** Is the entry at `a[ao]` before the one at `b[bo]` in (key, move) order? */
function before(a: Uint8Array, ao: number, b: Uint8Array, bo: number): boolean {
  const ah = getU32(a, ao);
  const bh = getU32(b, bo);
  if (ah !== bh) return ah < bh;
  const al = getU32(a, ao + 4);
  const bl = getU32(b, bo + 4);
  if (al !== bl) return al < bl;
  return getU16(a, ao + E_MOVE) < getU16(b, bo + E_MOVE);
}

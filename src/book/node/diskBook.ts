/**
 * A Polyglot book binary-searched on disk with synchronous reads, for the engine: it asks its
 * book between protocol commands and cannot wait on a promise. PolyGlot's own adapter seeks in
 * its book file instead of loading it (polyglot.md §5.1), so a book of any size plays; read
 * whole, a book over 2 GiB could not be read at all and one of a few hundred MB was copied
 * into memory by every `BookFile` change and every xboard `bk`. The checks are those of
 * openBook's on-disk book: size and first bytes when opened, key order along every search.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ENTRY_SIZE, KeyInterval, readEntry, type RawEntry } from '../polyglot/format.js';
import { notABookError, notSortedError, sizeError } from '../polyglot/reader.js';
import { BookError, bookMoves, positionOf, type BookMove, type Probed, type ProbeOptions } from '../polyglot/select.js';
import { ioReason } from './atomicWrite.js';

const BLOCK = 4096;
const CACHE_BLOCKS = 64;

export class DiskBook {
  /** Number of entries. */
  readonly size: number;
  private readonly cache = new Map<number, Uint8Array>();
  private fd: number;

  /** Opens `path`; errors (unreadable, size not whole entries, not a book) name the file. */
  constructor(readonly name: string) {
    let bytes: number;
    try {
      this.fd = openSync(name, 'r');
      bytes = fstatSync(this.fd).size;
    } catch (e) {
      throw new BookError('ERR_BOOK_READ', `${name}: cannot read: ${ioReason(e)}`, name);
    }
    this.size = Math.floor(bytes / ENTRY_SIZE);
    const head = this.block(0);
    const bad = sizeError(name, bytes, head) ?? notABookError(name, head);
    if (bad !== undefined) {
      this.close();
      throw bad;
    }
  }

  /** The 4 KiB block `b` (cached, least recently used dropped first). */
  private block(b: number): Uint8Array {
    const hit = this.cache.get(b);
    if (hit !== undefined) {
      this.cache.delete(b);
      this.cache.set(b, hit);
      return hit;
    }
    const buf = new Uint8Array(BLOCK);
    let got = 0;
    try {
      for (let r = 1; got < BLOCK && r > 0; got += r) r = readSync(this.fd, buf, got, BLOCK - got, b * BLOCK + got);
    } catch (e) {
      throw new BookError('ERR_BOOK_READ', `${this.name}: cannot read: ${ioReason(e)}`, this.name, b * BLOCK);
    }
    const data = got === BLOCK ? buf : buf.subarray(0, got);
    if (this.cache.size >= CACHE_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(b, data);
    return data;
  }

  /** Entry `i` (blocks are whole multiples of 16 bytes, so an entry never straddles two). */
  private entry(i: number): RawEntry {
    const off = i * ENTRY_SIZE;
    const data = this.block(Math.floor(off / BLOCK));
    if ((off % BLOCK) + ENTRY_SIZE > data.length) throw new BookError('ERR_BOOK_READ', `${this.name}: the file shrank while being read (entry ${i}, byte ${off})`, this.name, off);
    const e = readEntry(data, (off % BLOCK) / ENTRY_SIZE);
    e.index = i;
    return e;
  }

  /** All entries stored under a key, in file order. */
  entriesOf(hi: number, lo: number): RawEntry[] {
    const h = hi >>> 0;
    const l = lo >>> 0;
    let a = 0;
    let z = this.size;
    const interval = new KeyInterval();
    while (a < z) {
      const mid = (a + z) >>> 1;
      const e = this.entry(mid);
      if (!interval.holds(e.keyHi, e.keyLo)) throw notSortedError(this.name, new Uint8Array(0), mid);
      if (interval.narrow(e.keyHi, e.keyLo, h, l)) a = mid + 1;
      else z = mid;
    }
    const out: RawEntry[] = [];
    for (let i = a; i < this.size; i++) {
      const e = this.entry(i);
      if (e.keyHi !== h || e.keyLo !== l) break;
      out.push(e);
    }
    return out;
  }

  /** The book moves of a position: legal, at least `minWeight`, not excluded; file order. */
  moves(board: Probed, opts?: ProbeOptions): BookMove[] {
    const pos = positionOf(board);
    return bookMoves(pos, this.entriesOf(pos.keyHi, pos.keyLo), opts);
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
}

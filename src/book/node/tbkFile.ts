/**
 * Version 2 `.tbk` files on disk: writing a whole book from its sections (crash-safe: a
 * temporary file renamed into place), and opening one for reading with positional reads.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { BookError } from '../polyglot/select.js';
import { SECTION, SUPERBLOCK, align, encodeSlot, encodeSuperblock, nextSlotOffset, type BookFields, type SectionRef } from '../rich/container.js';
import type { PinnedSource } from '../rich/reader.js';
import { TbkBook } from '../rich/tbkBook.js';
import { PAGE, PageCache } from './pageCache.js';
import { AtomicFileSync } from './atomicWrite.js';
import { fastCrc32, withBookLock, type LockOptions } from './richFile.js';
import { bookTime } from '../rich/clock.js';
import type { ScratchFile } from './workDir.js';
import { ioReason } from './atomicWrite.js';

/** A section to write: its id, size, CRC-32, and its bytes in pieces (of 4 MiB at most from a file). */
export interface SectionSource {
  id: number;
  length: number;
  crc: number;
  chunks(): Iterable<Uint8Array>;
}

/** A section held in memory. */
export function memorySection(id: number, bytes: Uint8Array): SectionSource {
  return { id, length: bytes.length, crc: fastCrc32(bytes, 0) >>> 0, chunks: () => [bytes] };
}

/** Pieces of bytes [0, size) of a file read by `read`, 4 MiB at a time. */
export function* fileChunks(read: (offset: number, n: number) => Uint8Array, size: number): Generator<Uint8Array> {
  const chunk = 1 << 22;
  for (let o = 0; o < size; o += chunk) yield read(o, Math.min(chunk, size - o));
}

/** A section held in a scratch file (its CRC kept while it was appended). */
export function fileSection(id: number, file: ScratchFile): SectionSource {
  return { id, length: file.size, crc: file.crc >>> 0, chunks: () => fileChunks((o, n) => file.read(o, n), file.size) };
}

/** Where each section goes: after the superblock, each 64-byte aligned, in the order given. */
export function layoutSections(sections: readonly SectionSource[]): { refs: SectionRef[]; fileLength: number } {
  let at = SUPERBLOCK;
  const refs: SectionRef[] = [];
  for (const s of sections) {
    at = align(at);
    refs.push({ id: s.id, crc: s.crc, offset: at, length: s.length });
    at += s.length;
  }
  return { refs, fileLength: at };
}

/** Writes a book: superblock (slot A in force, sequence 1), then the sections. Returns its size. */
export function writeTbkFile(path: string, fields: BookFields, sections: readonly SectionSource[]): number {
  const out = new AtomicFileSync(path);
  try {
    const length = writeInOrder(out, fields, sections);
    out.commit();
    return length;
  } catch (e) {
    out.abort();
    throw e;
  }
}

function writeInOrder(out: AtomicFileSync, fields: BookFields, sections: readonly SectionSource[]): number {
  const { refs, fileLength } = layoutSections(sections);
  out.write(encodeSuperblock({ seq: 1, fileLength, fields, sections: refs }, fastCrc32));
  let at = SUPERBLOCK;
  const zeros = new Uint8Array(64);
  for (let i = 0; i < sections.length; i++) {
    const pad = refs[i]!.offset - at;
    if (pad > 0) out.write(zeros.subarray(0, pad));
    for (const b of sections[i]!.chunks()) out.write(b);
    at = refs[i]!.offset + refs[i]!.length;
  }
  return fileLength;
}

/**
 * A book written in two steps, for a build whose last sections come late (make-book's halving
 * counters, replayed on the build's threads once the rest is finished): `early` writes every
 * other section at its place, a piece at a time, letting the event loop run between pieces so
 * that the threads are answered; `finish` writes the late sections, of the lengths announced,
 * and the superblock. The bytes are writeTbkFile's (the gaps between sections, never written,
 * read as the zeros it writes). Standard output, which takes bytes in order only, gets the
 * whole book at `finish`.
 */
export class TwoStepTbkFile {
  private readonly out: AtomicFileSync;
  private readonly refs: SectionRef[];
  private readonly fileLength: number;
  /** Where the bytes written so far end (the superblock's first). */
  private end = 0;

  /** `sections` in file order; those whose ids are in `late` give their length only. */
  constructor(
    path: string,
    private readonly fields: BookFields,
    private readonly sections: readonly SectionSource[],
    private readonly late: ReadonlySet<number>,
  ) {
    ({ refs: this.refs, fileLength: this.fileLength } = layoutSections(sections));
    this.out = new AtomicFileSync(path);
  }

  async early(): Promise<void> {
    if (!this.out.seekable) return;
    for (let i = 0; i < this.sections.length; i++) {
      if (this.late.has(this.sections[i]!.id)) continue;
      let at = this.refs[i]!.offset;
      for (const b of this.sections[i]!.chunks()) {
        this.out.writeAt(b, at);
        at += b.length;
        // An empty chunk writes nothing: it does not make the file longer.
        if (b.length > 0) this.end = Math.max(this.end, at);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }

  /** Writes the late sections and the superblock, and puts the file in place; returns its size. */
  finish(late: readonly SectionSource[]): number {
    const all = this.sections.map((s) => late.find((l) => l.id === s.id) ?? s);
    all.forEach((s, i) => {
      if (this.late.has(s.id) && (!late.includes(s) || s.length !== this.sections[i]!.length)) throw new Error(`book section ${s.id} came late with ${s.length} bytes, not ${this.sections[i]!.length}`);
    });
    if (!this.out.seekable) writeInOrder(this.out, this.fields, all);
    else {
      for (let i = 0; i < all.length; i++) {
        if (!this.late.has(all[i]!.id)) continue;
        let at = this.refs[i]!.offset;
        for (const b of all[i]!.chunks()) {
          this.out.writeAt(b, at);
          at += b.length;
          if (b.length > 0) this.end = Math.max(this.end, at);
        }
      }
      // The file is as long as the superblock says even when it ends in alignment padding before
      // an empty section (a book with no moves): positioned writes leave that gap unwritten.
      if (this.end < this.fileLength) this.out.writeAt(new Uint8Array(this.fileLength - this.end), this.end);
      const refs = this.refs.map((r, i) => ({ ...r, crc: all[i]!.crc }));
      this.out.writeAt(encodeSuperblock({ seq: 1, fileLength: this.fileLength, fields: this.fields, sections: refs }, fastCrc32), 0);
    }
    this.out.commit();
    return this.fileLength;
  }

  /** Drops the file (the target is left as it was). */
  abort(): void {
    this.out.abort();
  }
}

/** The read cache's default size: 64 MiB of 4 KiB pages. */
const CACHE_BYTES = 64 << 20;
/** Reads spanning more pages than this go straight to the file (a section copied out, a run). */
const DIRECT_PAGES = 8;

/**
 * Positional reads of an open file through a fixed cache of 4 KiB pages (pageCache.ts): a probe
 * of a book reads a few small pieces (a block of positions, a few retrieval slots, a game's
 * record and moves), and once they are cached it makes no system call and allocates no buffer
 * (`locate`; `read` allocates a view).
 */
export class FileReader implements PinnedSource {
  readonly size: number;
  private fd: number;
  private readonly cache: PageCache;
  /** Bytes that span pages, copied together (grows, never shrinks). */
  private scratch = new Uint8Array(2 * PAGE);
  /** Where the last `locate` left its bytes. */
  data: Uint8Array = this.scratch;

  constructor(
    readonly path: string,
    /** Bytes of the page cache. */
    cacheBytes = CACHE_BYTES,
  ) {
    try {
      this.fd = openSync(path, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new BookError('ERR_BOOK_READ', `${path}: no such book`);
      throw new BookError('ERR_BOOK_READ', `${path}: cannot open: ${ioReason(e)}`);
    }
    this.size = fstatSync(this.fd).size;
    // No more pages than the file has.
    this.cache = new PageCache(Math.min(cacheBytes, this.size + PAGE), (page, into, at) => {
      const got = this.readInto(into, at, PAGE, page * PAGE);
      into.fill(0, at + got, at + PAGE);
    });
  }

  /** Pages read from the file and found in the cache so far. */
  get cacheStats(): { hits: number; misses: number } {
    return { hits: this.cache.hits, misses: this.cache.misses };
  }

  /**
   * Makes `length` bytes at `offset` (fewer at the end of the file) readable at
   * `this.data[returned index]`, valid until the next read. Allocates no buffer once warm.
   */
  locate(offset: number, length: number): number {
    this.checkWhole();
    const end = Math.min(offset + length, this.size);
    if (end <= offset) {
      this.data = this.scratch;
      return 0;
    }
    const first = Math.floor(offset / PAGE);
    const last = Math.floor((end - 1) / PAGE);
    if (first === last) {
      const s = this.cache.slot(first);
      this.data = this.cache.data;
      return PageCache.offsetIn(s) + (offset - first * PAGE);
    }
    const span = (last - first + 1) * PAGE;
    if (this.scratch.length < span) this.scratch = new Uint8Array(2 ** Math.ceil(Math.log2(span)));
    const out = this.scratch;
    if (last - first > DIRECT_PAGES) {
      this.readInto(out, 0, end - offset, offset);
      this.data = out;
      return 0;
    }
    let missing = false;
    for (let p = first; p <= last && !missing; p++) missing = this.cache.peek(p) < 0;
    if (missing) {
      // One system call for the whole range (a block of positions straddles two pages), then
      // the pages not cached yet are entered from it.
      const got = this.readInto(out, 0, span, first * PAGE);
      out.fill(0, got, span);
      for (let p = first; p <= last; p++) if (this.cache.peek(p) < 0) this.cache.put(p, out, (p - first) * PAGE);
      this.data = out;
      return offset - first * PAGE;
    }
    for (let p = first; p <= last; p++) {
      const s = this.cache.slot(p);
      const at = PageCache.offsetIn(s);
      const from = Math.max(offset, p * PAGE);
      const to = Math.min(end, (p + 1) * PAGE);
      out.set(this.cache.data.subarray(at + from - p * PAGE, at + to - p * PAGE), from - offset);
    }
    this.data = out;
    return 0;
  }

  /**
   * `length` bytes at `offset` (fewer at the end of the file). The array may be a view of the
   * cache, valid until the next read: copy what must outlive it.
   */
  read(offset: number, length: number): Uint8Array {
    this.checkWhole();
    const end = Math.min(offset + length, this.size);
    if (end <= offset) return new Uint8Array(0);
    // Large reads go straight to the file, into their own array.
    if (end - offset > DIRECT_PAGES * PAGE) {
      const out = new Uint8Array(end - offset);
      return out.subarray(0, this.readInto(out, 0, out.length, offset));
    }
    const at = this.locate(offset, end - offset);
    return this.data.subarray(at, at + end - offset);
  }

  /**
   * Reads up to `length` bytes at `offset` into `out[at..]`, as far as the file reached when it
   * was opened; returns the bytes read. A file that ends sooner was cut since (a copy or a
   * download still being written, `truncate`): that is said in so many words, not left to show
   * as a block of zeros that fails its checksum.
   */
  private readInto(out: Uint8Array, at: number, length: number, offset: number): number {
    this.checkWhole();
    const want = Math.max(0, Math.min(length, this.size - offset));
    let got = 0;
    while (got < want) {
      const n = readSync(this.fd, out, at + got, want - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    if (got < want) {
      this.cutTo = fstatSync(this.fd).size;
      this.checkWhole();
    }
    return got;
  }

  /** The file's size when a read found it shorter than when it was opened (-1: not found so). */
  private cutTo = -1;

  /** Throws once a read has found the file cut: the cache may hold a page that read nothing. */
  private checkWhole(): void {
    if (this.cutTo >= 0) throw new BookError('ERR_TBK_READ', `${this.path}: the file is shorter than when it was opened (${this.size} bytes then, ${this.cutTo} now): it was cut, or is still being written`);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.cache.release();
  }

  /** The file open (device and inode): another open of the same path may find another file, written over it by a rename. */
  identity(): string {
    const st = fstatSync(this.fd);
    return `${st.dev}:${st.ino}`;
  }
}

/**
 * Changes a version 2 book's notes crash-safely under its lock: `change` edits the notes of the
 * book as read now; the new notes section is appended after the committed end of the file and
 * synced, then the slot not in force is written (sequence + 1) and synced (container.ts). A
 * crash before the slot write leaves the book as it was. When dead space (replaced notes)
 * passes half the file, the book is rewritten without it instead.
 */
export function changeNotes<T>(path: string, change: (book: TbkBook) => { result: T; learned?: number }, opts: LockOptions & { verify?: boolean } = {}): T {
  return withBookLock(
    path,
    () => {
      const file = new FileReader(path);
      let out: { result: T; learned?: number };
      let bytes: Uint8Array;
      let book: TbkBook;
      try {
        const opened = TbkBook.open(file, path, fastCrc32);
        if (!opened.ok) throw opened.error;
        book = opened.value;
        // A command refuses to change a damaged book (the engine's learning after each game
        // skips the whole-file check: notes are appended, the rest is not rewritten).
        if (opts.verify) {
          const v = book.verify(fastCrc32);
          if (!v.ok) throw v.error;
        }
        out = change(book);
        bytes = book.notes.encode();
      } finally {
        file.close();
      }
      const slot = book.slot;
      const fields = { ...slot.fields, changes: slot.fields.changes + 1, modified: bookTime(), learnedGames: slot.fields.learnedGames + (out.learned ?? 0) };
      const live = slot.sections.filter((s) => s.id !== SECTION.NOTES).reduce((n, s) => n + s.length, 0) + bytes.length;
      const at = align(slot.fileLength);
      if (at + bytes.length - live > Math.max(1 << 20, live)) {
        // Too much dead space: write the whole book again, notes included.
        const sections: SectionSource[] = slot.sections
          .filter((s) => s.id !== SECTION.NOTES)
          .map((s) => rangeSection(path, s));
        sections.push(memorySection(SECTION.NOTES, bytes));
        writeTbkFile(path, fields, sections);
        return out.result;
      }
      const sections = slot.sections.filter((s) => s.id !== SECTION.NOTES);
      sections.push({ id: SECTION.NOTES, crc: fastCrc32(bytes, 0) >>> 0, offset: at, length: bytes.length });
      let fd: number;
      try {
        fd = openSync(path, 'r+');
      } catch (e) {
        // A read-only book (or one the user may not write) is named with the reason, as every
        // other write failure is, rather than as a bare system error.
        throw new BookError('ERR_BOOK_WRITE', `${path}: cannot write: ${ioReason(e)}`);
      }
      let committing = false;
      try {
        writeAll(fd, bytes, at);
        ftruncateSync(fd, at + bytes.length);
        fsyncSync(fd);
        committing = true;
        writeAll(fd, encodeSlot({ seq: slot.seq + 1, fileLength: at + bytes.length, fields, sections }, fastCrc32), nextSlotOffset(book.which));
        fsyncSync(fd);
      } catch (e) {
        // Notes that did not all fit (a full disk) are cut off again: the slot still names the
        // old length, so the book is left as it was, byte for byte, and the space is given back.
        // Once the slot is being written the new length may be the committed one: left alone.
        if (!committing) {
          try {
            ftruncateSync(fd, slot.fileLength);
          } catch {
            // The book is still whole (its slot ignores the tail); the error below says why.
          }
        }
        throw new BookError('ERR_BOOK_WRITE', `${path}: cannot write: ${ioReason(e)}`);
      } finally {
        closeSync(fd);
      }
      return out.result;
    },
    opts,
  );
}

function writeAll(fd: number, bytes: Uint8Array, at: number): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off, at + off);
}

/** A section of an existing book, copied from its file (for a rewrite). */
function rangeSection(path: string, s: SectionRef): SectionSource {
  return {
    id: s.id,
    length: s.length,
    crc: s.crc,
    *chunks() {
      const f = new FileReader(path);
      try {
        yield* fileChunks((o, n) => f.read(s.offset + o, n), s.length);
      } finally {
        f.close();
      }
    },
  };
}

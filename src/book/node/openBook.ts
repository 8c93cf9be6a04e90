/**
 * Opening a `.bin` from disk. Books up to `memoryLimit` bytes (64 MiB by default) are read
 * whole and checked at once (size a multiple of 16, keys sorted); bigger ones stay on disk and
 * are binary-searched through a file handle with a small block cache, so a lookup in a book of
 * several GB costs a few reads and the file is never loaded. An on-disk book has its size and
 * first bytes checked when opened and its order on every probe (a key outside the interval its
 * neighbours allow means the file is not sorted), so a probe never returns entries of an
 * unsorted file; `verify()` scans it all in a stream.
 */
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { ENTRY_SIZE, KeyInterval, readEntry, u32, type RawEntry } from '../polyglot/format.js';
import { PolyglotReader, firstUnsorted, notABookError, notSortedError, sizeError } from '../polyglot/reader.js';
import { BookError, bestMove, bookMoves, chooseMove, positionOf, type BookMove, type ChooseOptions, type Probed, type ProbeOptions } from '../polyglot/select.js';
import { ioReason } from './atomicWrite.js';

/** The lookups every opened book offers, whether in memory or on disk. */
export interface Book {
  readonly name: string;
  readonly size: number;
  readonly warnings: readonly string[];
  /** The in-memory reader when the book was loaded whole. */
  readonly memory: PolyglotReader | undefined;
  entriesOf(hi: number, lo: number): Promise<RawEntry[]>;
  moves(pos: Probed, opts?: ProbeOptions): Promise<BookMove[]>;
  find(pos: Probed, opts?: ProbeOptions): Promise<BookMove | undefined>;
  get(pos: Probed, opts?: ProbeOptions): Promise<BookMove>;
  choose(pos: Probed, opts?: ChooseOptions): Promise<BookMove | undefined>;
  /** Checks that the whole file is sorted (a book in memory was checked when opened). */
  verify(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Books up to this many bytes are read into memory (default 64 MiB). */
  memoryLimit?: number;
}

/** Opens a book file; errors (missing file, unsorted, not a book) name the file. */
export async function openBook(path: string, opts: OpenOptions = {}): Promise<Book> {
  const info = await statOrThrow(path);
  if (!info.isFile()) throw new BookError('ERR_BOOK_READ', `${path}: not a regular file`, path);
  if (info.size <= (opts.memoryLimit ?? 64 * 1024 * 1024)) return memoryBook(path, await readWhole(path));
  return FileBook.open(path, info.size);
}

/** Loads a book whole (dump, info and merge work on the entire file). */
export async function loadBook(path: string): Promise<PolyglotReader> {
  const info = await statOrThrow(path);
  if (!info.isFile()) throw new BookError('ERR_BOOK_READ', `${path}: not a regular file`, path);
  const r = PolyglotReader.from(await readWhole(path), path);
  if (!r.ok) throw r.error;
  return r.value;
}

async function readWhole(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (e) {
    throw bookReadError(path, e, '; book probe and book merge read books of any size');
  }
}

/**
 * The error for a book that cannot be read whole. Node reads at most 2 GiB in one call and said
 * so without the file's name ("File size (…) is greater than 2 GiB"); a book that large is 134
 * million entries, which `book probe` and `book merge` still read (on disk, and streamed).
 */
export function bookReadError(path: string, e: unknown, tooLargeHint = ''): BookError {
  if ((e as NodeJS.ErrnoException | undefined)?.code === 'ERR_FS_FILE_TOO_LARGE') {
    const size = /\((\d+)\)/.exec((e as Error).message)?.[1];
    return new BookError('ERR_BOOK_READ', `${path}: ${size === undefined ? 'the book' : `${size} bytes`} is too large to read into memory (at most 2 GiB)${tooLargeHint}`, path);
  }
  return new BookError('ERR_BOOK_READ', `${path}: cannot read: ${ioReason(e)}`, path);
}

async function statOrThrow(path: string): Promise<import('node:fs').Stats> {
  try {
    return await stat(path);
  } catch (e) {
    throw new BookError('ERR_BOOK_READ', `${path}: cannot open: ${ioReason(e)}`, path);
  }
}

function memoryBook(name: string, bytes: Uint8Array): Book {
  const r = PolyglotReader.from(bytes, name);
  if (!r.ok) throw r.error;
  const book = r.value;
  return {
    name,
    size: book.size,
    warnings: book.warnings,
    memory: book,
    entriesOf: async (hi, lo) => book.entriesOf(hi, lo),
    moves: async (pos, o) => book.moves(pos, o),
    find: async (pos, o) => book.find(pos, o),
    get: async (pos, o) => book.get(pos, o),
    choose: async (pos, o) => book.choose(pos, o),
    verify: async () => {},
    close: async () => {},
  };
}

const BLOCK = 4096;
const CACHE_BLOCKS = 256;

/** A book binary-searched on disk. */
class FileBook implements Book {
  readonly memory = undefined;
  readonly size: number;
  readonly warnings: string[] = [];
  private readonly cache = new Map<number, Uint8Array>();

  private constructor(
    readonly name: string,
    private readonly fh: FileHandle,
    readonly bytes: number,
  ) {
    this.size = Math.floor(bytes / ENTRY_SIZE);
  }

  static async open(path: string, bytes: number): Promise<FileBook> {
    let fh: FileHandle;
    try {
      fh = await open(path, 'r');
    } catch (e) {
      throw new BookError('ERR_BOOK_READ', `${path}: cannot open: ${ioReason(e)}`, path);
    }
    const book = new FileBook(path, fh, bytes);
    const head = await book.block(0);
    const bad = sizeError(path, bytes, head) ?? notABookError(path, head);
    if (bad !== undefined) {
      await fh.close();
      throw bad;
    }
    return book;
  }

  /** The 4 KiB block `b` (cached). */
  private async block(b: number): Promise<Uint8Array> {
    const hit = this.cache.get(b);
    if (hit !== undefined) {
      this.cache.delete(b);
      this.cache.set(b, hit);
      return hit;
    }
    const buf = new Uint8Array(BLOCK);
    const { bytesRead } = await this.fh.read(buf, 0, BLOCK, b * BLOCK);
    const data = bytesRead === BLOCK ? buf : buf.subarray(0, bytesRead);
    if (this.cache.size >= CACHE_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(b, data);
    return data;
  }

  /** Entry `i` (blocks are whole multiples of 16 bytes, so an entry never straddles two). */
  private async entry(i: number): Promise<RawEntry> {
    const off = i * ENTRY_SIZE;
    const data = await this.block(Math.floor(off / BLOCK));
    const e = readEntry(data, (off % BLOCK) / ENTRY_SIZE);
    e.index = i;
    return e;
  }

  async entriesOf(hi: number, lo: number): Promise<RawEntry[]> {
    const h = hi >>> 0;
    const l = lo >>> 0;
    let a = 0;
    let z = this.size;
    const interval = new KeyInterval();
    while (a < z) {
      const mid = (a + z) >>> 1;
      const e = await this.entry(mid);
      if (!interval.holds(e.keyHi, e.keyLo)) throw notSortedError(this.name, new Uint8Array(0), mid);
      if (interval.narrow(e.keyHi, e.keyLo, h, l)) a = mid + 1;
      else z = mid;
    }
    const out: RawEntry[] = [];
    for (let i = a; i < this.size; i++) {
      const e = await this.entry(i);
      if (e.keyHi !== h || e.keyLo !== l) break;
      out.push(e);
    }
    return out;
  }

  async moves(board: Probed, opts?: ProbeOptions): Promise<BookMove[]> {
    const pos = positionOf(board);
    return bookMoves(pos, await this.entriesOf(pos.keyHi, pos.keyLo), opts);
  }

  async find(pos: Probed, opts?: ProbeOptions): Promise<BookMove | undefined> {
    return bestMove(await this.moves(pos, opts));
  }

  async get(pos: Probed, opts?: ProbeOptions): Promise<BookMove> {
    const m = await this.find(pos, opts);
    if (m === undefined) throw new BookError('ERR_BOOK_NO_MOVE', `${this.name}: no book move in this position`);
    return m;
  }

  async choose(pos: Probed, opts?: ChooseOptions): Promise<BookMove | undefined> {
    return chooseMove(await this.moves(pos, opts), opts);
  }

  /** Streams the whole file and fails on the first entry out of key order. */
  async verify(): Promise<void> {
    const chunk = new Uint8Array(1 << 20);
    let ph = 0;
    let pl = 0;
    for (let base = 0; base < this.size; base += chunk.length / ENTRY_SIZE) {
      const { bytesRead } = await this.fh.read(chunk, 0, chunk.length, base * ENTRY_SIZE);
      const n = Math.floor(bytesRead / ENTRY_SIZE);
      const bad = firstUnsorted(chunk, n);
      const h = u32(chunk, 0);
      const l = u32(chunk, 4);
      if (base > 0 && (h < ph || (h === ph && l < pl))) throw notSortedError(this.name, new Uint8Array(0), base);
      if (bad >= 0) throw notSortedError(this.name, new Uint8Array(0), base + bad);
      ph = u32(chunk, (n - 1) * ENTRY_SIZE);
      pl = u32(chunk, (n - 1) * ENTRY_SIZE + 4);
    }
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}

/**
 * Reading a Polyglot book held in memory (an ArrayBuffer or Uint8Array: a browser fetch, a
 * Node buffer). Nothing is turned into objects up front: lookups binary-search the sorted
 * 16-byte entries for the leftmost entry of the key and scan forward (polyglot.md §1.2).
 *
 * Opening checks the whole file once (it is in memory anyway): a size that is not a multiple
 * of 16 and entries out of key order are errors, since a truncated file or one that is not a
 * book at all would otherwise be read as garbage entries, and a binary search over unsorted
 * entries silently misses moves. (Polyglot itself ignores a partial last entry; a book written
 * by a tool never has one, so one means the copy is damaged.) An empty file is a valid empty
 * book, with a warning.
 *
 *   const book = unwrap(PolyglotReader.from(bytes, 'book.bin'));
 *   book.find(pos)?.uci;                                   // the highest-weight move
 *   book.choose(pos, { policy: 'weighted', random: seededRandom(1) });
 */
import { err, ok, type Result } from '../../core/result.js';
import { TBK_MAGIC } from '../rich/format.js';
import { ENTRY_SIZE, readEntry, u32, type RawEntry } from './format.js';
import { BookError, bestMove, bookMoves, chooseMove, positionOf, type BookMove, type ChooseOptions, type Probed, type ProbeOptions } from './select.js';

export class PolyglotReader {
  /** Number of entries. */
  readonly size: number;
  /** Non-fatal findings, each naming the book. */
  readonly warnings: string[] = [];

  private constructor(
    readonly bytes: Uint8Array,
    readonly name: string,
  ) {
    this.size = bytes.length / ENTRY_SIZE;
    if (this.size === 0) this.warnings.push(emptyWarning(name));
  }

  /** Opens a book, checking its size and that its keys are sorted. */
  static from(data: Uint8Array | ArrayBuffer, name = 'book'): Result<PolyglotReader, BookError> {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    const bad = sizeError(name, bytes.length, bytes);
    if (bad !== undefined) return err(bad);
    const book = new PolyglotReader(bytes, name);
    const unsorted = firstUnsorted(bytes, book.size);
    if (unsorted >= 0) return err(notSortedError(name, bytes, unsorted));
    return ok(book);
  }

  /** Entry `i` as stored. */
  entry(i: number): RawEntry {
    return readEntry(this.bytes, i);
  }

  /** First index whose key is ≥ (hi, lo), or `size`. */
  lowerBound(hi: number, lo: number): number {
    const b = this.bytes;
    const h = hi >>> 0;
    const l = lo >>> 0;
    let a = 0;
    let z = this.size;
    while (a < z) {
      const mid = (a + z) >>> 1;
      const o = mid * ENTRY_SIZE;
      const kh = u32(b, o);
      if (kh < h || (kh === h && u32(b, o + 4) < l)) a = mid + 1;
      else z = mid;
    }
    return a;
  }

  /** All entries stored under a key, in file order. */
  entriesOf(hi: number, lo: number): RawEntry[] {
    const out: RawEntry[] = [];
    const h = hi >>> 0;
    const l = lo >>> 0;
    for (let i = this.lowerBound(hi, lo); i < this.size; i++) {
      const o = i * ENTRY_SIZE;
      if (u32(this.bytes, o) !== h || u32(this.bytes, o + 4) !== l) break;
      out.push(readEntry(this.bytes, i));
    }
    return out;
  }

  /** The book moves of a position: legal, at least `minWeight`, not excluded; file order. */
  moves(board: Probed, opts?: ProbeOptions): BookMove[] {
    const pos = positionOf(board);
    return bookMoves(pos, this.entriesOf(pos.keyHi, pos.keyLo), opts);
  }

  /** The move with the highest weight (the first one on ties), or undefined. */
  find(pos: Probed, opts?: ProbeOptions): BookMove | undefined {
    return bestMove(this.moves(pos, opts));
  }

  /** Like `find`, but a position without book moves is an error. */
  get(pos: Probed, opts?: ProbeOptions): BookMove {
    const m = this.find(pos, opts);
    if (m === undefined) throw new BookError('ERR_BOOK_NO_MOVE', `${this.name}: no book move in this position`);
    return m;
  }

  /** A move picked by policy ('weighted' by default), or undefined. */
  choose(pos: Probed, opts?: ChooseOptions): BookMove | undefined {
    return chooseMove(this.moves(pos, opts), opts);
  }
}

/** Index of the first entry whose key is below its predecessor's, or -1. */
export function firstUnsorted(bytes: Uint8Array, size: number): number {
  let ph = 0;
  let pl = 0;
  for (let i = 0; i < size; i++) {
    const o = i * ENTRY_SIZE;
    const h = u32(bytes, o);
    const l = u32(bytes, o + 4);
    if (h < ph || (h === ph && l < pl)) return i;
    ph = h;
    pl = l;
  }
  return -1;
}

/** The error for a file whose entries are out of order, saying what the file looks like. */
export function notSortedError(name: string, head: Uint8Array, index: number): BookError {
  return (
    notABookError(name, head) ??
    new BookError(
      'ERR_BOOK_UNSORTED',
      `${name}: not a Polyglot book, or not sorted: the key of entry ${index} (byte ${index * ENTRY_SIZE}) is smaller than the key before it`,
      name,
      index * ENTRY_SIZE,
    )
  );
}

/**
 * The error for a file whose size is not a whole number of entries (truncated, or not a book),
 * or undefined when the size is right. `head`: the file's first bytes, to say what it looks like.
 */
export function sizeError(name: string, size: number, head: Uint8Array): BookError | undefined {
  const partial = size % ENTRY_SIZE;
  if (partial === 0) return undefined;
  return (
    notABookError(name, head) ??
    new BookError(
      'ERR_BOOK_SIZE',
      `${name}: size ${size} is not a multiple of 16: a Polyglot book is whole 16-byte entries, so the file is truncated or damaged (${size < ENTRY_SIZE ? 'not even one entry' : `${partial} byte${partial > 1 ? 's' : ''} after entry ${(size - partial) / ENTRY_SIZE - 1}`})`,
      name,
      size - partial,
    )
  );
}

/** The error for a file that looks like something else than a Polyglot book, or undefined. */
export function notABookError(name: string, head: Uint8Array): BookError | undefined {
  const kind = sniffNonBook(head);
  return kind === undefined ? undefined : new BookError('ERR_BOOK_NOT_A_BOOK', `${name}: not a Polyglot book (it looks like ${kind})`, name);
}

/** The warning for a book without entries (valid, but probably not what was meant). */
export function emptyWarning(name: string): string {
  return `${name}: the book is empty (0 entries)`;
}

const TBK_KIND = 'a tabiya rich book (.tbk); the book commands pick the format by the file name, so name it .tbk';

/** The error for a rich book under a name that is not .tbk (the name picks the format). */
export function tbkNotNamedTbk(name: string): BookError {
  return new BookError('ERR_BOOK_NOT_A_BOOK', `${name}: not a Polyglot book (it looks like ${TBK_KIND})`, name);
}

/** What a file that is not a book seems to be, from its first bytes; undefined if unknown. */
export function sniffNonBook(head: Uint8Array): string | undefined {
  if (isTbkMagic(head)) return TBK_KIND;
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip-compressed data; decompress it first';
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4) return 'a ZIP archive';
  let text = 0;
  const n = Math.min(head.length, 512);
  for (let i = 0; i < n; i++) {
    const c = head[i]!;
    if (c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127) || c >= 0x80) text++;
  }
  if (n >= 16 && text === n) {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(head[i]!);
    if (/^\s*(\xEF\xBB\xBF)?\[\w+\s+"/.test(s) || /\b1\.\s*[a-hNBRQKO]/.test(s)) return 'a PGN file';
    return 'a text file';
  }
  return undefined;
}

/** Does `head` start with the `.tbk` signature? */
export function isTbkMagic(head: Uint8Array): boolean {
  if (head.length < TBK_MAGIC.length) return false;
  for (let i = 0; i < TBK_MAGIC.length; i++) if (head[i] !== TBK_MAGIC.charCodeAt(i)) return false;
  return true;
}

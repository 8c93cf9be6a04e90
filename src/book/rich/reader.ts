/**
 * Reading a `.tbk` book: a binary search over the sorted 64-byte entries, straight on the bytes.
 * The bytes come from a `ByteSource`: an ArrayBuffer or Uint8Array (a browser fetch, a Node
 * buffer) or positional reads of a file (src/book/node/richFile.ts), so a lookup in a large
 * book reads a few blocks and never loads the file.
 *
 *   const book = unwrap(RichBook.open(bytes, 'book.tbk'));
 *   book.probe(pos);                       // RichMove[] of the legal book moves
 *   book.movesOf(pos.keyHi, pos.keyLo);    // every stored move of the key, legal or not
 *
 * What is checked, and when (docs/rich-books.md, "Damaged books"):
 *
 *   - opening: the header (signature, version, sizes against the file size, flags, reserved
 *     bytes, the options block), and the CRC-32 of the whole file when it is in memory (a
 *     ByteSource may skip it: the point of one is to leave a large file on disk);
 *   - every lookup through positional reads: the keys met by the binary search and the entries
 *     it reads at the end must be in order, so an unsorted file fails instead of missing moves;
 *   - every entry decoded: the relations every writer keeps (`entryProblem`), so a damaged count
 *     in a book whose checksum was not checked fails instead of showing impossible statistics.
 *
 * Every failure is a BookError naming the book, with the byte offset where it was found.
 */
import { generateLegal } from '../../core/movegen.js';
import { err, ok, type Result } from '../../core/result.js';
import { MAX_MOVES } from '../../core/types.js';
import { KeyInterval, encodeMove } from '../polyglot/format.js';
import { firstUnsorted, sniffNonBook } from '../polyglot/reader.js';
import { BookError, positionOf, type Probed } from '../polyglot/select.js';
import {
  E_DRAWS, E_DYN_DRAWS, E_DYN_LOSSES, E_DYN_WINS, E_ELO_SUM, E_EVAL, E_EVAL_N, E_FLAGS, E_KEY_HI, E_KEY_LO, E_LEARN, E_LOSSES,
  E_MOVE, E_PG_N, E_PG_SUM, E_RATED, E_SEQ, E_USER, E_WINS, EF_BLACK, EF_POSTBOOK, ENTRY_SIZE, HEADER_SIZE, TBK_MAGIC, USER_NONE,
  crc32, getU16, getU32, readHeader, type Crc32, type RichHeader,
} from './format.js';
import { USER_UNSET, type RichMove } from './types.js';

/** Random access to a book's bytes. */
export interface ByteSource {
  /** Total bytes. */
  readonly size: number;
  /** `length` bytes at `offset`; the array may be a view that is valid only until the next read. */
  read(offset: number, length: number): Uint8Array;
}

/**
 * A source that can show its bytes in place, without allocating: a file's page cache, bytes in
 * memory. What a probe reads on every call goes through this when the source offers it.
 */
export interface PinnedSource extends ByteSource {
  /** Makes `length` bytes at `offset` readable at `data[returned index]`, valid until the next read. */
  locate(offset: number, length: number): number;
  /** The array the last `locate` left its bytes in. */
  readonly data: Uint8Array;
}

/** Whether a source offers `locate`. */
export function isPinned(s: ByteSource): s is PinnedSource {
  return typeof (s as Partial<PinnedSource>).locate === 'function';
}

/** A stored entry with everything the file holds about it. */
export interface RichEntry extends RichMove {
  readonly index: number;
  readonly keyHi: number;
  readonly keyLo: number;
  /** The side to move is Black. */
  readonly black: boolean;
  /** Sum of the movers' ratings over `ratedGames`. */
  readonly eloSum: number;
  readonly weight: number;
  /** make-book's counters (see format.ts). */
  readonly pgN: number;
  readonly pgSum: number;
  readonly evalCount: number;
  readonly firstSeen: number;
  readonly learn: number;
}

/** Wraps bytes held in memory as a source. */
export function memorySource(data: Uint8Array | ArrayBuffer): PinnedSource & { bytes: Uint8Array } {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  return { bytes, data: bytes, size: bytes.length, read: (o, n) => bytes.subarray(o, o + n), locate: (o) => o };
}

export interface RichOpenOptions {
  /**
   * Check the CRC-32 of the whole file when opening: by default when the bytes are in memory
   * (one pass over them), not through a ByteSource, whose point is to leave a large file on
   * disk (its entries are checked as they are read instead).
   */
  verify?: boolean;
  /** A faster CRC-32 for that check (Node's zlib.crc32), if there is one. */
  crc?: Crc32;
}

const jsCrc: Crc32 = (b, c) => crc32(b, c);

const BUF = new Uint16Array(MAX_MOVES);
/** Entries searched in one read once the interval is this small (two 4 KiB blocks). */
const SPAN = 128;
/** Keys kept from searches through positional reads (the first ~14 levels of the search). */
const KEY_CACHE = 1 << 14;

export class RichBook {
  /** Entries in the file. */
  readonly size: number;
  private readonly base: number;
  /** Set when the whole file is in memory: lookups then read it directly. */
  private readonly bytes: Uint8Array | undefined;
  /** Keys of entries visited by searches through positional reads (the top of the search tree). */
  private readonly keyCache = new Map<number, number>();
  private readonly keyCacheLo = new Map<number, number>();

  private constructor(
    readonly source: ByteSource,
    readonly name: string,
    readonly header: RichHeader,
  ) {
    this.size = header.entries;
    this.base = header.entriesOffset;
    this.bytes = (source as { bytes?: Uint8Array }).bytes;
  }

  /**
   * Opens a book from bytes or a source. A damaged header, and for bytes in memory a checksum
   * that does not match, are errors naming the book.
   */
  static open(data: ByteSource | Uint8Array | ArrayBuffer, name = 'book', opts: RichOpenOptions = {}): Result<RichBook, BookError> {
    const source = data instanceof Uint8Array || data instanceof ArrayBuffer ? memorySource(data) : data;
    const head = source.read(0, Math.min(HEADER_SIZE, source.size));
    const first = readHeader(head, source.size);
    if (typeof first === 'string') return err(headerError(name, first, head, source.size));
    const header = readHeader(source.read(0, first.entriesOffset).slice(), source.size);
    if (typeof header === 'string') return err(headerError(name, header, head, source.size));
    const book = new RichBook(source, name, header);
    if (opts.verify ?? book.bytes !== undefined) {
      const v = book.verify(opts.crc);
      if (!v.ok) return err(v.error);
    }
    return ok(book);
  }

  /** Checks the CRC-32 of the whole file against the header (`crc`: a faster native CRC-32, if any). */
  verify(crc: Crc32 = jsCrc): Result<void, BookError> {
    const chunk = 1 << 20;
    let c = crc(this.source.read(0, 24), 0);
    c = crc(new Uint8Array(4), c);
    if (this.bytes !== undefined) c = crc(this.bytes.subarray(28), c);
    else for (let o = 28; o < this.source.size; o += chunk) c = crc(this.source.read(o, Math.min(chunk, this.source.size - o)), c);
    if (c !== this.header.checksum) {
      return err(new BookError('ERR_TBK_CHECKSUM', `${this.name}: checksum mismatch (stored ${hex(this.header.checksum)}, computed ${hex(c)}): the file is damaged`, this.name));
    }
    return ok(undefined);
  }

  /** First entry whose key is ≥ (hi, lo) unsigned, or `size`. */
  lowerBound(hi: number, lo: number): number {
    const h = hi >>> 0;
    const l = lo >>> 0;
    const b = this.bytes;
    let a = 0;
    let z = this.size;
    if (b !== undefined) {
      while (a < z) {
        const mid = (a + z) >>> 1;
        const o = this.base + mid * ENTRY_SIZE;
        const kh = getU32(b, o);
        if (kh < h || (kh === h && getU32(b, o + 4) < l)) a = mid + 1;
        else z = mid;
      }
      return a;
    }
    // Through positional reads: the upper levels of the search visit the same entries every
    // time, so their keys are kept; once the interval fits in a few blocks it is read at once.
    // The keys met so far bound every key between them in a sorted file: one outside its
    // bounds means the file is damaged, and the search would otherwise miss moves silently.
    const interval = new KeyInterval();
    while (a < z) {
      if (z - a <= SPAN) {
        const chunk = this.source.read(this.base + a * ENTRY_SIZE, (z - a) * ENTRY_SIZE);
        if (chunk.length < (z - a) * ENTRY_SIZE) throw this.damaged('ERR_TBK_READ', a, 'the file is shorter than when it was opened');
        for (let j = 0; j < z - a; j++) {
          const kh = getU32(chunk, j * ENTRY_SIZE);
          const kl = getU32(chunk, j * ENTRY_SIZE + 4);
          if (!interval.holds(kh, kl)) throw this.unsorted(a + j);
          interval.passed(kh, kl);
        }
        let x = 0;
        let y = z - a;
        while (x < y) {
          const mid = (x + y) >>> 1;
          const kh = getU32(chunk, mid * ENTRY_SIZE);
          if (kh < h || (kh === h && getU32(chunk, mid * ENTRY_SIZE + 4) < l)) x = mid + 1;
          else y = mid;
        }
        return a + x;
      }
      const mid = (a + z) >>> 1;
      let kh = this.keyCache.get(mid);
      let kl: number;
      if (kh === undefined) {
        const k = this.source.read(this.base + mid * ENTRY_SIZE, 8);
        if (k.length < 8) throw this.damaged('ERR_TBK_READ', mid, 'the file is shorter than when it was opened');
        kh = getU32(k, 0);
        kl = getU32(k, 4);
        if (this.keyCache.size < KEY_CACHE) {
          this.keyCache.set(mid, kh);
          this.keyCacheLo.set(mid, kl);
        }
      } else kl = this.keyCacheLo.get(mid)!;
      if (!interval.holds(kh, kl)) throw this.unsorted(mid);
      if (interval.narrow(kh, kl, h, l)) a = mid + 1;
      else z = mid;
    }
    return a;
  }

  /** Entry `i` as stored; an entry no writer could have written is a BookError (see `entryProblem`). */
  entry(i: number): RichEntry {
    const o = this.base + i * ENTRY_SIZE;
    const inMemory = this.bytes !== undefined;
    const b = inMemory ? this.bytes : this.source.read(o, ENTRY_SIZE);
    const p = inMemory ? o : 0;
    if (b.length < p + ENTRY_SIZE) throw this.damaged('ERR_TBK_READ', i, 'the file is shorter than when it was opened');
    const problem = entryProblem(b, p);
    if (problem !== undefined) throw this.damaged('ERR_TBK_ENTRY', i, problem);
    return decodeEntry(b, p, i);
  }

  /** Every stored move of the key (book and PostBook), in move order; legality unchecked. */
  movesOf(keyHi: number, keyLo: number): RichEntry[] {
    const out: RichEntry[] = [];
    const h = keyHi >>> 0;
    const l = keyLo >>> 0;
    for (let i = this.lowerBound(h, l); i < this.size; i++) {
      const e = this.entry(i);
      if (e.keyHi !== h || e.keyLo !== l) break;
      // Moves of a key are stored in increasing order: anything else is a damaged file.
      if (out.length > 0 && e.move <= out[out.length - 1]!.move) throw this.unsorted(i);
      out.push(e);
    }
    return out;
  }

  /** The error for entry `i`, naming the book and the byte offset. */
  private damaged(code: string, i: number, what: string): BookError {
    const o = this.base + i * ENTRY_SIZE;
    return new BookError(code, `${this.name}: entry ${i} (byte ${o}) is damaged: ${what}`, this.name, o);
  }

  private unsorted(i: number): BookError {
    return this.damaged('ERR_TBK_UNSORTED', i, 'out of key order');
  }

  /** The stored moves of the position that are legal there, with `move` as generated. */
  probe(board: Probed): RichEntry[] {
    const pos = positionOf(board);
    const stored = this.movesOf(pos.keyHi, pos.keyLo);
    if (stored.length === 0) return stored;
    const n = generateLegal(pos, BUF, 0);
    const out: RichEntry[] = [];
    for (const e of stored) {
      const pm = encodeMove(e.move);
      for (let i = 0; i < n; i++) {
        const m = BUF[i]!;
        if (m === e.move || encodeMove(m) === pm) {
          out.push(m === e.move ? e : { ...e, move: m });
          break;
        }
      }
    }
    return out;
  }
}

/** Decodes the entry at byte offset `o` of `b`. */
export function decodeEntry(b: Uint8Array, o: number, index: number): RichEntry {
  const flags = b[o + E_FLAGS]!;
  const user = b[o + E_USER]!;
  const rated = getU32(b, o + E_RATED);
  const eloSum = getF64(b, o + E_ELO_SUM);
  const pgSum = getU16(b, o + E_PG_SUM);
  return {
    index,
    keyHi: getU32(b, o + E_KEY_HI),
    keyLo: getU32(b, o + E_KEY_LO),
    move: getU16(b, o + E_MOVE),
    black: (flags & EF_BLACK) !== 0,
    postBook: (flags & EF_POSTBOOK) !== 0,
    userValue: user === USER_NONE ? USER_UNSET : user,
    wins: getU32(b, o + E_WINS),
    draws: getU32(b, o + E_DRAWS),
    losses: getU32(b, o + E_LOSSES),
    ratedGames: rated,
    avgElo: rated > 0 ? Math.round(eloSum / rated) : 0,
    eloSum,
    dynWins: getU32(b, o + E_DYN_WINS),
    dynDraws: getU32(b, o + E_DYN_DRAWS),
    dynLosses: getU32(b, o + E_DYN_LOSSES),
    pgN: getU16(b, o + E_PG_N),
    pgSum,
    weight: pgSum,
    evalCp: (getU16(b, o + E_EVAL) << 16) >> 16,
    evalCount: getU16(b, o + E_EVAL_N),
    firstSeen: getU32(b, o + E_SEQ),
    learn: getU32(b, o + E_LEARN),
  };
}

const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Big-endian float64 at byte offset `o`, without allocating a DataView. */
function getF64(b: Uint8Array, o: number): number {
  for (let i = 0; i < 8; i++) F64_BYTES[LITTLE ? 7 - i : i] = b[o + i]!;
  return F64[0]!;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** Flags an entry may carry. */
const ENTRY_FLAGS = EF_BLACK | EF_POSTBOOK;
/** The range of a rating the builder counts (src/book/rich/build.ts, `rating`). */
const MIN_RATING = 100;
const MAX_RATING = 4000;
/** Mean PostBook evaluations are clamped to this (src/book/rich/learn.ts). */
const MAX_EVAL = 30000;
/** Games a u32 counter can count. */
const U32_MAX = 0xffffffff;

/**
 * What is impossible about the entry at byte `o`, or undefined: the relations every writer of
 * the format keeps (rated games are among the finished ones, the rating sum lies between the
 * lowest and highest rating counted, a PostBook record has no game statistics, ...). A file
 * whose checksum is not checked (a large book read on disk) is checked entry by entry with this,
 * so a damaged count shows as an error rather than as 4294967296 games.
 */
export function entryProblem(b: Uint8Array, o: number): string | undefined {
  const move = getU16(b, o + E_MOVE);
  if ((move & 63) === ((move >>> 6) & 63)) return `move field 0x${move.toString(16)} is not a move`;
  const flags = b[o + E_FLAGS]!;
  if ((flags & ~ENTRY_FLAGS) !== 0) return `unknown flags 0x${flags.toString(16)}`;
  const user = b[o + E_USER]!;
  if (user > 100 && user !== USER_NONE) return `user value ${user} is not 0..100`;
  const games = getU32(b, o + E_WINS) + getU32(b, o + E_DRAWS) + getU32(b, o + E_LOSSES);
  if (games > U32_MAX) return `${games} games is more than the format counts`;
  if (getU32(b, o + E_DYN_WINS) + getU32(b, o + E_DYN_DRAWS) + getU32(b, o + E_DYN_LOSSES) > U32_MAX) return 'more learned games than the format counts';
  if ((flags & EF_POSTBOOK) !== 0 && games > 0) return `a PostBook record with ${games} games`;
  const rated = getU32(b, o + E_RATED);
  if (rated > games) return `${rated} rated games of ${games}`;
  const eloSum = getF64(b, o + E_ELO_SUM);
  if (!(eloSum >= MIN_RATING * rated && eloSum <= MAX_RATING * rated)) return `rating sum ${eloSum} over ${rated} rated games`;
  const evalCp = (getU16(b, o + E_EVAL) << 16) >> 16;
  const evalN = getU16(b, o + E_EVAL_N);
  if (Math.abs(evalCp) > MAX_EVAL || (evalN === 0 && evalCp !== 0)) return `evaluation ${evalCp} over ${evalN} games`;
  return undefined;
}

/** The error for a header `readHeader` (or `TbkBook.open`) refused; a file that is not a `.tbk` says what it looks like. */
export function headerError(name: string, problem: string, head: Uint8Array, size: number): BookError {
  let signature = true;
  for (let i = 0; i < TBK_MAGIC.length; i++) if (head[i] !== TBK_MAGIC.charCodeAt(i)) signature = false;
  if (!signature) {
    const bin = looksLikeBin(head, size);
    // Named .bin already: the command was given a Polyglot book where it needs a rich one.
    if (bin && /\.bin$/i.test(name)) {
      return new BookError('ERR_TBK_HEADER', `${name}: a Polyglot .bin book, not a .tbk: this needs a rich book (tabiya book import ${name} -o ${name.replace(/\.bin$/i, '.tbk')} makes one)`, name, 0);
    }
    const kind = sniffNonBook(head) ?? (bin ? 'a Polyglot .bin book: the book commands pick the format by the file name, so name it .bin' : undefined);
    if (kind !== undefined) return new BookError('ERR_TBK_HEADER', `${name}: not a .tbk book (it looks like ${kind})`, name, 0);
  }
  return new BookError('ERR_TBK_HEADER', `${name}: ${problem}`, name, 0);
}

/** Whole 16-byte entries whose first keys are in order: a Polyglot book, most likely. */
function looksLikeBin(head: Uint8Array, size: number): boolean {
  if (size === 0 || size % 16 !== 0) return false;
  return firstUnsorted(head, Math.floor(head.length / 16)) < 0;
}

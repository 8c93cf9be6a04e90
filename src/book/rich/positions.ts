/**
 * The stored positions of a `.tbk` book: every position seen in more than one game (or kept
 * for another reason: imported, merged, cut by min-games), with its moves' statistics, in
 * blocks of about 4 KiB sorted by key, and an index of one 24-byte line per block (first key,
 * offset, length, CRC-32) that a reader keeps in memory. A probe is a binary search of the index
 * and a scan of one block. Browser-safe.
 *
 * A position (little-endian, varints as in runs.ts):
 *   key difference from the previous position of the block (64-bit varint; 0 for the first,
 *   whose key is the index line's), the number of bytes that follow for this position (so a
 *   scan skips a position without decoding it), flags (bit 0 Black to move), the highest ply it was reached
 *   at (varint; it bounds the replay of halving.ts), number of moves, then per move
 *   in the order make-book first saw them (its tie order):
 *     u16 move, a flags byte saying which fields follow (bit 0 wins, 1 draws, 2 losses,
 *     3 unfinished, 4 rated games and rating sum, 5 split cells, 6 imported Polyglot weight and
 *     learn field, 7 repeats), those fields as varints (with bit 7 a byte saying which repeats
 *     follow, bit 0 wins, 1 draws, 2 losses, 3 unfinished, and those as varints, after the
 *     rating sum), and with bit 5 the number of cells and per cell its difference from the
 *     previous cell and the same fields (bits 0-4 and 7) again.
 *
 * Wins, draws, losses and unfinished count games, each once a position, under the last move it
 * played there (repeats.ts); the earlier occurrences of a repeated position go to the repeats of
 * the moves played then, by the game's result.
 * make-book counts every occurrence: its n and weight are the sums of both. Books written before
 * repeats were kept apart (no FLAG_GAMES_ONCE in the superblock) count every occurrence in W/D/L.
 *
 * Index line: u32 key high, u32 key low, u32 offset low, u32 offset high, u32 length, u32 CRC-32.
 *
 * A block never holds keys of two key ranges (RANGE_BITS top bits of the key): a build with
 * several threads writes each range's blocks on its own thread, and the same blocks come out
 * of a build on one thread.
 */
import { putVarint } from './runs.js';
import { Bytes } from './games.js';
import { crc32, type Crc32 } from './format.js';
import type { BookMoves } from './bookMoves.js';
import { cellPasses, type SplitFilter } from './splits.js';

/** Statistics of one split cell of a move. */
export interface CellStats {
  cell: number;
  wins: number;
  draws: number;
  losses: number;
  unfinished: number;
  rated: number;
  ratingSum: number;
  /** Occurrences beyond each game's first, by the game's result (absent: none). */
  repeatWins?: number;
  repeatDraws?: number;
  repeatLosses?: number;
  repeatUnfinished?: number;
}

/** A move's or cell's occurrences beyond each game's first. */
export function repeatsOf(s: CellStats): number {
  return (s.repeatWins ?? 0) + (s.repeatDraws ?? 0) + (s.repeatLosses ?? 0) + (s.repeatUnfinished ?? 0);
}

/** A move of a stored position: totals over its cells, the cells when the book is split. */
export interface MoveStats extends CellStats {
  move: number;
  /** Polyglot weight and learn field of a move imported from a .bin (no games behind it). */
  weight?: number;
  learn?: number;
  cells?: CellStats[];
}

export interface StoredPosition {
  keyHi: number;
  keyLo: number;
  black: boolean;
  /** Highest ply the position was reached at (65535: unknown). */
  maxPly: number;
  moves: MoveStats[];
}

export const BLOCK_TARGET = 4096;
/** Blocks are cut where these top bits of the key change: 256 key ranges. */
export const RANGE_BITS = 8;

/** The key range (0..2^RANGE_BITS-1) of a key's high half. */
export function keyRange(keyHi: number): number {
  return keyHi >>> (32 - RANGE_BITS);
}
export const INDEX_LINE = 24;

const F_WINS = 1;
const F_DRAWS = 2;
const F_LOSSES = 4;
const F_UNFINISHED = 8;
const F_RATED = 16;
const F_CELLS = 32;
const F_IMPORTED = 64;
const F_REPEATS = 128;
/**
 * Where `statsInto` leaves a move's or cell's fields: wins, draws, losses, unfinished, rated
 * games, rating sum, then the repeats: wins, draws, losses, unfinished.
 */
const STATS = new Float64Array(10);

/**
 * Writes positions, in key order, as blocks: `emit(bytes)` receives the blocks' bytes in order,
 * and `index()` the index lines once done.
 */
export class PositionWriter {
  private readonly block = new Bytes(BLOCK_TARGET * 2);
  private readonly body = new Bytes(1024);
  private readonly lines = new Bytes(1 << 12);
  private firstHi = 0;
  private firstLo = 0;
  private prevHi = 0;
  private prevLo = 0;
  private inBlock = 0;
  /** Bytes emitted so far (the next block's offset). */
  offset = 0;
  positions = 0;
  moves = 0;

  constructor(
    private readonly emit: (bytes: Uint8Array) => void,
    private readonly crc: Crc32 = (b, c) => crc32(b, c),
  ) {}

  write(p: StoredPosition): void {
    if (this.inBlock > 0 && (this.block.length >= BLOCK_TARGET || keyRange(p.keyHi) !== keyRange(this.firstHi))) this.closeBlock();
    const body = this.body;
    body.clear();
    body.reserve(32 + p.moves.length * 64);
    let o = 0;
    body.data[o++] = p.black ? 1 : 0;
    o = putVarint(body.data, o, p.maxPly);
    o = putVarint(body.data, o, p.moves.length);
    body.length = o;
    for (const m of p.moves) {
      body.reserve(80 + (m.cells?.length ?? 0) * 72);
      const d2 = body.data;
      let q = body.length;
      d2[q++] = m.move & 0xff;
      d2[q++] = m.move >>> 8;
      let flags = statFlags(m);
      if (m.cells !== undefined && m.cells.length > 0) flags |= F_CELLS;
      if (m.weight !== undefined) flags |= F_IMPORTED;
      d2[q++] = flags;
      q = putStats(d2, q, m, flags);
      if ((flags & F_IMPORTED) !== 0) {
        q = putVarint(d2, q, m.weight!);
        q = putVarint(d2, q, m.learn ?? 0);
      }
      if ((flags & F_CELLS) !== 0) {
        const cells = m.cells!;
        q = putVarint(d2, q, cells.length);
        let prev = 0;
        for (const c of cells) {
          q = putVarint(d2, q, c.cell - prev);
          prev = c.cell;
          const cf = statFlags(c);
          d2[q++] = cf;
          q = putStats(d2, q, c, cf);
        }
      }
      body.length = q;
      this.moves++;
    }
    const b = this.block;
    b.reserve(24 + body.length);
    const d = b.data;
    let k = b.length;
    if (this.inBlock === 0) {
      this.firstHi = p.keyHi;
      this.firstLo = p.keyLo;
      d[k++] = 0;
    } else k = putKeyDelta(d, k, p.keyHi, p.keyLo, this.prevHi, this.prevLo);
    this.prevHi = p.keyHi;
    this.prevLo = p.keyLo;
    k = putVarint(d, k, body.length);
    d.set(body.view(), k);
    b.length = k + body.length;
    this.inBlock++;
    this.positions++;
  }

  /** Emits the last block; returns the index lines. */
  finish(): Uint8Array {
    if (this.inBlock > 0) this.closeBlock();
    return this.lines.view();
  }

  private closeBlock(): void {
    const bytes = this.block.view();
    const l = this.lines;
    l.reserve(INDEX_LINE);
    const v = new DataView(l.data.buffer, l.data.byteOffset + l.length, INDEX_LINE);
    v.setUint32(0, this.firstHi, true);
    v.setUint32(4, this.firstLo, true);
    v.setUint32(8, this.offset % 0x100000000, true);
    v.setUint32(12, Math.floor(this.offset / 0x100000000), true);
    v.setUint32(16, bytes.length, true);
    v.setUint32(20, this.crc(bytes, 0) >>> 0, true);
    l.length += INDEX_LINE;
    this.emit(bytes);
    this.offset += bytes.length;
    this.block.clear();
    this.inBlock = 0;
  }
}

function statFlags(s: CellStats): number {
  return (s.wins > 0 ? F_WINS : 0) | (s.draws > 0 ? F_DRAWS : 0) | (s.losses > 0 ? F_LOSSES : 0) | (s.unfinished > 0 ? F_UNFINISHED : 0) | (s.rated > 0 ? F_RATED : 0) | (repeatsOf(s) > 0 ? F_REPEATS : 0);
}

function putStats(d: Uint8Array, o: number, s: CellStats, flags: number): number {
  if (flags & F_WINS) o = putVarint(d, o, s.wins);
  if (flags & F_DRAWS) o = putVarint(d, o, s.draws);
  if (flags & F_LOSSES) o = putVarint(d, o, s.losses);
  if (flags & F_UNFINISHED) o = putVarint(d, o, s.unfinished);
  if (flags & F_RATED) {
    o = putVarint(d, o, s.rated);
    o = putVarint(d, o, s.ratingSum);
  }
  if (flags & F_REPEATS) {
    const w = s.repeatWins ?? 0;
    const dr = s.repeatDraws ?? 0;
    const l = s.repeatLosses ?? 0;
    const u = s.repeatUnfinished ?? 0;
    d[o++] = (w > 0 ? F_WINS : 0) | (dr > 0 ? F_DRAWS : 0) | (l > 0 ? F_LOSSES : 0) | (u > 0 ? F_UNFINISHED : 0);
    if (w > 0) o = putVarint(d, o, w);
    if (dr > 0) o = putVarint(d, o, dr);
    if (l > 0) o = putVarint(d, o, l);
    if (u > 0) o = putVarint(d, o, u);
  }
  return o;
}

/** Writes (hi, lo) − (prevHi, prevLo), which is positive, as a 64-bit varint. */
export function putKeyDelta(d: Uint8Array, o: number, hi: number, lo: number, prevHi: number, prevLo: number): number {
  let dl = (lo - prevLo) >>> 0;
  let dh = (hi - prevHi - (lo >>> 0 < prevLo >>> 0 ? 1 : 0)) >>> 0;
  while (dh !== 0 || dl >= 0x80) {
    d[o++] = (dl & 0x7f) | 0x80;
    dl = ((dl >>> 7) | ((dh & 0x7f) << 25)) >>> 0;
    dh >>>= 7;
  }
  d[o++] = dl;
  return o;
}

/** A block index in memory: first keys and where each block lies. */
export class BlockIndex {
  readonly count: number;
  readonly firstHi: Uint32Array;
  readonly firstLo: Uint32Array;
  readonly offset: Float64Array;
  readonly length: Uint32Array;
  readonly crc: Uint32Array;

  constructor(lines: Uint8Array) {
    if (lines.length % INDEX_LINE !== 0) throw new RangeError(`block index of ${lines.length} bytes is not a whole number of lines`);
    const n = lines.length / INDEX_LINE;
    this.count = n;
    this.firstHi = new Uint32Array(n);
    this.firstLo = new Uint32Array(n);
    this.offset = new Float64Array(n);
    this.length = new Uint32Array(n);
    this.crc = new Uint32Array(n);
    const v = new DataView(lines.buffer, lines.byteOffset, lines.length);
    for (let i = 0; i < n; i++) {
      const o = i * INDEX_LINE;
      this.firstHi[i] = v.getUint32(o, true);
      this.firstLo[i] = v.getUint32(o + 4, true);
      this.offset[i] = v.getUint32(o + 8, true) + v.getUint32(o + 12, true) * 0x100000000;
      this.length[i] = v.getUint32(o + 16, true);
      this.crc[i] = v.getUint32(o + 20, true);
    }
  }

  /** Checks that blocks are in key order, contiguous and inside a section of `size` bytes. */
  validate(size: number): string | undefined {
    let end = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.offset[i] !== end) return `block ${i} starts at ${this.offset[i]}, expected ${end}`;
      if (this.length[i] === 0) return `block ${i} is empty`;
      end += this.length[i]!;
      if (i > 0 && (this.firstHi[i]! < this.firstHi[i - 1]! || (this.firstHi[i] === this.firstHi[i - 1] && this.firstLo[i]! <= this.firstLo[i - 1]!))) return `block ${i} is out of key order`;
    }
    if (end !== size) return `blocks end at ${end}, section has ${size} bytes`;
    return undefined;
  }

  /** The block that may hold the key: the last whose first key is <= it, or -1. */
  find(hi: number, lo: number): number {
    let a = 0;
    let z = this.count;
    while (a < z) {
      const mid = (a + z) >>> 1;
      const h = this.firstHi[mid]!;
      if (h < hi || (h === hi && this.firstLo[mid]! <= lo)) a = mid + 1;
      else z = mid;
    }
    return a - 1;
  }
}

/**
 * Reads the positions of one block, in order: `d[start .. end)`, or all of `d`. One reader can
 * be pointed at block after block (`reset`), so a probe allocates nothing until it decodes the
 * position it found.
 */
export class BlockReader {
  private o = 0;
  private hi = 0;
  private lo = 0;
  private start = 0;
  private end = 0;

  constructor(
    private d: Uint8Array,
    firstHi: number,
    firstLo: number,
    private readonly name: string,
    start = 0,
    end = d.length,
  ) {
    this.reset(d, start, end, firstHi, firstLo);
  }

  /** Points the reader at the block `d[start .. end)` whose first key is (firstHi, firstLo). */
  reset(d: Uint8Array, start: number, end: number, firstHi: number, firstLo: number): void {
    this.d = d;
    this.o = start;
    this.start = start;
    this.end = end;
    this.hi = firstHi;
    this.lo = firstLo;
  }

  get done(): boolean {
    return this.o >= this.end;
  }

  /**
   * Moves to the position of the key and decodes it, skipping the others on their raw bytes
   * (key difference and length) without decoding their moves; undefined when the block does not
   * hold the key.
   */
  find(hi: number, lo: number, cells = true): StoredPosition | undefined {
    return this.seek(hi, lo) ? this.next(cells) : undefined;
  }

  /**
   * Moves to the position of the key, skipping the others on their raw bytes (key difference
   * and length); false when the block does not hold the key. After true, `next` or `movesInto`
   * reads the position.
   */
  seek(hi: number, lo: number): boolean {
    // One loop on locals over the raw bytes: a probe skips about half a block of positions.
    const d = this.d;
    const end = this.end;
    let o = this.o;
    let kh = this.hi;
    let kl = this.lo;
    while (o < end) {
      const start = o;
      // Key difference: a 64-bit varint (low 32 bits in dl, the rest in dh).
      let dl = 0;
      let dh = 0;
      for (let shift = 0; ; shift += 7) {
        const x = d[o++];
        if (x === undefined || o > end || shift > 63) throw this.damagedAt(o);
        const v = x & 0x7f;
        if (shift < 32) {
          dl = (dl | (v << shift)) >>> 0;
          if (shift > 25) dh = (dh | (v >>> (32 - shift))) >>> 0;
        } else dh = (dh | (v << (shift - 32))) >>> 0;
        if (x < 0x80) break;
      }
      const prevHi = kh;
      const prevLo = kl;
      const nlo = (kl + dl) >>> 0;
      kh = (kh + dh + (nlo < kl ? 1 : 0)) >>> 0;
      kl = nlo;
      if (kh === hi && kl === lo) {
        this.o = start;
        this.hi = prevHi;
        this.lo = prevLo;
        return true;
      }
      if (kh > hi || (kh === hi && kl > lo)) {
        this.o = start;
        this.hi = prevHi;
        this.lo = prevLo;
        return false;
      }
      // The length of the position's fields, then past them.
      let len = 0;
      let scale = 1;
      for (;;) {
        const x = d[o++];
        if (x === undefined || o > end || scale > 2 ** 28) throw this.damagedAt(o);
        len += (x & 0x7f) * scale;
        scale *= 0x80;
        if (x < 0x80) break;
      }
      o += len;
      if (o > end) throw this.damagedAt(o);
    }
    this.o = o;
    this.hi = kh;
    this.lo = kl;
    return false;
  }

  /**
   * Appends the next position's moves to `out` without building objects: each move's totals
   * (`filter` open) or the sums of its cells that pass `filter`, with make-book's counters as
   * its counts give them (a hot position's halved ones are the caller's), its place in the
   * first-seen order, and the weight of a move imported from a Polyglot book (-1 for the
   * others: the caller sets make-book's); a move no counted game of the filter played is left
   * out. Returns Black to move.
   */
  movesInto(out: BookMoves, filter: SplitFilter, open: boolean): boolean {
    const d = this.d;
    this.readKey();
    const end = this.varint() + this.o;
    const black = (d[this.o++]! & 1) !== 0;
    this.varint(); // the highest ply: halving.ts reads it, a probe does not
    const n = this.varint();
    for (let i = 0; i < n; i++) {
      if (this.o + 3 > this.end) throw this.damaged();
      const move = d[this.o]! | (d[this.o + 1]! << 8);
      const flags = d[this.o + 2]!;
      this.o += 3;
      this.statsInto(flags);
      let wins = STATS[0]!;
      let draws = STATS[1]!;
      let losses = STATS[2]!;
      let unfinished = STATS[3]!;
      let rated = STATS[4]!;
      let ratingSum = STATS[5]!;
      let repeatWins = STATS[6]!;
      let repeatDraws = STATS[7]!;
      let repeats = repeatWins + repeatDraws + STATS[8]! + STATS[9]!;
      let repeatSum = 2 * repeatWins + repeatDraws + STATS[9]!;
      let weight = -1;
      let learn = 0;
      if (flags & F_IMPORTED) {
        weight = this.varint();
        learn = this.varint();
      }
      let passes = true;
      if (!open) {
        if ((flags & F_CELLS) === 0) passes = cellPasses(filter, 0);
        else {
          // The cells that pass, summed.
          wins = draws = losses = unfinished = rated = ratingSum = 0;
          repeatWins = repeatDraws = repeats = repeatSum = 0;
          const k = this.varint();
          let cell = 0;
          for (let j = 0; j < k; j++) {
            cell += this.varint();
            const cf = d[this.o++];
            if (cf === undefined || this.o > this.end) throw this.damaged();
            this.statsInto(cf);
            if (!cellPasses(filter, cell)) continue;
            wins += STATS[0]!;
            draws += STATS[1]!;
            losses += STATS[2]!;
            unfinished += STATS[3]!;
            rated += STATS[4]!;
            ratingSum += STATS[5]!;
            repeats += STATS[6]! + STATS[7]! + STATS[8]! + STATS[9]!;
            repeatSum += 2 * STATS[6]! + STATS[7]! + STATS[9]!;
          }
          passes = wins + draws + losses + unfinished > 0;
        }
      } else if (flags & F_CELLS) this.skipCells();
      if (!passes) continue;
      // make-book's counters count every occurrence: the games and their repeats.
      const pgSum = Math.min(2 * wins + draws + unfinished + repeatSum, 0xffff);
      out.push(move, black, wins, draws, losses, unfinished, rated, ratingSum, Math.min(wins + draws + losses + unfinished + repeats, 0xffff), pgSum, weight, i, learn, -1);
    }
    if (this.o !== end || this.o > this.end) throw this.damaged();
    return black;
  }

  private readKey(): void {
    const d = this.d;
    let dl = 0;
    let dh = 0;
    let shift = 0;
    for (;;) {
      const b = d[this.o++];
      if (this.o > this.end || b === undefined || shift > 63) throw this.damaged();
      const v = b & 0x7f;
      if (shift < 32) {
        dl = (dl | (v << shift)) >>> 0;
        if (shift > 25) dh = (dh | (v >>> (32 - shift))) >>> 0;
      } else dh = (dh | (v << (shift - 32))) >>> 0;
      shift += 7;
      if (b < 0x80) break;
    }
    const nlo = (this.lo + dl) >>> 0;
    this.hi = (this.hi + dh + (nlo < this.lo ? 1 : 0)) >>> 0;
    this.lo = nlo;
  }

  /**
   * The next position; without `cells`, a split book's cells are skipped on the raw bytes (the
   * totals are all an unfiltered probe reads, and an opening position of a split book has
   * thousands of cells).
   */
  next(cells = true): StoredPosition {
    const d = this.d;
    this.readKey();
    const end = this.varint() + this.o;
    const black = (d[this.o++]! & 1) !== 0;
    const maxPly = this.varint();
    const n = this.varint();
    const moves: MoveStats[] = [];
    for (let i = 0; i < n; i++) {
      if (this.o + 3 > this.end) throw this.damaged();
      const move = d[this.o]! | (d[this.o + 1]! << 8);
      const flags = d[this.o + 2]!;
      this.o += 3;
      const m: MoveStats = { move, cell: 0, ...this.stats(flags) };
      if (flags & F_IMPORTED) {
        m.weight = this.varint();
        m.learn = this.varint();
      }
      if (flags & F_CELLS && !cells) this.skipCells();
      else if (flags & F_CELLS) {
        const k = this.varint();
        const list: CellStats[] = [];
        let cell = 0;
        for (let j = 0; j < k; j++) {
          cell += this.varint();
          const cf = d[this.o++];
          if (cf === undefined || this.o > this.end) throw this.damaged();
          list.push({ cell, ...this.stats(cf) });
        }
        m.cells = list;
      }
      moves.push(m);
    }
    if (this.o !== end || this.o > this.end) throw this.damaged();
    return { keyHi: this.hi, keyLo: this.lo, black, maxPly, moves };
  }

  /** Skips a move's cells: per cell a varint, a flags byte and a varint per field the flags name. */
  private skipCells(): void {
    const d = this.d;
    const k = this.varint();
    let o = this.o;
    for (let j = 0; j < k; j++) {
      while (d[o++]! >= 0x80);
      const cf = d[o++]!;
      let fields = ((cf & F_WINS) !== 0 ? 1 : 0) + ((cf & F_DRAWS) !== 0 ? 1 : 0) + ((cf & F_LOSSES) !== 0 ? 1 : 0) + ((cf & F_UNFINISHED) !== 0 ? 1 : 0) + ((cf & F_RATED) !== 0 ? 2 : 0);
      for (; fields > 0; fields--) while (d[o++]! >= 0x80);
      if ((cf & F_REPEATS) !== 0) {
        const rf = d[o++]!;
        fields = (rf & F_WINS ? 1 : 0) + (rf & F_DRAWS ? 1 : 0) + (rf & F_LOSSES ? 1 : 0) + (rf & F_UNFINISHED ? 1 : 0);
        for (; fields > 0; fields--) while (d[o++]! >= 0x80);
      }
      if (o > this.end) throw this.damagedAt(o);
    }
    this.o = o;
  }

  /** Reads the fields `flags` names into STATS (no object). */
  private statsInto(flags: number): void {
    STATS[0] = flags & F_WINS ? this.varint() : 0;
    STATS[1] = flags & F_DRAWS ? this.varint() : 0;
    STATS[2] = flags & F_LOSSES ? this.varint() : 0;
    STATS[3] = flags & F_UNFINISHED ? this.varint() : 0;
    STATS[4] = flags & F_RATED ? this.varint() : 0;
    STATS[5] = flags & F_RATED ? this.varint() : 0;
    if (flags & F_REPEATS) {
      const rf = this.byte();
      STATS[6] = rf & F_WINS ? this.varint() : 0;
      STATS[7] = rf & F_DRAWS ? this.varint() : 0;
      STATS[8] = rf & F_LOSSES ? this.varint() : 0;
      STATS[9] = rf & F_UNFINISHED ? this.varint() : 0;
    } else STATS[6] = STATS[7] = STATS[8] = STATS[9] = 0;
  }

  private byte(): number {
    const b = this.d[this.o++];
    if (b === undefined || this.o > this.end) throw this.damaged();
    return b;
  }

  private stats(flags: number): Omit<CellStats, 'cell'> {
    const wins = flags & F_WINS ? this.varint() : 0;
    const draws = flags & F_DRAWS ? this.varint() : 0;
    const losses = flags & F_LOSSES ? this.varint() : 0;
    const unfinished = flags & F_UNFINISHED ? this.varint() : 0;
    let rated = 0;
    let ratingSum = 0;
    if (flags & F_RATED) {
      rated = this.varint();
      ratingSum = this.varint();
    }
    const s: Omit<CellStats, 'cell'> = { wins, draws, losses, unfinished, rated, ratingSum };
    if (flags & F_REPEATS) {
      const rf = this.byte();
      if (rf & F_WINS) s.repeatWins = this.varint();
      if (rf & F_DRAWS) s.repeatDraws = this.varint();
      if (rf & F_LOSSES) s.repeatLosses = this.varint();
      if (rf & F_UNFINISHED) s.repeatUnfinished = this.varint();
    }
    return s;
  }

  private varint(): number {
    const d = this.d;
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = d[this.o++];
      if (b === undefined || scale > 2 ** 56 || this.o > this.end) throw this.damaged();
      v += (b & 0x7f) * scale;
      scale *= 0x80;
      if (b < 0x80) return v;
    }
  }

  private damaged(): Error {
    return this.damagedAt(this.o);
  }

  private damagedAt(o: number): Error {
    return new RangeError(`${this.name}: damaged position block (byte ${o - this.start})`);
  }
}

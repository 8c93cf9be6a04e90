/**
 * Sorted runs of book rows: what a build spills when its accumulator is full, what a shard of a
 * sharded build hands to the merge (a partial book), and what the merge reads. Rows come sorted
 * by (key unsigned, move, cell) with byte-oriented variable-length coding, so a run of mostly
 * single games costs about a dozen bytes a row. Browser-safe.
 *
 * A row: a header byte, then
 *   - unless bit 0 (same key as the row before): the key's difference from the previous key
 *     (from 0 for the first row), a 64-bit varint;
 *   - the move (u16, little-endian) and the cell (varint);
 *   - bit 2 clear (one game; bits 3-4 its result from the mover's side: 0 win, 1 draw, 2 loss,
 *     3 unfinished; bit 5 the mover was rated): the rating (varint) when rated, then the stamp;
 *   - bit 2 set: wins, draws, losses, unfinished, rated games, rating sum, stamp, highest ply
 *     (varints), with bit 7 the repeats by result (wins, draws, losses, unfinished: varints),
 *     and with bit 6 the Polyglot weight and learn field of an imported entry.
 * Bit 1 of the header: Black to move. Stamps are game · 65536 + ply of the first occurrence
 * (the ply of a one-game row is its highest ply too).
 *
 * Counts are per game: a game that reaches the position more than once (a repetition) counts
 * in its games once, under the last move it played there, as the Lichess explorer counts; its
 * earlier occurrences go to the repeats of the moves played then, which make-book's counters (its
 * n and weight) count as well (repeats.ts).
 */
import { Bytes } from './games.js';

/** One row, as runs carry it; readers fill one object again and again. */
export class RunRow {
  keyHi = 0;
  keyLo = 0;
  move = 0;
  cell = 0;
  black = 0;
  wins = 0;
  draws = 0;
  losses = 0;
  unfinished = 0;
  rated = 0;
  ratingSum = 0;
  stamp = 0;
  maxPly = 0;
  /** Polyglot weight and learn field of an entry imported from a .bin (-1: none). */
  weight = -1;
  learn = 0;
  /** Occurrences of the position in a game before its last there (a repetition), by the game's result. */
  repeatWins = 0;
  repeatDraws = 0;
  repeatLosses = 0;
  repeatUnfinished = 0;

  /** Games that played the move (each once). */
  games(): number {
    return this.wins + this.draws + this.losses + this.unfinished;
  }

  /** Occurrences beyond each game's first. */
  repeats(): number {
    return this.repeatWins + this.repeatDraws + this.repeatLosses + this.repeatUnfinished;
  }

  /** What make-book adds to its n for this row: every occurrence. */
  occurrences(): number {
    return this.games() + this.repeats();
  }

  /** What make-book adds to its sum (weight) for this row: 2 a win, 1 a draw or unfinished game, each occurrence. */
  polyglotSum(): number {
    return 2 * (this.wins + this.repeatWins) + this.draws + this.repeatDraws + this.unfinished + this.repeatUnfinished;
  }

  copyFrom(r: RunRow): void {
    this.keyHi = r.keyHi;
    this.keyLo = r.keyLo;
    this.move = r.move;
    this.cell = r.cell;
    this.black = r.black;
    this.wins = r.wins;
    this.draws = r.draws;
    this.losses = r.losses;
    this.unfinished = r.unfinished;
    this.rated = r.rated;
    this.ratingSum = r.ratingSum;
    this.stamp = r.stamp;
    this.maxPly = r.maxPly;
    this.weight = r.weight;
    this.learn = r.learn;
    this.repeatWins = r.repeatWins;
    this.repeatDraws = r.repeatDraws;
    this.repeatLosses = r.repeatLosses;
    this.repeatUnfinished = r.repeatUnfinished;
  }

  /** Adds another row of the same (key, move, cell): counts summed, the earlier stamp kept. */
  add(r: RunRow): void {
    this.wins += r.wins;
    this.draws += r.draws;
    this.losses += r.losses;
    this.unfinished += r.unfinished;
    this.rated += r.rated;
    this.ratingSum += r.ratingSum;
    this.repeatWins += r.repeatWins;
    this.repeatDraws += r.repeatDraws;
    this.repeatLosses += r.repeatLosses;
    this.repeatUnfinished += r.repeatUnfinished;
    if (r.stamp < this.stamp) this.stamp = r.stamp;
    if (r.maxPly > this.maxPly) this.maxPly = r.maxPly;
    this.black |= r.black;
    // Imported weights add, saturating, as polyglot merge-book 2.0 adds them.
    if (r.weight >= 0) this.weight = Math.min(0xffff, Math.max(this.weight, 0) + r.weight);
    if (this.learn === 0) this.learn = r.learn;
  }

}

/** Orders rows by key (unsigned), move, cell. */
export function compareRows(a: RunRow, b: RunRow): number {
  if (a.keyHi !== b.keyHi) return a.keyHi < b.keyHi ? -1 : 1;
  if (a.keyLo !== b.keyLo) return a.keyLo < b.keyLo ? -1 : 1;
  if (a.move !== b.move) return a.move - b.move;
  return a.cell - b.cell;
}

/** Writes rows, in run order, into a buffer that is handed to `flush` whenever it fills. */
export class RunWriter {
  private readonly out = new Bytes(1 << 20);
  private prevHi = 0;
  private prevLo = 0;
  private first = true;
  /** Rows written, and bytes handed to `flush`. */
  rows = 0;
  bytes = 0;

  constructor(private readonly flush: (bytes: Uint8Array) => void) {}

  write(r: RunRow): void {
    const out = this.out;
    out.reserve(96);
    const d = out.data;
    let o = out.length;
    const same = !this.first && r.keyHi === this.prevHi && r.keyLo === this.prevLo;
    const games = r.games();
    const repeats = r.repeats() > 0;
    const single = r.weight < 0 && games === 1 && !repeats && r.maxPly === r.stamp % 65536 && r.rated <= 1 && (r.rated === 0 || (r.ratingSum >= 1 && r.ratingSum < 65536));
    let header = (same ? 1 : 0) | (r.black ? 2 : 0);
    if (single) header |= ((r.wins === 1 ? 0 : r.draws === 1 ? 1 : r.losses === 1 ? 2 : 3) << 3) | (r.rated === 1 ? 32 : 0);
    else header |= 4 | (r.weight >= 0 ? 64 : 0) | (repeats ? 128 : 0);
    d[o++] = header;
    if (!same) {
      // The difference from the previous key, borrow included: keys ascend, so it is >= 0.
      let lo = (r.keyLo - this.prevLo) >>> 0;
      let hi = (r.keyHi - this.prevHi - (r.keyLo >>> 0 < this.prevLo >>> 0 ? 1 : 0)) >>> 0;
      if (this.first) {
        lo = r.keyLo;
        hi = r.keyHi;
      }
      while (hi !== 0 || lo >= 0x80) {
        d[o++] = (lo & 0x7f) | 0x80;
        lo = ((lo >>> 7) | ((hi & 0x7f) << 25)) >>> 0;
        hi >>>= 7;
      }
      d[o++] = lo;
      this.prevHi = r.keyHi;
      this.prevLo = r.keyLo;
      this.first = false;
    }
    d[o++] = r.move & 0xff;
    d[o++] = r.move >>> 8;
    o = putVarint(d, o, r.cell);
    if (single) {
      if (r.rated === 1) o = putVarint(d, o, r.ratingSum);
      o = putVarint(d, o, r.stamp);
    } else {
      o = putVarint(d, o, r.wins);
      o = putVarint(d, o, r.draws);
      o = putVarint(d, o, r.losses);
      o = putVarint(d, o, r.unfinished);
      o = putVarint(d, o, r.rated);
      o = putVarint(d, o, r.ratingSum);
      o = putVarint(d, o, r.stamp);
      o = putVarint(d, o, r.maxPly);
      if (repeats) {
        o = putVarint(d, o, r.repeatWins);
        o = putVarint(d, o, r.repeatDraws);
        o = putVarint(d, o, r.repeatLosses);
        o = putVarint(d, o, r.repeatUnfinished);
      }
      if (r.weight >= 0) {
        o = putVarint(d, o, r.weight);
        o = putVarint(d, o, r.learn);
      }
    }
    out.length = o;
    this.rows++;
    if (out.length >= 1 << 20) this.drain();
  }

  /** Hands what is buffered to `flush` and begins a new run: its first key in full, so it can be read from here (cellRuns.ts). */
  restart(): void {
    this.drain();
    this.first = true;
    this.prevHi = 0;
    this.prevLo = 0;
  }

  /** Hands what is buffered to `flush`. */
  drain(): void {
    if (this.out.length === 0) return;
    this.bytes += this.out.length;
    this.flush(this.out.view());
    this.out.clear();
  }
}

/** Writes a non-negative integer (up to 2^53) as a little-endian base-128 varint at `o`; returns the end. */
export function putVarint(d: Uint8Array, o: number, v: number): number {
  while (v >= 0x80) {
    d[o++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  d[o++] = v;
  return o;
}

/** Where a reader gets its bytes: `length` bytes at `offset` (fewer only at the end). */
export type ReadAt = (offset: number, length: number) => Uint8Array;
/** Or, read into `out` in place: the bytes at `offset`, returning the part of `out` filled (less only at the end). */
export type ReadInto = (out: Uint8Array, offset: number) => Uint8Array;

const WINDOW = 1 << 20;
/** Longer than any row, so a row never straddles the end of the window. */
const MAX_ROW = 96;

/** Reads the rows of a run that lies in [start, end) of a byte source, in order. */
export class RunReader {
  /** The bytes read and not yet decoded: the start of `buffer`, kept from refill to refill. */
  private window = new Uint8Array(0);
  private buffer = this.window;
  private at = 0;
  /** Offset in the source of window[0]. */
  private base: number;
  private prevHi = 0;
  private prevLo = 0;
  private first = true;

  constructor(
    private readonly readAt: ReadAt,
    start: number,
    private end: number,
    /** Name used in errors (the file). */
    private readonly name: string,
    /**
     * Reads straight into the reader's buffer, where `readAt`'s bytes are copied: a merge of
     * many runs then holds one buffer a run, not two (36 runs of ten million games on two
     * threads: 72 MB less at the build's peak).
     */
    private readonly readInto?: ReadInto,
  ) {
    this.base = start;
  }

  /** Reads on from another run, in [start, end) of the same source, keeping the buffer (cellRuns.ts). */
  seek(start: number, end: number): void {
    this.base = start;
    this.end = end;
    this.window = this.buffer.subarray(0, 0);
    this.at = 0;
    this.prevHi = 0;
    this.prevLo = 0;
    this.first = true;
  }

  /** Fills `r` with the next row; false at the end of the run. */
  next(r: RunRow): boolean {
    if (this.window.length - this.at < MAX_ROW && this.base + this.window.length < this.end) this.refill();
    if (this.at >= this.window.length) return false;
    const d = this.window;
    let o = this.at;
    const header = d[o++]!;
    if ((header & 1) === 0) {
      let lo = 0;
      let hi = 0;
      let shift = 0;
      for (;;) {
        const b = d[o++];
        if (b === undefined || shift > 63) throw this.damaged(o);
        const v = b & 0x7f;
        if (shift < 32) {
          lo = (lo | (v << shift)) >>> 0;
          if (shift > 25) hi = (hi | (v >>> (32 - shift))) >>> 0;
        } else hi = (hi | (v << (shift - 32))) >>> 0;
        shift += 7;
        if (b < 0x80) break;
      }
      if (this.first) {
        this.prevHi = hi;
        this.prevLo = lo;
        this.first = false;
      } else {
        const nlo = (this.prevLo + lo) >>> 0;
        const carry = nlo < this.prevLo ? 1 : 0;
        this.prevHi = (this.prevHi + hi + carry) >>> 0;
        this.prevLo = nlo;
      }
    } else if (this.first) throw this.damaged(o);
    r.keyHi = this.prevHi;
    r.keyLo = this.prevLo;
    r.black = (header >>> 1) & 1;
    r.move = d[o]! | (d[o + 1]! << 8);
    o += 2;
    this.at = o;
    r.cell = this.varint();
    if ((header & 4) === 0) {
      const res = (header >>> 3) & 3;
      r.wins = res === 0 ? 1 : 0;
      r.draws = res === 1 ? 1 : 0;
      r.losses = res === 2 ? 1 : 0;
      r.unfinished = res === 3 ? 1 : 0;
      if ((header & 32) !== 0) {
        r.rated = 1;
        r.ratingSum = this.varint();
      } else {
        r.rated = 0;
        r.ratingSum = 0;
      }
      r.stamp = this.varint();
      r.maxPly = r.stamp % 65536;
      r.weight = -1;
      r.learn = 0;
      r.repeatWins = r.repeatDraws = r.repeatLosses = r.repeatUnfinished = 0;
    } else {
      r.wins = this.varint();
      r.draws = this.varint();
      r.losses = this.varint();
      r.unfinished = this.varint();
      r.rated = this.varint();
      r.ratingSum = this.varint();
      r.stamp = this.varint();
      r.maxPly = this.varint();
      if ((header & 128) !== 0) {
        r.repeatWins = this.varint();
        r.repeatDraws = this.varint();
        r.repeatLosses = this.varint();
        r.repeatUnfinished = this.varint();
      } else r.repeatWins = r.repeatDraws = r.repeatLosses = r.repeatUnfinished = 0;
      if ((header & 64) !== 0) {
        r.weight = this.varint();
        r.learn = this.varint();
      } else {
        r.weight = -1;
        r.learn = 0;
      }
    }
    if (this.at > this.window.length) throw this.damaged(this.at);
    return true;
  }

  private varint(): number {
    const d = this.window;
    let o = this.at;
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = d[o++];
      if (b === undefined || scale > 2 ** 56) throw this.damaged(o);
      v += (b & 0x7f) * scale;
      scale *= 0x80;
      if (b < 0x80) break;
    }
    this.at = o;
    return v;
  }

  /**
   * Moves the bytes not yet decoded to the buffer's start and reads the next window after them.
   * The buffer is allocated once (a merge of many runs refills each again and again: a new
   * buffer each time left the collector hundreds of MB behind), sized to the run when shorter.
   */
  private refill(): void {
    const keep = this.window.length - this.at;
    const from = this.base + this.window.length;
    const want = Math.min(WINDOW, this.end - from);
    if (this.buffer.length < keep + want) {
      const grown = new Uint8Array(keep + want);
      grown.set(this.window.subarray(this.at));
      this.buffer = grown;
    } else this.buffer.copyWithin(0, this.at, this.window.length);
    let got: number;
    if (this.readInto !== undefined) got = this.readInto(this.buffer.subarray(keep, keep + want), from).length;
    else {
      const chunk = this.readAt(from, want);
      this.buffer.set(chunk, keep);
      got = chunk.length;
    }
    this.base = from - keep;
    this.window = this.buffer.subarray(0, keep + got);
    this.at = 0;
  }

  private damaged(o: number): Error {
    return new RangeError(`${this.name}: damaged run at byte ${this.base + o}`);
  }
}

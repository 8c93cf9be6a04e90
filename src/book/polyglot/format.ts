/**
 * The Polyglot `.bin` entry and move codecs (polyglot.md §1). Browser-safe: no I/O here.
 *
 * A book is a flat array of 16-byte big-endian entries, sorted by key (unsigned):
 *
 *   offset  0  key     u64  Polyglot Zobrist key (kept here as two uint32 halves, hi first)
 *   offset  8  move    u16  to-file 0-2, to-row 3-5, from-file 6-8, from-row 9-11, promo 12-14
 *   offset 10  weight  u16
 *   offset 12  learn   u32  Polyglot 2.x: high 16 bits = games, low 16 bits = half-points
 *
 * Our 16-bit core moves share bits 0-11 with Polyglot's and already write castling as king
 * takes own rook, so encoding is only the promotion field (promo type index + 1); e.p. has no
 * flag. Decoding needs the position: a book move is only trusted if it is legal there.
 */
import { generateLegal } from '../../core/movegen.js';
import { CASTLING, KIND_MASK, PROMOTION } from '../../core/move.js';
import type { Position } from '../../core/position.js';
import { MAX_MOVES } from '../../core/types.js';

/** Bytes per entry. */
export const ENTRY_SIZE = 16;
/** Largest weight an entry can carry. */
export const MAX_WEIGHT = 0xffff;

/** Polyglot move of a core move (legal in the position it is played from). */
export function encodeMove(m: number): number {
  const base = m & 0xfff;
  return (m & KIND_MASK) === PROMOTION ? base | ((((m >>> 12) & 3) + 1) << 12) : base;
}

/** From, to and promotion (0 none, 1 knight … 4 queen) of a Polyglot move. */
export const pgFrom = (pm: number): number => (pm >>> 6) & 63;
export const pgTo = (pm: number): number => pm & 63;
export const pgPromotion = (pm: number): number => (pm >>> 12) & 7;

const BUF = new Uint16Array(MAX_MOVES);

/**
 * The core move a Polyglot move denotes in `pos`, or -1 when it is not a legal move there
 * (garbage, a hash collision, a book for another position, bit 15 set, a0a0 = "no move").
 * King-takes-own-rook becomes our castling move; `e1g1` is not castling in a Polyglot book.
 */
export function decodeMove(pos: Position, pm: number): number {
  if (pm === 0 || pm > 0x7fff) return -1;
  const n = generateLegal(pos, BUF, 0);
  for (let i = 0; i < n; i++) {
    const m = BUF[i]!;
    if (encodeMove(m) === pm) return m;
  }
  return -1;
}

/** Unsigned comparison of two keys given as (hi, lo) uint32 halves: -1, 0 or 1. */
export function compareKeys(hiA: number, loA: number, hiB: number, loB: number): number {
  const a = hiA >>> 0;
  const b = hiB >>> 0;
  if (a !== b) return a < b ? -1 : 1;
  const c = loA >>> 0;
  const d = loB >>> 0;
  return c === d ? 0 : c < d ? -1 : 1;
}

/**
 * The keys a binary search has met so far below and above its interval. In a sorted file every
 * key inside the interval lies between them, so a key outside them means the file is not
 * sorted: a search through positional reads (a large book on disk, read a key at a time) checks
 * this on every key it reads instead of missing moves silently.
 */
export class KeyInterval {
  private belowH = 0;
  private belowL = 0;
  private aboveH = 0xffffffff;
  private aboveL = 0xffffffff;

  /** Does the key lie between the keys met so far? */
  holds(hi: number, lo: number): boolean {
    return compareKeys(hi, lo, this.belowH, this.belowL) >= 0 && compareKeys(hi, lo, this.aboveH, this.aboveL) <= 0;
  }

  /** The key read at the middle: true when the target lies above it (the interval becomes the upper half). */
  narrow(hi: number, lo: number, targetHi: number, targetLo: number): boolean {
    if (compareKeys(hi, lo, targetHi, targetLo) < 0) {
      this.passed(hi, lo);
      return true;
    }
    this.aboveH = hi >>> 0;
    this.aboveL = lo >>> 0;
    return false;
  }

  /** A key read in order from the bottom of the interval: the keys after it are not below it. */
  passed(hi: number, lo: number): void {
    this.belowH = hi >>> 0;
    this.belowL = lo >>> 0;
  }
}

/** One raw entry, as stored. Keys are kept as hex for display and as halves for lookups. */
export interface RawEntry {
  /** Index of the entry in the file. */
  index: number;
  keyHi: number;
  keyLo: number;
  move: number;
  weight: number;
  learn: number;
}

/** Reads entry `i` of a book held in memory. */
export function readEntry(bytes: Uint8Array, i: number): RawEntry {
  const o = i * ENTRY_SIZE;
  return {
    index: i,
    keyHi: u32(bytes, o),
    keyLo: u32(bytes, o + 4),
    move: (bytes[o + 8]! << 8) | bytes[o + 9]!,
    weight: (bytes[o + 10]! << 8) | bytes[o + 11]!,
    learn: u32(bytes, o + 12),
  };
}

/** Big-endian uint32 at byte offset `o`. */
export function u32(bytes: Uint8Array, o: number): number {
  return ((bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!) >>> 0;
}

/** Writes one entry at entry index `i` (the buffer must be large enough). */
export function writeEntry(bytes: Uint8Array, i: number, keyHi: number, keyLo: number, move: number, weight: number, learn: number): void {
  const o = i * ENTRY_SIZE;
  putU32(bytes, o, keyHi);
  putU32(bytes, o + 4, keyLo);
  bytes[o + 8] = (move >>> 8) & 0xff;
  bytes[o + 9] = move & 0xff;
  bytes[o + 10] = (weight >>> 8) & 0xff;
  bytes[o + 11] = weight & 0xff;
  putU32(bytes, o + 12, learn);
}

function putU32(bytes: Uint8Array, o: number, v: number): void {
  bytes[o] = (v >>> 24) & 0xff;
  bytes[o + 1] = (v >>> 16) & 0xff;
  bytes[o + 2] = (v >>> 8) & 0xff;
  bytes[o + 3] = v & 0xff;
}

/** Is a core move castling (its Polyglot form is king takes rook)? */
export const isCastlingMove = (m: number): boolean => (m & KIND_MASK) === CASTLING;

/** The learn field split as Polyglot 2.x uses it: games and half-points of the mover. */
export function splitLearn(learn: number): { games: number; points: number } {
  return { games: learn >>> 16, points: learn & 0xffff };
}

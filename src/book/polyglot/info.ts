/**
 * Facts about a book: size, positions, weights, learn data and malformed moves, plus
 * PolyGlot's info-book counts (lines and positions reachable from the start, lines.ts).
 */
import { ENTRY_SIZE, u32 } from './format.js';
import { countLines, type LineCounts } from './lines.js';
import type { PolyglotReader } from './reader.js';

export interface BookInfo {
  entries: number;
  /** Distinct keys. */
  positions: number;
  /** Most entries under one key. */
  maxMovesPerPosition: number;
  weights: { min: number; max: number; total: number; zero: number };
  /** Entries whose learn field is not 0. */
  withLearn: number;
  /** Entries whose move field cannot be a move (0, bit 15, promotion > 4, from = to). */
  badMoves: number;
  /** PolyGlot's info-book counts (undefined when not asked for). */
  lines?: LineCounts;
}

export function bookInfo(book: PolyglotReader, opts: { lines?: boolean; exact?: boolean } = {}): BookInfo {
  const b = book.bytes;
  let positions = 0;
  let run = 0;
  let maxRun = 0;
  let min = Infinity;
  let max = 0;
  let total = 0;
  let zero = 0;
  let withLearn = 0;
  let badMoves = 0;
  let ph = -1;
  let pl = -1;
  for (let i = 0; i < book.size; i++) {
    const o = i * ENTRY_SIZE;
    const h = u32(b, o);
    const l = u32(b, o + 4);
    if (h !== ph || l !== pl) {
      positions++;
      run = 0;
      ph = h;
      pl = l;
    }
    if (++run > maxRun) maxRun = run;
    const m = (b[o + 8]! << 8) | b[o + 9]!;
    const w = (b[o + 10]! << 8) | b[o + 11]!;
    if (w < min) min = w;
    if (w > max) max = w;
    if (w === 0) zero++;
    total += w;
    if (u32(b, o + 12) !== 0) withLearn++;
    if (m === 0 || m > 0x7fff || ((m >>> 12) & 7) > 4 || (m & 63) === ((m >>> 6) & 63)) badMoves++;
  }
  const info: BookInfo = {
    entries: book.size,
    positions,
    maxMovesPerPosition: maxRun,
    weights: { min: book.size === 0 ? 0 : min, max, total, zero },
    withLearn,
    badMoves,
  };
  if (opts.lines !== false) info.lines = countLines(book, opts.exact === true);
  return info;
}

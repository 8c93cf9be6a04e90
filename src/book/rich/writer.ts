/**
 * Serialising a RichTable as a `.tbk` file (layout in format.ts): rows sorted by key then
 * move, the header with its counts, and the CRC-32 over everything. Browser-safe.
 */
import {
  E_DRAWS, E_DYN_DRAWS, E_DYN_LOSSES, E_DYN_WINS, E_ELO_SUM, E_EVAL, E_EVAL_N, E_FLAGS, E_KEY_HI, E_KEY_LO, E_LEARN, E_LOSSES,
  E_MOVE, E_PG_N, E_PG_SUM, E_RATED, E_SEQ, E_USER, E_WINS, ENTRY_SIZE, FLAG_IMPORTED, HEADER_SIZE, TBK_VERSION, USER_NONE,
  bookChecksum, encodeMeta, putU32, writeHeader, type Crc32,
} from './format.js';
import type { RichTable } from './table.js';
import { bookTime } from './clock.js';

/** What the header records besides the entries. */
export interface BookInfo {
  flags: number;
  games: number;
  maxPly: number;
  minGames: number;
  learnedGames: number;
  changes: number;
  created: number;
  /** Build options and history, stored as JSON in the options block. */
  meta: Record<string, unknown>;
}

/** Rows worth storing: with games, dynamic statistics, a user value or a PostBook record. */
export function hasData(t: RichTable, r: number): boolean {
  return t.wins[r]! + t.draws[r]! + t.losses[r]! + t.dynWins[r]! + t.dynDraws[r]! + t.dynLosses[r]! > 0 || t.user[r] !== USER_NONE || t.pgN[r]! > 0 || t.learn[r]! !== 0;
}

/**
 * The rows to write, sorted by key (unsigned) then move. Rows are bucketed by the key's top 16
 * bits in one counting pass, with their keys moved along so that each bucket (about n / 65536
 * rows) is sorted by insertion in contiguous memory: a general sort of a few million rows
 * spends its time in cache misses on the key columns.
 */
export function sortedRows(t: RichTable, keep: (r: number) => boolean): Int32Array {
  const rows = new Int32Array(t.size);
  let n = 0;
  for (let r = 0; r < t.size; r++) if (keep(r)) rows[n++] = r;
  const counts = new Int32Array(65537);
  for (let j = 0; j < n; j++) counts[(t.keyHi[rows[j]!]! >>> 16) + 1]!++;
  for (let d = 1; d <= 65536; d++) counts[d]! += counts[d - 1]!;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const mv = new Uint16Array(n);
  const out = new Int32Array(n);
  for (let j = 0; j < n; j++) {
    const r = rows[j]!;
    const k = counts[t.keyHi[r]! >>> 16]!++;
    hi[k] = t.keyHi[r]!;
    lo[k] = t.keyLo[r]!;
    mv[k] = t.move[r]!;
    out[k] = r;
  }
  // counts[d] is now the end of bucket d; sort each bucket by (hi, lo, move).
  let s = 0;
  for (let d = 0; d < 65536; d++) {
    const e = counts[d]!;
    for (let i = s + 1; i < e; i++) {
      const h = hi[i]!;
      const l = lo[i]!;
      const m = mv[i]!;
      const r = out[i]!;
      let j = i - 1;
      while (j >= s && (hi[j]! > h || (hi[j] === h && (lo[j]! > l || (lo[j] === l && mv[j]! > m))))) {
        hi[j + 1] = hi[j]!;
        lo[j + 1] = lo[j]!;
        mv[j + 1] = mv[j]!;
        out[j + 1] = out[j]!;
        j--;
      }
      hi[j + 1] = h;
      lo[j + 1] = l;
      mv[j + 1] = m;
      out[j + 1] = r;
    }
    s = e;
  }
  return out;
}

/** The `.tbk` bytes of the table's rows that pass `keep` (default: rows with data). */
export function encodeBook(t: RichTable, info: BookInfo, keep?: (r: number) => boolean, crc?: Crc32): Uint8Array {
  // An imported .bin may hold entries of weight 0 (never play): they are data too.
  keep ??= (info.flags & FLAG_IMPORTED) !== 0 ? () => true : (r) => hasData(t, r);
  const rows = sortedRows(t, keep);
  const meta = encodeMeta(info.meta);
  const start = HEADER_SIZE + meta.length;
  const bytes = new Uint8Array(start + rows.length * ENTRY_SIZE);
  bytes.set(meta, HEADER_SIZE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Field by field rather than entry by entry: each pass reads one column at random (rows are
  // in key order, columns in creation order), which stays in cache far better than touching
  // every column for each entry.
  const n = rows.length;
  const u32 = (col: Uint32Array | Int32Array, at: number): void => {
    for (let j = 0, o = start + at; j < n; j++, o += ENTRY_SIZE) view.setUint32(o, col[rows[j]!]! >>> 0);
  };
  const u16 = (col: Uint16Array | Int16Array, at: number): void => {
    for (let j = 0, o = start + at; j < n; j++, o += ENTRY_SIZE) view.setUint16(o, col[rows[j]!]! & 0xffff);
  };
  const u8 = (col: Uint8Array, at: number): void => {
    for (let j = 0, o = start + at; j < n; j++, o += ENTRY_SIZE) bytes[o] = col[rows[j]!]!;
  };
  u32(t.keyHi, E_KEY_HI);
  u32(t.keyLo, E_KEY_LO);
  u16(t.move, E_MOVE);
  u8(t.flags, E_FLAGS);
  u8(t.user, E_USER);
  u32(t.wins, E_WINS);
  u32(t.draws, E_DRAWS);
  u32(t.losses, E_LOSSES);
  u32(t.rated, E_RATED);
  u32(t.dynWins, E_DYN_WINS);
  u32(t.dynDraws, E_DYN_DRAWS);
  u32(t.dynLosses, E_DYN_LOSSES);
  for (let j = 0, o = start + E_ELO_SUM; j < n; j++, o += ENTRY_SIZE) view.setFloat64(o, t.eloSum[rows[j]!]!);
  u16(t.pgN, E_PG_N);
  u16(t.pgSum, E_PG_SUM);
  u16(t.evalCp, E_EVAL);
  u16(t.evalN, E_EVAL_N);
  u32(t.seq, E_SEQ);
  u32(t.learn, E_LEARN);
  writeHeader(
    bytes,
    {
      version: TBK_VERSION,
      flags: info.flags,
      games: info.games,
      entries: rows.length,
      checksum: 0,
      maxPly: info.maxPly,
      minGames: info.minGames,
      learnedGames: info.learnedGames,
      changes: info.changes,
      nextSeq: t.nextSeq,
      created: info.created,
      modified: bookTime(),
    },
    meta.length,
  );
  putU32(bytes, 24, bookChecksum(bytes, crc));
  return bytes;
}

/**
 * The `.tbk` rich-book layout. Browser-safe: bytes in, bytes out, no I/O.
 *
 * A file is a fixed 64-byte header, a build-options block (UTF-8 JSON padded with spaces to a
 * multiple of 64 bytes) and fixed 64-byte entries sorted by (key, move). Keys come first in
 * every entry and everything is big-endian (as in Polyglot's `.bin`), so a lookup is a binary
 * search straight on the bytes, in memory or through positional reads of a file, and an entry
 * never straddles a 4 KiB block.
 *
 * Header (offsets in bytes):
 *
 *    0  8  magic "TBKBOOK\n" (the newline catches text-mode mangling, as PNG's does)
 *    8  u16 version (1)            10 u16 header size (64)        12 u16 entry size (64)
 *   14  u16 flags: bit 0 EXACT (the Polyglot counters come from one pass over the games in
 *       order: export is byte-identical to make-book), bit 1 IMPORTED (from a .bin: weights
 *       only), bit 2 MERGED
 *   16  u32 games counted into the fixed statistics
 *   20  u32 entries
 *   24  u32 CRC-32 (IEEE) of the whole file with these four bytes read as zero
 *   28  u32 bytes of the options block
 *   32  u16 max-ply the games were counted with (0 = whole games)
 *   34  u16 min-games: entries seen in fewer games were dropped when the book was built
 *   36  u32 learned games (each learn update adds one: the update sequence number)
 *   40  u32 changes written (make, add, merge, set, annotate, learn: one each)
 *   44  u32 next first-seen number (see entry offset 56)
 *   48  u32 created, 52 u32 modified (seconds since 1970, UTC)
 *   56  8 bytes reserved (zero)
 *
 * Entry:
 *
 *    0 u32 key high 32 bits       4 u32 key low 32 bits (Polyglot Zobrist key)
 *    8 u16 core move (src/core/move.ts; castling as king takes own rook)
 *   10 u8  flags: bit 0 Black to move, bit 1 PostBook entry (no fixed statistics)
 *   11 u8  user value: 255 unset, else 0..100
 *   12 u32 wins  16 u32 draws  20 u32 losses      fixed statistics, mover's side
 *   24 u32 games whose mover had a rating
 *   28 u32 wins  32 u32 draws  36 u32 losses      dynamic statistics (book learning)
 *   40 f64 sum of the movers' ratings (exact integers up to 2^53)
 *   48 u16 Polyglot n    50 u16 Polyglot sum      make-book's counters, halved as it halves
 *   52 i16 mean evaluation after the move, centipawns, mover's side (PostBook)
 *   54 u16 evaluations averaged into it
 *   56 u32 first-seen number: the order make-book creates entries in, which breaks its ties
 *   60 u32 Polyglot learn field (kept from an imported .bin, written back on export)
 */

/** File signature. */
export const TBK_MAGIC = 'TBKBOOK\n';
export const TBK_VERSION = 1;
export const HEADER_SIZE = 64;
export const ENTRY_SIZE = 64;
/** The options block is padded to a multiple of this, so entries stay block-aligned. */
export const META_ALIGN = 64;

export const FLAG_EXACT = 1;
export const FLAG_IMPORTED = 2;
export const FLAG_MERGED = 4;

export const EF_BLACK = 1;
export const EF_POSTBOOK = 2;

/** Stored user value meaning "unset". */
export const USER_NONE = 255;

/** Entry field offsets. */
export const E_KEY_HI = 0;
export const E_KEY_LO = 4;
export const E_MOVE = 8;
export const E_FLAGS = 10;
export const E_USER = 11;
export const E_WINS = 12;
export const E_DRAWS = 16;
export const E_LOSSES = 20;
export const E_RATED = 24;
export const E_DYN_WINS = 28;
export const E_DYN_DRAWS = 32;
export const E_DYN_LOSSES = 36;
export const E_ELO_SUM = 40;
export const E_PG_N = 48;
export const E_PG_SUM = 50;
export const E_EVAL = 52;
export const E_EVAL_N = 54;
export const E_SEQ = 56;
export const E_LEARN = 60;

/** The header as read or to be written. */
export interface RichHeader {
  version: number;
  flags: number;
  games: number;
  entries: number;
  checksum: number;
  maxPly: number;
  minGames: number;
  learnedGames: number;
  changes: number;
  nextSeq: number;
  created: number;
  modified: number;
  /** Build options and history (inputs, filters, …) from the options block. */
  meta: Record<string, unknown>;
  /** Byte offset of the first entry. */
  entriesOffset: number;
}

/** What a header says about Polyglot export. */
export function exportKind(h: Pick<RichHeader, 'flags'>): 'exact' | 'imported' | 'approximate' {
  if ((h.flags & FLAG_EXACT) !== 0) return 'exact';
  if ((h.flags & FLAG_IMPORTED) !== 0 && (h.flags & FLAG_MERGED) === 0) return 'imported';
  return 'approximate';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The options block: JSON padded with spaces to a multiple of 64 bytes. */
export function encodeMeta(meta: Record<string, unknown>): Uint8Array {
  const json = encoder.encode(JSON.stringify(meta));
  const size = Math.ceil(json.length / META_ALIGN) * META_ALIGN;
  const out = new Uint8Array(size).fill(0x20);
  out.set(json);
  return out;
}

/** Writes the header into `bytes[0..64)` (checksum written as given). */
export function writeHeader(bytes: Uint8Array, h: Omit<RichHeader, 'meta' | 'entriesOffset'>, metaLength: number): void {
  const v = new DataView(bytes.buffer, bytes.byteOffset, HEADER_SIZE);
  for (let i = 0; i < 8; i++) bytes[i] = TBK_MAGIC.charCodeAt(i);
  v.setUint16(8, h.version);
  v.setUint16(10, HEADER_SIZE);
  v.setUint16(12, ENTRY_SIZE);
  v.setUint16(14, h.flags);
  v.setUint32(16, h.games >>> 0);
  v.setUint32(20, h.entries >>> 0);
  v.setUint32(24, h.checksum >>> 0);
  v.setUint32(28, metaLength);
  v.setUint16(32, Math.min(h.maxPly, 0xffff));
  v.setUint16(34, Math.min(h.minGames, 0xffff));
  v.setUint32(36, h.learnedGames >>> 0);
  v.setUint32(40, h.changes >>> 0);
  v.setUint32(44, h.nextSeq >>> 0);
  v.setUint32(48, h.created >>> 0);
  v.setUint32(52, h.modified >>> 0);
  for (let i = 56; i < 64; i++) bytes[i] = 0;
}

/**
 * Reads a header from the first bytes of a file (`head` must hold the header and the options
 * block: call once with 64 bytes, then again with `entriesOffset` bytes). Returns a message
 * saying what is wrong, or the header.
 */
export function readHeader(head: Uint8Array, fileSize: number): RichHeader | string {
  if (head.length < HEADER_SIZE) return `too short for a .tbk book (${fileSize} bytes)`;
  for (let i = 0; i < 8; i++) {
    if (head[i] !== TBK_MAGIC.charCodeAt(i)) return 'not a .tbk book (bad signature)';
  }
  const v = new DataView(head.buffer, head.byteOffset, HEADER_SIZE);
  const version = v.getUint16(8);
  if (head[8] === 2 && head[9] === 0) {
    return 'a version 2 .tbk book, which this reader (version 1) cannot read: open it with TbkBook.open, or openAnyRichBook for a file';
  }
  // Version 1 stores its version big-endian, version 2 little-endian (container.ts): name the
  // bytes, since a number read one way or the other means nothing to the reader of the message.
  if (version !== TBK_VERSION) {
    const hex = (x: number): string => x.toString(16).padStart(2, '0');
    return `unknown .tbk version (bytes 8-9 are ${hex(head[8]!)} ${hex(head[9]!)}; tabiya reads versions 1 and 2): the file is damaged or was written by a later version of tabiya`;
  }
  if (v.getUint16(10) !== HEADER_SIZE || v.getUint16(12) !== ENTRY_SIZE) return 'unsupported header or entry size';
  const metaLength = v.getUint32(28);
  const entries = v.getUint32(20);
  const entriesOffset = HEADER_SIZE + metaLength;
  if (metaLength % META_ALIGN !== 0) return `damaged header (options block of ${metaLength} bytes)`;
  const expected = entriesOffset + entries * ENTRY_SIZE;
  if (expected !== fileSize) return `truncated or damaged: the header announces ${entries} entries (${expected} bytes), the file has ${fileSize} bytes`;
  const flags = v.getUint16(14);
  if ((flags & ~(FLAG_EXACT | FLAG_IMPORTED | FLAG_MERGED)) !== 0) return `damaged header (unknown flags 0x${flags.toString(16)} at byte 14)`;
  for (let i = 56; i < HEADER_SIZE; i++) if (head[i] !== 0) return `damaged header (reserved byte ${i} is not zero)`;
  let meta: Record<string, unknown> = {};
  if (head.length >= entriesOffset && metaLength > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decoder.decode(head.subarray(HEADER_SIZE, entriesOffset)));
    } catch {
      return `damaged options block (not JSON, bytes ${HEADER_SIZE}..${entriesOffset - 1})`;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return `damaged options block (not a JSON object, bytes ${HEADER_SIZE}..${entriesOffset - 1})`;
    meta = parsed as Record<string, unknown>;
  }
  return {
    version,
    flags,
    games: v.getUint32(16),
    entries,
    checksum: v.getUint32(24),
    maxPly: v.getUint16(32),
    minGames: v.getUint16(34),
    learnedGames: v.getUint32(36),
    changes: v.getUint32(40),
    nextSeq: v.getUint32(44),
    created: v.getUint32(48),
    modified: v.getUint32(52),
    meta,
    entriesOffset,
  };
}

/** CRC-32 tables for slicing by 4: table k maps a byte k positions back (zlib's braided form). */
const CRC_TABLES = (() => {
  const t = new Int32Array(4 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 4; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/**
 * CRC-32 (IEEE 802.3, as zlib and PNG) continued from `crc` (start with 0). Four bytes a step
 * (slicing by 4): a byte-at-a-time loop checks a large book at about a third of the speed.
 */
export function crc32(bytes: Uint8Array, crc = 0, start = 0, end = bytes.length): number {
  let c = ~crc;
  const t = CRC_TABLES;
  let i = start;
  for (; i + 4 <= end; i += 4) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c = t[768 + (c & 0xff)]! ^ t[512 + ((c >>> 8) & 0xff)]! ^ t[256 + ((c >>> 16) & 0xff)]! ^ t[c >>> 24]!;
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** A CRC-32 continued from `crc`: `crc32` here, or a native one (Node's zlib.crc32). */
export type Crc32 = (bytes: Uint8Array, crc: number) => number;

const jsCrc: Crc32 = (bytes, crc) => crc32(bytes, crc);

/** The checksum of a whole book held in memory (the checksum field counts as zero). */
export function bookChecksum(bytes: Uint8Array, crc: Crc32 = jsCrc): number {
  let c = crc(bytes.subarray(0, 24), 0);
  c = crc(ZERO4, c);
  return crc(bytes.subarray(28), c);
}

const ZERO4 = new Uint8Array(4);

/** Big-endian reads at a byte offset (no DataView allocation on the lookup path). */
export function getU32(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
}

export function getU16(b: Uint8Array, o: number): number {
  return (b[o]! << 8) | b[o + 1]!;
}

export function putU32(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 24) & 0xff;
  b[o + 1] = (v >>> 16) & 0xff;
  b[o + 2] = (v >>> 8) & 0xff;
  b[o + 3] = v & 0xff;
}

export function putU16(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 8) & 0xff;
  b[o + 1] = v & 0xff;
}

/**
 * The container of a version 2 `.tbk` book: a 4 KiB superblock and sections. Browser-safe.
 *
 * Superblock (little-endian):
 *    0  8 bytes  magic "TBKBOOK\n" (as version 1: the newline catches text-mode mangling)
 *    8  u16      version, 2 (version 1 stored 1 big-endian here: bytes 00 01)
 *   10  u16      slot size, 1024
 *   64  slot A, 1088 slot B (1024 bytes each), the rest zero.
 *
 * Two slots, as LMDB's two meta pages: each says which sections make the book, and the valid
 * slot (its CRC-32 matches) with the higher sequence number wins. A change to the book's notes
 * (learning, user values, comments) appends a new notes section at the end of the file, syncs
 * it, then writes the *other* slot: a crash before the slot write leaves the old slot in force
 * and the appended bytes unused; a torn slot write fails its CRC and the old slot is used.
 * Whole rebuilds (make, add, merge) write a new file and rename it over the book.
 *
 * Slot:
 *    0 u32 CRC-32 of bytes 4..1023        4 u32 sequence (0: empty)
 *    8 u64 file length when written (a shorter file was truncated)
 *   16 u32 flags (FLAG_* of format.ts, FLAG_PARTIAL and FLAG_GAMES_ONCE; a flag this reader
 *          does not know is refused: the book was written by a later version)
 *   20 u64 games counted into the statistics
 *   28 u32 max-ply   32 u32 min-games   36 u32 learned games   40 u32 changes
 *   44 u32 created   48 u32 modified (seconds since 1970 UTC)
 *   52 u32 split kinds (bit 0 rating, 1 speed, 2 month)
 *   56 u32 number of sections (at most 20)
 *   64 sections, 24 bytes each: u32 id, u32 CRC-32 of its bytes, u64 offset, u64 length.
 */
import { FLAG_EXACT, FLAG_IMPORTED, FLAG_MERGED, crc32, type Crc32 } from './format.js';

export const SUPERBLOCK = 4096;
export const SLOT_SIZE = 1024;
const SLOT_A = 64;
const SLOT_B = SLOT_A + SLOT_SIZE;
const MAX_SECTIONS = 20;
export const SECTION_ALIGN = 64;

export const VERSION_2 = 2;
/** The book is one shard of a sharded build: a run of all its rows, to be merged (book merge). */
export const FLAG_PARTIAL = 8;
/**
 * Every game behind the book's W/D/L was counted once per (position, move), its repeats apart
 * (positions.ts). Without it (a book made before repeats were kept apart, or one that such a
 * book was added to or merged with), some W/D/L count a repeated move each time.
 */
export const FLAG_GAMES_ONCE = 16;

/**
 * Whether a book's W/D/L count each game once a position: it says so, or it counted no game at all
 * (a Polyglot book imported, whose moves have weights and no W/D/L), so that games added to it
 * or merged with it count as the flag says.
 */
export function countsGamesOnce(f: Pick<BookFields, 'flags' | 'games'>): boolean {
  return (f.flags & FLAG_GAMES_ONCE) !== 0 || f.games === 0;
}
/** The flags a version 2 book may hold. */
const KNOWN_FLAGS = FLAG_EXACT | FLAG_IMPORTED | FLAG_MERGED | FLAG_PARTIAL | FLAG_GAMES_ONCE;

/** Section ids. */
export const SECTION = {
  META: 1,
  GAMES: 2,
  MOVES: 3,
  FENS: 4,
  POSITIONS: 5,
  BLOCKS: 6,
  SINGLES: 7,
  HALVED: 8,
  NOTES: 9,
  RUN: 10,
} as const;

export interface SectionRef {
  id: number;
  crc: number;
  offset: number;
  length: number;
}

/** What a slot records besides the sections. */
export interface BookFields {
  flags: number;
  games: number;
  maxPly: number;
  minGames: number;
  learnedGames: number;
  changes: number;
  created: number;
  modified: number;
  splits: number;
}

export interface Slot {
  seq: number;
  fileLength: number;
  fields: BookFields;
  sections: SectionRef[];
}

const MAGIC = new TextEncoder().encode('TBKBOOK\n');

/** The format version of a book's first bytes: 1, 2, or undefined when it is not a .tbk. */
export function tbkVersion(head: Uint8Array): number | undefined {
  if (head.length < 10) return undefined;
  for (let i = 0; i < 8; i++) if (head[i] !== MAGIC[i]) return undefined;
  if (head[8] === 0 && head[9] === 1) return 1;
  if (head[8] === VERSION_2 && head[9] === 0) return 2;
  return undefined;
}

function u64(v: DataView, o: number): number {
  return v.getUint32(o, true) + v.getUint32(o + 4, true) * 0x100000000;
}

function putU64(v: DataView, o: number, x: number): void {
  v.setUint32(o, x % 0x100000000, true);
  v.setUint32(o + 4, Math.floor(x / 0x100000000), true);
}

/** A slot's 1024 bytes, CRC included. */
export function encodeSlot(slot: Slot, crc: Crc32 = (b, c) => crc32(b, c)): Uint8Array {
  if (slot.sections.length > MAX_SECTIONS) throw new RangeError(`a book has at most ${MAX_SECTIONS} sections`);
  const b = new Uint8Array(SLOT_SIZE);
  const v = new DataView(b.buffer);
  const f = slot.fields;
  v.setUint32(4, slot.seq, true);
  putU64(v, 8, slot.fileLength);
  v.setUint32(16, f.flags, true);
  putU64(v, 20, f.games);
  v.setUint32(28, f.maxPly, true);
  v.setUint32(32, f.minGames, true);
  v.setUint32(36, f.learnedGames, true);
  v.setUint32(40, f.changes, true);
  v.setUint32(44, f.created, true);
  v.setUint32(48, f.modified, true);
  v.setUint32(52, f.splits, true);
  v.setUint32(56, slot.sections.length, true);
  slot.sections.forEach((s, i) => {
    const o = 64 + i * 24;
    v.setUint32(o, s.id, true);
    v.setUint32(o + 4, s.crc >>> 0, true);
    putU64(v, o + 8, s.offset);
    putU64(v, o + 16, s.length);
  });
  v.setUint32(0, crc(b.subarray(4), 0) >>> 0, true);
  return b;
}

/** Decodes a slot, or a string saying why it is not valid. */
export function decodeSlot(b: Uint8Array, crc: Crc32 = (x, c) => crc32(x, c)): Slot | string {
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  if (v.getUint32(4, true) === 0) return 'empty slot';
  if ((crc(b.subarray(4), 0) >>> 0) !== v.getUint32(0, true)) return 'slot checksum mismatch';
  const count = v.getUint32(56, true);
  if (count > MAX_SECTIONS) return `slot lists ${count} sections`;
  const sections: SectionRef[] = [];
  for (let i = 0; i < count; i++) {
    const o = 64 + i * 24;
    sections.push({ id: v.getUint32(o, true), crc: v.getUint32(o + 4, true), offset: u64(v, o + 8), length: u64(v, o + 16) });
  }
  return {
    seq: v.getUint32(4, true),
    fileLength: u64(v, 8),
    fields: {
      flags: v.getUint32(16, true),
      games: u64(v, 20),
      maxPly: v.getUint32(28, true),
      minGames: v.getUint32(32, true),
      learnedGames: v.getUint32(36, true),
      changes: v.getUint32(40, true),
      created: v.getUint32(44, true),
      modified: v.getUint32(48, true),
      splits: v.getUint32(52, true),
    },
    sections,
  };
}

/** A whole superblock with one slot in force (slot A). */
export function encodeSuperblock(slot: Slot, crc?: Crc32): Uint8Array {
  const b = new Uint8Array(SUPERBLOCK);
  b.set(MAGIC, 0);
  b[8] = VERSION_2;
  const v = new DataView(b.buffer);
  v.setUint16(10, SLOT_SIZE, true);
  b.set(encodeSlot(slot, crc), SLOT_A);
  return b;
}

/** Byte offset of the slot to write next: the one not in force. */
export function nextSlotOffset(current: 'A' | 'B'): number {
  return current === 'A' ? SLOT_B : SLOT_A;
}

/**
 * The slot in force of a superblock, checked against the file's size: sections must lie inside
 * the committed length, which must not exceed the file. Errors are strings naming the problem.
 */
export function readSuperblock(b: Uint8Array, fileSize: number, crc?: Crc32): { slot: Slot; which: 'A' | 'B' } | string {
  if (b.length < SUPERBLOCK) return `${fileSize} bytes: too short for a version 2 book`;
  if (tbkVersion(b) !== 2) return 'not a version 2 .tbk book';
  const a = decodeSlot(b.subarray(SLOT_A, SLOT_A + SLOT_SIZE), crc);
  const z = decodeSlot(b.subarray(SLOT_B, SLOT_B + SLOT_SIZE), crc);
  let slot: Slot;
  let which: 'A' | 'B';
  if (typeof a === 'string' && typeof z === 'string') return `no valid slot (A: ${a}; B: ${z})`;
  if (typeof z === 'string' || (typeof a !== 'string' && a.seq > z.seq)) {
    slot = a as Slot;
    which = 'A';
  } else {
    slot = z;
    which = 'B';
  }
  if ((slot.fields.flags & ~KNOWN_FLAGS) !== 0) return `unknown flags 0x${(slot.fields.flags & ~KNOWN_FLAGS).toString(16)}: the book was written by a later version of tabiya`;
  if (slot.fileLength > fileSize) return `the file has ${fileSize} bytes but the book was written with ${slot.fileLength}: it was truncated`;
  for (const s of slot.sections) {
    if (s.offset < SUPERBLOCK || s.offset + s.length > slot.fileLength) return `section ${s.id} (${s.offset}+${s.length}) lies outside the book's ${slot.fileLength} bytes`;
  }
  return { slot, which };
}

/** Rounds up to the section alignment. */
export function align(n: number): number {
  return Math.ceil(n / SECTION_ALIGN) * SECTION_ALIGN;
}

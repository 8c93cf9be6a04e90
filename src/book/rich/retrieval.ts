/**
 * A static retrieval function: maps each key of a fixed set of 64-bit Polyglot keys to a value
 * of `bits` bits without storing the keys, in about 1.2 × `bits` bits per key (1.08 × for
 * 32-bit values, whose slots cannot all lie within one 4 KiB page). A key outside
 * the set gets an arbitrary value, so the caller checks the answer (the book replays the game
 * the value names). Browser-safe: bytes in, bytes out.
 *
 * The structure is a 4-wise binary fuse filter (Graf and Lemire, "Binary Fuse Filters: Fast and
 * Smaller Than Xor Filters", ACM JEA 27, 2022) holding values instead of fingerprints: a key
 * hashes to one slot in each of four consecutive segments, and the XOR of its four slots is its
 * value. The slots are solved by peeling (repeatedly taking a slot only one remaining key hashes
 * to). Four reads, all in one window of four segments, answer a query; the segments are kept
 * short (retrievalSlots.ts) so that the window is one page of a file, at the price of more
 * slots than the paper's segment length and size factor need. (Four slots rather than three:
 * 5% smaller for lookups a few percent slower; see retrievalSlots.ts.)
 *
 * Keys are split into partitions by the top bits of `keyHi`, so a key-sorted stream arrives
 * grouped and a build of billions of keys holds one partition (up to about a million keys) in
 * memory at a time; each partition has its own seed, the next one tried when peeling fails.
 * This module is the layout and the reader; retrievalBuilder.ts writes it, retrievalPeel.ts
 * solves a partition, retrievalSlots.ts hashes keys to slots.
 *
 *     const chunks: Uint8Array[] = [];
 *     const b = new RetrievalBuilder({ bits: 19, expectedKeys: n }, (chunk) => chunks.push(chunk));
 *     for (...) b.add(keyHi, keyLo, gameIndex);   // partitions in ascending order
 *     b.finish();                                  // (or buildRetrieval(keysHi, keysLo, values, { bits: 19 }))
 *     const r = unwrap(Retrieval.open(concatenated));
 *     r.get(pos.keyHi, pos.keyLo);                 // the game index, if the key was in the set
 *
 * Layout, little-endian throughout:
 *
 *   header, 16 bytes
 *      0  8 magic "TBKRETR\n"
 *      8  u16 version (1)     10 u8 value bits (1..32)     11 u8 partition bits P (0..20)
 *     12  u8 arity (4)        13 3 bytes zero
 *   data: for each partition in order, its slots bit-packed, slot i in bits [i·bits, (i+1)·bits)
 *     of the partition's bytes, bit k of them being bit k mod 8 of byte ⌊k/8⌋ (least significant
 *     first); (segments + 3) · 2^log2 slots, ⌈slots · bits / 8⌉ bytes, nothing for an empty one
 *   directory, 2^P entries of 16 bytes
 *      0 u32 keys       4 u32 seed       8 u32 segments (0 when keys = 0)
 *     12 u8 log2 of the segment length (0 when keys = 0)      13 3 bytes zero
 *   trailer, 16 bytes
 *      0 u64 keys in all       8 u32 CRC-32 of the header and the directory
 *     12 4 bytes "RETR"
 *
 * Opening reads the header, directory and trailer, and rejects anything whose sizes, counts or
 * checksum disagree. The slot data has no checksum (it would cost a pass over the whole file);
 * damage there gives wrong values, which the caller's check catches like any non-member.
 */
import { ParseError, err, ok, type Result } from '../../core/result.js';
import { crc32 } from './format.js';
import { isPinned, type ByteSource, type PinnedSource } from './reader.js';
import { ARITY, MIXED, SLOTS, locate, mix, packedBytes, readSlot, slotsOf } from './retrievalSlots.js';

export const RETRIEVAL_MAGIC = 'TBKRETR\n';
export const RETRIEVAL_VERSION = 1;
export const RETRIEVAL_END_MAGIC = 'RETR';
export const HEADER_BYTES = 16;
export const ENTRY_BYTES = 16;
export const TRAILER_BYTES = 16;
export const MAX_PARTITION_BITS = 20;
/** Keeps slot bit offsets below 2^32 and the slot arithmetic exact. */
export const MAX_PARTITION_KEYS = 1 << 26;
/** Through positional reads, a key's slots within this many bytes are read at once (else one by one). */
const WINDOW_BYTES = 4096;

/** Errors of building (thrown) and opening (returned); `code` is stable. */
export class RetrievalError extends ParseError {
  constructor(
    code: string,
    message: string,
    /** The offending key for ERR_RETRIEVAL_DUPLICATE_KEY and ERR_RETRIEVAL_ORDER. */
    readonly keyHi = 0,
    readonly keyLo = 0,
  ) {
    super(code, message);
    this.name = 'RetrievalError';
  }
}

/** A 64-bit key in hex, for messages. */
export const keyHex = (hi: number, lo: number): string => (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');

/** A built retrieval structure, opened on its bytes. */
export class Retrieval {
  private constructor(
    private readonly source: ByteSource,
    /** The whole file when it is in memory (then a query reads no source). */
    private readonly bytes: Uint8Array | null,
    /** Value bits. */
    readonly bits: number,
    /** Keys in the set. */
    readonly keys: number,
    private readonly shift: number,
    private readonly offsets: Float64Array,
    private readonly seeds: Int32Array,
    private readonly spans: Uint32Array,
    private readonly log2s: Uint8Array,
  ) {
    this.pinned = isPinned(source) ? source : null;
  }

  /** The source, when it shows its bytes in place. */
  private readonly pinned: PinnedSource | null;

  /** Number of partitions. */
  get partitions(): number {
    return this.offsets.length;
  }

  /** Bytes of the whole structure. */
  get size(): number {
    return this.source.size;
  }

  /**
   * Opens a structure from its bytes, or from positional reads of a file. The header,
   * directory and trailer are read and checked here, once.
   */
  static open(data: ByteSource | Uint8Array): Result<Retrieval, RetrievalError> {
    const source: ByteSource = data instanceof Uint8Array ? { size: data.length, read: (o, n) => data.subarray(o, o + n) } : data;
    const held = data instanceof Uint8Array ? data : (data as { bytes?: unknown }).bytes;
    const bytes = held instanceof Uint8Array && held.length === source.size ? held : null;
    const bad = (code: string, why: string): Result<Retrieval, RetrievalError> => err(new RetrievalError(code, `retrieval: ${why}`));
    const size = source.size;
    if (!Number.isSafeInteger(size) || size < HEADER_BYTES + ENTRY_BYTES + TRAILER_BYTES) return bad('ERR_RETRIEVAL_SIZE', `${size} bytes is too short`);
    // Copies (a Node Buffer's slice() would be a view), so the DataViews below start at offset 0.
    const head = new Uint8Array(source.read(0, HEADER_BYTES));
    if (head.length !== HEADER_BYTES || String.fromCharCode(...head.subarray(0, 8)) !== RETRIEVAL_MAGIC) return bad('ERR_RETRIEVAL_MAGIC', 'not a retrieval structure (bad magic)');
    const hv = new DataView(head.buffer);
    const version = hv.getUint16(8, true);
    if (version !== RETRIEVAL_VERSION) return bad('ERR_RETRIEVAL_VERSION', `version ${version} is not supported (expected ${RETRIEVAL_VERSION})`);
    const bits = head[10]!;
    const pbits = head[11]!;
    if (bits < 1 || bits > 32 || pbits > MAX_PARTITION_BITS || head[12] !== ARITY || head[13]! | head[14]! | head[15]!) {
      return bad('ERR_RETRIEVAL_HEADER', `bad header (bits ${bits}, partition bits ${pbits}, arity ${head[12]})`);
    }
    const parts = 2 ** pbits;
    const dirAt = size - TRAILER_BYTES - parts * ENTRY_BYTES;
    if (dirAt < HEADER_BYTES) return bad('ERR_RETRIEVAL_SIZE', `${size} bytes cannot hold ${parts} partitions`);
    const dir = new Uint8Array(source.read(dirAt, parts * ENTRY_BYTES));
    const tail = new Uint8Array(source.read(size - TRAILER_BYTES, TRAILER_BYTES));
    if (dir.length !== parts * ENTRY_BYTES || tail.length !== TRAILER_BYTES) return bad('ERR_RETRIEVAL_SIZE', 'short read');
    const tv = new DataView(tail.buffer);
    if (String.fromCharCode(...tail.subarray(12)) !== RETRIEVAL_END_MAGIC) return bad('ERR_RETRIEVAL_TRAILER', 'bad trailer (truncated or damaged)');
    if (tv.getUint32(8, true) !== crc32(dir, crc32(head))) return bad('ERR_RETRIEVAL_CHECKSUM', 'directory checksum mismatch: the file is damaged');

    const dv = new DataView(dir.buffer);
    const offsets = new Float64Array(parts);
    const seeds = new Int32Array(parts);
    const spans = new Uint32Array(parts);
    const log2s = new Uint8Array(parts);
    let at = HEADER_BYTES;
    let keys = 0;
    for (let p = 0; p < parts; p++) {
      const e = p * ENTRY_BYTES;
      const n = dv.getUint32(e, true);
      const segments = dv.getUint32(e + 8, true);
      const log2 = dir[e + 12]!;
      const slots = slotsOf(segments, log2);
      const empty = n === 0 && segments === 0 && log2 === 0;
      if (!empty && (n === 0 || n > MAX_PARTITION_KEYS || segments === 0 || log2 > 16 || n > slots || slots * bits >= 2 ** 32) || dir[e + 13]! | dir[e + 14]! | dir[e + 15]!) {
        return bad('ERR_RETRIEVAL_DIRECTORY', `partition ${p}: bad entry (keys ${n}, segments ${segments}, log2 ${log2})`);
      }
      offsets[p] = at;
      seeds[p] = dv.getInt32(e + 4, true);
      spans[p] = segments * 2 ** log2;
      log2s[p] = log2;
      at += packedBytes(slots, bits);
      keys += n;
    }
    if (at !== dirAt) return bad('ERR_RETRIEVAL_SIZE', `the partitions need ${at - HEADER_BYTES} data bytes, the file has ${dirAt - HEADER_BYTES}`);
    const total = tv.getUint32(4, true) * 2 ** 32 + tv.getUint32(0, true);
    if (total !== keys) return bad('ERR_RETRIEVAL_TRAILER', `the trailer counts ${total} keys, the directory ${keys}`);
    return ok(new Retrieval(source, bytes, bits, keys, 31 - pbits, offsets, seeds, spans, log2s));
  }

  /**
   * The value of a key of the set; for any other key, an arbitrary value of `bits` bits.
   * Allocates nothing when the bytes are in memory and values fit in 30 bits (V8 boxes a
   * returned number from 2^30 up unless the call is inlined).
   */
  get(keyHi: number, keyLo: number): number {
    const p = (keyHi >>> 1) >>> this.shift; // top bits; two shifts so that 0 partition bits works
    const span = this.spans[p]!;
    if (span === 0) return 0;
    mix(keyHi, keyLo, this.seeds[p]!);
    locate(MIXED[0]!, MIXED[1]!, span, this.log2s[p]!);
    const bits = this.bits;
    const a0 = SLOTS[0]! * bits;
    const a1 = SLOTS[1]! * bits;
    const a2 = SLOTS[2]! * bits;
    const a3 = SLOTS[3]! * bits;
    const base = this.offsets[p]!;
    let w: number;
    const b = this.bytes;
    if (b !== null) {
      w = readSlot(b, base, a0, bits) ^ readSlot(b, base, a1, bits) ^ readSlot(b, base, a2, bits) ^ readSlot(b, base, a3, bits);
    } else {
      // Five bytes hold any slot; reading past a partition's end stays inside the file, which
      // ends with the directory and trailer. The slots are in ascending order.
      const first = base + (a0 >>> 3);
      const end = base + (a3 >>> 3) + 5;
      const src = this.pinned;
      if (src !== null) {
        // In place (a file's page cache): no array allocated. The window when it is small (the
        // segments of a large partition are short, retrievalSlots.ts), else slot by slot.
        if (end - first <= WINDOW_BYTES) {
          const i = src.locate(first, end - first) - (a0 >>> 3);
          const win = src.data;
          w = readSlot(win, i, a0, bits) ^ readSlot(win, i, a1, bits) ^ readSlot(win, i, a2, bits) ^ readSlot(win, i, a3, bits);
        } else {
          // (`locate` first: it replaces `data`.)
          let j = src.locate(base + (a0 >>> 3), 5);
          w = readSlot(src.data, j, a0 & 7, bits);
          j = src.locate(base + (a1 >>> 3), 5);
          w ^= readSlot(src.data, j, a1 & 7, bits);
          j = src.locate(base + (a2 >>> 3), 5);
          w ^= readSlot(src.data, j, a2 & 7, bits);
          j = src.locate(base + (a3 >>> 3), 5);
          w ^= readSlot(src.data, j, a3 & 7, bits);
        }
      } else if (end - first <= WINDOW_BYTES) {
        const win = this.source.read(first, end - first);
        const o = -(a0 >>> 3); // slot offsets relative to the window
        w = readSlot(win, o, a0, bits) ^ readSlot(win, o, a1, bits) ^ readSlot(win, o, a2, bits) ^ readSlot(win, o, a3, bits);
      } else {
        w = readSlot(this.source.read(base + (a0 >>> 3), 5), 0, a0 & 7, bits);
        w ^= readSlot(this.source.read(base + (a1 >>> 3), 5), 0, a1 & 7, bits);
        w ^= readSlot(this.source.read(base + (a2 >>> 3), 5), 0, a2 & 7, bits);
        w ^= readSlot(this.source.read(base + (a3 >>> 3), 5), 0, a3 & 7, bits);
      }
    }
    return bits === 32 ? w >>> 0 : w & ((1 << bits) - 1);
  }
}

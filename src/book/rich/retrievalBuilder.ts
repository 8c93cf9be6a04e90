/**
 * Writing a retrieval structure (layout in retrieval.ts): partitions are collected from a
 * stream of keys, solved one at a time (retrievalPeel.ts) and written out at once, so memory
 * holds one partition whatever the number of keys.
 */
import {
  ENTRY_BYTES, HEADER_BYTES, MAX_PARTITION_BITS, MAX_PARTITION_KEYS, RETRIEVAL_END_MAGIC, RETRIEVAL_MAGIC, RETRIEVAL_VERSION, TRAILER_BYTES,
  RetrievalError, keyHex,
} from './retrieval.js';
import { crc32 } from './format.js';
import { PartitionSolver, type Solved } from './retrievalPeel.js';
import { ARITY } from './retrievalSlots.js';

/**
 * Average keys per partition aimed at (at most). With the paper's segments the size factor
 * falls with the partition's size to its floor (1.075 from about 600,000 keys); with the short
 * segments used for values of up to 31 bits (retrievalSlots.ts) it is 1.2 from about 25,000
 * keys, so the size of a partition sets the scratch memory of its solving (about 4.4 MB at 2^16
 * keys, 70 MB at 2^20) and the number of directory entries. Peeling jumps about its scratch at
 * random, so a partition that stays in the processor's cache solves faster: on the 389k master
 * games (23.5 million single positions), 2^16 keys rather than 2^20 took the finishing of the
 * book from 2.9 s to 2.3 s on one thread and from 1.9 s to 1.4 s on two (whose solvers share
 * one cache), its peak memory down by 50 MB (120 MB on two threads), the book 0.1% larger.
 * Values of 32 bits keep the paper's segments, whose factor needs large partitions:
 * PAPER_PARTITION_KEYS.
 */
export const PARTITION_KEYS = 1 << 16;
export const PAPER_PARTITION_KEYS = 1 << 20;

/** Receives the structure's bytes in order; every chunk is handed over (kept, never reused). */
export type ByteSink = (chunk: Uint8Array) => void;

export interface RetrievalOptions {
  /** Bits per value, 1..32. */
  bits: number;
  /** Keys expected in all, to size the partitions (about `PARTITION_KEYS` each); default one partition. */
  expectedKeys?: number;
  /** Partition bits 0..20, instead of choosing them from `expectedKeys`. */
  partitionBits?: number;
  /** The first seed tried in every partition (default 0). */
  seed?: number;
}

export interface RetrievalSummary {
  keys: number;
  bytes: number;
  partitions: number;
  /** Seeds tried after a first one failed to peel, over all partitions. */
  retries: number;
  /** Bytes · 8 / keys, everything included. */
  bitsPerKey: number;
}

/** Partition bits that give partitions of `PARTITION_KEYS` keys or fewer on average (PAPER_PARTITION_KEYS for values of 32 bits). */
export function partitionBitsFor(expectedKeys: number, bits: number): number {
  const keys = bits <= 31 ? PARTITION_KEYS : PAPER_PARTITION_KEYS;
  if (!(expectedKeys > keys)) return 0;
  return Math.min(MAX_PARTITION_BITS, Math.ceil(Math.log2(expectedKeys / keys)));
}

/**
 * Builds a structure partition by partition, writing its bytes to `sink` as it goes: the
 * header at once, each partition's slots when the next partition starts, the directory and
 * trailer at `finish()`. Keys must come grouped by partition (the top `partitionBits` bits of
 * `keyHi`) in ascending partition order, which any ascending key order is; within a partition
 * any order. Throws a `RetrievalError` on a duplicate key, a key out of partition order or a
 * value that does not fit. The same input gives the same bytes.
 */
export class RetrievalBuilder {
  readonly bits: number;
  readonly partitionBits: number;
  private readonly shift: number;
  private readonly maxValue: number;
  private readonly firstSeed: number;
  private readonly head: Uint8Array = new Uint8Array(HEADER_BYTES);
  private readonly dir: Uint8Array;
  private readonly solver = new PartitionSolver();
  private partition = -1;
  private n = 0;
  private hi: Int32Array = new Int32Array(1024);
  private lo: Int32Array = new Int32Array(1024);
  private values: Uint32Array = new Uint32Array(1024);
  private keys = 0;
  private bytes = 0;
  private retries = 0;
  private done = false;

  constructor(
    options: RetrievalOptions,
    private readonly sink: ByteSink,
  ) {
    const { bits } = options;
    const pbits = options.partitionBits ?? partitionBitsFor(options.expectedKeys ?? 0, options.bits);
    if (!Number.isInteger(bits) || bits < 1 || bits > 32) throw new RetrievalError('ERR_RETRIEVAL_OPTIONS', `retrieval: bits must be 1..32, not ${bits}`);
    if (!Number.isInteger(pbits) || pbits < 0 || pbits > MAX_PARTITION_BITS) throw new RetrievalError('ERR_RETRIEVAL_OPTIONS', `retrieval: partition bits must be 0..${MAX_PARTITION_BITS}, not ${pbits}`);
    this.bits = bits;
    this.partitionBits = pbits;
    this.shift = 31 - pbits;
    this.maxValue = 2 ** bits - 1;
    this.firstSeed = options.seed ?? 0;
    if (!Number.isSafeInteger(this.firstSeed)) throw new RetrievalError('ERR_RETRIEVAL_OPTIONS', `retrieval: seed must be an integer, not ${this.firstSeed}`);
    this.dir = new Uint8Array(2 ** pbits * ENTRY_BYTES);
    for (let i = 0; i < 8; i++) this.head[i] = RETRIEVAL_MAGIC.charCodeAt(i);
    new DataView(this.head.buffer).setUint16(8, RETRIEVAL_VERSION, true);
    this.head[10] = bits;
    this.head[11] = pbits;
    this.head[12] = ARITY;
    this.emit(this.head.slice());
  }

  /** Adds one key (two uint32 halves) and its value. */
  add(keyHi: number, keyLo: number, value: number): void {
    const p = (keyHi >>> 1) >>> this.shift;
    if (p !== this.partition) this.begin(p, keyHi, keyLo);
    if (!(value >= 0 && value <= this.maxValue && Number.isInteger(value))) {
      throw new RetrievalError('ERR_RETRIEVAL_VALUE', `retrieval: value ${value} of key ${keyHex(keyHi, keyLo)} does not fit in ${this.bits} bits`, keyHi, keyLo);
    }
    if (this.n === this.hi.length) this.grow();
    this.hi[this.n] = keyHi;
    this.lo[this.n] = keyLo;
    this.values[this.n++] = value;
  }

  /** Adds `count` keys and values from parallel arrays (a whole partition, or part of one). */
  addMany(keysHi: ArrayLike<number>, keysLo: ArrayLike<number>, values: ArrayLike<number>, count = keysHi.length): void {
    for (let i = 0; i < count; i++) this.add(keysHi[i]!, keysLo[i]!, values[i]!);
  }

  /** Solves the last partition and writes the directory and trailer. */
  finish(): RetrievalSummary {
    this.flush();
    this.done = true;
    this.partition = -1; // the next add goes through begin(), which refuses it
    const out = new Uint8Array(this.dir.length + TRAILER_BYTES);
    out.set(this.dir);
    const t = new DataView(out.buffer, this.dir.length);
    t.setUint32(0, this.keys % 2 ** 32, true);
    t.setUint32(4, Math.floor(this.keys / 2 ** 32), true);
    t.setUint32(8, crc32(this.dir, crc32(this.head)), true);
    for (let i = 0; i < 4; i++) out[this.dir.length + 12 + i] = RETRIEVAL_END_MAGIC.charCodeAt(i);
    this.emit(out);
    const partitions = 2 ** this.partitionBits;
    return { keys: this.keys, bytes: this.bytes, partitions, retries: this.retries, bitsPerKey: this.keys === 0 ? 0 : (this.bytes * 8) / this.keys };
  }

  private begin(p: number, keyHi: number, keyLo: number): void {
    if (this.done) throw new RetrievalError('ERR_RETRIEVAL_FINISHED', 'retrieval: add after finish');
    if (p < this.partition) {
      throw new RetrievalError('ERR_RETRIEVAL_ORDER', `retrieval: key ${keyHex(keyHi, keyLo)} belongs to partition ${p}, after partition ${this.partition}: keys must come in ascending partition order`, keyHi, keyLo);
    }
    this.flush();
    this.partition = p;
  }

  /**
   * Adds partition `p`, solved elsewhere (retrievalRange.ts) from its `keys` keys with this
   * builder's bits and first seed: its directory entry, and its slots in order.
   */
  addSolved(p: number, keys: number, s: Solved): void {
    if (p === this.partition) throw new RetrievalError('ERR_RETRIEVAL_ORDER', `retrieval: partition ${p} added twice`);
    this.begin(p, 0, 0);
    this.record(keys, s);
  }

  private flush(): void {
    const n = this.n;
    if (n === 0) return;
    const s = this.solver.solve(this.hi, this.lo, this.values, n, this.firstSeed, this.bits);
    this.n = 0;
    this.record(n, s);
  }

  private record(n: number, s: Solved): void {
    const d = new DataView(this.dir.buffer, this.partition * ENTRY_BYTES, ENTRY_BYTES);
    d.setUint32(0, n, true);
    d.setInt32(4, s.seed, true);
    d.setUint32(8, s.segments, true);
    d.setUint8(12, s.log2);
    this.retries += s.seed - this.firstSeed;
    this.keys += n;
    this.emit(s.data);
  }

  private emit(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    this.sink(chunk);
  }

  private grow(): void {
    if (this.n >= MAX_PARTITION_KEYS) {
      throw new RetrievalError('ERR_RETRIEVAL_PARTITION_SIZE', `retrieval: partition ${this.partition} exceeds ${MAX_PARTITION_KEYS} keys: give expectedKeys or more partition bits`);
    }
    [this.hi, this.lo, this.values] = doubled(this.hi, this.lo, this.values);
  }
}

/** A partition's keys and values in arrays twice as long. */
export function doubled(hi: Int32Array, lo: Int32Array, values: Uint32Array): [Int32Array, Int32Array, Uint32Array] {
  const cap = hi.length * 2;
  const h = new Int32Array(cap);
  const l = new Int32Array(cap);
  const v = new Uint32Array(cap);
  h.set(hi);
  l.set(lo);
  v.set(values);
  return [h, l, v];
}

/**
 * Builds a structure in memory from keys in any order: groups them by partition (a counting
 * sort on the top bits) and feeds a `RetrievalBuilder`. Sized with `expectedKeys` = `count`
 * unless the options say otherwise.
 */
export function buildRetrieval(keysHi: ArrayLike<number>, keysLo: ArrayLike<number>, values: ArrayLike<number>, options: RetrievalOptions, count = keysHi.length): Uint8Array {
  const chunks: Uint8Array[] = [];
  const b = new RetrievalBuilder({ ...options, expectedKeys: options.expectedKeys ?? count }, (c) => chunks.push(c));
  const shift = 31 - b.partitionBits;
  const start = new Uint32Array(2 ** b.partitionBits + 1);
  for (let i = 0; i < count; i++) start[((keysHi[i]! >>> 1) >>> shift) + 1]!++;
  for (let p = 1; p < start.length; p++) start[p]! += start[p - 1]!;
  const byPartition = new Uint32Array(count);
  for (let i = 0; i < count; i++) byPartition[start[(keysHi[i]! >>> 1) >>> shift]!++] = i;
  for (let j = 0; j < count; j++) {
    const i = byPartition[j]!;
    b.add(keysHi[i]!, keysLo[i]!, values[i]!);
  }
  b.finish();
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

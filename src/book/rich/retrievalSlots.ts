/**
 * Where a key's slots are in a retrieval structure (retrieval.ts), and how slots are packed.
 * Shared by the builder and the reader, which must agree on every bit.
 *
 * Results go to preallocated int32 arrays, so that the query path allocates nothing
 * (module-level `let`s would box every value outside the 31-bit small-integer range).
 */

/**
 * Slots per key: a 4-wise binary fuse structure. Measured against 3-wise with the paper's
 * parameters for each (19-bit values, partitions of 600,000 to a million keys): 1.077 × bits per
 * key instead of 1.13 to 1.14, the same build rate, lookups in memory 6 to 9% slower (a fourth
 * read, in a window of 4 segments of 2^11 to 2^12 slots instead of 3 of 2^13).
 */
export const ARITY = 4;

/** The last mixed key: hi, lo. */
export const MIXED: Int32Array = new Int32Array(2);
/** The last located key's four slots. */
export const SLOTS: Int32Array = new Int32Array(ARITY);

/** MurmurHash3's 32-bit finalizer (Appleby): a bijection with full avalanche. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Mixes a 64-bit key with a seed into MIXED: a four-round Feistel network over the two halves
 * with seeded fmix32 rounds (Luby and Rackoff: four rounds of a pseudorandom function make a
 * strong pseudorandom permutation). A permutation, so distinct keys never collide.
 */
export function mix(hi: number, lo: number, seed: number): void {
  let l = hi;
  let r = lo;
  l ^= fmix32(r ^ seed);
  r ^= fmix32(l ^ ((seed + 0x9e3779b9) | 0));
  l ^= fmix32(r ^ ((seed + 0x3c6ef372) | 0));
  r ^= fmix32(l ^ ((seed + 0xdaa66d2b) | 0));
  MIXED[0] = l;
  MIXED[1] = r;
}

/**
 * The four slots of a mixed key into SLOTS, in a partition whose first slots span
 * `span` = segments · 2^log2 slots (three more segments follow): the first anywhere in the span
 * (`h` · span / 2^32, the multiply-shift range reduction), the others in the next three segments
 * at offsets from the two 16-bit halves of `l` and the low bits of `h`, which the range
 * reduction hardly uses (Graf and Lemire's binary fuse layout).
 */
export function locate(h: number, l: number, span: number, log2: number): void {
  const len = 1 << log2;
  const mask = len - 1;
  // Exact below 2^53; above, rounding cannot reach span · 2^32 (the gap is span), so s0 < span.
  const s0 = Math.floor((h >>> 0) * span * 2.3283064365386963e-10);
  SLOTS[0] = s0;
  SLOTS[1] = (s0 + len) ^ (l & mask);
  SLOTS[2] = (s0 + 2 * len) ^ ((l >>> 16) & mask);
  SLOTS[3] = (s0 + 3 * len) ^ (h & mask);
}

/** The paper's segment length for `n` keys with four slots a key (a power of two), as its log2 (0..16). */
export function paperLog2(n: number): number {
  if (n <= 1) return 0;
  return Math.min(16, Math.max(0, Math.floor(Math.log(n) / Math.log(2.91) - 0.5)));
}

/**
 * Short segments: a key's four slots lie in four consecutive segments, so with segments of
 * 2^LOCAL_LOG2 slots and values of up to 31 bits they lie within 4 KiB, one page of a file
 * (one read through positional reads, where the paper's segments of a large partition, 2^12
 * slots at a million keys, put each slot in a page of its own). Short segments peel only with
 * more slots: measured on random keys with 19-bit values, a factor of 1.2 failed no seed in 20
 * partitions of 2^20 keys, 5 of 2^21 and 4 of 2^22, where 1.19 failed one seed in 5 at 2^21
 * and 1.16 one in two at 720,000 keys; it also peels faster than the paper's parameters
 * (7.3 M keys a second against 5.3 M at 720,000 keys, processor time).
 */
export const LOCAL_LOG2 = 8;
export const LOCAL_FACTOR = 1.2;
/** Partitions above this many keys keep the paper's segments (short ones were not measured beyond). */
export const LOCAL_MAX_KEYS = 1 << 22;

/** The segment length of a partition of `n` keys with values of `bits` bits, as its log2. */
export function segmentLog2(n: number, bits: number): number {
  const paper = paperLog2(n);
  return paper > LOCAL_LOG2 && bits <= 31 && n <= LOCAL_MAX_KEYS ? LOCAL_LOG2 : paper;
}

/**
 * Segments for `n` keys: the paper's size factor for four slots (LOCAL_FACTOR at least when
 * the segments are shorter than the paper's), rounded up to whole segments, less the three extra.
 */
export function segmentsFor(n: number, log2: number): number {
  let factor = n <= 1 ? 0 : Math.max(1.075, 0.77 + (0.305 * Math.log(600_000)) / Math.log(n));
  if (log2 < paperLog2(n)) factor = Math.max(factor, LOCAL_FACTOR);
  return Math.max(1, Math.ceil(Math.round(n * factor) / 2 ** log2) - (ARITY - 1));
}

/** Slots of a partition (none for an empty one). */
export const slotsOf = (segments: number, log2: number): number => (segments === 0 ? 0 : (segments + ARITY - 1) * 2 ** log2);

/** Bytes of `slots` packed slots. */
export const packedBytes = (slots: number, bits: number): number => Math.ceil((slots * bits) / 8);

/**
 * Packs `slots` values of `bits` bits: slot i in bits [i·bits, (i+1)·bits), bit k being bit
 * k mod 8 of byte ⌊k/8⌋ (least significant first).
 */
export function packSlots(values: Int32Array, slots: number, bits: number): Uint8Array {
  const data = new Uint8Array(packedBytes(slots, bits));
  for (let i = 0; i < slots; i++) {
    const v = values[i]!;
    if (v === 0) continue;
    const at = i * bits;
    const o = at >>> 3;
    const sh = at & 7;
    data[o] |= v << sh;
    for (let k = 1, nb = (sh + bits + 7) >>> 3; k < nb; k++) data[o + k] |= v >>> (8 * k - sh);
  }
  return data;
}

/**
 * The packed slot at bit `at` of the data starting at byte `o`, unmasked. Reads up to five
 * bytes from the slot's first, some of them past the slot.
 */
export function readSlot(b: Uint8Array, o: number, at: number, bits: number): number {
  const i = o + (at >>> 3);
  const sh = at & 7;
  let w = (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> sh;
  if (sh + bits > 32) w |= b[i + 4]! << (32 - sh);
  return w;
}

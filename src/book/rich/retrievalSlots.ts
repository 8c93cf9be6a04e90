/**
 * Where a key's slots are in a retrieval structure (retrieval.ts), and how slots are packed.
 * Shared by the builder and the reader, which must agree on every bit.
 *
 * Results go to preallocated int32 arrays, so that the query path allocates nothing
 * (module-level `let`s would box every value outside the 31-bit small-integer range).
 */

/** Slots per key: a 3-wise binary fuse structure. */
export const ARITY = 3;

/** The last mixed key: hi, lo. */
export const MIXED = new Int32Array(2);
/** The last located key's three slots. */
export const SLOTS = new Int32Array(ARITY);

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
 * The three slots of a mixed key into SLOTS, in a partition whose first slots span
 * `span` = segments · 2^log2 slots (two more segments follow): the first anywhere in the span
 * (top bits of `h`, multiply-shift range reduction), the others in the next two segments at
 * offsets from two disjoint bit fields of `l` (Graf and Lemire's binary fuse layout).
 */
export function locate(h: number, l: number, span: number, log2: number): void {
  const len = 1 << log2;
  const mask = len - 1;
  const s0 = Math.floor((h >>> 11) * span * 4.76837158203125e-7); // · 2^-21, exact below 2^53
  SLOTS[0] = s0;
  SLOTS[1] = (s0 + len) ^ ((l >>> 16) & mask);
  SLOTS[2] = (s0 + 2 * len) ^ (l & mask);
}

/** The paper's segment length for `n` keys (a power of two), as its log2 (at most 16: see `locate`). */
export function segmentLog2(n: number): number {
  if (n <= 1) return 2;
  return Math.min(16, Math.max(2, Math.floor(Math.log(n) / Math.log(3.33) + 2.25)));
}

/** Segments for `n` keys: the paper's size factor, rounded up to whole segments, less the two extra. */
export function segmentsFor(n: number, log2: number): number {
  const factor = n <= 1 ? 0 : Math.max(1.125, 0.875 + (0.25 * Math.log(1e6)) / Math.log(n));
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

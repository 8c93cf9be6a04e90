/**
 * Buckets of two 16-byte entries (four i32 words each), indexed by
 * the low bits of the Polyglot key's low half:
 *
 *   word 0  keyHi ^ word1 ^ word2
 *   word 1  bits  0-15 move           bits 16-31 score (int16, mate scores relative to node)
 *   word 2  bits  0-15 static eval    bits 16-23 depth + DEPTH_OFFSET
 *           bits 24-25 bound          bits 26-30 generation   bit 31 PV
 *   word 3  keyLo
 *
 * The key arrives as one u64 and is split here; the table is a
 * StaticArray<i32> allocated by `resize` (the runtime never frees: resize rarely).
 */
import { MATE_IN_MAX, NONE_SCORE } from './score';

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

const DEPTH_OFFSET = 8;
/** Generations wrap at 32: an entry 32 searches old is long out of any search's way. */
const GEN_MASK = 31;
const ENTRY_WORDS = 4;
const BUCKET_WORDS = 8;
const BUCKET_BYTES = BUCKET_WORDS * 4;
/** The largest table (a StaticArray holds less than 1 GB). */
export const MAX_MEGABYTES = 512;

// @ts-ignore: decorator
@inline export function scoreToTT(score: i32, ply: i32): i32 {
  if (score >= MATE_IN_MAX) return score + ply;
  if (score <= -MATE_IN_MAX) return score - ply;
  return score;
}

// @ts-ignore: decorator
@inline export function scoreFromTT(score: i32, ply: i32): i32 {
  if (score == NONE_SCORE) return NONE_SCORE;
  if (score >= MATE_IN_MAX) return score - ply;
  if (score <= -MATE_IN_MAX) return score + ply;
  return score;
}

/**
 * A zeroed table of `words` whose first bucket starts a 64-byte cache line, so that no bucket
 * straddles two lines (a probe is one cache miss, not two). The allocator aligns to 16 bytes
 * only: a 64 MB table came at 16 mod 64, and half its buckets straddled. It allocates a line
 * more and starts the table inside it; the word before the start gets the byte length a
 * StaticArray keeps there, as `attach` does.
 */
function alignedTable(words: i32): StaticArray<i32> {
  const raw = changetype<usize>(new StaticArray<i32>(words + 16));
  const ptr = (raw + 63) & ~(<usize>63);
  if (ptr != raw) store<u32>(ptr - 4, <u32>(words << 2));
  return changetype<StaticArray<i32>>(ptr);
}

export class TranspositionTable {
  data: StaticArray<i32> = new StaticArray<i32>(BUCKET_WORDS);
  mask: i32 = 0;
  generation: i32 = 0;

  // The last probe's hit.
  move: i32 = 0;
  score: i32 = 0;
  eval: i32 = 0;
  depth: i32 = 0;
  bound: i32 = 0;
  /** The entry was stored by a PV node (Stockfish's ttPv: "is or has been on the PV"). */
  pv: bool = false;

  /** Byte size of a table of `megabytes` MB: the largest power-of-two bucket count that fits. */
  static bytesFor(megabytes: i32): i32 {
    const buckets = max<i32>(1, <i32>((<i64>max<i32>(1, megabytes) * 1024 * 1024) / BUCKET_BYTES));
    return (1 << (31 - clz(buckets))) * BUCKET_BYTES;
  }

  /**
   * An empty table of `megabytes` (at most MAX_MEGABYTES). The stub runtime never frees memory,
   * so a table no larger than the memory already held reuses it (as a prefix); only a larger
   * one allocates.
   */
  resize(megabytes: i32): void {
    const words = TranspositionTable.bytesFor(min<i32>(megabytes, MAX_MEGABYTES)) >> 2;
    const fresh = words > this.data.length;
    if (fresh) this.data = alignedTable(words);
    this.mask = words / BUCKET_WORDS - 1;
    if (!fresh) this.clear();
    this.generation = 0;
  }

  /**
   * Uses the table at `ptr` of `megabytes` (a power of two) that another instance over the same
   * shared memory uses too (Lazy SMP): nothing is allocated or emptied here. The word before
   * `ptr` is given the byte length a StaticArray keeps there, so checked builds bound-check it.
   */
  attach(ptr: usize, megabytes: i32): void {
    const bytes = TranspositionTable.bytesFor(megabytes);
    store<u32>(ptr - 4, <u32>bytes);
    this.data = changetype<StaticArray<i32>>(ptr);
    this.mask = (bytes >> 2) / BUCKET_WORDS - 1;
    this.generation = 0;
  }

  /** An empty table of `bytes` (a power of two, at least one bucket), for a private small table. */
  resizeBytes(bytes: i32): void {
    this.data = alignedTable(bytes >> 2);
    this.mask = (bytes >> 2) / BUCKET_WORDS - 1;
    this.generation = 0;
  }

  clear(): void {
    const d = this.data;
    memory.fill(changetype<usize>(d), 0, <usize>((this.mask + 1) * BUCKET_WORDS) << 2);
    this.generation = 0;
  }

  newSearch(): void {
    this.generation = (this.generation + 1) & GEN_MASK;
  }

  /** Looks the key up; on a hit fills move/score/eval/depth/bound and returns true. */
  probe(key: u64, ply: i32): bool {
    const d = this.data;
    const keyLo = <i32>key;
    const keyHi = <i32>(key >>> 32);
    const b = (keyLo & this.mask) * BUCKET_WORDS;
    for (let i = b; i < b + BUCKET_WORDS; i += ENTRY_WORDS) {
      const w1 = unchecked(d[i + 1]);
      const w2 = unchecked(d[i + 2]);
      if (unchecked(d[i + 3]) == keyLo && (unchecked(d[i]) ^ w1 ^ w2) == keyHi && w2 != 0) {
        this.move = w1 & 0xffff;
        this.score = scoreFromTT(w1 >> 16, ply);
        this.eval = (w2 << 16) >> 16;
        this.depth = ((w2 >>> 16) & 0xff) - DEPTH_OFFSET;
        this.bound = (w2 >>> 24) & 3;
        this.pv = w2 < 0;
        return true;
      }
    }
    this.move = 0;
    return false;
  }

  /** Stores a search result (score as seen at `ply`; it is made node-relative here). */
  store(key: u64, ply: i32, move: i32, score: i32, evalScore: i32, depth: i32, bound: i32, pv: bool): void {
    const d = this.data;
    const keyLo = <i32>key;
    const keyHi = <i32>(key >>> 32);
    const b = (keyLo & this.mask) * BUCKET_WORDS;
    const gen = this.generation;
    let slot = -1;
    let worst = 1 << 30;
    for (let i = b; i < b + BUCKET_WORDS; i += ENTRY_WORDS) {
      const w2 = unchecked(d[i + 2]);
      if (unchecked(d[i + 3]) == keyLo && (unchecked(d[i]) ^ unchecked(d[i + 1]) ^ w2) == keyHi && w2 != 0) {
        // Same position: keep a deeper result of an older search only if this one is a bound.
        const oldDepth = ((w2 >>> 16) & 0xff) - DEPTH_OFFSET;
        if (move == 0) move = unchecked(d[i + 1]) & 0xffff;
        if (bound != BOUND_EXACT && depth + (pv ? 2 : 0) < oldDepth - 3 && ((w2 >>> 26) & GEN_MASK) == gen) return;
        slot = i;
        break;
      }
      const age = (gen - ((w2 >>> 26) & GEN_MASK)) & GEN_MASK;
      const value = w2 == 0 ? -1000 : ((w2 >>> 16) & 0xff) - 8 * age;
      if (value < worst) {
        worst = value;
        slot = i;
      }
    }
    const w1 = (move & 0xffff) | (scoreToTT(score, ply) << 16);
    let dep = depth + DEPTH_OFFSET;
    if (dep < 1) dep = 1;
    else if (dep > 255) dep = 255;
    const w2 = (evalScore & 0xffff) | (dep << 16) | (bound << 24) | (gen << 26) | (pv ? 1 << 31 : 0);
    unchecked(d[slot + 1] = w1);
    unchecked(d[slot + 2] = w2);
    unchecked(d[slot + 3] = keyLo);
    unchecked(d[slot] = keyHi ^ w1 ^ w2);
  }

  /** Permille of sampled entries written by the current search (UCI `hashfull`). */
  hashfull(): i32 {
    const d = this.data;
    const n = min<i32>(1000, (this.mask + 1) * 2);
    let used = 0;
    for (let e = 0; e < n; e++) {
      const w2 = d[e * ENTRY_WORDS + 2];
      if (w2 != 0 && ((w2 >>> 26) & GEN_MASK) == this.generation) used++;
    }
    return <i32>Math.round(<f64>(used * 1000) / <f64>n);
  }
}

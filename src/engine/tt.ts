/**
 * The transposition table: one (optionally shared) ArrayBuffer viewed as Int32Array,
 * buckets of two 16-byte entries, indexed by the low bits of the Polyglot key.
 *
 *   word 0  keyHi ^ word1 ^ word2     (the XOR lets a reader detect an entry torn by a
 *                                      concurrent writer when the buffer is shared)
 *   word 1  bits  0-15 move           bits 16-31 score (int16, mate scores relative to node)
 *   word 2  bits  0-15 static eval    bits 16-23 depth + DEPTH_OFFSET
 *           bits 24-25 bound          bits 26-31 generation
 *   word 3  keyLo
 *
 * Mate scores are stored as distance from the node, not from the root (seed 002, "adjust for
 * ply"): a mate found at ply 7 and read back at ply 3 must still mean the same number of moves
 * from the position, so `scoreToTT` adds the ply and `scoreFromTT` subtracts it.
 *
 * Replacement: an entry with the same key is updated in place (its move kept if the new
 * search has none); otherwise the entry with the smallest depth, counting each generation
 * of age as eight plies, is overwritten.
 */
import { MATE_IN_MAX as MATE_IN_MAX_, NONE_SCORE as NONE_SCORE_ } from './score.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const MATE_IN_MAX = MATE_IN_MAX_;
const NONE_SCORE = NONE_SCORE_;

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

const DEPTH_OFFSET = 8;
const ENTRY_WORDS = 4;
const BUCKET_WORDS = 8;
const BUCKET_BYTES = BUCKET_WORDS * 4;

/** Converts a search score at `ply` to its stored, node-relative form. */
export function scoreToTT(score: number, ply: number): number {
  if (score >= MATE_IN_MAX) return score + ply;
  if (score <= -MATE_IN_MAX) return score - ply;
  return score;
}

/** Converts a stored score back to a search score at `ply`. */
export function scoreFromTT(score: number, ply: number): number {
  if (score === NONE_SCORE) return NONE_SCORE;
  if (score >= MATE_IN_MAX) return score - ply;
  if (score <= -MATE_IN_MAX) return score + ply;
  return score;
}

export class TranspositionTable {
  private data: Int32Array;
  private mask: number;
  private generation = 0;

  // The last probe's hit (plain fields, so probing allocates nothing).
  move = 0;
  score = 0;
  eval = 0;
  depth = 0;
  bound = 0;

  /** A table of `megabytes` (rounded down to a power of two), or over `buffer` if given. */
  constructor(megabytes: number, buffer?: ArrayBufferLike) {
    const buf = buffer ?? new ArrayBuffer(TranspositionTable.bytesFor(megabytes));
    this.data = new Int32Array(buf);
    this.mask = this.data.length / BUCKET_WORDS - 1;
  }

  /** Byte size of a table of `megabytes` MB: the largest power-of-two bucket count that fits. */
  static bytesFor(megabytes: number): number {
    const buckets = Math.max(1, Math.floor((Math.max(1, megabytes) * 1024 * 1024) / BUCKET_BYTES));
    return 2 ** Math.floor(Math.log2(buckets)) * BUCKET_BYTES;
  }

  /** The underlying buffer (pass a SharedArrayBuffer to share the table between threads). */
  get buffer(): ArrayBufferLike {
    return this.data.buffer;
  }

  /** Reuses a buffer, e.g. after a worker received the shared table. */
  attach(buffer: ArrayBufferLike): void {
    this.data = new Int32Array(buffer);
    this.mask = this.data.length / BUCKET_WORDS - 1;
  }

  clear(): void {
    this.data.fill(0);
    this.generation = 0;
  }

  /** Called once per search so that old entries can be recognised and replaced first. */
  newSearch(): void {
    this.generation = (this.generation + 1) & 63;
  }

  /** Looks the key up; on a hit fills move/score/eval/depth/bound and returns true. */
  probe(keyLo: number, keyHi: number, ply: number): boolean {
    const d = this.data;
    const b = (keyLo & this.mask) * BUCKET_WORDS;
    for (let i = b; i < b + BUCKET_WORDS; i += ENTRY_WORDS) {
      const w1 = d[i + 1]!;
      const w2 = d[i + 2]!;
      if (d[i + 3] === keyLo && (d[i]! ^ w1 ^ w2) === keyHi && w2 !== 0) {
        this.move = w1 & 0xffff;
        this.score = scoreFromTT(w1 >> 16, ply);
        this.eval = (w2 << 16) >> 16;
        this.depth = ((w2 >>> 16) & 0xff) - DEPTH_OFFSET;
        this.bound = (w2 >>> 24) & 3;
        return true;
      }
    }
    this.move = 0;
    return false;
  }

  /** Stores a search result (score as seen at `ply`; it is made node-relative here). */
  store(keyLo: number, keyHi: number, ply: number, move: number, score: number, evalScore: number, depth: number, bound: number, pv: boolean): void {
    const d = this.data;
    const b = (keyLo & this.mask) * BUCKET_WORDS;
    const gen = this.generation;
    let slot = -1;
    let worst = 1 << 30;
    for (let i = b; i < b + BUCKET_WORDS; i += ENTRY_WORDS) {
      const w2 = d[i + 2]!;
      if (d[i + 3] === keyLo && (d[i]! ^ d[i + 1]! ^ w2) === keyHi && w2 !== 0) {
        // Same position: keep a deeper result of an older search only if this one is a bound.
        const oldDepth = ((w2 >>> 16) & 0xff) - DEPTH_OFFSET;
        if (move === 0) move = d[i + 1]! & 0xffff;
        if (bound !== BOUND_EXACT && depth + (pv ? 2 : 0) < oldDepth - 3 && ((w2 >>> 26) & 63) === gen) return;
        slot = i;
        break;
      }
      const age = (gen - ((w2 >>> 26) & 63)) & 63;
      const value = w2 === 0 ? -1000 : ((w2 >>> 16) & 0xff) - 8 * age;
      if (value < worst) {
        worst = value;
        slot = i;
      }
    }
    const w1 = (move & 0xffff) | (scoreToTT(score, ply) << 16);
    let dep = depth + DEPTH_OFFSET;
    if (dep < 1) dep = 1;
    else if (dep > 255) dep = 255;
    const w2 = (evalScore & 0xffff) | (dep << 16) | (bound << 24) | (gen << 26);
    d[slot + 1] = w1;
    d[slot + 2] = w2;
    d[slot + 3] = keyLo;
    d[slot] = keyHi ^ w1 ^ w2;
  }

  /** Permille of sampled entries written by the current search (UCI `hashfull`). */
  hashfull(): number {
    const d = this.data;
    const n = Math.min(1000, (this.mask + 1) * 2);
    let used = 0;
    for (let e = 0; e < n; e++) {
      const w2 = d[e * ENTRY_WORDS + 2]!;
      if (w2 !== 0 && ((w2 >>> 26) & 63) === this.generation) used++;
    }
    return Math.round((used * 1000) / n);
  }
}

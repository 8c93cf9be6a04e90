/**
 * Identity of games for de-duplication: a 64-bit hash of the start position's key, the main
 * line's moves and the result, kept in an open-addressing set of two int32 halves (16 bytes a
 * game, no per-game objects), so millions of games fit in a few tens of megabytes.
 */

/** Incremental 64-bit game hash in two 32-bit lanes. */
export class GameHash {
  lo = 0;
  hi = 0;

  /** Starts from the start position's Polyglot key. */
  reset(keyLo: number, keyHi: number): void {
    this.lo = keyLo ^ 0x2545f491;
    this.hi = keyHi ^ 0x6c8e9cf5;
  }

  add(x: number): void {
    let a = Math.imul(this.lo ^ x, 0x85ebca6b);
    a ^= a >>> 13;
    let b = Math.imul(this.hi ^ (x + 0x9e3779b9), 0xc2b2ae35);
    b ^= b >>> 16;
    this.lo = Math.imul(a, 0x27d4eb2f) ^ b;
    this.hi = Math.imul(b, 0x165667b1) ^ a;
  }
}

export class HashSet64 {
  private lo: Int32Array;
  private hi: Int32Array;
  private used: Uint8Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1 << 16) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.lo = new Int32Array(n);
    this.hi = new Int32Array(n);
    this.used = new Uint8Array(n);
    this.mask = n - 1;
  }

  /** Adds the key; false if it was already there. */
  add(lo: number, hi: number): boolean {
    if ((this.size + 1) * 2 > this.used.length) this.grow();
    let i = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    while (this.used[i] === 1) {
      if (this.lo[i] === lo && this.hi[i] === hi) return false;
      i = (i + 1) & this.mask;
    }
    this.used[i] = 1;
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.size++;
    return true;
  }

  private grow(): void {
    const { lo, hi, used } = this;
    const n = used.length * 2;
    this.lo = new Int32Array(n);
    this.hi = new Int32Array(n);
    this.used = new Uint8Array(n);
    this.mask = n - 1;
    this.size = 0;
    for (let i = 0; i < used.length; i++) if (used[i] === 1) this.add(lo[i]!, hi[i]!);
  }
}

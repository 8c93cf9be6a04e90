/**
 * Numbers by 64-bit position key (the two 32-bit halves of a Polyglot or Zobrist key), in
 * typed arrays with open addressing (linear probing). A lookup builds no string and allocates
 * nothing, where a Map keyed by `${hi}.${lo}` builds and hashes a string per lookup: the
 * explorer looks up a few keys per request (opening names along the line, the movers' mean
 * rating after each move), and those strings were a measurable part of an answer's cost.
 * The table doubles when it is three quarters full; there is no removal, only `clear`.
 * Browser-safe.
 */
export class KeyTable {
  private his: Int32Array;
  private los: Int32Array;
  private values: Float64Array;
  private used: Uint8Array;
  private mask: number;
  private count = 0;

  /** `entries`: how many the table holds before it first grows. */
  constructor(entries = 768) {
    let n = 16;
    while (3 * n < 4 * entries) n *= 2;
    this.mask = n - 1;
    this.his = new Int32Array(n);
    this.los = new Int32Array(n);
    this.values = new Float64Array(n);
    this.used = new Uint8Array(n);
  }

  get size(): number {
    return this.count;
  }

  /** The value kept under the key, or undefined. */
  get(hi: number, lo: number): number | undefined {
    for (let i = slot(hi, lo, this.mask); this.used[i] !== 0; i = (i + 1) & this.mask) {
      if (this.his[i] === (hi | 0) && this.los[i] === (lo | 0)) return this.values[i];
    }
    return undefined;
  }

  set(hi: number, lo: number, value: number): void {
    if (4 * (this.count + 1) > 3 * (this.mask + 1)) this.grow();
    let i = slot(hi, lo, this.mask);
    for (; this.used[i] !== 0; i = (i + 1) & this.mask) {
      if (this.his[i] === (hi | 0) && this.los[i] === (lo | 0)) {
        this.values[i] = value;
        return;
      }
    }
    this.used[i] = 1;
    this.his[i] = hi;
    this.los[i] = lo;
    this.values[i] = value;
    this.count++;
  }

  clear(): void {
    this.used.fill(0);
    this.count = 0;
  }

  private grow(): void {
    const { his, los, values, used } = this;
    const n = 2 * (this.mask + 1);
    this.mask = n - 1;
    this.his = new Int32Array(n);
    this.los = new Int32Array(n);
    this.values = new Float64Array(n);
    this.used = new Uint8Array(n);
    this.count = 0;
    for (let i = 0; i < used.length; i++) if (used[i] !== 0) this.set(his[i]!, los[i]!, values[i]!);
  }
}

/** The first slot of a key: its bits are uniformly random already (Zobrist hashing). */
function slot(hi: number, lo: number, mask: number): number {
  return (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
}

/**
 * A fixed-size cache of 4 KiB pages of a file, with no allocation per access: pages live in
 * slabs of one typed array each (allocated as the cache fills, so a small book never takes the
 * whole budget), a page is found through an open-addressing hash table of page numbers
 * (linear probing, deletion by backward shift: Knuth, TAOCP vol. 3, 6.4, Algorithm R), and the
 * page to drop is chosen by CLOCK (second chance: Corbató, 1968), which approximates
 * least-recently-used with one reference bit a page instead of relinking a list on every hit.
 */

export const PAGE = 4096;
/** Pages a slab holds (1 MiB). */
const SLAB_PAGES = 256;

export class PageCache {
  /** Pages the cache holds at most. */
  readonly capacity: number;
  private readonly slabs: Uint8Array[] = [];
  /** Page number held by each slot (-1: none). */
  private readonly pageOf: Float64Array;
  /** CLOCK reference bit of each slot. */
  private readonly ref: Uint8Array;
  /** Hash table: slot + 1 of the page hashed there (0: empty). */
  private readonly table: Int32Array;
  private readonly mask: number;
  private used = 0;
  private hand = 0;
  /** Pages read from the file, and found in the cache. */
  misses = 0;
  hits = 0;

  constructor(
    bytes: number,
    /** Fills `into[at .. at + PAGE)` with page `page` of the file (zeros past its end). */
    private readonly fill: (page: number, into: Uint8Array, at: number) => void,
  ) {
    this.capacity = Math.max(2, Math.ceil(bytes / PAGE));
    this.pageOf = new Float64Array(this.capacity).fill(-1);
    this.ref = new Uint8Array(this.capacity);
    let size = 4;
    while (size < this.capacity * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }

  /** The slab holding slot `s`, and the byte offset of the slot in it. */
  slab(s: number): Uint8Array {
    return this.slabs[(s / SLAB_PAGES) | 0]!;
  }

  static offsetIn(s: number): number {
    return (s % SLAB_PAGES) * PAGE;
  }

  /** The slot holding page `page`, read from the file if it is not cached. */
  slot(page: number): number {
    const s = this.peek(page);
    if (s >= 0) return s;
    const v = this.claim(page);
    this.fill(page, this.slab(v), PageCache.offsetIn(v));
    return v;
  }

  /** The slot holding page `page`, or -1 when it is not cached. */
  peek(page: number): number {
    const mask = this.mask;
    for (let i = hash(page) & mask; ; i = (i + 1) & mask) {
      const e = this.table[i]!;
      if (e === 0) return -1;
      if (this.pageOf[e - 1] === page) {
        this.ref[e - 1] = 1;
        this.hits++;
        return e - 1;
      }
    }
  }

  /** Caches page `page` (not cached yet) from `src[at .. at + PAGE)`, read by the caller. */
  put(page: number, src: Uint8Array, at: number): void {
    const s = this.claim(page);
    this.slab(s).set(src.subarray(at, at + PAGE), PageCache.offsetIn(s));
  }

  /** A slot for page `page`, entered in the table; its bytes are for the caller to write. */
  private claim(page: number): number {
    this.misses++;
    const s = this.victim();
    this.pageOf[s] = page;
    this.ref[s] = 1;
    this.insert(page, s);
    return s;
  }

  /** A free slot: a new one while the cache grows, else the first the clock hand finds unreferenced. */
  private victim(): number {
    if (this.used < this.capacity) {
      const s = this.used++;
      if (s % SLAB_PAGES === 0) this.slabs.push(new Uint8Array(Math.min(SLAB_PAGES, this.capacity - s) * PAGE));
      return s;
    }
    for (;;) {
      const s = this.hand;
      this.hand = s + 1 === this.capacity ? 0 : s + 1;
      if (this.ref[s] === 0) {
        this.remove(this.pageOf[s]!);
        this.pageOf[s] = -1;
        return s;
      }
      this.ref[s] = 0;
    }
  }

  private insert(page: number, s: number): void {
    let i = hash(page) & this.mask;
    while (this.table[i] !== 0) i = (i + 1) & this.mask;
    this.table[i] = s + 1;
  }

  /** Removes a page from the hash table, shifting back the entries after it so probes still find them. */
  private remove(page: number): void {
    const mask = this.mask;
    let i = hash(page) & mask;
    while (this.pageOf[this.table[i]! - 1] !== page) i = (i + 1) & mask;
    for (let j = (i + 1) & mask; this.table[j] !== 0; j = (j + 1) & mask) {
      const k = hash(this.pageOf[this.table[j]! - 1]!) & mask;
      // Entry j may move to the hole at i unless its home k lies cyclically in (i, j].
      const between = i <= j ? k > i && k <= j : k > i || k <= j;
      if (!between) {
        this.table[i] = this.table[j]!;
        i = j;
      }
    }
    this.table[i] = 0;
  }

  /** Forgets every page (the slabs are released). */
  clear(): void {
    this.slabs.length = 0;
    this.pageOf.fill(-1);
    this.ref.fill(0);
    this.table.fill(0);
    this.used = 0;
    this.hand = 0;
  }
}

/** Fibonacci hashing of a page number (exact below 2^53: the low and high words are mixed). */
function hash(page: number): number {
  const lo = page | 0;
  const hi = (page / 0x100000000) | 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 7;
}

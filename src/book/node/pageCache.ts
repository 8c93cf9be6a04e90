/**
 * A fixed-size cache of 4 KiB pages of a file, with no allocation per access: pages live in one
 * typed array, allocated at once (a large zeroed allocation is mapped by the OS only as its
 * pages are first written, so a small book never takes the whole budget in memory; and one
 * allocation instead of one as the cache grows spares the garbage collections that V8 starts
 * for each step of external memory, which cost a probe of a book just opened a few
 * microseconds on a heap of 100 MB), a page is found through an open-addressing hash table of page numbers
 * (linear probing, deletion by backward shift: Knuth, TAOCP vol. 3, 6.4, Algorithm R), and the
 * page to drop is chosen by CLOCK (second chance: Corbató, 1968), which approximates
 * least-recently-used with one reference bit a page instead of relinking a list on every hit.
 */

export const PAGE = 4096;

export class PageCache {
  /** Pages the cache holds at most. */
  readonly capacity: number;
  /** The pages: slot s at s · PAGE (empty once released). */
  data: Uint8Array;
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
    this.data = new Uint8Array(this.capacity * PAGE);
    this.pageOf = new Float64Array(this.capacity).fill(-1);
    this.ref = new Uint8Array(this.capacity);
    let size = 4;
    while (size < this.capacity * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }

  /** The byte offset of slot `s` in `data`. */
  static offsetIn(s: number): number {
    return s * PAGE;
  }

  /** The slot holding page `page`, read from the file if it is not cached. */
  slot(page: number): number {
    const s = this.peek(page);
    if (s >= 0) return s;
    const v = this.claim(page);
    this.fill(page, this.data, PageCache.offsetIn(v));
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
    this.data.set(src.subarray(at, at + PAGE), PageCache.offsetIn(s));
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
    if (this.used < this.capacity) return this.used++;
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

  /** Forgets every page and gives their memory back; the cache is not to be used after. */
  release(): void {
    this.clear();
    this.data = new Uint8Array(0);
  }

  /** Forgets every page. */
  clear(): void {
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

/**
 * Answers of the explorer kept ready to send, so a position asked for again (every visitor of a
 * line, a page going back and forth) costs a map lookup instead of the replay, the probes, the
 * policy and the serialisation. Bounded by entries and bytes; least recently used goes first.
 *
 * An answer is valid for one revision of its book: every change the server makes to a book
 * (a note, a removed move, an import) reopens it with a new revision (ServedBook.revision), and
 * the answers of older revisions are then misses, dropped when met.
 */
/** A book with a revision counter (ServedBook). */
export interface Revised {
  readonly revision: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, { book: Revised; revision: number; body: Buffer }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 4096,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The answer kept under `key`, or undefined (none, or its book changed since). */
  get(key: string): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    if (e.revision !== e.book.revision) {
      this.bytes -= cost(key, e.body);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.set(key, e);
    return e.body;
  }

  /** Keeps `body` under `key` for `book` as it is at `revision` (a later revision: not kept). */
  set(key: string, book: Revised, revision: number, body: Buffer): void {
    if (book.revision !== revision) return;
    if (cost(key, body) > this.maxBytes / 16) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= cost(key, old.body);
    }
    this.entries.set(key, { book, revision, body });
    this.bytes += cost(key, body);
    if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= cost(k, e.body);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Bytes an entry holds: its answer and its key (a URL, two bytes a character). */
function cost(key: string, body: Buffer): number {
  return body.length + 2 * key.length;
}

/**
 * Answers of the explorer kept ready to send, so a position asked for again (every visitor of a
 * line, a page going back and forth) costs a map lookup instead of the replay, the probes, the
 * policy and the serialisation. Bounded by entries and bytes; least recently used goes first.
 *
 * An answer is valid for one revision of its book: every change the server makes to a book
 * (a note, a removed move, an import) reopens it with a new revision (ServedBook.revision), and
 * the answers of older revisions are then misses, dropped when met.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { revision: number; body: Buffer }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 4096,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The answer kept under `key` for `revision` of its book, or undefined. */
  get(key: string, revision: number): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    if (e.revision !== revision) {
      this.bytes -= e.body.length;
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.set(key, e);
    return e.body;
  }

  set(key: string, revision: number, body: Buffer): void {
    if (body.length > this.maxBytes / 16) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, { revision, body });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

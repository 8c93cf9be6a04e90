/**
 * Chunked input under the PGN scanner: absolute offsets and line/column, the carry of a token
 * cut by a chunk boundary, and the raw text of the current game for consumers that copy games
 * through unchanged. Chunks are scanned in place; only a cut token is copied (into a reused
 * buffer), so memory does not depend on the input's size.
 */
import { ByteBuffer } from './byteBuffer.js';
import type { PgnErrorKind } from './visitor.js';

export interface PgnLimits {
  /** Bytes of one game, from its first tag to its result. */
  maxGameBytes: number;
  /** Bytes of one comment, one tag line or one token. */
  maxTokenBytes: number;
  /** Tags in one game. */
  maxTags: number;
  /** Plies played from the start position along any line (main line or variation). */
  maxPlies: number;
  /** Nesting of variations. */
  maxDepth: number;
}

export const DEFAULT_LIMITS: PgnLimits = {
  maxGameBytes: 16 << 20,
  maxTokenBytes: 1 << 20,
  maxTags: 1000,
  maxPlies: 20000,
  maxDepth: 100,
};

const EMPTY = new Uint8Array(0);

/** The report of a token over the limit, the same whether the scanner or the carry finds it. */
export function tokenTooLongMessage(limit: number): string {
  return `token or tag line longer than ${limit} bytes`;
}

export abstract class ChunkedInput {
  protected readonly limits: PgnLimits;
  protected file = '-';
  protected line = 1;
  /** Absolute offset of the current line's first byte, and of buf[0] during a scan. */
  protected lineStart = 0;
  protected base = 0;
  /** Absolute offset of the current game's first byte. */
  protected gameStart = 0;
  /** Whether the subclass wants each game's raw text. */
  protected captureText = false;
  /**
   * Bytes not scanned yet: a token cut by a chunk boundary, and the chunks that came after it
   * while it waits. It is scanned again once it has doubled (`waitFor`), not at every chunk:
   * a long token rescanned at every small chunk would cost time quadratic in its length.
   */
  private readonly pending = new ByteBuffer();
  private waitFor = 0;
  /** Raw bytes of the current game from earlier chunks, and the offset of the first byte not in it. */
  private readonly raw = new ByteBuffer();
  private rawFrom = 0;

  constructor(limits: Partial<PgnLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** The line the scan is on (1 at the start of a file): line breaks read so far, plus one. */
  get currentLine(): number {
    return this.line;
  }

  /** Scans buf[i..end); returns where it stopped (end, or the start of an unfinished token). */
  protected abstract scan(buf: Uint8Array, i: number, end: number, final: boolean): number;
  /** Whether a game is open (its text must be kept across chunks). */
  protected abstract inGame(): boolean;
  protected abstract fail(kind: PgnErrorKind, message: string, tok: number, resync?: boolean, where?: { line: number; column: number }, opened?: number): void;

  protected resetInput(name: string): void {
    this.file = name;
    this.line = 1;
    this.lineStart = 0;
    this.base = 0;
    this.pending.clear();
  }

  /** Feeds the next chunk of the current file. */
  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.pending.length > 0) {
      // Joined in a reused buffer: a fresh one per chunk would leave megabytes to the collector.
      this.pending.append(chunk, 0, chunk.length);
      if (this.pending.length < this.waitFor) return;
      buf = this.pending.view();
    }
    for (;;) {
      const stop = this.scan(buf, 0, buf.length, false);
      if (this.captureText && this.inGame()) this.keepText(buf, stop);
      if (buf.length - stop > this.limits.maxTokenBytes + 16) {
        // A token longer than any limit: give up on the game rather than carry without bound.
        this.fail('too-long', tokenTooLongMessage(this.limits.maxTokenBytes), stop);
        this.base += stop + 1;
        buf = buf.subarray(stop + 1);
        continue;
      }
      this.base += stop;
      this.pending.replace(buf.subarray(stop));
      this.waitFor = 2 * this.pending.length;
      return;
    }
  }

  /** Scans what is left at the end of the file. */
  protected finishInput(): void {
    const buf = this.pending.length > 0 ? this.pending.view() : EMPTY;
    this.base += this.scan(buf, 0, buf.length, true);
    this.pending.clear();
  }

  protected column(tok: number): number {
    return this.base + tok - this.lineStart + 1;
  }

  /** A game starts at buf[tok]. */
  protected markGameStart(tok: number): void {
    this.gameStart = this.rawFrom = this.base + tok;
    this.raw.clear();
  }

  /** The bytes of the current game from its first byte to buf[end) (valid until the next chunk). */
  protected gameText(buf: Uint8Array, end: number): Uint8Array {
    if (this.raw.length === 0) return buf.subarray(Math.max(0, this.rawFrom - this.base), end);
    this.keepText(buf, end);
    return this.raw.view();
  }

  private keepText(buf: Uint8Array, stop: number): void {
    const from = Math.max(0, this.rawFrom - this.base);
    if (stop <= from) return;
    this.raw.append(buf, from, stop);
    this.rawFrom = this.base + stop;
  }
}

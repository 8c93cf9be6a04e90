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
  private carry: Uint8Array | null = null;
  private work = new Uint8Array(0);
  /** Raw bytes of the current game from earlier chunks, and the offset of the first byte not in it. */
  private readonly raw = new ByteBuffer();
  private rawFrom = 0;

  constructor(limits: Partial<PgnLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Scans buf[i..end); returns where it stopped (end, or the start of an unfinished token). */
  protected abstract scan(buf: Uint8Array, i: number, end: number, final: boolean): number;
  /** Whether a game is open (its text must be kept across chunks). */
  protected abstract inGame(): boolean;
  protected abstract fail(kind: PgnErrorKind, message: string, tok: number, resync?: boolean, where?: { line: number; column: number }): void;

  protected resetInput(name: string): void {
    this.file = name;
    this.line = 1;
    this.lineStart = 0;
    this.base = 0;
    this.carry = null;
  }

  /** Feeds the next chunk of the current file. */
  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.carry !== null) {
      // Joined in a reused buffer: a fresh one per chunk would leave megabytes to the collector.
      const n = this.carry.length + chunk.length;
      if (this.work.length < n) this.work = new Uint8Array(Math.max(n, this.work.length * 2));
      this.work.set(this.carry);
      this.work.set(chunk, this.carry.length);
      buf = this.work.subarray(0, n);
      this.carry = null;
    }
    const stop = this.scan(buf, 0, buf.length, false);
    if (this.captureText && this.inGame()) this.keepText(buf, stop);
    if (stop < buf.length) {
      if (buf.length - stop > this.limits.maxTokenBytes + 16) {
        // A token longer than any limit: give up on the game rather than carry without bound.
        this.fail('too-long', `token longer than ${this.limits.maxTokenBytes} bytes`, stop);
        this.base += stop + 1;
        this.push(buf.subarray(stop + 1));
        return;
      }
      this.carry = buf.slice(stop);
    }
    this.base += stop;
  }

  /** Scans what is left at the end of the file. */
  protected finishInput(): void {
    const buf = this.carry ?? EMPTY;
    this.carry = null;
    this.base += this.scan(buf, 0, buf.length, true);
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

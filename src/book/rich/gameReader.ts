/**
 * Reading a book's games (games.ts) through positional reads of two byte ranges, records and
 * move codes, with sliding windows: sequential reads (the halving replay, an export) cost one
 * read per window, a lookup of one game (a single position's probe) two small reads.
 * Browser-safe.
 */
import { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { GAME_RECORD_SIZE, codeBytes, readGameRecord, type GameRecord } from './games.js';
import type { GameSource } from './halving.js';

/** Positional reads of a file or section. */
export type ReadAt = (offset: number, length: number) => Uint8Array;

/**
 * A read window that slides forward (sequential reads cost one read per window; span 0: exact
 * reads). The bytes are copied into the window's own array: a source's array is only valid
 * until its next read (a file's page cache reuses its pages), and two windows share a source.
 */
class Window {
  private bytes: Uint8Array = new Uint8Array(0);
  private start = 0;
  private length = 0;

  constructor(
    private readonly readAt: ReadAt,
    private readonly size: number,
    private readonly span: number,
  ) {}

  /** `length` bytes at `offset`: a view valid until the next call. */
  get(offset: number, length: number): Uint8Array {
    const i = this.at(offset, length);
    return this.bytes.subarray(i, i + length);
  }

  /** Makes `length` bytes at `offset` readable at `bytes[returned index]`, until the next call. */
  private at(offset: number, length: number): number {
    if (offset < this.start || offset + length > this.start + this.length) {
      const got = this.readAt(offset, Math.min(Math.max(length, this.span), this.size - offset));
      if (got.length < length) throw new RangeError(`games: read of ${length} bytes at ${offset} past the end (${this.size})`);
      if (this.bytes.length < got.length) this.bytes = new Uint8Array(Math.max(got.length, 2 * this.bytes.length, 64));
      this.bytes.set(got);
      this.start = offset;
      this.length = got.length;
    }
    return offset - this.start;
  }
}

const START = unwrap(positionFromFen(STARTING_FEN));

export class GameReader implements GameSource {
  readonly count: number;
  private readonly recs: Window;
  private readonly codeWindow: Window;
  private readonly fens: Map<number, string>;
  private readonly fenPositions = new Map<number, Position>();

  constructor(
    records: { readAt: ReadAt; size: number },
    codes: { readAt: ReadAt; size: number },
    fens: readonly [number, string][],
    /** Bytes read at once from each file (0: only what is asked, for random access). */
    window = 1 << 20,
    /** Whose games (the book's file name), for errors. */
    readonly name = 'games',
  ) {
    this.count = records.size / GAME_RECORD_SIZE;
    if (!Number.isInteger(this.count)) throw new RangeError(`games: ${records.size} bytes of records is not a whole number of games`);
    this.recs = new Window(records.readAt, records.size, window);
    this.codeWindow = new Window(codes.readAt, codes.size, window * 4);
    this.fens = new Map(fens);
  }

  record(game: number): GameRecord {
    return readGameRecord(this.recs.get(game * GAME_RECORD_SIZE, GAME_RECORD_SIZE), 0);
  }

  codes(game: number): { bytes: Uint8Array; offset: number } {
    return { bytes: this.codesOf(this.record(game)), offset: 0 };
  }

  /** The move codes of a game whose record was read: a view valid until the next read. */
  codesOf(r: GameRecord): Uint8Array {
    return this.codeWindow.get(r.movesOffset, codeBytes(r.codes));
  }

  startFen(game: number): string {
    return this.fens.get(game) ?? STARTING_FEN;
  }

  setStart(game: number, pos: Position): void {
    const fen = this.fens.get(game);
    if (fen === undefined) {
      pos.copyFrom(START);
      return;
    }
    let p = this.fenPositions.get(game);
    if (p === undefined) {
      p = unwrap(positionFromFen(fen));
      if (this.fenPositions.size < 1024) this.fenPositions.set(game, p);
    }
    pos.copyFrom(p);
  }
}

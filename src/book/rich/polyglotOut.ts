/**
 * Polyglot entries from book positions, position by position in key order, with make-book's
 * finishing rules (polyglot.md §2.4-2.5): a move is kept when its n ≥ min-game, its sum ≠ 0,
 * its score sum / n / 2 ≥ min-score / 100 (IEEE doubles) and its side to move is wanted; its
 * weight is sum (or 1 with --uniform); a position's entries are sorted by weight, descending,
 * ties in the order make-book first saw the moves. What the moves of a position are and their
 * counters is the caller's: a build's merged rows, or a book's stored positions. Browser-safe.
 */
import { ENTRY_SIZE, encodeMove, writeEntry } from '../polyglot/format.js';
import type { MakeOptions } from '../polyglot/make.js';
import { Bytes } from './games.js';

/** A move of a position as make-book counts it, in first-seen order. */
export interface PolyglotMove {
  move: number;
  n: number;
  sum: number;
  /** A weight to write instead of make-book's (an imported .bin's), and its learn field. */
  weight?: number;
  learn?: number;
}

export class PolyglotEmitter {
  private readonly out = new Bytes(1 << 16);
  private readonly minGame: number;
  private readonly minScore: number;
  private readonly drop: number;
  private readonly uniform: boolean;
  /** Entries written. */
  kept = 0;
  private readonly order: number[] = [];

  constructor(
    opts: MakeOptions,
    /** Receives the entries' bytes whenever the buffer fills, and at `flush`. */
    private readonly sink: (bytes: Uint8Array) => void,
  ) {
    this.minGame = opts.minGame ?? 3;
    this.minScore = (opts.minScore ?? 0) / 100;
    this.drop = opts.colour === 'white' ? 1 : opts.colour === 'black' ? 0 : -1;
    this.uniform = opts.uniform === true;
  }

  /** One position's entries. `black`: Black is to move. */
  position(keyHi: number, keyLo: number, black: boolean, moves: readonly PolyglotMove[]): void {
    if ((black ? 1 : 0) === this.drop) return;
    const order = this.order;
    order.length = 0;
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i]!;
      if (m.weight !== undefined) {
        // An imported entry has a weight but no game counts: it is kept as it was.
        if (m.weight > 0 || m.learn !== undefined) order.push(i);
        continue;
      }
      const n = Math.min(m.n, 0xffff);
      const sum = Math.min(m.sum, 0xffff);
      if (n < this.minGame || sum === 0) continue;
      if (sum / n / 2 < this.minScore) continue;
      order.push(i);
    }
    if (order.length === 0) return;
    const weight = (i: number): number => {
      const m = moves[i]!;
      if (this.uniform) return 1;
      return m.weight !== undefined ? m.weight : Math.min(m.sum, 0xffff);
    };
    // Stable: equal weights keep first-seen order.
    order.sort((a, b) => weight(b) - weight(a) || a - b);
    this.out.reserve(order.length * ENTRY_SIZE);
    for (const i of order) {
      const m = moves[i]!;
      writeEntry(this.out.data, this.out.length / ENTRY_SIZE, keyHi >>> 0, keyLo >>> 0, encodeMove(m.move), weight(i), m.learn ?? 0);
      this.out.length += ENTRY_SIZE;
      this.kept++;
    }
    if (this.out.length >= 1 << 20) this.flush();
  }

  flush(): void {
    if (this.out.length === 0) return;
    this.sink(this.out.view());
    this.out.clear();
  }
}

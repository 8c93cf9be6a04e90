/**
 * Opening names by position, from the CC0 list the Lichess site uses (data/openings/, see
 * data/README.md). Every line is replayed once and its final position is keyed by the Polyglot
 * key, which covers board, side to move, castling and a capturable en passant square: the EPD
 * of the position, so a transposition finds the same name. Where two lines reach one position,
 * the first in file order (lowest ECO) wins, as the list orders them. Browser-safe.
 */
import type { Position } from '../core/position.js';
import { unwrap } from '../core/result.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import { playMoveList } from '../notation/moveList.js';

export interface Opening {
  eco: string;
  name: string;
}

export class OpeningIndex {
  private readonly byKey = new Map<string, Opening>();
  /** Lines that did not replay (file:line and why); the list ships clean, so this stays empty. */
  readonly problems: string[] = [];

  get size(): number {
    return this.byKey.size;
  }

  /** Adds the lines of one TSV file (header `eco\tname\tpgn`). */
  addTsv(text: string, file: string): void {
    const lines = text.split('\n');
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!.trimEnd();
      if (line === '') continue;
      const [eco, name, pgn] = line.split('\t');
      if (eco === undefined || name === undefined || pgn === undefined) {
        this.problems.push(`${file}:${i + 1}: not three tab-separated fields`);
        continue;
      }
      const pos = unwrap(positionFromFen(STARTING_FEN));
      const played = playMoveList(pos, pgn);
      if (!played.ok) {
        this.problems.push(`${file}:${i + 1}: ${played.error.message}`);
        continue;
      }
      const key = keyOf(pos);
      if (!this.byKey.has(key)) this.byKey.set(key, { eco, name });
    }
  }

  /** The opening named for exactly this position, if any. */
  of(pos: Position): Opening | undefined {
    return this.byKey.get(keyOf(pos));
  }
}

function keyOf(pos: Position): string {
  return (pos.keyHi >>> 0).toString(16) + ':' + (pos.keyLo >>> 0).toString(16);
}

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
import { KeyTable } from './keyTable.js';

export interface Opening {
  eco: string;
  name: string;
}

export class OpeningIndex {
  /** Position key → index in `names`. */
  private readonly byKey = new KeyTable(4096);
  private readonly names: Opening[] = [];
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
      if (this.byKey.get(pos.keyHi, pos.keyLo) === undefined) {
        this.byKey.set(pos.keyHi, pos.keyLo, this.names.length);
        this.names.push({ eco, name });
      }
    }
  }

  /** The opening named for exactly this position, if any. */
  of(pos: Position): Opening | undefined {
    const i = this.byKey.get(pos.keyHi, pos.keyLo);
    return i === undefined ? undefined : this.names[i];
  }
}

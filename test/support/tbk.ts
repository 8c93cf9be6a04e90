/**
 * Constructed `.tbk` books for tests: each row names a line from the start position (UCI moves),
 * the move played there, and its statistics. Games are counted through RichTable.count, as
 * `book make` counts them, so make-book's counters (the Polyglot weight) are real too.
 */
import { unwrap } from '../../src/core/result.js';
import type { Position } from '../../src/core/position.js';
import { STARTING_FEN, positionFromFen } from '../../src/notation/fen.js';
import { parseUci } from '../../src/notation/uci.js';
import { RichTable } from '../../src/book/rich/table.js';
import { encodeBook } from '../../src/book/rich/writer.js';
import { EF_POSTBOOK } from '../../src/book/rich/format.js';

export interface BookRow {
  /** UCI moves from the start position to the book position. */
  line: string;
  /** The book move (UCI). */
  move: string;
  /** Fixed wins, draws, losses from the mover's side. */
  wdl?: [number, number, number];
  /** Dynamic (own games) wins, draws, losses. */
  own?: [number, number, number];
  /** User value 0..100. */
  user?: number;
  postBook?: boolean;
}

export function positionAfter(line: string): Position {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const u of line.split(/\s+/).filter((x) => x !== '')) pos.play(unwrap(parseUci(pos, u)));
  return pos;
}

export function tbkBytes(rows: readonly BookRow[]): Uint8Array {
  const t = new RichTable();
  let games = 0;
  for (const row of rows) {
    const pos = positionAfter(row.line);
    const m = unwrap(parseUci(pos, row.move));
    const [w, d, l] = row.wdl ?? [0, 0, 0];
    for (const [n, res] of [[w, 1], [d, 0], [l, -1]] as const) {
      for (let k = 0; k < n; k++) t.count(pos.keyLo, pos.keyHi, m, pos.turn, res, 2400, true);
    }
    games += w + d + l;
    const r = t.findOrCreate(pos.keyLo, pos.keyHi, m, pos.turn);
    if (row.own) [t.dynWins[r], t.dynDraws[r], t.dynLosses[r]] = row.own;
    if (row.user !== undefined) t.user[r] = row.user;
    if (row.postBook) t.flags[r]! |= EF_POSTBOOK;
  }
  return encodeBook(t, { flags: 0, games, maxPly: 60, minGames: 1, learnedGames: 0, changes: 0, created: 0, meta: { test: true } });
}

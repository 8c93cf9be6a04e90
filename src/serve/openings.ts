/**
 * Opening names by position, from the CC0 list the Lichess site uses (data/openings/, see
 * data/README.md). Every line's final position is keyed by its EPD, as lichess-org/chess-openings
 * (bin/gen.py: python-chess `board.epd()`) and the Lichess site (scalachess `Fen.writeOpening`)
 * key names: board, side to move, castling, and the en passant square only when an en passant
 * capture is legal. That is the Polyglot key without the e.p. file where Polyglot counts one no
 * capture can use (an enemy pawn beside the pushed pawn but pinned, or its king in check):
 * `openingKey`. So a transposition finds the same name however the position was reached, the
 * double push last or not. Where two lines reach one position, the first in file order (lowest
 * ECO) wins, as the list orders them.
 *
 * Replaying the 3,807 lines costs a few hundred milliseconds, too much for every `book probe`,
 * so the replayed list is kept as a table of key, ECO and name (data/openings-by-key.tsv,
 * written by scripts/gen-openings.ts; test/openings.test.ts fails when it and the list differ),
 * which reads in a few milliseconds. Browser-safe.
 */
import type { Position } from '../core/position.js';
import { unwrap } from '../core/result.js';
import { NO_SQUARE } from '../core/types.js';
import { Z_EP_HI, Z_EP_LO, keyToHex } from '../core/zobrist.js';
import { STARTING_FEN, legalEpSquare, positionFromFen } from '../notation/fen.js';
import { playMoveList } from '../notation/moveList.js';
import { KeyTable } from './keyTable.js';

export interface Opening {
  eco: string;
  name: string;
}

/** The header of the table of named positions (data/openings-by-key.tsv). */
const TABLE_HEADER = 'key\teco\tname';

/**
 * The key a position's name is kept under: its Polyglot key, less the e.p. file when no en
 * passant capture is legal. Polyglot hashes the file whenever an enemy pawn stands beside the
 * pawn that has just advanced two squares, legal capture or not (a pinned pawn), where the
 * list's EPD has the square only when the capture is legal; without this, 1.e4 e5 2.Nf3 f5
 * 3.Nxe5 Qf6 4.Nc4 fxe4 5.Qh5+ g6 6.Qe2 d6 7.d4 (Black's e4 pawn pinned by Qe2) missed the
 * name the list gives the same position by 4.d4 d6 5.Nc4 fxe4 6.Qh5+ g6 7.Qe2.
 */
export function openingKey(pos: Position): [number, number] {
  const ep = pos.epSquare;
  if (ep === NO_SQUARE || legalEpSquare(pos) !== NO_SQUARE) return [pos.keyHi, pos.keyLo];
  return [pos.keyHi ^ Z_EP_HI[ep & 7]!, pos.keyLo ^ Z_EP_LO[ep & 7]!];
}

/** An opening as a comment or a line of text shows it: ECO code, a blank, the name. */
export function openingText(o: Opening): string {
  return `${o.eco} ${o.name}`;
}

export class OpeningIndex {
  /** Position key → index in `names`. */
  private readonly byKey = new KeyTable(4096);
  private readonly names: Opening[] = [];
  /** The key of each of `names`, in the same order (the table is written from them). */
  private readonly keys: [number, number][] = [];
  /** Lines that did not replay or read (file:line and why); the list ships clean, so this stays empty. */
  readonly problems: string[] = [];

  get size(): number {
    return this.byKey.size;
  }

  /** Adds the lines of one file of the list (header `eco\tname\tpgn`), replaying each. */
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
      this.add(...openingKey(pos), eco, name);
    }
  }

  /** Adds the named positions of a table `toTable` wrote (header `key\teco\tname`, the key in 16 hex digits). */
  addTable(text: string, file: string): void {
    const lines = text.split('\n');
    if (lines[0]!.trimEnd() !== TABLE_HEADER) {
      this.problems.push(`${file}:1: not a table of named positions (its first line is not "${TABLE_HEADER.replaceAll('\t', '\\t')}")`);
      return;
    }
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === '') continue;
      const tab1 = line.indexOf('\t');
      const tab2 = line.indexOf('\t', tab1 + 1);
      if (tab1 !== 16 || tab2 < 0 || !/^[0-9a-f]{16}$/.test(line.slice(0, 16))) {
        this.problems.push(`${file}:${i + 1}: not a 16-digit hex key, an ECO code and a name`);
        continue;
      }
      this.add(parseInt(line.slice(0, 8), 16) | 0, parseInt(line.slice(8, 16), 16) | 0, line.slice(tab1 + 1, tab2), line.slice(tab2 + 1).trimEnd());
    }
  }

  /** The named positions as the table `addTable` reads: one a line, in the list's order. */
  toTable(): string {
    return [TABLE_HEADER, ...this.names.map((o, i) => `${keyToHex(...this.keys[i]!)}\t${o.eco}\t${o.name}`), ''].join('\n');
  }

  /** The opening named for exactly this position, if any. */
  of(pos: Position): Opening | undefined {
    const [hi, lo] = openingKey(pos);
    const i = this.byKey.get(hi, lo);
    return i === undefined ? undefined : this.names[i];
  }

  /**
   * The opening a move newly reaches: the name of `pos` (the position after the move) when the
   * list names it and that name is not `current`, the one in effect before the move; else
   * undefined. The PGN export writes it as a comment at the move (src/serve/subtree.ts) and
   * `book annotate --notes` knows it again by the same rule (src/book/rich/pgnNotes.ts).
   */
  renamed(pos: Position, current: Opening | undefined): Opening | undefined {
    const o = this.of(pos);
    return o === undefined || (current !== undefined && o.eco === current.eco && o.name === current.name) ? undefined : o;
  }

  /**
   * The opening of the deepest named position of `start` and the positions `moves` lead to (the
   * start's own name when no later one has a name), as the Lichess site names a game or the
   * explorer's line: a line that leaves the list keeps the last name it had. `start` is left as it was.
   */
  along(start: Position, moves: readonly number[]): Opening | undefined {
    let opening = this.of(start);
    if (moves.length === 0) return opening;
    const pos = start.clone();
    for (const m of moves) {
      pos.play(m);
      opening = this.of(pos) ?? opening;
    }
    return opening;
  }

  private add(hi: number, lo: number, eco: string, name: string): void {
    if (this.byKey.get(hi, lo) !== undefined) return;
    this.byKey.set(hi, lo, this.names.length);
    this.names.push({ eco, name });
    this.keys.push([hi, lo]);
  }
}

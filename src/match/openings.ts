/**
 * Opening positions for a match (match-runner.md §1.3–1.4): a list read from an EPD or PGN
 * suite, ordered sequentially or shuffled with the match seed, starting at `start`; or a walk
 * through a Polyglot book. Each schedule slot asks for opening k; both games of a pair ask for
 * the same k, so they start from the same position with colours swapped.
 *
 * Opening moves are stored in UCI from the opening's FEN. Bad records are skipped and counted
 * with their file and line; an empty suite is an error.
 */
import type { Position } from '../core/position.js';
import { WHITE } from '../core/types.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../notation/fen.js';
import { parseEpd } from '../notation/epd.js';
import { makeUci } from '../notation/uci.js';
import { parsePgn } from '../pgn/parser.js';
import type { PolyglotReader } from '../book/polyglot/reader.js';
import { createRng, shuffle } from './rng.js';

export interface Opening {
  fen: string;
  /** Moves from `fen`, UCI. */
  moves: string[];
  /** Where it came from (`file:line`), for messages and the PGN. */
  source: string;
}

export interface OpeningOrder {
  order: 'sequential' | 'random';
  /** 1-based index of the first opening. */
  start: number;
  seed: number;
}

export interface BadRecord {
  file: string;
  line: number;
  message: string;
}

/** Something that can hand out opening k of the match. */
export interface OpeningSource {
  /** Number of distinct openings (Infinity for a book walk). */
  readonly size: number;
  get(k: number): Opening;
}

/** Reads EPD text (one position per line; a line without `;` is read as a FEN). */
export function parseEpdOpenings(text: string, file: string): { openings: Opening[]; errors: BadRecord[] } {
  const openings: Opening[] = [];
  const errors: BadRecord[] = [];
  let lineNo = 0;
  let from = 0;
  while (from <= text.length) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const line = text.slice(from, to).trim();
    lineNo++;
    from = to + 1;
    if (line === '' || line.startsWith('#')) continue;
    const rec = parseEpd(line);
    if (!rec.ok) {
      errors.push({ file, line: lineNo, message: rec.error.message });
      continue;
    }
    const pos = positionFromFen(rec.value.fen);
    if (!pos.ok) {
      errors.push({ file, line: lineNo, message: pos.error.message });
      continue;
    }
    openings.push({ fen: rec.value.fen, moves: [], source: `${file}:${lineNo}` });
  }
  return { openings, errors };
}

/** A fixed list of openings, in file order or shuffled by the seed, rotated to `start`. */
export class OpeningList implements OpeningSource {
  private readonly order: Int32Array;

  constructor(
    private readonly openings: readonly Opening[],
    opts: OpeningOrder,
  ) {
    if (openings.length === 0) throw new RangeError('the opening suite holds no usable position');
    const idx = Array.from({ length: openings.length }, (_, i) => i);
    if (opts.order === 'random') shuffle(idx, createRng(opts.seed));
    const shift = (((opts.start - 1) % idx.length) + idx.length) % idx.length;
    this.order = Int32Array.from([...idx.slice(shift), ...idx.slice(0, shift)]);
  }

  get size(): number {
    return this.openings.length;
  }

  get(k: number): Opening {
    return this.openings[this.order[k % this.order.length]!]!;
  }
}

/**
 * Reads PGN openings: the main line of each game from the start position or its [FEN] tag, cut
 * after `plies` half-moves (all when undefined). Broken games are skipped and listed. A null move
 * (`--`, `Z0`, `0000`) on the main line ends the opening there, as it ends the recording of a game
 * in `book make` (docs/books.md) and as cutechess-cli's PGN reader stops at it (a null move is no
 * move to send an engine); each opening so cut is listed in `shortened`, for a warning.
 */
export function parsePgnOpenings(data: Uint8Array | string, file: string, plies?: number): { openings: Opening[]; errors: BadRecord[]; shortened: BadRecord[] } {
  const openings: Opening[] = [];
  const errors: BadRecord[] = [];
  const shortened: BadRecord[] = [];
  let cur: Opening | undefined;
  let line = 0;
  let game = 0;
  parsePgn(
    data,
    {
      beginGame(loc) {
        line = loc.line;
        game = loc.game;
        cur = undefined;
      },
      nullMove(pos: Position, _ply: number, depth: number) {
        if (depth > 0 || !cur) return;
        const n = cur.moves.length;
        const at = `${pos.fullmoves}${pos.turn === WHITE ? '.' : '...'}`;
        shortened.push({ file, line, message: `game ${game}: a null move at ${at} ends the opening after ${n} ${n === 1 ? 'ply' : 'plies'}${plies === undefined ? '' : ` (of plies=${plies})`}` });
        return false;
      },
      endTags(pos: Position) {
        cur = { fen: makeFen(pos), moves: [], source: `${file}:${line}` };
        return plies === undefined || plies > 0;
      },
      move(pos: Position, move: number) {
        if (!cur) return false;
        cur.moves.push(makeUci(move, pos.chess960));
        return plies === undefined || cur.moves.length < plies;
      },
      endGame() {
        if (cur) openings.push(cur);
        cur = undefined;
      },
      error(e) {
        errors.push({ file: e.file, line: e.line, message: `game ${e.game}: ${e.message}` });
        cur = undefined;
      },
    },
    { file },
  );
  return { openings, errors, shortened };
}

/**
 * Openings walked through a Polyglot book from the start position: a weighted random book move
 * per ply, up to `plies` half-moves or until the book has no move (cutechess's book openings).
 * Opening k is drawn from its own seeded generator, so both games of a pair get the same line
 * and a resumed match gets the same lines again.
 */
export class BookOpenings implements OpeningSource {
  readonly size = Infinity;

  constructor(
    private readonly book: PolyglotReader,
    private readonly plies: number,
    private readonly seed: number,
  ) {}

  get(k: number): Opening {
    const r = positionFromFen(STARTING_FEN);
    if (!r.ok) throw r.error;
    const pos = r.value;
    const rng = createRng((this.seed ^ Math.imul(k + 1, 0x9e3779b1)) >>> 0);
    const moves: string[] = [];
    while (moves.length < this.plies) {
      const m = this.book.choose(pos, { policy: 'weighted', random: rng.next });
      if (!m) break;
      moves.push(m.uci);
      pos.play(m.move);
    }
    return { fen: STARTING_FEN, moves, source: `${this.book.name} (line ${k + 1})` };
  }
}

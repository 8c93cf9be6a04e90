/**
 * The line on the board: a start position, the moves played from it (UCI) and how far along
 * the user stands. Stepping back keeps the moves after the cursor; a different move there
 * replaces them. PGN out (with a FEN tag when the start is not the initial position) and in
 * (the main line of the first game).
 */
import { MOVE_NULL } from '../core/move.js';
import type { Position } from '../core/position.js';
import { unwrap } from '../core/result.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../notation/fen.js';
import { makeSan } from '../notation/san.js';
import { makeUci, parseUci } from '../notation/uci.js';
import { readGames } from '../pgn/game.js';
import { writeGame } from '../pgn/writer.js';

export class Line {
  startFen = STARTING_FEN;
  moves: string[] = [];
  sans: string[] = [];
  /** Moves played to reach the position shown (0..moves.length). */
  at = 0;

  /** The position after the first `n` moves (default: the cursor). */
  position(n = this.at): Position {
    const pos = unwrap(positionFromFen(this.startFen));
    for (let i = 0; i < n; i++) pos.play(unwrap(parseUci(pos, this.moves[i]!)));
    return pos;
  }

  fen(): string {
    return makeFen(this.position());
  }

  /** Plays a UCI move at the cursor if it is legal there; false if not. */
  play(uci: string): boolean {
    const pos = this.position();
    const m = parseUci(pos, uci);
    if (!m.ok) return false;
    const norm = makeUci(m.value, pos.chess960);
    if (this.moves[this.at] !== norm) {
      this.moves.length = this.at;
      this.sans.length = this.at;
      this.moves.push(norm);
      this.sans.push(makeSan(pos, m.value));
    }
    this.at++;
    return true;
  }

  /** Sets the whole line; throws an Error naming the bad part. */
  set(fen: string, moves: readonly string[], at = moves.length): void {
    const r = positionFromFen(fen);
    if (!r.ok) throw new Error(`FEN: ${r.error.message}`);
    const pos = r.value;
    const sans: string[] = [];
    const ucis: string[] = [];
    for (const u of moves) {
      const m = parseUci(pos, u);
      if (!m.ok) throw new Error(`move ${ucis.length + 1}: ${m.error.message}`);
      sans.push(makeSan(pos, m.value));
      ucis.push(makeUci(m.value, pos.chess960));
      pos.play(m.value);
    }
    this.startFen = makeFen(unwrap(positionFromFen(fen)));
    this.moves = ucis;
    this.sans = sans;
    this.at = Number.isInteger(at) ? Math.max(0, Math.min(at, ucis.length)) : ucis.length;
  }

  /**
   * Reads the first game of a PGN text (the parser of `tabiya pgn`: tags, comments,
   * variations, NAGs and the result are read and left aside): its start position and main line.
   */
  loadPgn(text: string): void {
    const { games, errors } = readGames(text, { file: 'the PGN' });
    const game = games[0];
    // A broken game before the first good one is the one meant: say what is wrong with it.
    const broken = errors[0];
    if (broken !== undefined && (game === undefined || (game.location !== undefined && broken.line < game.location.line))) throw new Error(`line ${broken.line}: ${broken.message}`);
    if (game === undefined) throw new Error('no game in the text');
    const start = game.fen ?? STARTING_FEN;
    const pos = unwrap(positionFromFen(start));
    const ucis = game.moves.map((n, i) => {
      if (n.move === MOVE_NULL) throw new Error(`move ${i + 1} is a null move (--), which the board cannot show`);
      const u = makeUci(n.move!, pos.chess960);
      pos.play(n.move!);
      return u;
    });
    this.set(start, ucis);
  }

  /** The line as PGN (moves up to the end, not only to the cursor), in PGN's export format. */
  pgn(tags: Record<string, string> = {}, result = '*'): string {
    const all: Record<string, string> = { Event: 'tabiya explorer', Site: '?', Date: today(), Round: '-', White: '?', Black: '?', Result: result, ...tags };
    if (this.startFen !== STARTING_FEN) {
      // A Chess960 start says so, or a reader takes its castling for standard chess.
      if (unwrap(positionFromFen(this.startFen)).chess960) all.Variant = 'Chess960';
      all.SetUp = '1';
      all.FEN = this.startFen;
    }
    return writeGame({ tags: all, moves: this.sans, result });
  }
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
}

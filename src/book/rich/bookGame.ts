/**
 * One game a `.tbk` keeps, as the explorer and `book probe` tell of it: a position that only one
 * game reached is kept as that game (its index, not its counts), so the book can name the game
 * and go on along it. What is told follows the Lichess explorer's game of a move
 * (lichess-org/lila-openingexplorer: id, winner, speed, players, year, month); a book keeps the
 * players' ratings, not their names. Games are numbered from 1, as the book's errors count them.
 */
import { Position } from '../../core/position.js';
import { makeFen } from '../../notation/fen.js';
import { makeSan } from '../../notation/san.js';
import { makeUci } from '../../notation/uci.js';
import type { GameReader } from './gameReader.js';
import type { TbkBook } from './tbkBook.js';
import { RESULT_BLACK, RESULT_WHITE, replayGame } from './games.js';
import { SPEEDS, formatMonth } from './splits.js';

export interface GameFacts {
  /** The game's number in the book, from 1. */
  id: string;
  winner: 'white' | 'black' | null;
  /** "1-0", "0-1", "1/2-1/2", or "*" for a game that did not finish. */
  result: string;
  speed: string | null;
  white: { name: null; rating: number | null };
  black: { name: null; rating: number | null };
  year: number | null;
  /** "2024-03" (null when the game's date was unknown). */
  month: string | null;
}

/** A game whole, and where it stands in a given position. */
export interface BookGame extends GameFacts {
  /** The game's start (the initial position unless its PGN gave a FEN). */
  fen: string;
  /** Its moves in UCI and SAN. */
  moves: string[];
  sans: string[];
  /** Moves played before it last stood in the position asked for (null: it never did). */
  ply: number | null;
}

/** PGN's results by the book's result codes (games.ts: draw, white, black, unfinished). */
const RESULT_TEXT = ['1/2-1/2', '1-0', '0-1', '*'];

/** What the book's record tells of game `g` (from 0); undefined when the book has no such game. */
export function gameFacts(games: GameReader, g: number): GameFacts | undefined {
  if (!Number.isInteger(g) || g < 0 || g >= games.count) return undefined;
  const rec = games.record(g);
  const rating = (elo: number): number | null => (elo > 0 ? elo : null);
  return {
    id: String(g + 1),
    winner: rec.result === RESULT_WHITE ? 'white' : rec.result === RESULT_BLACK ? 'black' : null,
    result: RESULT_TEXT[rec.result]!,
    speed: rec.speed < SPEEDS.length ? SPEEDS[rec.speed]! : null,
    white: { name: null, rating: rating(rec.whiteElo) },
    black: { name: null, rating: rating(rec.blackElo) },
    year: rec.month > 0 ? Math.floor(rec.month / 12) : null,
    month: rec.month > 0 ? formatMonth(rec.month) : null,
  };
}

/** Game `g` (from 0) whole, and the ply at which it last stands in `pos`; undefined when the book has no such game. */
export function bookGame(games: GameReader, g: number, pos: Position): BookGame | undefined {
  const facts = gameFacts(games, g);
  if (facts === undefined) return undefined;
  const at = new Position();
  games.setStart(g, at);
  const fen = makeFen(at);
  const moves: string[] = [];
  const sans: string[] = [];
  let ply: number | null = null;
  replayGame(games, g, games.record(g), at, (p, m, i) => {
    if (p.keyHi === pos.keyHi && p.keyLo === pos.keyLo) ply = i;
    moves.push(makeUci(m, p.chess960));
    sans.push(makeSan(p, m));
    return true;
  });
  // The position after the last move: a game that ended in the position asked for.
  if (at.keyHi === pos.keyHi && at.keyLo === pos.keyLo) ply = moves.length;
  return { ...facts, fen, moves, sans, ply };
}

/**
 * The game that played `move` from `pos`, for a move that one game of the book played (undefined
 * when the book cannot tell; a move of a stored position is kept as counts, not games). The position
 * after the move names it when that game alone reached it (the single-position index); it is
 * that game if the game played `move` from `pos` within the book's plies, so counted it there.
 */
export function gameOfMove(book: TbkBook, pos: Position, move: number): number | undefined {
  const games = book.games;
  if (games === undefined) return undefined;
  const after = pos.clone();
  after.play(move);
  const s = book.single(after.keyHi, after.keyLo, after);
  if (s === undefined) return undefined;
  const maxPly = book.fields.maxPly;
  let played = false;
  replayGame(games, s.game, s.record, new Position(), (p, m, ply) => {
    if (ply >= maxPly) return false;
    played = m === move && p.keyHi === pos.keyHi && p.keyLo === pos.keyLo;
    return !played;
  });
  return played ? s.game : undefined;
}

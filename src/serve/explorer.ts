/**
 * The explorer's answer in the shape of the Lichess opening explorer API
 * (https://lichess.org/api#tag/Opening-Explorer): position totals `white`, `draws`, `black`,
 * `moves[]` with `uci`, `san`, the same three counts, `averageRating`, `averageOpponentRating`
 * and `performance` (as the Lichess player explorer computes it: performance.ts), and
 * `opening` {eco, name}, and a move's `game` where only one game reached the position
 * (bookGame.ts); so a tool written for Lichess can read it. tabiya adds, per move, the
 * book's `weight`, the policy's `probability`, `userValue`, `nag`, `comment`, `forbidden`,
 * `byHand`, `repeats` and `learned`, and names the book, its format and the FEN.
 *
 * Lichess counts games by result (white won, draw, black won); the books count them from the
 * mover's side, so the two are swapped when Black is to move. A Polyglot .bin keeps no game
 * counts: its counts are 0 and only weight and probability say anything. Browser-safe (the
 * page reads these types).
 */
import type { GameFacts } from '../book/rich/bookGame.js';
import type { Position } from '../core/position.js';
import { makeFen } from '../notation/fen.js';
import { makeSans } from '../notation/san.js';
import type { Opening } from './openings.js';
import { performanceRating } from './performance.js';

/** One book move with everything the explorer shows, from the mover's side. */
export interface MoveFacts {
  move: number;
  uci: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Mean rating of the players who made the move (0: none rated). */
  avgElo: number;
  /** Mean rating of their opponents, the players who answered the move (0: none rated). */
  opponentElo: number;
  weight: number;
  probability: number;
  userValue: number | null;
  nag: number | null;
  comment: string | null;
  forbidden: boolean;
  /**
   * In the book only through its notes: no game played it, it has no weight imported from a
   * Polyglot book and it is no PostBook record (a move added by hand: the page's *+ Add a
   * move*, `book set`, `book annotate`).
   */
  byHand: boolean;
  /**
   * Occurrences beyond the games counted: visits of games that came back to the position later
   * and left it, at their last visit, by another move (each game counts once a position, under
   * its last move there, as the Lichess explorer counts). Null on a `.bin`, or where make-book's
   * capped counter cannot say.
   */
  repeats: number | null;
  /** The game of a move seen in one game only (a position the book keeps as its one game), else null. */
  game: ExplorerGame | null;
  /** The verdict of `book audit` (.tbk): centipawns lost against the best move, the best move and the refutation in UCI. */
  audit: { loss: number; best: string | null; depth: number; refutation: string[] } | null;
  /** The engine's own results with the move (.tbk), or the Polyglot learn field's (.bin). */
  learned: { wins: number; draws: number; losses: number } | { games: number; points: number } | null;
}

export interface ExplorerMove extends Pick<MoveFacts, 'uci' | 'weight' | 'probability' | 'userValue' | 'nag' | 'comment' | 'forbidden' | 'byHand' | 'repeats' | 'audit' | 'learned'> {
  san: string;
  white: number;
  draws: number;
  black: number;
  averageRating: number | null;
  /** Mean rating of the players who answered the move (null: none rated). */
  averageOpponentRating: number | null;
  /** Performance rating of the movers in these games (performance.ts; null: no ratings). */
  performance: number | null;
  /** The one game of a move from a position seen in one game of the book (Lichess's `game` of a move). */
  game: ExplorerGame | null;
}

/** A move's game as the Lichess explorer gives it (bookGame.ts). */
export type ExplorerGame = GameFacts;

export interface ExplorerAnswer {
  white: number;
  draws: number;
  black: number;
  moves: ExplorerMove[];
  topGames: never[];
  recentGames: never[];
  opening: Opening | null;
  book: string;
  format: 'bin' | 'tbk';
  fen: string;
  editable: boolean;
}

export function explorerAnswer(pos: Position, facts: readonly MoveFacts[], opening: Opening | undefined, book: { id: string; format: 'bin' | 'tbk'; editable: boolean }): ExplorerAnswer {
  const black = pos.turn === 1;
  let w = 0;
  let d = 0;
  let b = 0;
  const sans = makeSans(pos, facts.map((f) => f.move));
  const moves = facts.map((f, i): ExplorerMove => {
    const white = black ? f.losses : f.wins;
    const blackWins = black ? f.wins : f.losses;
    w += white;
    d += f.draws;
    b += blackWins;
    return {
      uci: f.uci,
      san: sans[i]!,
      white,
      draws: f.draws,
      black: blackWins,
      averageRating: f.avgElo > 0 ? f.avgElo : null,
      averageOpponentRating: f.opponentElo > 0 ? Math.round(f.opponentElo) : null,
      performance: performanceRating(f.opponentElo, f.wins, f.draws, f.losses),
      game: f.game,
      weight: f.weight,
      probability: f.probability,
      userValue: f.userValue,
      nag: f.nag,
      comment: f.comment,
      forbidden: f.forbidden,
      byHand: f.byHand,
      repeats: f.repeats,
      audit: f.audit,
      learned: f.learned,
    };
  });
  return {
    white: w,
    draws: d,
    black: b,
    moves,
    topGames: [],
    recentGames: [],
    opening: opening ?? null,
    book: book.id,
    format: book.format,
    fen: makeFen(pos),
    editable: book.editable,
  };
}

/**
 * Book learning (Terra, seed 001): after a game, the player's book moves get the result in
 * their dynamic W/D/L, and the player's first moves after the book ended go into the PostBook.
 *
 *   1. Walk the game from its start. While the position has book moves (entries that are not
 *      PostBook-only), the book is on: a player's move found there is a book move; it learns
 *      the result from the player's side, unless it carries a user value (Terra: "when a move
 *      has a user set value there will be no Terra learning for that move").
 *   2. The book ends at the first position without book moves, or at the first player's move
 *      that is not in the book. From there, the player's next `postBook` moves (default 10)
 *      are PostBook entries: created when new (flagged, no fixed statistics), given the result
 *      in their dynamic W/D/L and, when the game has it, the evaluation after the move
 *      (centipawns from the mover's side, averaged over the games that gave one).
 *   3. The opponent's moves teach nothing: the book learns what its player played.
 */
import type { Position } from '../../core/position.js';

/** A game as learning needs it. */
export interface LearnInput {
  /** The start position (not changed: the walk plays on a clone). */
  start: Position;
  /** Core moves of the game from `start`. */
  moves: readonly number[];
  /** Result from White's side: 1 win, 0 draw, -1 loss. */
  whiteResult: number;
  /** The colour that learns (0 White, 1 Black). */
  player: number;
  /** Per ply, the evaluation after that move in centipawns from the mover's side, when known. */
  evals?: readonly (number | null | undefined)[];
}

export interface LearnOptions {
  /** Player's moves recorded in the PostBook after the book ends (default 10, 0 = none). */
  postBook?: number;
}

export interface LearnReport {
  /** Book moves of the player that learned the result. */
  bookMoves: number;
  /** Book moves left alone because they have a user value. */
  userValued: number;
  /** PostBook moves recorded, and how many of them were new. */
  postBookMoves: number;
  postBookNew: number;
  /** Ply where the book ended (-1 if it never did within the game). */
  bookEnd: number;
}

/**
 * Each PostBook evaluation counts at most 10 pawns either way, a mate as 10 pawns: the stored
 * figure is a mean over games, and a mate taken at its face (about 200 pawns) would outweigh
 * any number of ordinary evaluations (a mate in one game and +0.30 in another averaged to
 * -99.84 pawns). Beyond 10 pawns a position is won or lost either way.
 */
export const LEARN_EVAL_CAP = 1000;

/** The row operations learning needs: a RichTable, or a BookPatch over a book's bytes. */
export interface LearnTarget {
  readonly size: number;
  hasBookMoves(keyLo: number, keyHi: number): boolean;
  find(keyLo: number, keyHi: number, move: number): number;
  findOrCreate(keyLo: number, keyHi: number, move: number, black: number): number;
  isPostBook(r: number): boolean;
  hasUserValue(r: number): boolean;
  markPostBook(r: number): void;
  addDynamic(r: number, result: number): void;
  addEval(r: number, cp: number): void;
}

export function learnInto(t: LearnTarget, game: LearnInput, opts: LearnOptions = {}): LearnReport {
  const postBook = opts.postBook ?? 10;
  const report: LearnReport = { bookMoves: 0, userValued: 0, postBookMoves: 0, postBookNew: 0, bookEnd: -1 };
  const pos = game.start.clone();
  const playerResult = game.player === 0 ? game.whiteResult : -game.whiteResult;
  let inBook = true;
  /** The player's (position, move) pairs met so far in this game. */
  const met = new Set<string>();
  for (let ply = 0; ply < game.moves.length; ply++) {
    const m = game.moves[ply]!;
    const mine = pos.turn === game.player;
    // Whether the game already played this move from this position: if so it has learned.
    const again = mine && !firstTime(met, pos, m);
    if (inBook && !t.hasBookMoves(pos.keyLo, pos.keyHi)) {
      inBook = false;
      report.bookEnd = ply;
    }
    if (inBook && mine) {
      const r = t.find(pos.keyLo, pos.keyHi, m);
      if (r >= 0 && !t.isPostBook(r)) {
        // A repeat learned at its first occurrence.
        if (!again) {
          if (t.hasUserValue(r)) report.userValued++;
          else {
            t.addDynamic(r, playerResult);
            report.bookMoves++;
          }
        }
      } else {
        inBook = false;
        report.bookEnd = ply;
      }
    }
    if (!inBook && mine) {
      if (again) {
        pos.play(m);
        continue;
      }
      if (report.postBookMoves >= postBook) break;
      // A game that left the book can come back into it by transposition: a move the book
      // holds with games (not a PostBook record) stays a book move. It learns as one (no
      // PostBook flag, no evaluation), and not at all when it carries a user value.
      const known = t.find(pos.keyLo, pos.keyHi, m);
      if (known >= 0 && !t.isPostBook(known)) {
        if (t.hasUserValue(known)) report.userValued++;
        else {
          t.addDynamic(known, playerResult);
          report.bookMoves++;
        }
        pos.play(m);
        continue;
      }
      // "New" is decided by find, not by the target's size: a target may add a row when it
      // looks up a move it already holds (NotesTarget does).
      const r = known >= 0 ? known : t.findOrCreate(pos.keyLo, pos.keyHi, m, pos.turn);
      if (known < 0) {
        t.markPostBook(r);
        report.postBookNew++;
      }
      t.addDynamic(r, playerResult);
      const e = game.evals?.[ply];
      if (e !== undefined && e !== null && Number.isFinite(e)) t.addEval(r, Math.max(-LEARN_EVAL_CAP, Math.min(LEARN_EVAL_CAP, Math.round(e))));
      report.postBookMoves++;
    }
    pos.play(m);
  }
  return report;
}

/** Records (position, move) in `met`; false when it was there already. */
function firstTime(met: Set<string>, pos: Position, move: number): boolean {
  const k = `${pos.keyHi >>> 0}:${pos.keyLo >>> 0}:${move}`;
  if (met.has(k)) return false;
  met.add(k);
  return true;
}

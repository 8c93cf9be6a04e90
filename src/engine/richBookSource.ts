/**
 * A rich book (`.tbk`, src/book/rich/) as the engine's book source. The policy sees every
 * stored statistic (fixed and dynamic W/D/L, user values, PostBook entries); book-aware search
 * sees the book moves' results, the games the book was made from plus the engine's own games,
 * so a line the engine keeps losing stops looking "well known".
 *
 * Learning goes through a function the host provides (the Node learning API writes the file
 * crash-safely); once it has written, the book is opened again so the next game plays from the
 * updated statistics. Browser-safe: no I/O here.
 */
import type { Position } from '../core/position.js';
import type { Position as Pos } from '../core/position.js';

/** What the engine needs of a rich book (either version of the format). */
export interface RichBookLike {
  readonly name: string;
  probe(pos: Pos): RichMove[];
  /** The same moves into typed arrays, without an object a move, when the book offers it (a version 2 `.tbk`). */
  probeMoves?(pos: Pos, out: BookMoves): number;
  /** The book itself when it is a version 2 `.tbk` (its games give the boards no walk reaches). */
  readonly v2?: TbkBook;
}
import { BookMoves } from '../book/rich/bookMoves.js';
import { BoardRecovery } from '../book/rich/recover.js';
import type { StoredPosition } from '../book/rich/positions.js';
import type { TbkBook } from '../book/rich/tbkBook.js';
import type { RichMove } from '../book/rich/types.js';
import { polyglotWeight } from '../book/select/index.js';
import type { BookCandidate, BookSource, LearnGame } from './bookProbe.js';

export interface RichBookSourceOptions {
  /** Updates the book with a finished game (book learning); resolves once it is written. */
  learn?: (game: LearnGame) => void | Promise<void>;
  /** Opens the book again after learning changed it (default: keep the book as opened). */
  reopen?: () => RichBookLike;
  /** Closes the book's file (the engine was given another book). */
  close?: () => void;
}

export class RichBookSource implements BookSource {
  private readonly moves = new BookMoves();

  constructor(
    public book: RichBookLike,
    private readonly opts: RichBookSourceOptions = {},
  ) {}

  get name(): string {
    return this.book.name;
  }

  close(): void {
    this.opts.close?.();
  }

  probe(pos: Position): RichMove[] {
    return this.book.probe(pos);
  }

  /** Book moves (PostBook entries are the engine's own, not book knowledge) with weights and results. */
  candidates(pos: Position): BookCandidate[] {
    const out: BookCandidate[] = [];
    const book = this.book;
    if (book.probeMoves !== undefined) {
      // The walk of the book (bookReturn.ts) asks this of every book position: no entry objects.
      const m = this.moves;
      const n = book.probeMoves(pos, m);
      for (let i = 0; i < n; i++) {
        const note = m.note[i];
        const wins = m.wins[i]!;
        const draws = m.draws[i]!;
        const losses = m.losses[i]!;
        if (note?.postBook === true && wins + draws + losses + m.unfinished[i]! === 0) continue;
        const games = 2 * wins + draws;
        const weight = m.weight[i]!;
        out.push({
          move: m.move[i]!,
          weight: weight > 0 || games === 0 ? weight : games,
          wins: wins + (note?.dynWins ?? 0),
          draws: draws + (note?.dynDraws ?? 0),
          losses: losses + (note?.dynLosses ?? 0),
        });
      }
      return out;
    }
    for (const m of book.probe(pos)) {
      if (m.postBook) continue;
      out.push({ move: m.move, weight: polyglotWeight(m), wins: m.wins + m.dynWins, draws: m.draws + m.dynDraws, losses: m.losses + m.dynLosses });
    }
    return out;
  }

  /** BookSource.unreachedBoards: from a version 2 book's games, one at a time (rich/recover.ts). */
  *unreachedBoards(indexed: (keyHi: number, keyLo: number) => boolean, minGames: number, beforePly: number): Generator<Position> {
    const v2 = this.book.v2;
    if (v2 === undefined) return;
    const wanted = (p: StoredPosition): boolean => {
      let games = 0;
      for (const m of p.moves) games += m.wins + m.draws + m.losses + m.unfinished;
      return games >= minGames;
    };
    for (const b of new BoardRecovery(v2, { wanted, known: indexed, maxPly: beforePly })) yield b.pos;
  }

  async learn(game: LearnGame): Promise<void> {
    if (!this.opts.learn) return;
    await this.opts.learn(game);
    if (this.opts.reopen) this.book = this.opts.reopen();
  }
}

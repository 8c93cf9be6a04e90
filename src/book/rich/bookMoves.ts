/**
 * The moves a `.tbk` book holds for a position, as parallel typed arrays: what a probe fills
 * without building an object a move (tbkBook.ts `probeMoves`), for callers that probe many
 * positions (the engine's walk of its book, the explorer's replies). `toEntries` turns them
 * into the objects of the object API (`probe`, `movesOf`). One instance is reused from probe to
 * probe; it grows when a position has more moves than it holds. Browser-safe.
 *
 *   const moves = new BookMoves();
 *   const n = book.probeMoves(pos, moves);
 *   for (let i = 0; i < n; i++) console.log(moves.move[i], moves.wins[i], moves.games(i));
 */
import { MAX_MOVES } from '../../core/types.js';
import type { Note } from './notes.js';
import type { RichEntry } from './reader.js';
import { USER_UNSET } from './types.js';

/** A move of a book position with everything the book knows about it (the object API). */
export interface BookEntry extends RichEntry {
  unfinished: number;
  nag: number;
  comment: string;
  forbidden: boolean;
  audit: Note['audit'];
  /** The game of a move seen in one game only (a single position), else -1. */
  game: number;
}

export class BookMoves {
  /** Moves held (valid indices 0 .. count - 1). */
  count = 0;
  move!: Int32Array;
  black!: Uint8Array;
  wins!: Float64Array;
  draws!: Float64Array;
  losses!: Float64Array;
  unfinished!: Float64Array;
  rated!: Float64Array;
  ratingSum!: Float64Array;
  /** make-book's counters (n, sum), capped at 0xffff as it caps them. */
  pgN!: Int32Array;
  pgSum!: Int32Array;
  /** make-book's weight, or the weight of a move imported from a Polyglot book. */
  weight!: Int32Array;
  /** Place in make-book's first-seen order. */
  rank!: Int32Array;
  /** Polyglot learn field. */
  learn!: Float64Array;
  /** The one game of a single position's move, else -1. */
  game!: Int32Array;
  /** The move's note (learning, user value, comment, audit), if it has one. */
  readonly note: (Note | undefined)[] = [];

  constructor(capacity = MAX_MOVES) {
    this.resize(capacity);
  }

  get capacity(): number {
    return this.move.length;
  }

  /** Games of move `i` from the book's games (finished or not). */
  games(i: number): number {
    return this.wins[i]! + this.draws[i]! + this.losses[i]! + this.unfinished[i]!;
  }

  /** Average rating of the movers of move `i` (0: none rated). */
  avgElo(i: number): number {
    const r = this.rated[i]!;
    return r > 0 ? Math.round(this.ratingSum[i]! / r) : 0;
  }

  /** Appends a move with the given statistics; returns its index. */
  push(move: number, black: boolean, wins: number, draws: number, losses: number, unfinished: number, rated: number, ratingSum: number, pgN: number, pgSum: number, weight: number, rank: number, learn: number, game: number): number {
    const i = this.count;
    if (i === this.capacity) this.resize(2 * i);
    this.move[i] = move;
    this.black[i] = black ? 1 : 0;
    this.wins[i] = wins;
    this.draws[i] = draws;
    this.losses[i] = losses;
    this.unfinished[i] = unfinished;
    this.rated[i] = rated;
    this.ratingSum[i] = ratingSum;
    this.pgN[i] = pgN;
    this.pgSum[i] = pgSum;
    this.weight[i] = weight;
    this.rank[i] = rank;
    this.learn[i] = learn;
    this.game[i] = game;
    this.note[i] = undefined;
    this.count = i + 1;
    return i;
  }

  /** Moves move `from` to index `to` (to <= from), for compaction in place. */
  moveTo(from: number, to: number): void {
    if (from === to) return;
    this.move[to] = this.move[from]!;
    this.black[to] = this.black[from]!;
    this.wins[to] = this.wins[from]!;
    this.draws[to] = this.draws[from]!;
    this.losses[to] = this.losses[from]!;
    this.unfinished[to] = this.unfinished[from]!;
    this.rated[to] = this.rated[from]!;
    this.ratingSum[to] = this.ratingSum[from]!;
    this.pgN[to] = this.pgN[from]!;
    this.pgSum[to] = this.pgSum[from]!;
    this.weight[to] = this.weight[from]!;
    this.rank[to] = this.rank[from]!;
    this.learn[to] = this.learn[from]!;
    this.game[to] = this.game[from]!;
    this.note[to] = this.note[from];
  }

  /** The index of `move`, or -1. */
  indexOf(move: number): number {
    for (let i = 0; i < this.count; i++) if (this.move[i] === move) return i;
    return -1;
  }

  /** The moves as the object API's entries (of the position whose key is given). */
  toEntries(keyHi: number, keyLo: number): BookEntry[] {
    const out: BookEntry[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.entry(i, keyHi, keyLo));
    return out;
  }

  entry(i: number, keyHi: number, keyLo: number): BookEntry {
    const n = this.note[i];
    const played = this.games(i);
    return {
      index: -1,
      keyHi,
      keyLo,
      black: this.black[i] === 1,
      move: this.move[i]!,
      wins: this.wins[i]!,
      draws: this.draws[i]!,
      losses: this.losses[i]!,
      unfinished: this.unfinished[i]!,
      ratedGames: this.rated[i]!,
      eloSum: this.ratingSum[i]!,
      avgElo: this.avgElo(i),
      dynWins: n?.dynWins ?? 0,
      dynDraws: n?.dynDraws ?? 0,
      dynLosses: n?.dynLosses ?? 0,
      userValue: n?.userValue ?? USER_UNSET,
      postBook: n !== undefined && n.postBook && played === 0,
      evalCp: n?.evalCp ?? 0,
      evalCount: n?.evalCount ?? 0,
      pgN: this.pgN[i]!,
      pgSum: this.pgSum[i]!,
      weight: this.weight[i]!,
      firstSeen: this.rank[i]!,
      learn: n !== undefined && n.learn !== 0 ? n.learn : this.learn[i]!,
      nag: n?.nag ?? 0,
      comment: n?.comment ?? '',
      forbidden: n?.forbidden ?? false,
      audit: n?.audit,
      game: this.game[i]!,
    };
  }

  /** Reallocates every array with room for `capacity` moves, keeping what they hold. */
  private resize(capacity: number): void {
    const to = <T extends Int32Array | Uint8Array | Float64Array>(make: new (n: number) => T, a: T | undefined): T => {
      const b = new make(capacity);
      if (a !== undefined) b.set(a);
      return b;
    };
    this.move = to(Int32Array, this.move);
    this.black = to(Uint8Array, this.black);
    this.wins = to(Float64Array, this.wins);
    this.draws = to(Float64Array, this.draws);
    this.losses = to(Float64Array, this.losses);
    this.unfinished = to(Float64Array, this.unfinished);
    this.rated = to(Float64Array, this.rated);
    this.ratingSum = to(Float64Array, this.ratingSum);
    this.pgN = to(Int32Array, this.pgN);
    this.pgSum = to(Int32Array, this.pgSum);
    this.weight = to(Int32Array, this.weight);
    this.rank = to(Int32Array, this.rank);
    this.learn = to(Float64Array, this.learn);
    this.game = to(Int32Array, this.game);
  }
}

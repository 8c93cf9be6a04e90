/**
 * What a rich book (`.tbk`) holds per (position, move), as readers hand it out. The storage
 * layout is in `format.ts`; this is the contract between storage, move selection
 * (`src/book/select/`), the `tabiya book` commands and the engine.
 *
 * All counts are from the side that played the move ("mover's view"): a win is a game the
 * mover's side won. Fixed statistics come from PGN games (`book make` / `book add`); dynamic
 * ones from the engine's own games (book learning: `book learn`, or the engine after a game).
 */
export interface RichMove {
  /** Core 16-bit move (src/core/move.ts); castling as king-takes-own-rook. */
  readonly move: number;
  /** Fixed statistics: games won, drawn and lost with this move by the mover's side. */
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** Average Elo of the players who made the move (0 when no game had a rating). */
  readonly avgElo: number;
  /** Games whose mover had a rating (the weight behind `avgElo`). */
  readonly ratedGames: number;
  /** Dynamic statistics from the engine's own games (book learning). */
  readonly dynWins: number;
  readonly dynDraws: number;
  readonly dynLosses: number;
  /** User-set value: -1 unset, otherwise 0..100 (100 always, 0 never). */
  readonly userValue: number;
  /**
   * True for PostBook entries: moves the engine chose itself in its first moves after leaving
   * the book (they carry dynamic statistics only, and `evalCp` when known).
   */
  readonly postBook: boolean;
  /** The engine's evaluation after the move, centipawns from the mover's side (PostBook; 0 if unknown). */
  readonly evalCp: number;
  /**
   * make-book's weight for the move (2·wins + draws, halved as make-book halves), or the
   * weight imported from a Polyglot book (whose games are unknown).
   */
  readonly weight?: number;
  /**
   * Never to be played from the book (a `.tbk` version 2 note): set by hand or by a book audit
   * that found the move losing (`book audit --mark`). Undefined where the book keeps no notes.
   */
  readonly forbidden?: boolean;
}

/** USER_UNSET marks a move without a user-set value. */
export const USER_UNSET = -1;


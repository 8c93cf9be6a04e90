/** What a search reports while it runs (SearchInfo) and when it ends (SearchResult). */
/** One line of search output, reported after each iteration (and on aspiration failures). */
export interface SearchInfo {
  depth: number;
  seldepth: number;
  /** 1-based line number (MultiPV). */
  multipv: number;
  /** Internal score (centipawns, or MATE − plies); see score.ts. */
  score: number;
  /** Moves to mate when the score is a mate score (negative: being mated). */
  mate?: number;
  /** The score is only a bound (aspiration failure). */
  bound?: 'lower' | 'upper';
  nodes: number;
  nps: number;
  /** Milliseconds since the search started. */
  time: number;
  hashfull: number;
  pv: number[];
}

export interface SearchResult {
  /** 0 when the side to move has no legal move. */
  bestMove: number;
  /** Expected reply (0 if unknown). */
  ponderMove: number;
  score: number;
  depth: number;
  seldepth: number;
  nodes: number;
  time: number;
  pv: number[];
  /** All MultiPV lines, best first (present when more than one line was searched). */
  lines?: { move: number; score: number; pv: number[] }[];
  /** Why the search ended early, if it did: 'book' (book move), 'book-pv' (book-aware search). */
  reason?: string;
  /** A line for the GUI about how the move was chosen (BookReturn), sent as an info string. */
  note?: string;
}

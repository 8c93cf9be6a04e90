/** What a search may spend: the `go` parameters, as in UCI (times in milliseconds). */
export interface GoLimits {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  movetime?: number;
  depth?: number;
  nodes?: number;
  /** Search for a mate in this many moves. */
  mate?: number;
  infinite?: boolean;
  ponder?: boolean;
  /** Restrict the root to these moves (integer moves). */
  searchmoves?: number[];
  /**
   * When the command arrived (Date.now() ms); the clock runs from there, so time spent
   * before the search starts (message passing, a busy thread) is not forgotten.
   */
  startTime?: number;
}

/** Wall clock in ms; Date.now() is shared by all threads, unlike performance.now(). */
export const now = (): number => Date.now();

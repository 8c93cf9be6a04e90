/**
 * Score conventions shared by search, hash table and protocols. Scores are centipawns from the
 * side to move's point of view; a mate in n plies from the root is MATE - n (being mated,
 * -(MATE - n)), so a shorter mate is always preferred (seed 002, "forcing progress").
 */
export const MAX_PLY = 128;
export const MATE = 32000;
/** Scores at or beyond this are mates found within MAX_PLY. */
export const MATE_IN_MAX = MATE - MAX_PLY;
/** Largest score a static evaluation may return (keeps evals clear of mate scores). */
export const EVAL_LIMIT = MATE_IN_MAX - 1000;
export const INFINITE = 32001;
/** "No score" marker (never a real score; fits in 16 bits). */
export const NONE_SCORE = 32002;
export const DRAW = 0;

export const isMateScore = (s: number): boolean => s >= MATE_IN_MAX || s <= -MATE_IN_MAX;

/** Moves to mate as UCI prints it (positive: we mate; negative: we are mated). */
export function mateInMoves(s: number): number {
  return s > 0 ? (MATE - s + 1) >> 1 : -((MATE + s) >> 1);
}

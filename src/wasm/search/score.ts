/** Score conventions shared by search and hash table (the same values as src/engine/score.ts, which the host reads). */
export const MAX_PLY = 128;
export const MATE = 32000;
/** Scores at or beyond this are mates found within MAX_PLY. */
export const MATE_IN_MAX = MATE - MAX_PLY;
export const INFINITE = 32001;
/** "No score" marker (never a real score; fits in 16 bits). */
export const NONE_SCORE = 32002;
export const DRAW = 0;

// Port of src/core/types.ts and src/core/move.ts (the parts the core uses).
export const WHITE = 0;
export const BLACK = 1;
export const PAWN = 1;
export const KNIGHT = 2;
export const BISHOP = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;
export const EMPTY = 0;
export const NO_SQUARE = -1;
// Room for the legal moves of any position a FEN can set up (1082 at most; src/core/types.ts says
// why), not only the 218 of a position a game can reach: with 256, twenty queens overflowed the
// search's move lists and stopped the engine.
export const MAX_MOVES = 1088;

// 16-bit moves, Stockfish layout (see move.ts).
export const NORMAL = 0;
export const PROMOTION = 1 << 14;
export const EN_PASSANT = 2 << 14;
export const CASTLING = 3 << 14;
export const KIND_MASK = 3 << 14;
export const MOVE_NONE = 0;
export const MOVE_NULL = 65;

/**
 * Vocabulary of the integer core. Everything hot is a small integer:
 *
 *   square  0..63, a1 = 0, b1 = 1, … h8 = 63 (rank * 8 + file)
 *   color   WHITE = 0, BLACK = 1
 *   type    PAWN = 1 … KING = 6
 *   piece   color * 8 + type (white pawn 1 … white king 6, black pawn 9 … black king 14), EMPTY = 0
 *
 * The piece codes 0 and 8 are never pieces, so bitboard tables indexed by piece code
 * keep the occupancy of each color at index color * 8.
 */

export const WHITE = 0;
export const BLACK = 1;

export const PAWN = 1;
export const KNIGHT = 2;
export const BISHOP = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;

export const EMPTY = 0;

/** Index of a color's occupancy in the piece-indexed bitboard tables. */
export const OCC = 0;

export const NO_SQUARE = -1;

/**
 * Room for the legal moves of any position a FEN can set up, not only of positions that can
 * arise in a game (218 at most there): 20 queens can have more than 256 moves, and a shorter
 * list would silently lose the moves past its end. Counted by destination, a move arrives
 * along one of 8 rays (only the first piece on a ray can) or by one of 8 knight jumps, so at
 * most 16 moves reach each of the 63 squares not holding our king; a pawn reaching the last rank
 * counts 4 times (3 pawns per square, 3 more moves each: 72) and castling adds 2.
 * 63 * 16 + 72 + 2 = 1082.
 */
export const MAX_MOVES = 1088;

export const pieceOf = (color: number, type: number): number => (color << 3) | type;
export const typeOf = (piece: number): number => piece & 7;
export const colorOf = (piece: number): number => piece >> 3;

export const fileOf = (sq: number): number => sq & 7;
export const rankOf = (sq: number): number => sq >> 3;
export const squareAt = (file: number, rank: number): number => (rank << 3) | file;

const FILES = 'abcdefgh';

/** `e4` → 28; undefined for anything that is not a square name. */
export function parseSquare(name: string): number | undefined {
  if (name.length !== 2) return undefined;
  const f = name.charCodeAt(0) - 97;
  const r = name.charCodeAt(1) - 49;
  if (f < 0 || f > 7 || r < 0 || r > 7) return undefined;
  return (r << 3) | f;
}

export function squareName(sq: number): string {
  return FILES[sq & 7]! + String((sq >> 3) + 1);
}

/** Piece letters in FEN case: upper case for White. Index by piece code. */
export const PIECE_CHARS = ' PNBRQK  pnbrqk ';

export function pieceFromChar(ch: string): number {
  const i = PIECE_CHARS.indexOf(ch);
  return i > 0 && ch !== ' ' ? i : EMPTY;
}

/** SAN letters by type (index 1..6). */
export const TYPE_LETTERS = ' PNBRQK';

export type ColorName = 'white' | 'black';
export type RoleName = 'pawn' | 'knight' | 'bishop' | 'rook' | 'queen' | 'king';
export const COLOR_NAMES: readonly ColorName[] = ['white', 'black'];
export const ROLE_NAMES: readonly (RoleName | undefined)[] = [undefined, 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];

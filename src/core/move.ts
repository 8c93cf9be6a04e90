/**
 * Moves are 16-bit integers (Stockfish layout):
 *
 *   bits  0-5   to square
 *   bits  6-11  from square
 *   bits 12-13  promotion type - KNIGHT (0 knight … 3 queen), valid for PROMOTION only
 *   bits 14-15  kind: NORMAL, PROMOTION, EN_PASSANT, CASTLING
 *
 * Castling is stored as "king takes own rook" (to = the rook's square). That makes Chess960
 * free and equals Polyglot's book encoding. MOVE_NONE (0, a1a1) and MOVE_NULL (65, b1b1) are
 * impossible as real moves.
 */
import { KNIGHT } from './types.js';

export const NORMAL = 0;
export const PROMOTION = 1 << 14;
export const EN_PASSANT = 2 << 14;
export const CASTLING = 3 << 14;
export const KIND_MASK = 3 << 14;

export const MOVE_NONE = 0;
export const MOVE_NULL = 65;

export const moveFrom = (m: number): number => (m >>> 6) & 63;
export const moveTo = (m: number): number => m & 63;
export const moveKind = (m: number): number => m & KIND_MASK;
/** Promotion piece type (KNIGHT..QUEEN) of a PROMOTION move. */
export const promotionType = (m: number): number => ((m >>> 12) & 3) + KNIGHT;

export const makeMove = (from: number, to: number): number => (from << 6) | to;
export const makePromotion = (from: number, to: number, type: number): number =>
  PROMOTION | ((type - KNIGHT) << 12) | (from << 6) | to;

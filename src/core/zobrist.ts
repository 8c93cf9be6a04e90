/**
 * Polyglot Zobrist keys as int32 halves (hi = most significant 32 bits).
 *
 * Tables are indexed by our piece code, so a piece on a square costs one XOR per half:
 * Polyglot's own piece index ("kind") is 2 * (type - 1) + (white ? 1 : 0), black first.
 * The same key serves the engine's transposition table and repetition detection.
 */
import { POLYGLOT_RANDOM_HEX } from './polyglotRandom.js';

const R_HI = new Int32Array(781);
const R_LO = new Int32Array(781);
for (let i = 0; i < 781; i++) {
  const h = POLYGLOT_RANDOM_HEX[i]!;
  R_HI[i] = parseInt(h.slice(0, 8), 16) | 0;
  R_LO[i] = parseInt(h.slice(8), 16) | 0;
}

/** Piece keys at piece * 64 + square. */
export const Z_PIECE_LO: Int32Array = new Int32Array(16 * 64);
export const Z_PIECE_HI: Int32Array = new Int32Array(16 * 64);
/** Castling keys for every 4-bit rights mask (1 = white short, 2 = white long, 4 = black short, 8 = black long). */
export const Z_CASTLE_LO: Int32Array = new Int32Array(16);
export const Z_CASTLE_HI: Int32Array = new Int32Array(16);
/** En-passant keys by file. */
export const Z_EP_LO: Int32Array = new Int32Array(8);
export const Z_EP_HI: Int32Array = new Int32Array(8);
/** XORed in when White is to move. */
export const Z_TURN_LO = R_LO[780]!;
export const Z_TURN_HI = R_HI[780]!;

for (let color = 0; color < 2; color++) {
  for (let type = 1; type <= 6; type++) {
    const kind = 2 * (type - 1) + (color === 0 ? 1 : 0);
    for (let sq = 0; sq < 64; sq++) {
      Z_PIECE_LO[((color * 8 + type) << 6) | sq] = R_LO[64 * kind + sq]!;
      Z_PIECE_HI[((color * 8 + type) << 6) | sq] = R_HI[64 * kind + sq]!;
    }
  }
}
for (let mask = 0; mask < 16; mask++) {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 4; i++) {
    if (mask & (1 << i)) {
      lo ^= R_LO[768 + i]!;
      hi ^= R_HI[768 + i]!;
    }
  }
  Z_CASTLE_LO[mask] = lo;
  Z_CASTLE_HI[mask] = hi;
}
for (let f = 0; f < 8; f++) {
  Z_EP_LO[f] = R_LO[772 + f]!;
  Z_EP_HI[f] = R_HI[772 + f]!;
}

/**
 * The same piece, castling and en-passant keys interleaved, lo at 2i and hi at 2i + 1
 * (pieces at (piece << 7) | (square << 1)), for make/unmake: one table and one index per
 * key instead of two. Piece code 0 (EMPTY) has zero keys, so XORing "no piece" is harmless.
 */
export const Z_PIECE: Int32Array = new Int32Array(16 * 64 * 2);
export const Z_CASTLE: Int32Array = new Int32Array(16 * 2);
export const Z_EP: Int32Array = new Int32Array(8 * 2);
for (let i = 0; i < 16 * 64; i++) {
  Z_PIECE[2 * i] = Z_PIECE_LO[i]!;
  Z_PIECE[2 * i + 1] = Z_PIECE_HI[i]!;
}
for (let i = 0; i < 16; i++) {
  Z_CASTLE[2 * i] = Z_CASTLE_LO[i]!;
  Z_CASTLE[2 * i + 1] = Z_CASTLE_HI[i]!;
}
for (let i = 0; i < 8; i++) {
  Z_EP[2 * i] = Z_EP_LO[i]!;
  Z_EP[2 * i + 1] = Z_EP_HI[i]!;
}

/** A key as 16 lower-case hex digits, as Polyglot tools print it. */
export function keyToHex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/** A key as an unsigned BigInt, for the API edge. */
export function keyToBigInt(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

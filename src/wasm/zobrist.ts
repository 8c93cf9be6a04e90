/** Port of src/core/zobrist.ts: Polyglot keys as u64, indexed by our piece code. */
import { POLYGLOT_RANDOM } from './polyglotKeys';

/** Piece keys at piece * 64 + square (piece code 0 has zero keys). */
export const Z_PIECE = new StaticArray<u64>(16 * 64);
/** Castling keys for every 4-bit rights mask. */
export const Z_CASTLE = new StaticArray<u64>(16);
/** En-passant keys by file. */
export const Z_EP = new StaticArray<u64>(8);
/** XORed in when White is to move. */
export const Z_TURN: u64 = POLYGLOT_RANDOM[780];

for (let color = 0; color < 2; color++) {
  for (let type = 1; type <= 6; type++) {
    const kind = 2 * (type - 1) + (color == 0 ? 1 : 0);
    for (let sq = 0; sq < 64; sq++) Z_PIECE[((color * 8 + type) << 6) | sq] = POLYGLOT_RANDOM[64 * kind + sq];
  }
}
for (let mask = 0; mask < 16; mask++) {
  let k: u64 = 0;
  for (let i = 0; i < 4; i++) if (mask & (1 << i)) k ^= POLYGLOT_RANDOM[768 + i];
  Z_CASTLE[mask] = k;
}
for (let f = 0; f < 8; f++) Z_EP[f] = POLYGLOT_RANDOM[772 + f];

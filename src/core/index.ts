/** The browser-safe integer core: position, move generation, keys, perft. */
export * from './types.js';
export * from './move.js';
export * from './bitboard.js';
export { Position, WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO } from './position.js';
export { setupPosition, SetupError, type Setup } from './setup.js';
export { generateLegal, legalMoves, isLegal, countLegal } from './movegen.js';
export { perft, divide } from './perft.js';
export { keyToHex, keyToBigInt } from './zobrist.js';
export { ok, err, unwrap, ParseError, type Result } from './result.js';

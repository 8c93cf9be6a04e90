/** Text formats over the core: FEN, SAN, UCI, EPD. */
export * from './fen.js';
export * from './san.js';
export * from './uci.js';
export * from './epd.js';
export * from './moveList.js';

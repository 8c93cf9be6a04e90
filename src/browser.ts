/**
 * The package for a browser (`tabiya/browser`): what runs without Node: the board, notation,
 * the PGN parser and game trees, Polyglot and rich books read from bytes, book policies, the
 * statistics and the match runner (its engines' transport is the caller's: a Worker, a socket). The package root adds the Node adapters (files, threads, processes), which a
 * bundler for the browser cannot resolve; test/browser-bundle.test.ts bundles this entry with
 * esbuild for the browser.
 */
export { Board, type MoveInfo, type Outcome, type OutcomeOptions, type Termination } from './board.js';
export * as core from './core/index.js';
export * as notation from './notation/index.js';
export { STARTING_FEN, parseFen, makeFen, positionFromFen } from './notation/fen.js';
export { parseSan, makeSan } from './notation/san.js';
export { parseUci, makeUci } from './notation/uci.js';
export { Position } from './core/position.js';
export { perft } from './core/perft.js';
export { unwrap, ParseError, type Result } from './core/result.js';
export * as pgn from './pgn/browser.js';
export { parsePgn, readGames, writeGame, type PgnVisitor, type PgnGame } from './pgn/browser.js';
export * as stats from './stats/index.js';
export * as book from './book/browser.js';
export { PolyglotReader, seededRandom, type BookMove } from './book/browser.js';
export * as bookPolicy from './book/select/index.js';
export * as richBook from './book/rich/index.js';
export { RichBook, TbkBook, type RichMove, type RichEntry } from './book/rich/index.js';
export * as match from './match/index.js';

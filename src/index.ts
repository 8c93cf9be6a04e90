/**
 * tabiya: chess core, notation, books, engine, match runner and tuner.
 * The package root exports the friendly API; subpaths export the layers.
 */
export { Board, type MoveInfo, type Outcome, type OutcomeOptions, type Termination } from './board.js';
export * as core from './core/index.js';
export * as notation from './notation/index.js';
export { STARTING_FEN, parseFen, makeFen, positionFromFen } from './notation/fen.js';
export { parseSan, makeSan } from './notation/san.js';
export { parseUci, makeUci } from './notation/uci.js';
export { Position } from './core/position.js';
export { perft } from './core/perft.js';
export * as pgn from './pgn/index.js';
export { readPgn, parsePgn, readGames, writeGame, type PgnVisitor, type PgnGame } from './pgn/index.js';
export * as stats from './stats/index.js';
export * as tune from './tune/index.js';
export * as match from './match/index.js';
export { spawnEngine } from './node/engineProcess.js';
export { openEngine, type OpenEngineOptions, type UciEngine, type EnginePosition, type EngineMove } from './node/openEngine.js';
export * as book from './book/index.js';
export { PolyglotReader, openBook, makeBook, seededRandom, type BookMove } from './book/index.js';
export * as bookPolicy from './book/select/index.js';
export * as richBook from './book/rich/index.js';
export { RichBook, TbkBook, type RichMove, type RichEntry } from './book/rich/index.js';
export { openAnyRichBook, type AnyRichBook } from './book/node/openTbk.js';
export { unwrap, ParseError, type Result } from './core/result.js';
export { openRichBook, updateRichBook, patchRichBook, withBookLock, writeBookFile, type OpenedRichBook } from './book/node/richFile.js';
export { learnGame, learnGameSync, learnFromPgn, type LearnGameOptions } from './book/node/richLearn.js';
export { makeRichBook, addToRichBook, type RichMakeOptions, type RichMakeSummary } from './book/node/richMake.js';

/**
 * PGN: the streaming push parser and its visitor contract, game trees, the export-format
 * writer, filters, statistics and comment commands. Browser-safe; `readPgn` loads the Node file
 * adapter only when given paths.
 */
export * from './browser.js';
export { readPgn, type PgnSource, type PgnProgress, type PgnReadSummary, type ReadPgnOptions } from './reader.js';

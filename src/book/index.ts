/**
 * Opening books. Polyglot `.bin`: reading (in memory or on disk), choosing a move, making a book
 * from PGN byte-identical to polyglot make-book, merging, dumping lines, statistics.
 *
 *     const book = await openBook('book.bin');
 *     const move = await book.choose(board.position, { policy: 'weighted', random: seededRandom(1) });
 *
 * Everything from `./polyglot/` is browser-safe (an ArrayBuffer in, no I/O); `./node/` holds
 * the file and thread adapters.
 */
export { ENTRY_SIZE, MAX_WEIGHT, encodeMove, decodeMove, compareKeys, splitLearn, type RawEntry } from './polyglot/format.js';
export { PolyglotReader, sniffNonBook } from './polyglot/reader.js';
export { BookError, bookMoves, bestMove, chooseMove, seededRandom, type BookMove, type Policy, type ProbeOptions, type ChooseOptions } from './polyglot/select.js';
export { encodeBook, parseKeyHex, type EntryInput } from './polyglot/writer.js';
export { BookAccumulator, COUNT_MAX, type MakeOptions, type FinishedBook } from './polyglot/make.js';
export { BookGameVisitor, type GameSink } from './polyglot/collect.js';
export { mergeBooks, MemoryCursor, EntrySink, type EntryCursor, type MergeOptions, type MergeStats } from './polyglot/merge.js';
export { dumpLines, countLines, formatLineCounts, type LineCounts } from './polyglot/lines.js';
export { bookInfo, type BookInfo } from './polyglot/info.js';
export { openBook, loadBook, type Book, type OpenOptions } from './node/openBook.js';
export { makeBook, type MakeBookOptions, type MakeBookSummary } from './node/makeBook.js';
export { mergeFiles } from './node/mergeFiles.js';
export { DEFAULT_BOOK, DEFAULT_GAMES, DEFAULT_BOOK_OPTIONS } from './node/defaultBook.js';

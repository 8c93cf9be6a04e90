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
export * from './browser.js';
export { openBook, loadBook, type Book, type OpenOptions } from './node/openBook.js';
export { makeBook, type MakeBookOptions, type MakeBookSummary } from './node/makeBook.js';
export { mergeFiles } from './node/mergeFiles.js';
export { DEFAULT_BOOK, DEFAULT_GAMES, DEFAULT_BOOK_OPTIONS } from './node/defaultBook.js';

/** Polyglot books from bytes (`./polyglot/`), without the file and thread adapters of `./node/`: for `tabiya/browser`. */
export { ENTRY_SIZE, MAX_WEIGHT, encodeMove, decodeMove, compareKeys, splitLearn, type RawEntry } from './polyglot/format.js';
export { PolyglotReader, sniffNonBook } from './polyglot/reader.js';
export { BookError, bookMoves, bestMove, chooseMove, seededRandom, positionOf, type BookMove, type Policy, type Probed, type ProbeOptions, type ChooseOptions } from './polyglot/select.js';
export { encodeBook, parseKeyHex, type EntryInput } from './polyglot/writer.js';
export { BookAccumulator, COUNT_MAX, type MakeOptions, type FinishedBook } from './polyglot/make.js';
export { BookGameVisitor, type GameSink } from './polyglot/collect.js';
export { mergeBooks, MemoryCursor, EntrySink, type EntryCursor, type MergeOptions, type MergeStats } from './polyglot/merge.js';
export { dumpLines, countLines, formatLineCounts, type LineCounts } from './polyglot/lines.js';
export { bookInfo, type BookInfo } from './polyglot/info.js';

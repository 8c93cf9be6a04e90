/**
 * Rich opening books (`.tbk`): per (position, move) the fixed W/D/L from games, ratings,
 * dynamic W/D/L from the engine's own games, a user value and PostBook records, in a sorted
 * binary file looked up by binary search (format.ts), exportable to Polyglot byte for byte.
 * Browser-safe: bytes in, bytes out. Files, locking and crash-safe writes are in
 * `src/book/node/richFile.ts`.
 *
 *     const book = unwrap(RichBook.open(bytes, 'book.tbk'));
 *     for (const m of book.probe(pos)) console.log(m.move, m.wins, m.draws, m.losses, m.userValue);
 */
export { USER_UNSET, type RichMove } from './types.js';
export { TBK_MAGIC, TBK_VERSION, HEADER_SIZE, ENTRY_SIZE, FLAG_EXACT, FLAG_IMPORTED, FLAG_MERGED, crc32, bookChecksum, exportKind, type Crc32, type RichHeader } from './format.js';
export { RichBook, memorySource, decodeEntry, type ByteSource, type RichEntry } from './reader.js';
export { TbkBook } from './tbkBook.js';
export type { BookEntry } from './bookMoves.js';
export { RichTable } from './table.js';
export { encodeBook, hasData, type BookInfo } from './writer.js';
export { loadTable } from './load.js';
export { RichGameVisitor, rating } from './build.js';
export { exportPolyglot, type ExportOptions, type ExportResult } from './export.js';
export { importPolyglot, positionFree, type ImportResult } from './import.js';
export { mergeRich, type MergeResult } from './merge.js';
export { AnnotateVisitor, parseUserValue, nagValue, setUserValue, type UserValue, type AnnotateStats } from './annotate.js';
export { learnInto, type LearnInput, type LearnOptions, type LearnReport, type LearnTarget } from './learn.js';
export { BookPatch } from './patch.js';

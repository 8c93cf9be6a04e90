/**
 * The engine's book file, opened by what it is: a `.tbk` rich book (by extension, or by its
 * magic whatever its name) plays through the book policy with every statistic and learns from
 * finished games; anything else is read as a Polyglot `.bin`. Errors name the file.
 *
 * Learning goes through the book's learning API (src/book/node/richLearn.ts: one crash-safe
 * change of the file under its lock per game), then the engine opens the new version; the
 * engine's own moves learn, the opponent's do not.
 */
import { readFileSync, statSync } from 'node:fs';
import { PolyglotReader, emptyWarning } from '../book/polyglot/reader.js';
import { BookError } from '../book/polyglot/select.js';
import { isRichBookFile } from '../book/node/richFile.js';
import { openAnyRichBook } from '../book/node/openTbk.js';
import { learnGameSync } from '../book/node/richLearn.js';
import { polyglotSource, type BookSource } from '../engine/bookProbe.js';
import { RichBookSource } from '../engine/richBookSource.js';
import { bookReadError } from '../book/node/openBook.js';
import { DiskBook } from '../book/node/diskBook.js';

/** Books up to this size are read whole (and their order checked at once); larger ones are searched on disk. */
const MEMORY_LIMIT = 64 * 1024 * 1024;

/** Opens a Polyglot book (read whole up to 64 MiB, else on disk); errors name the file. */
export function loadPolyglotFile(path: string): BookSource & { close(): void } {
  let bytes: Uint8Array;
  try {
    if (statSync(path).size > MEMORY_LIMIT) return diskSource(new DiskBook(path));
    bytes = readFileSync(path);
  } catch (e) {
    throw e instanceof BookError ? e : bookReadError(path, e);
  }
  const r = PolyglotReader.from(bytes, path);
  if (!r.ok) throw r.error;
  // An empty book is valid but never what an engine was given a book for: said, not silent.
  if (r.value.size === 0) throw new BookError('ERR_BOOK_EMPTY', emptyWarning(path), path);
  return { ...polyglotSource(r.value), close: () => {} };
}

function diskSource(book: DiskBook): BookSource & { close(): void } {
  return { ...polyglotSource(book), close: () => book.close() };
}

/** Opens a rich book as the engine's source, learning into the same file. */
export function loadRichFile(path: string): RichBookSource {
  let opened = openAnyRichBook(path);
  return new RichBookSource(opened, {
    learn: (game) => {
      // A game the engine did not play a side of (analysis, force mode) teaches nothing.
      if (game.engineColor === 0 || game.engineColor === 1) learnGameSync(path, game);
    },
    reopen: () => {
      const next = openAnyRichBook(path);
      opened.close();
      opened = next;
      return next;
    },
    close: () => opened.close(),
  });
}

/**
 * The engine's BookLoader: `.tbk` (or a file with the `.tbk` magic) as a rich book, else Polyglot.
 * Every reader checks what it reads (a `.tbk` read whole has its checksum verified), so a damaged
 * book fails here, and the engine reports it and plays on without a book.
 */
export function loadEngineBook(path: string): BookSource {
  try {
    if (/\.tbk$/i.test(path) || isRichBookFile(path)) return loadRichFile(path);
    return loadPolyglotFile(path);
  } catch (e) {
    throw new Error(`${(e as Error).message}; playing without a book`);
  }
}

/**
 * Opens a book file for one look (xboard `bk`): the file as it is now, including what the
 * engine's search thread has learned into it since it started; close it when done.
 */
export function openBookForReading(path: string): { source: BookSource; close(): void } {
  if (/\.tbk$/i.test(path) || isRichBookFile(path)) {
    const opened = openAnyRichBook(path);
    return { source: new RichBookSource(opened), close: () => opened.close() };
  }
  const source = loadPolyglotFile(path);
  return { source, close: () => source.close() };
}

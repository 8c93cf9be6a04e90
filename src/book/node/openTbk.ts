/**
 * Opening a `.tbk` of either version for reading, as the engine and the read-only commands
 * need it: a version 2 book through positional reads (sections checked as they are read), a
 * version 1 book as before (read whole and checked when it is small).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { tbkVersion } from '../rich/container.js';
import type { BookMoves } from '../rich/bookMoves.js';
import type { RichBook, RichEntry } from '../rich/reader.js';
import { isOpenFilter, type SplitFilter } from '../rich/splits.js';
import { TbkBook, VERIFY_WHOLE_BYTES } from '../rich/tbkBook.js';
import { BookError, type Probed } from '../polyglot/select.js';
import { fastCrc32, openRichBook } from './richFile.js';
import { FileReader } from './tbkFile.js';

/** An open rich book of either version. */
export interface AnyRichBook {
  readonly name: string;
  version: 1 | 2;
  v1?: RichBook;
  v2?: TbkBook;
  /** The book moves of a position (legal there), under a split filter (version 2 only). */
  probe(pos: Probed, filter?: SplitFilter): RichEntry[];
  /** The same into typed arrays, without an object a move (version 2 only: bookMoves.ts); returns their number. */
  probeMoves?(pos: Probed, out: BookMoves, filter?: SplitFilter): number;
  close(): void;
}

/** The format version of a .tbk file (undefined: not a .tbk, or unreadable). */
export function tbkFileVersion(path: string): number | undefined {
  try {
    const fd = openSync(path, 'r');
    try {
      const head = new Uint8Array(16);
      readSync(fd, head, 0, 16, 0);
      return tbkVersion(head);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * The page cache of a book opened to be probed (the engine, the explorer, `book probe`, `book
 * audit`): 256 MiB at most, and no more than the file. A probe of a position seen in one game
 * reads pages in three or four places of the file (its block, the single-position index, the
 * game's record and moves), so a cache smaller than the parts of the book being probed keeps
 * reading the same pages again; the memory is taken only as pages are read (pageCache.ts).
 * Commands that read a book through (merge, add, export) keep FileReader's smaller default.
 */
/** A version 2 book up to this size has every section's CRC-32 checked when it is opened to be probed. */
export { VERIFY_WHOLE_BYTES };

export const PROBE_CACHE_BYTES = 256 * 2 ** 20;

/** Opens a `.tbk` of either version to probe it; errors are BookErrors naming the file. */
export function openAnyRichBook(path: string, opts: { cacheBytes?: number } = {}): AnyRichBook {
  if (tbkFileVersion(path) === 2) {
    const file = new FileReader(path, opts.cacheBytes ?? PROBE_CACHE_BYTES);
    const r = TbkBook.open(file, path, fastCrc32);
    if (!r.ok) {
      file.close();
      throw r.error;
    }
    const book = r.value;
    // A book small enough to read whole is checked whole, as a version 1 book of up to 64 MiB is
    // (docs/rich-books.md, "Damaged books"): a probe reads the games, moves and single-position
    // sections without their CRC-32, so a flipped byte there turned a won game into a drawn one or
    // lost a position seen in one game, with no error. 64 MiB cost about 15 ms (fastCrc32).
    if (file.size <= VERIFY_WHOLE_BYTES) {
      const v = book.verify(fastCrc32);
      if (!v.ok) {
        file.close();
        throw v.error;
      }
    }
    // A shard's book holds its rows as one run to be merged, not positions to probe: probing it
    // would find nothing and say "no book moves" of a book that has games.
    if (book.partial) {
      file.close();
      throw new BookError('ERR_BOOK_PARTIAL', `${path}: a partial book (one shard of a sharded build): merge the shards with book merge first`);
    }
    return {
      name: path,
      version: 2,
      v2: book,
      probe: (pos, filter) => book.probe(pos, filter),
      probeMoves: (pos, out, filter) => book.probeMoves(pos, out, filter),
      close: () => file.close(),
    };
  }
  const { book, close } = openRichBook(path);
  return {
    name: book.name,
    version: 1,
    v1: book,
    probe(pos, filter) {
      if (filter !== undefined && !isOpenFilter(filter)) throw new BookError('ERR_TBK_SPLIT', `${path}: a version 1 book keeps no splits (rebuild it with book make --split ...)`);
      return book.probe(pos);
    },
    close,
  };
}

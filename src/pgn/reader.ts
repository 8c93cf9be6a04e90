/**
 * `readPgn`: the entry point for reading PGN in Node. Files (plain, gzip, zstd, bzip2), stdin ('-') or
 * any chunk sources are streamed one after another through one PgnParser, so memory stays flat
 * whatever their size; the visitor sees every game and every broken game (with its location).
 *
 *     const summary = await readPgn(['a.pgn', 'b.pgn.gz'], {
 *       tag(name, value) { … },
 *       move(pos, move, ply) { … },
 *       endGame(result) { … },
 *       error(e) { console.error(`${e.file}:${e.line}:${e.column}: game ${e.game}: ${e.message}`); },
 *     });
 */
import { DecompressorMissingError } from './compression.js';
import { PgnParser, type PgnParserOptions } from './parser.js';
import type { PgnErrorKind, PgnVisitor } from './visitor.js';

/** A named stream of PGN bytes (files come from `openPgnFile` in nodeSource.ts). */
export interface PgnSource {
  /** Name used in error locations. */
  name: string;
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Raw size in bytes when known (compressed size for .gz), for progress. */
  size?: number;
  /** Raw bytes read so far. */
  bytesRead?(): number;
}

export interface PgnProgress {
  /** Raw bytes read over all sources, and their total when known (0 if not). */
  bytes: number;
  totalBytes: number;
  games: number;
  errors: number;
}

export interface ReadPgnOptions extends PgnParserOptions {
  /** Called after every chunk (cheap; throttle in the callback). */
  onProgress?(p: PgnProgress): void;
}

export interface PgnReadSummary {
  /** Games read cleanly. */
  games: number;
  /** Broken games reported and skipped. */
  errors: number;
  errorsByKind: Partial<Record<PgnErrorKind, number>>;
  files: number;
  /** Sources that could not be read to their end (damaged gzip, read error), with why. */
  unreadable: { name: string; message: string }[];
  /** Sources that held no game at all, valid or broken (empty, or no PGN in them). */
  withoutGames: string[];
  /** Decompressed bytes parsed. */
  bytes: number;
  seconds: number;
}

/**
 * Reads PGN sources in order: paths ('-' for stdin; Node only) or PgnSource objects (anywhere,
 * e.g. a browser's `file.stream()`).
 */
export async function readPgn(sources: string | readonly (string | PgnSource)[], visitor: PgnVisitor, options: ReadPgnOptions = {}): Promise<PgnReadSummary> {
  const list = typeof sources === 'string' ? [sources] : sources;
  const started = performance.now();
  // Files are opened by the Node adapter, loaded only when paths are given; all are opened
  // first, so a missing file stops the run before anything is read.
  const node = list.some((s) => typeof s === 'string') ? await import('./nodeSource.js') : undefined;
  const opened = list.map((s) => (typeof s === 'string' ? node!.openPgnFile(s) : s));
  const totalBytes = opened.reduce((n, s) => n + (s.size ?? 0), 0);
  const parser = new PgnParser(visitor, options);
  let bytes = 0;
  let doneBefore = 0;
  const unreadable: { name: string; message: string }[] = [];
  const withoutGames: string[] = [];
  for (const source of opened) {
    const gamesBefore = parser.games + parser.errors;
    parser.begin(source.name);
    const it = Symbol.asyncIterator in source.chunks ? source.chunks[Symbol.asyncIterator]() : source.chunks[Symbol.iterator]();
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await it.next();
      } catch (e) {
        // A missing decompressor program would fail every compressed input alike: stop the run.
        if (e instanceof DecompressorMissingError) throw e;
        // A damaged compressed file or a read error ends this file, not the run; the caller decides whether the run failed.
        const message = `cannot read the rest of ${source.name}: ${e instanceof Error ? e.message : String(e)}`;
        unreadable.push({ name: source.name, message });
        parser.abortFile(message);
        break;
      }
      if (next.done === true) break;
      const chunk = next.value;
      bytes += chunk.length;
      try {
        parser.push(chunk);
      } catch (e) {
        // The visitor's own failure (an output that cannot be written) is not the input's: it
        // ends the run as it is, once the input is closed.
        await it.return?.();
        throw e;
      }
      options.onProgress?.({
        bytes: doneBefore + (source.bytesRead?.() ?? 0),
        totalBytes,
        games: parser.games,
        errors: parser.errors,
      });
    }
    parser.end();
    if (parser.games + parser.errors === gamesBefore) withoutGames.push(source.name);
    doneBefore += source.size ?? 0;
  }
  return {
    games: parser.games,
    errors: parser.errors,
    errorsByKind: parser.errorsByKind,
    files: opened.length,
    unreadable,
    withoutGames,
    bytes,
    seconds: (performance.now() - started) / 1000,
  };
}

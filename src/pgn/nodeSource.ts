/**
 * Node adapter: PGN files and stdin ('-') as a stream of byte chunks, plain or compressed
 * (gzip, zstd, bzip2: recognised by their magic bytes, whatever the name; see compression.ts),
 * with a count of raw bytes read for progress bars.
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { detectCompression, MAGIC_BYTES, type Compression } from './compression.js';
import { decompressWithProgram, requireDecompressor, type InputProgress } from './decompressProgram.js';
import { gunzipMembers } from './gunzip.js';
import type { PgnSource } from './reader.js';

export type { PgnSource } from './reader.js';

const CHUNK = 1 << 18;

/**
 * Opens a file (or stdin for '-'); throws if it does not exist, or if it is compressed with a
 * format whose program is not installed (stdin finds that out when it is read).
 */
export function openPgnFile(path: string): PgnSource {
  const size = path === '-' ? 0 : statSync(path).size;
  if (path !== '-') {
    const compression = fileCompression(path);
    if (compression !== undefined && compression !== 'gzip') requireDecompressor(path, compression);
  }
  const progress: InputProgress = { bytes: 0, ended: false };
  const raw: Readable = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: CHUNK });
  return { name: path, size, chunks: decompressed(path, raw, progress), bytesRead: () => progress.bytes };
}

/**
 * The compression of a file, told by its first bytes (undefined for plain PGN); throws if it cannot be read.
 * A pipe, FIFO or device (`<(zstdcat x.pgn.zst)`, `mkfifo`) is not opened here: reading its first
 * bytes would take them from the parser (and a positional read fails with ESPIPE), and opening a
 * FIFO without a writer blocks the thread where no signal can end it; the stream tells its
 * compression by the first chunk, as for standard input.
 */
export function fileCompression(path: string): Compression | undefined {
  if (!statSync(path).isFile()) return undefined;
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(MAGIC_BYTES);
    return detectCompression(head.subarray(0, readSync(fd, head, 0, MAGIC_BYTES, 0)));
  } finally {
    closeSync(fd);
  }
}

/** The raw chunks, counted as they are read; the first holds at least MAGIC_BYTES (unless the input is shorter). */
async function* counted(it: AsyncIterator<Uint8Array>, progress: InputProgress): AsyncGenerator<Uint8Array> {
  // Bytes held back until the magic number can be read (stdin may come a byte at a time).
  let pending: Uint8Array | undefined = new Uint8Array(0);
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    progress.bytes += r.value.length;
    if (pending === undefined) {
      yield r.value;
      continue;
    }
    pending = pending.length === 0 ? r.value : Buffer.concat([pending, r.value]);
    if (pending.length >= MAGIC_BYTES) {
      yield pending;
      pending = undefined;
    }
  }
  progress.ended = true;
  if (pending !== undefined && pending.length > 0) yield pending;
}

async function* decompressed(name: string, raw: Readable, progress: InputProgress): AsyncGenerator<Uint8Array> {
  const input = counted(raw[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>, progress);
  try {
    const first = await input.next();
    if (first.done) return;
    const rest = prepend(first.value, input);
    const compression = detectCompression(first.value);
    if (compression === undefined) yield* rest;
    else if (compression === 'gzip') yield* gunzipMembers(rest, progress, CHUNK);
    else yield* decompressWithProgram(compression, name, rest, progress);
  } finally {
    raw.destroy();
  }
}

async function* prepend(head: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield head;
  for (;;) {
    const r = await rest.next();
    if (r.done) return;
    yield r.value;
  }
}

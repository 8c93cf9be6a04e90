/**
 * Node adapter: PGN files, stdin ('-') and gzip (recognised by its magic bytes, whatever the
 * name) as a stream of byte chunks, with a count of raw bytes read for progress bars.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { PgnSource } from './reader.js';

export type { PgnSource } from './reader.js';

const CHUNK = 1 << 18;

/** Opens a file (or stdin for '-'); throws if it does not exist. */
export function openPgnFile(path: string): PgnSource {
  const size = path === '-' ? 0 : statSync(path).size;
  const counter = { bytes: 0 };
  const raw: Readable = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: CHUNK });
  return { name: path, size, chunks: decompressed(raw, counter), bytesRead: () => counter.bytes };
}

async function* counted(head: Uint8Array, it: AsyncIterator<Uint8Array>, counter: { bytes: number }): AsyncGenerator<Uint8Array> {
  yield head;
  for (;;) {
    const r = await it.next();
    if (r.done) return;
    counter.bytes += r.value.length;
    yield r.value;
  }
}

async function* decompressed(raw: Readable, counter: { bytes: number }): AsyncGenerator<Uint8Array> {
  const it = raw[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const first = await it.next();
  if (first.done) return;
  const head = first.value;
  counter.bytes += head.length;
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = createGunzip({ chunkSize: CHUNK });
    const src = Readable.from(counted(head, it, counter), { objectMode: false });
    src.on('error', (e) => gunzip.destroy(e));
    src.pipe(gunzip);
    try {
      for await (const chunk of gunzip) yield chunk as Uint8Array;
    } finally {
      src.destroy();
      raw.destroy();
    }
    return;
  }
  try {
    yield* counted(head, it, counter);
  } finally {
    raw.destroy();
  }
}

/**
 * Where generated PGN goes: a `.zst` file through the zstd program, a `.gz` file through zlib,
 * any other name as plain PGN, `-` to stdout. Files are written under a temporary name and
 * renamed when complete, so an interrupted run leaves no half file under the real name.
 */
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { requireDecompressor } from '../../src/pgn/decompressProgram.js';

export interface Sink {
  write(bytes: Uint8Array): Promise<void>;
  /** Flushes, waits for the compressor, and renames the file into place. */
  close(): Promise<void>;
  /** Removes the temporary file after a failure. */
  abort(): void;
}

/** Opens `out`; `level` is the zstd or gzip level. */
export function openSink(out: string, level: number | undefined): Sink {
  if (out === '-') return streamSink(process.stdout, async () => {}, () => {});
  const temp = `${out}.${process.pid}.tmp`;
  const finish = (): void => renameSync(temp, out);
  const remove = (): void => rmSync(temp, { force: true });
  if (out.endsWith('.zst')) {
    // The same program reads these files (src/pgn/compression.ts): check it is there before any work.
    const zstd = requireDecompressor(out, 'zstd');
    const fd = openSync(temp, 'w');
    const child = spawn(zstd, ['-q', `-${level ?? 3}`, '-T1', '-c'], { stdio: ['pipe', fd, 'pipe'] });
    closeSync(fd);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => void (stderr += s));
    const exited = new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    return streamSink(
      child.stdin!,
      async () => {
        const code = await exited;
        if (code !== 0) throw new Error(`zstd failed (exit status ${code}): ${stderr.trim()}`);
        finish();
      },
      () => {
        child.kill();
        remove();
      },
    );
  }
  const file = createWriteStream(temp);
  if (out.endsWith('.gz')) {
    const gzip = createGzip({ level: level ?? 6 });
    gzip.pipe(file);
    return streamSink(gzip, async () => void (await once(file, 'close'), finish()), remove);
  }
  return streamSink(file, async () => void (await once(file, 'close'), finish()), remove);
}

function streamSink(stream: Writable, done: () => Promise<void>, abort: () => void): Sink {
  let failed: Error | undefined;
  stream.on('error', (e) => void (failed = e));
  return {
    async write(bytes) {
      if (failed) throw failed;
      if (!stream.write(bytes)) await drained(stream);
      if (failed) throw failed;
    },
    async close() {
      if (stream !== process.stdout) stream.end();
      await done();
      if (failed) throw failed;
    },
    abort,
  };
}

/** Resolves when the stream drains or closes (whichever comes first; no listener left behind). */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

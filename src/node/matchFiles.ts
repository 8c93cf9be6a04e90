/**
 * File handling of `tabiya match`: reading opening suites (plain or compressed), and the two files
 * that grow as games finish, the PGN and the resume journal. Appends go through one queue so
 * game texts never interleave, and sizes are tracked so a resume can cut a torn tail.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, truncateSync, writeSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { WriteError, ioReason } from '../book/node/atomicWrite.js';
import { detectCompression, MAGIC_BYTES } from '../pgn/compression.js';
import { decompressSync } from '../pgn/decompressProgram.js';

/** A file's bytes, decompressed when its first bytes say gzip, zstd or bzip2 (src/pgn/compression.ts). */
export function readMaybeCompressed(file: string): Buffer {
  const raw = readFileSync(file);
  const compression = detectCompression(raw.subarray(0, MAGIC_BYTES));
  if (compression === undefined) return raw;
  return compression === 'gzip' ? gunzipWhole(file, raw) : decompressSync(compression, file, raw);
}

/**
 * A gzip file's bytes, every member. Node's gunzip reads member after member but stops without
 * a word at a zero byte where the next member would start (zero padding, which `gzip -d` also
 * skips), so a member after padding was lost; `bytesWritten` says where it stopped, and
 * anything but zeros after that point is an error naming its offset, as the streaming reader
 * (src/pgn/gunzip.ts) says it. Junk that is not zeros is already a zlib error.
 */
function gunzipWhole(file: string, raw: Buffer): Buffer {
  const r = gunzipSync(raw, { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
  const end = r.engine.bytesWritten;
  const more = raw.subarray(end).findIndex((b) => b !== 0);
  if (more >= 0) throw new Error(`${file}: gzip: more data at offset ${end + more}, after zero padding that follows the gzip data at offset ${end}: not read`);
  return r.buffer;
}

/**
 * A file's bytes, decompressed when needed, for a command that reads it whole; a file that
 * cannot be read or decompressed is an Error whose message starts with the file's name.
 */
export function readInputFile(file: string): Buffer {
  try {
    return readMaybeCompressed(file);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/^Z_/.test(String((e as NodeJS.ErrnoException).code))) throw new Error(`${file}: damaged gzip data (${message})`);
    // decompressSync and a missing program already name the file.
    throw new Error(message.startsWith(file) ? message : `${file}: cannot read: ${ioReason(e)}`);
  }
}

/** A file's text (UTF-8), decompressed when needed. */
export function readTextMaybeCompressed(file: string): string {
  return readMaybeCompressed(file).toString('utf8');
}

/**
 * A file appended to as the match goes. Each append is one synchronous write of a few
 * kilobytes (well under a millisecond), done between games, so a crash of the runner loses
 * no finished game and the writes never interleave.
 */
export class AppendFile {
  private fd: number;
  size: number;

  constructor(
    readonly path: string,
    opts: { truncateTo?: number; fresh?: boolean } = {},
  ) {
    try {
      if (opts.fresh) {
        this.fd = openSync(path, 'w');
        this.size = 0;
        return;
      }
      if (opts.truncateTo !== undefined && existsSync(path) && statSync(path).size > opts.truncateTo) truncateSync(path, opts.truncateTo);
      this.fd = openSync(path, 'a');
      this.size = statSync(path).size;
    } catch (e) {
      throw new WriteError(`${path}: cannot write: ${ioReason(e)}`);
    }
  }

  append(text: string): number {
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
    } catch (e) {
      throw new WriteError(`${this.path}: cannot write: ${ioReason(e)}`);
    }
    this.size += buf.length;
    return this.size;
  }

  /**
   * Makes a non-empty file end with an empty line, so that what is appended next starts on a line
   * of its own: a PGN whose last game lacks its final newline would otherwise get the next game's
   * first tag glued to its result (`1-0[Event "?"]`), which is not export format.
   */
  endParagraph(): void {
    if (this.size === 0) return;
    const tail = Buffer.alloc(4);
    let n: number;
    try {
      const fd = openSync(this.path, 'r');
      try {
        n = readSync(fd, tail, 0, tail.length, Math.max(0, this.size - tail.length));
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw new WriteError(`${this.path}: cannot read: ${ioReason(e)}`);
    }
    const end = tail.subarray(0, n).toString('latin1');
    if (/\n\r?\n$/.test(end) || end === '\n' || end === '\r\n') return;
    this.append(/\n$/.test(end) ? '\n' : '\n\n');
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

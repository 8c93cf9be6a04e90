/**
 * Telling a text input (PGN, EPD, labelled positions) from a file that cannot be one: a
 * directory, a binary file (a Polyglot book, an executable), a UTF-16 export, or damaged gzip
 * (zstd and bzip2 inputs are checked as they are decompressed).
 * Checked before anything is parsed, so the user gets one error naming the file and the line
 * instead of thousands of "unreadable line" reports, garbage echoed back, or a silent zero.
 *
 * The binary test is the one grep and git use: text never holds a NUL byte, and every binary
 * format we meet (Polyglot entries, .tbk headers, ELF, zip) has one within its first bytes.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { constants, gunzipSync } from 'node:zlib';
import { detectCompression } from '../pgn/compression.js';
import { ioReason } from '../book/node/atomicWrite.js';

/** Bytes of a file looked at before reading it (compressed bytes for gzip). */
const SNIFF_BYTES = 1 << 14;

/** Why some bytes are not text: what is wrong and on which 1-based line. */
export interface NotText {
  line: number;
  message: string;
}

/** Why `bytes` (the start of a file, or all of it) are not text, or undefined when they may be. */
export function notText(bytes: Uint8Array, what: string): NotText | undefined {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { line: 1, message: `UTF-16 text, not ${what} (save it as UTF-8)` };
  }
  const nul = bytes.indexOf(0);
  if (nul < 0) return undefined;
  let line = 1;
  for (let i = 0; i < nul; i++) if (bytes[i] === 0x0a) line++;
  return { line, message: `binary data (a NUL byte at byte ${nul + 1}), not ${what}` };
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Why the file at `path` cannot be read as `what` (e.g. "PGN text"), as a message that starts
 * with the path; undefined when it looks readable. Standard input (`-`), pipes and devices pass
 * unread: sniffing would consume what the parser must see.
 */
export function textInputProblem(path: string, what: string): string | undefined {
  if (path === '-') return undefined;
  let isFile: boolean;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return `${path}: is a directory, not ${what}`;
    isFile = st.isFile();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot read: ${ioReason(e)}`;
  }
  if (!isFile) return undefined;
  let head: Uint8Array;
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(SNIFF_BYTES);
      head = buf.subarray(0, readSync(fd, buf, 0, SNIFF_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return `${path}: cannot read: ${ioReason(e)}`;
  }
  // zstd and bzip2 are decompressed by a program as the file is read (src/pgn/compression.ts):
  // what they hold is checked there, and damage is reported naming the file.
  const kind = detectCompression(head);
  if (kind === 'zstd' || kind === 'bzip2') return undefined;
  if (isGzip(head)) {
    try {
      // A sync flush returns what the bytes read so far decompress to, without needing the end.
      head = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch (e) {
      return `${path}: damaged gzip data (${(e as Error).message})`;
    }
  }
  const bad = notText(head, what);
  return bad && `${path}:${bad.line}: ${bad.message}`;
}

/**
 * One shard of a sharded build (`book make INPUTS --shard I/N -o part-I.tbk`): the games that
 * shard I of N reads, so that the N partial books, merged in order (`book merge part-*.tbk`),
 * are the book a single build of all INPUTS writes. The shards must read the games in their
 * order: with at least N inputs, shard I reads a contiguous block of them; with one plain
 * (uncompressed) PGN file, shard I reads the I-th of N byte ranges, each starting and ending
 * at a game's start (a line beginning with "[" after an empty line, as export-format PGN and
 * the Lichess dumps separate games; LF, CRLF or CR line ends), so every shard computes the same cuts and every game is
 * read by exactly one shard.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { PgnSource } from '../../pgn/reader.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { BookError } from '../polyglot/select.js';
import { MAGIC_BYTES, detectCompression } from '../../pgn/compression.js';

export interface Shard {
  index: number;
  count: number;
}

/** Parses "I/N" (0 ≤ I < N). */
export function parseShard(s: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(s);
  if (m === null) return `"${s}" is not I/N (for example 0/4)`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > 65536) return `${count} shards: give 1 to 65536`;
  if (index >= count) return `shard ${index} of ${count}: shards are numbered 0 to ${count - 1}`;
  return { index, count };
}

/** What shard I of N reads: a block of the inputs, or a byte range of the only one. */
export type ShardInputs = { kind: 'files'; files: string[] } | { kind: 'range'; file: string; start: number; end: number };

export function shardInputs(files: readonly string[], shard: Shard): ShardInputs {
  if (files.length >= shard.count) {
    const from = Math.floor((shard.index * files.length) / shard.count);
    const to = Math.floor(((shard.index + 1) * files.length) / shard.count);
    return { kind: 'files', files: files.slice(from, to) };
  }
  if (files.length !== 1) {
    throw new BookError('ERR_BOOK_SHARD', `${shard.count} shards of ${files.length} inputs: give at least ${shard.count} inputs, or one plain PGN file to cut into byte ranges`);
  }
  const file = files[0]!;
  if (file === '-') throw new BookError('ERR_BOOK_SHARD', 'standard input cannot be cut into shards: give files');
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    const head = new Uint8Array(MAGIC_BYTES);
    readSync(fd, head, 0, MAGIC_BYTES, 0);
    if (detectCompression(head) !== undefined) {
      throw new BookError('ERR_BOOK_SHARD', `${file} is compressed: a compressed file cannot be cut into byte ranges; give ${shard.count} or more files (one per shard or more), or decompress it`);
    }
    const start = gameStartAtOrAfter(fd, size, Math.floor((size * shard.index) / shard.count));
    const end = gameStartAtOrAfter(fd, size, Math.floor((size * (shard.index + 1)) / shard.count));
    return { kind: 'range', file, start, end };
  } finally {
    closeSync(fd);
  }
}

/** The offset of the first game that starts at or after `at` (the file's size when none does). */
function gameStartAtOrAfter(fd: number, size: number, at: number): number {
  if (at <= 0) return 0;
  if (at >= size) return size;
  const buf = new Uint8Array(1 << 16);
  // Look from two bytes back, so a game starting exactly at `at` ("\n\n[" ending there) is found
  // (not before byte 0: readSync reads from the file's current position when given -1).
  let pos = Math.max(0, at - 2);
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n < 3) return size;
    for (let i = 0; i + 2 < n; i++) {
      if (buf[i] === 0x0a && buf[i + 1] === 0x0a && buf[i + 2] === 0x5b && pos + i + 2 >= at) return pos + i + 2;
      // CRLF files: "\n\r\n["
      if (i + 3 < n && buf[i] === 0x0a && buf[i + 1] === 0x0d && buf[i + 2] === 0x0a && buf[i + 3] === 0x5b && pos + i + 3 >= at) return pos + i + 3;
      // Files with lone CR line ends (old Mac exports, which the reader takes): "\r\r["
      if (buf[i] === 0x0d && buf[i + 1] === 0x0d && buf[i + 2] === 0x5b && pos + i + 2 >= at) return pos + i + 2;
    }
    // This read reached the end: no game starts after `at`. (Stepping back 3 bytes from here
    // would read the same last 3 bytes again and again.)
    if (pos + n >= size) return size;
    pos += n - 3;
  }
}

/**
 * Places a broken game of the byte range from `start` in the whole file: its lines counted from
 * the file's first (those before the range are counted once, at the first error), so that
 * `file:line` opens on it; its game number stays the range's own, with `part` saying so (the
 * file's games before the range are not parsed, and a count of tag lines could be wrong).
 */
export function rangeLocator(file: string, start: number, part: string): (e: PgnGameError) => PgnGameError {
  let before: number | undefined;
  return (e) => {
    if (start === 0) return { ...e, file };
    before ??= linesBefore(file, start);
    const shift = before;
    const moved: PgnGameError = { ...e, file, line: e.line + shift, part };
    if (e.opened !== undefined) {
      moved.opened = e.opened + shift;
      moved.message = e.message.replace(`line ${e.opened}`, `line ${e.opened + shift}`);
    }
    return moved;
  };
}

/** Newlines in the first `end` bytes of `file`. */
function linesBefore(file: string, end: number): number {
  const fd = openSync(file, 'r');
  try {
    const buf = new Uint8Array(1 << 20);
    let lines = 0;
    for (let pos = 0; pos < end; ) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
      if (n === 0) break;
      for (let i = buf.indexOf(0x0a); i >= 0 && i < n; i = buf.indexOf(0x0a, i + 1)) lines++;
      pos += n;
    }
    return lines;
  } finally {
    closeSync(fd);
  }
}

/** A byte range of a plain PGN file as a source (named so that errors say which part). */
export function rangeSource(file: string, start: number, end: number): PgnSource {
  const counter = { bytes: 0 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const fd = openSync(file, 'r');
    try {
      for (let pos = start; pos < end; ) {
        const buf = new Uint8Array(Math.min(1 << 18, end - pos));
        const n = readSync(fd, buf, 0, buf.length, pos);
        if (n === 0) return;
        pos += n;
        counter.bytes += n;
        yield buf.subarray(0, n);
      }
    } finally {
      closeSync(fd);
    }
  }
  return { name: start === 0 ? file : `${file} (from byte ${start})`, size: end - start, chunks: chunks(), bytesRead: () => counter.bytes };
}

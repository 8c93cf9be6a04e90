/**
 * gzip input (RFC 1952) decompressed member by member: the headers and trailers are read here,
 * the deflate data of each member goes through zlib's raw inflate, and the CRC-32 and length in
 * each trailer are checked against what came out.
 *
 * Node's own gunzip stream handles several members too, but when bytes after a member are not
 * another member (trailing garbage: `gzip -d` says "decompression OK, trailing garbage
 * ignored") it reports a header error for the whole write, and the output zlib had already
 * decoded in that write (up to one output chunk, a few hundred games) is dropped with it; and
 * after a zero byte it stops reading without a word, so a member that follows zero padding is
 * lost silently. Here every member is read to its end and its output passed on before the
 * bytes after it are looked at, and anything after the last member but zero padding is an
 * error that names its byte offset.
 */
import { createInflateRaw, crc32 } from 'node:zlib';
import { decompressionError, type InputProgress } from './decompressProgram.js';

/** Header flags (RFC 1952 §2.3.1). */
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const RESERVED = 0xe0;

/** Compressed bytes read as needed, with a way to give back what a member did not use. */
class ByteInput {
  private held: Uint8Array[] = [];
  /** Offset in the input of the next byte `next` or `byte` returns. */
  offset = 0;

  constructor(private readonly it: AsyncIterator<Uint8Array>) {}

  /** The next chunk, or undefined at the end of the input. */
  async next(): Promise<Uint8Array | undefined> {
    let chunk = this.held.pop();
    if (chunk === undefined) {
      const r = await this.it.next();
      if (r.done === true) return undefined;
      chunk = r.value;
    }
    this.offset += chunk.length;
    return chunk;
  }

  /** Gives back the unread end of the last chunk. */
  unread(rest: Uint8Array): void {
    if (rest.length === 0) return;
    this.held.push(rest);
    this.offset -= rest.length;
  }

  /** The next byte, or -1 at the end of the input. */
  async byte(): Promise<number> {
    for (;;) {
      const chunk = await this.next();
      if (chunk === undefined) return -1;
      if (chunk.length === 0) continue;
      this.unread(chunk.subarray(1));
      return chunk[0]!;
    }
  }
}

/** The plain bytes of a gzip input, member after member. */
export async function* gunzipMembers(input: AsyncIterator<Uint8Array>, progress: InputProgress, chunkSize: number): AsyncGenerator<Uint8Array> {
  const src = new ByteInput(input);
  for (let member = 1; ; member++) {
    const start = src.offset;
    const first = await src.byte();
    if (first < 0) return;
    if (first === 0 && member > 1) {
      // Zero padding after the last member (blocked tape or disk writes): gzip and zlib skip it.
      // Anything after it is not: `gzip -d` drops it with a warning, Node's gunzip silently.
      let b = 0;
      while (b === 0) b = await src.byte();
      if (b < 0) return;
      throw new Error(`gzip: more data at offset ${src.offset - 1}, after zero padding that follows gzip member ${member - 1}: not read`);
    }
    const header = await readHeader(src, first);
    if (typeof header === 'string') {
      if (member === 1) throw decompressionError(`gzip: ${header}`, progress);
      throw new Error(`gzip: not gzip data at offset ${start}, after the end of gzip member ${member - 1} (${header}): trailing garbage or a damaged member, not read`);
    }
    let crc = 0;
    let size = 0;
    for await (const out of inflateRaw(src, progress, chunkSize)) {
      crc = crc32(out, crc);
      size += out.length;
      yield out;
    }
    const trailer = new Uint8Array(8);
    for (let i = 0; i < 8; i++) {
      const b = await src.byte();
      if (b < 0) throw decompressionError('gzip: unexpected end of file', progress);
      trailer[i] = b;
    }
    const view = new DataView(trailer.buffer);
    if (view.getUint32(0, true) !== crc >>> 0) throw decompressionError(`gzip: member ${member}: CRC-32 check failed`, progress);
    if (view.getUint32(4, true) !== size % 2 ** 32) throw decompressionError(`gzip: member ${member}: length check failed`, progress);
  }
}

/** Reads a member header whose first byte is `first`; returns what is wrong with it, if anything. */
async function readHeader(src: ByteInput, first: number): Promise<true | string> {
  const bytes = [first];
  const take = async (n: number): Promise<boolean> => {
    for (let i = 0; i < n; i++) {
      const b = await src.byte();
      if (b < 0) return false;
      bytes.push(b);
    }
    return true;
  };
  const takeString = async (): Promise<boolean> => {
    for (;;) {
      if (!(await take(1))) return false;
      if (bytes.at(-1) === 0) return true;
    }
  };
  if (!(await take(9))) return bytes[0] === 0x1f && (bytes.length < 2 || bytes[1] === 0x8b) ? 'a header cut short' : 'incorrect header check';
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return 'incorrect header check';
  if (bytes[2] !== 8) return 'unknown compression method';
  const flags = bytes[3]!;
  if ((flags & RESERVED) !== 0) return 'unknown header flags set';
  if ((flags & FEXTRA) !== 0 && !((await take(2)) && (await take(bytes[10]! | (bytes[11]! << 8))))) return 'a header cut short';
  if ((flags & FNAME) !== 0 && !(await takeString())) return 'a header cut short';
  if ((flags & FCOMMENT) !== 0 && !(await takeString())) return 'a header cut short';
  if ((flags & FHCRC) !== 0) {
    // The low 16 bits of the CRC-32 of the header before it.
    const crc = crc32(Uint8Array.from(bytes)) & 0xffff;
    if (!(await take(2))) return 'a header cut short';
    if ((bytes.at(-2)! | (bytes.at(-1)! << 8)) !== crc) return 'header crc mismatch';
  }
  return true;
}

/**
 * One raw deflate stream through zlib, fed a chunk at a time; what follows its end is given
 * back to `src`. zlib ends its output when the stream ends (Node's inflateRaw pushes the end
 * of its output when input is left over), and `bytesWritten` says how much of the last chunk
 * it used. Output waits for the consumer: zlib is paused while more than a few chunks wait.
 */
async function* inflateRaw(src: ByteInput, progress: InputProgress, chunkSize: number): AsyncGenerator<Uint8Array> {
  const z = createInflateRaw({ chunkSize });
  const out: Buffer[] = [];
  let ended = false;
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  z.on('data', (b: Buffer) => {
    out.push(b);
    if (out.length >= 4) z.pause();
    notify();
  });
  z.on('end', () => {
    ended = true;
    notify();
  });
  z.on('error', (e: Error) => {
    failed = e;
    notify();
  });
  let writing = false;
  let inputEnded = false;
  let fed = 0;
  let last: Uint8Array | undefined;
  try {
    for (;;) {
      // The next chunk goes in before the output is handed on, so zlib decodes while the consumer parses.
      if (!writing && !inputEnded && !ended && failed === undefined) {
        const chunk = await src.next();
        if (chunk === undefined) {
          inputEnded = true;
          z.end();
        } else {
          writing = true;
          last = chunk;
          fed += chunk.length;
          z.write(chunk, () => {
            writing = false;
            notify();
          });
        }
      }
      while (out.length > 0) yield out.shift()!;
      if (failed !== undefined) {
        const code = (failed as { code?: string }).code;
        throw code?.startsWith('Z_') === true ? decompressionError(`gzip: ${failed.message}`, progress) : failed;
      }
      if (ended && !writing) break;
      z.resume();
      if (out.length === 0 && failed === undefined && !(ended && !writing) && (writing || inputEnded || ended)) {
        await new Promise<void>((resolve) => (wake = resolve));
      }
    }
    const unused = fed - z.bytesWritten;
    if (unused > 0 && last !== undefined) src.unread(last.subarray(last.length - unused));
  } finally {
    z.destroy();
  }
}

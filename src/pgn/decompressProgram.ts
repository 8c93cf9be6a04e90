/**
 * Compressed bytes through a decompressor program (`zstd -dc`, `bzip2 -dc`) in a child
 * process, as a stream of plain chunks. The program runs on another core while this process
 * parses, and its exit status is the verdict: a damaged or truncated input ends the stream with
 * an error naming the input, the program's own message and how far the input was read, never
 * with a hang or silently cut data. A consumer that stops early kills the program.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DECOMPRESSORS, DecompressorMissingError, type Compression } from './compression.js';

/** How much of an input a decompressor has been given, for error messages. */
export interface InputProgress {
  /** Compressed bytes read so far. */
  bytes: number;
  /** The whole input has been read. */
  ended: boolean;
}

const STDERR_KEEP = 4096;

/** The absolute path of an executable on PATH, or undefined. */
export function findProgram(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, program);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Throws DecompressorMissingError when the program for `compression` is not installed. */
export function requireDecompressor(name: string, compression: Exclude<Compression, 'gzip'>): string {
  const d = DECOMPRESSORS[compression];
  const path = findProgram(d.program);
  if (path === undefined) throw new DecompressorMissingError(name, compression, d);
  return path;
}

/** An error for a decompressor that gave up, saying how far its input was read (the caller names the input). */
export function decompressionError(what: string, input: InputProgress): Error {
  const where = input.ended ? `after all ${input.bytes} compressed bytes were read` : `within the first ${input.bytes} compressed bytes`;
  return new Error(`${what} (${where})`);
}

/** The plain bytes of `input` (compressed with `compression`), decompressed by its program. */
export async function* decompressWithProgram(
  compression: Exclude<Compression, 'gzip'>,
  name: string,
  input: AsyncIterable<Uint8Array>,
  progress: InputProgress,
): AsyncGenerator<Uint8Array> {
  const d = DECOMPRESSORS[compression];
  const child = spawn(requireDecompressor(name, compression), d.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  // The first complaint is the one that says what went wrong.
  child.stderr.on('data', (s: string) => void (stderr.length < STDERR_KEEP && (stderr += s)));
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  const source = Readable.from(input, { objectMode: false });
  let readError: Error | undefined;
  // A program that stops early closes its stdin (EPIPE here): its exit status says why.
  const feeding = pipeline(source, child.stdin).catch((e: Error & { code?: string }) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      readError = e;
      child.kill();
    }
  });
  try {
    for await (const chunk of child.stdout) yield chunk as Uint8Array;
    const { code, error } = await exited;
    if (readError) throw readError;
    if (error) throw decompressionError(`${d.program}: ${error.message}`, progress);
    const failure = programFailure(code, stderr);
    if (failure !== undefined) throw decompressionError(`${d.program}: ${failure}`, progress);
    // It read its input to the end, so the feeding is over.
    await feeding;
  } finally {
    child.kill();
    source.destroy();
  }
}

/** The plain bytes of a whole compressed file already in memory (small files: opening suites). */
export function decompressSync(compression: Exclude<Compression, 'gzip'>, name: string, bytes: Uint8Array): Buffer {
  const d = DECOMPRESSORS[compression];
  const r = spawnSync(requireDecompressor(name, compression), d.args, { input: bytes, maxBuffer: 2 ** 31 - 1 });
  if (r.error) throw new Error(`${name}: ${d.program}: ${r.error.message}`);
  const failure = programFailure(r.status, r.stderr.toString('utf8'));
  if (failure !== undefined) throw new Error(`${name}: ${d.program}: ${failure}`);
  return r.stdout;
}

/**
 * What went wrong, from the program's exit status and complaint; undefined when nothing did.
 * bzip2 exits 0 after bytes that are not a bzip2 stream follow the last one ("trailing garbage
 * after EOF ignored"): they may be a damaged stream whose games would be lost without a word,
 * so they fail the input as zstd's "unsupported format" and gzip's trailing bytes do.
 */
function programFailure(code: number | null, stderr: string): string | undefined {
  const message = programMessage(stderr);
  if (code !== 0) return message || `exit status ${code}`;
  if (/trailing garbage/.test(message)) return `${message.replace(/\s*ignored$/, '')}: not read`;
  return undefined;
}

/**
 * The program's first complaint, without the name of its stdin and the error number
 * ("/*stdin*\ : Read error (39) : premature end"; bzip2 goes on with advice after it).
 */
function programMessage(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return (lines[0] ?? '')
    .replace(/^(zstd|bzip2):\s*/, '')
    .replace(/^(\/\*stdin\*\\|\(stdin\)):?\s*:?\s*/, '')
    .replace(/^[A-Za-z ]+ error \(\d+\) : /, '')
    .replace(/;$/, '');
}

/**
 * Every output file of tabiya is written here: under a temporary name in the same directory
 * (src/node/tempFiles.ts), then fsynced, renamed over the target and the directory fsynced.
 * A rename is atomic, so a failed or interrupted run (error, signal, SIGKILL, power loss)
 * leaves either the complete old file or the complete new one, never a torn one.
 *
 * - A target that is a symlink to a file is followed: the file it points to is replaced and
 *   the link stays. The replaced file's permissions are kept.
 * - A target that exists and is not a regular file (a device such as /dev/null or /dev/full, a
 *   FIFO) cannot be replaced by a rename: it is written directly, and a failed write is an error.
 * - A directory is refused.
 * - `-` is standard output.
 * - Errors name the user's path (or "standard output"), never the temporary file.
 */
import { chmodSync, closeSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { creatingTemp, registerTemp, releaseTemp, sweepStaleTemps, tempPathFor } from '../../node/tempFiles.js';

/** A failed write: the message names the output the user gave. */
export class WriteError extends Error {
  readonly code = 'ERR_WRITE';
  constructor(message: string) {
    super(message);
    this.name = 'WriteError';
  }
}

/** The reason of a file-system error without Node's "CODE: ..., syscall 'path'" wrapping. */
export function ioReason(e: unknown): string {
  if ((e as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return 'broken pipe (the reader closed it)';
  if ((e as NodeJS.ErrnoException | undefined)?.code === 'EISDIR') return 'is a directory, not a file';
  const message = e instanceof Error ? e.message : String(e);
  const m = /^[A-Z][A-Z0-9_]+: (.*?)(?:, [a-z_]+(?: '.*')?)?$/.exec(message);
  return m === null ? message : m[1]!;
}

/** The name of an output in messages. */
export function outputName(path: string): string {
  return path === '-' ? 'standard output' : path;
}

/** How an existing or new output path is written. */
interface Target {
  /** The file that is replaced (a symlink's target), or the path itself. */
  file: string;
  /** Written in place, without a temporary file: devices and FIFOs. */
  direct: boolean;
  /** Permission bits of the file being replaced. */
  mode: number | undefined;
}

function targetOf(path: string): Target {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { file: path, direct: false, mode: undefined };
    throw new WriteError(`${path}: cannot write: ${ioReason(e)}`);
  }
  if (st.isDirectory()) throw new WriteError(`${path}: cannot write: it is a directory`);
  if (!st.isFile()) return { file: path, direct: true, mode: undefined };
  return { file: realpathSync(path), direct: false, mode: st.mode & 0o7777 };
}

/** Makes a rename durable (a directory fsync); not available everywhere, so best effort. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open or fsync a directory; the rename is still atomic.
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Writes every byte; a non-blocking pipe that is full (EAGAIN) is waited for. */
function writeAll(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeSync(fd, bytes, off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(PAUSE, 0, 0, 1);
    }
  }
}

/** An output written in pieces and put in place by `commit` (or dropped by `abort`). */
export class AtomicFileSync {
  private fd: number;
  private done = false;
  private readonly target: Target;
  /** The temporary file, or undefined when the target is written directly. */
  readonly tmp: string | undefined;

  constructor(readonly path: string) {
    if (path === '-') {
      this.target = { file: '-', direct: true, mode: undefined };
      this.fd = 1;
      return;
    }
    this.target = targetOf(path);
    if (this.target.direct) {
      try {
        this.fd = openSync(path, 'w');
      } catch (e) {
        throw new WriteError(`${path}: cannot write: ${ioReason(e)}`);
      }
      return;
    }
    sweepStaleTemps(this.target.file);
    const tmp = tempPathFor(this.target.file);
    try {
      this.fd = creatingTemp(() => {
        // Registered before it exists, so a signal at any moment finds it.
        registerTemp(tmp);
        return openSync(tmp, 'wx', 0o644);
      });
    } catch (e) {
      releaseTemp(tmp);
      throw new WriteError(`${path}: cannot write: ${ioReason(e)}`);
    }
    this.tmp = tmp;
  }

  write(bytes: Uint8Array | string): void {
    try {
      if (typeof bytes === 'string') bytes = Buffer.from(bytes, 'utf8');
      writeAll(this.fd, bytes);
    } catch (e) {
      this.abort();
      throw new WriteError(`${outputName(this.path)}: cannot write: ${ioReason(e)}`);
    }
  }

  /** Whether bytes can be written at any offset (`writeAt`): a temporary file, not standard output or a device. */
  get seekable(): boolean {
    return this.tmp !== undefined;
  }

  /** Writes `bytes` at `position` of a seekable output. */
  writeAt(bytes: Uint8Array, position: number): void {
    try {
      if (!this.seekable) throw new Error('not seekable');
      for (let off = 0; off < bytes.length; ) off += writeSync(this.fd, bytes, off, bytes.length - off, position + off);
    } catch (e) {
      this.abort();
      throw new WriteError(`${outputName(this.path)}: cannot write: ${ioReason(e)}`);
    }
  }

  /** Flushes, closes and renames the file into place (fsync of the file and of its directory). */
  commit(): void {
    if (this.done) return;
    try {
      if (this.tmp === undefined) {
        if (this.fd !== 1) closeSync(this.fd);
        this.done = true;
        return;
      }
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = -1;
      if (this.target.mode !== undefined) chmodSync(this.tmp, this.target.mode);
      renameSync(this.tmp, this.target.file);
      this.done = true;
      releaseTemp(this.tmp);
    } catch (e) {
      this.abort();
      throw new WriteError(`${outputName(this.path)}: cannot write: ${ioReason(e)}`);
    }
    syncDir(dirname(this.target.file));
  }

  /** Removes the temporary file; the target is left as it was. */
  abort(): void {
    if (this.done) return;
    this.done = true;
    if (this.fd >= 0 && this.fd !== 1) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
    }
    this.fd = -1;
    if (this.tmp !== undefined) {
      rmSync(this.tmp, { force: true });
      releaseTemp(this.tmp);
    }
  }
}

/** Writes a whole file atomically (or to stdout for `-`). */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  if (path === '-') {
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(data, (e) => (e ? reject(new WriteError(`standard output: cannot write: ${ioReason(e)}`)) : resolve())),
    );
    return;
  }
  writeFileAtomicSync(path, data);
}

/** The synchronous form of `writeFileAtomic`, for a file path. */
export function writeFileAtomicSync(path: string, data: Uint8Array | string): void {
  const f = new AtomicFileSync(path);
  f.write(data);
  f.commit();
}

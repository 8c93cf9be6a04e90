/**
 * The scratch directory of a large build: spilled runs and the games of the book being built
 * live in `<tmp-dir>/tabiya-build-<pid>@<host>-<random>/` until the book is written. It is
 * removed on success, on failure and on Ctrl-C (the process-exit hook of tempFiles.ts), and a
 * directory left by a killed build is removed by the next build on the same machine that uses
 * the same temporary directory. The host is in the name because `--tmp-dir` may be on a file
 * system that several machines share (a cluster's scratch space, where the shards of a build
 * run at once): a process id says whether a build is alive only on the machine that runs it.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, readSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BookError } from '../polyglot/select.js';
import { ioReason } from './atomicWrite.js';
import { creatingTemp, hostTag, processAlive, registerTempDir, releaseTemp } from '../../node/tempFiles.js';

export { hostTag };
import { fastCrc32 } from './richFile.js';

const PREFIX = 'tabiya-build-';

/** Where a build's scratch files are created. */
export interface ScratchFiles {
  create(name: string): ScratchFile;
}

/** Scratch files of one thread of a build, created in the build's directory under their own prefix. */
export function threadFiles(dir: string, prefix: string): ScratchFiles {
  let n = 0;
  return { create: (name) => new ScratchFile(join(dir, `${prefix}-${n++}-${name}`)) };
}

export class WorkDir implements ScratchFiles {
  readonly path: string;
  private files = 0;

  constructor(parent = tmpdir()) {
    sweepStaleWorkDirs(parent);
    try {
      this.path = creatingTemp(() => {
        const made = mkdtempSync(join(parent, `${PREFIX}${process.pid}@${hostTag()}-`));
        registerTempDir(made);
        return made;
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'not a directory' : ioReason(e);
      throw new ScratchError(parent, `${why} (--tmp-dir chooses where they go)`);
    }
  }

  /** A new file in the directory, open for appending. */
  create(name: string): ScratchFile {
    return new ScratchFile(join(this.path, `${this.files++}-${name}`));
  }

  /** Removes the directory and everything in it. */
  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
    releaseTemp(this.path);
  }
}

/** A scratch file could not be written (a full disk, a size limit): the build names its output and this. */
export class ScratchError extends Error {
  readonly code = 'ERR_BOOK_SCRATCH';

  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`cannot write the scratch files in ${dir}: ${reason}`);
  }

  /** The error as the output's: what could not be written, and where the scratch files were. */
  forOutput(output: string): BookError {
    return new BookError('ERR_BOOK_WRITE', `${output}: cannot write: ${this.reason} (writing scratch files in ${dirname(this.dir)}; --tmp-dir chooses where they go)`);
  }
}

/**
 * A worker thread's error as the build's: an error crossing from a worker arrives as a plain
 * Error with its own fields copied (Node's structured clone of errors), so a ScratchError is
 * made again and keeps its wording for the output (`--tmp-dir`).
 */
export function reviveWorkerError(e: unknown): unknown {
  const x = e as { code?: unknown; dir?: unknown; reason?: unknown } | null;
  if (x !== null && typeof x === 'object' && x.code === 'ERR_BOOK_SCRATCH' && typeof x.dir === 'string' && typeof x.reason === 'string') return new ScratchError(x.dir, x.reason);
  return e;
}

/** An append-only file with positional reads (a run, or the games being built). */
export class ScratchFile {
  private fd: number;
  size = 0;
  /** CRC-32 of everything appended. */
  crc = 0;

  constructor(
    readonly path: string,
    mode = 'w+',
  ) {
    // A new file in a build's directory: not while the directory is being removed (tempFiles.ts creatingTemp).
    this.fd = mode === 'r' ? openSync(path, mode) : creatingTemp(() => openSync(path, mode));
  }

  /** A scratch file written by another thread, opened for reading: its size and CRC as that thread left them. */
  static reopen(path: string, size: number, crc: number): ScratchFile {
    const f = new ScratchFile(path, 'r');
    f.size = size;
    f.crc = crc;
    return f;
  }

  /**
   * A finished scratch file to read without holding it open: each read opens and closes it. A
   * merge reads its runs a window (1 MiB) at a time, so the opens cost nothing measurable, and
   * the hundreds of runs of a large build in little memory do not run into the limit of open
   * files (often 1,024 a process, EMFILE).
   */
  static closed(path: string, size: number, crc: number): ScratchFile {
    const f = Object.create(ScratchFile.prototype) as ScratchFile;
    Object.assign(f, { path, fd: -1, size, crc });
    return f;
  }

  append(bytes: Uint8Array): void {
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off, this.size + off);
    } catch (e) {
      throw new ScratchError(dirname(this.path), ioReason(e));
    }
    this.size += bytes.length;
    this.crc = fastCrc32(bytes, this.crc);
  }

  /** `length` bytes at `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Uint8Array {
    return this.readInto(new Uint8Array(Math.max(0, Math.min(length, this.size - offset))), offset);
  }

  /** Fills `out` from `offset` (less at the end of the file); returns the part filled. */
  readInto(out: Uint8Array, offset: number): Uint8Array {
    // A closed file (written and closed, or ScratchFile.closed) is opened for this read only.
    const fd = this.fd >= 0 ? this.fd : openSync(this.path, 'r');
    let got = 0;
    try {
      while (got < out.length) {
        const n = readSync(fd, out, got, out.length - got, offset + got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      if (fd !== this.fd) closeSync(fd);
    }
    return out.subarray(0, got);
  }

  sync(): void {
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}


/**
 * Removes scratch directories (`<prefix><pid>@<host>-…`, or `<prefix><pid>-…`) of builds whose
 * process is gone; those of other machines are left alone.
 */
export function sweepStaleWorkDirs(parent: string, prefix = PREFIX): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  const here = hostTag();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    // `<pid>@<host>-<random>`, or `<pid>-<random>` as earlier versions and `book serve` name them.
    const m = /^(\d+)(?:@(.+))?-[^-]+$/.exec(name.slice(prefix.length));
    const pid = Number(m?.[1]);
    // Another machine's build: whether it is alive cannot be told from here.
    if (m?.[2] !== undefined && m[2] !== here) continue;
    if (!(pid > 0) || processAlive(pid)) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // Not ours to remove (permissions): leave it.
    }
  }
}

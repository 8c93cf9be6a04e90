/**
 * `.tbk` books on disk: opening with positional reads, and crash-safe changes.
 *
 * Reading: books up to `memoryLimit` are read whole; larger ones are binary-searched through
 * `readSync` at offsets with a small cache of 4 KiB blocks (entries are 64-byte aligned, so an
 * entry never straddles two blocks). Reads are synchronous on purpose: the engine probes its
 * book from synchronous search code.
 *
 * Writing: every change (make, add, merge, set, annotate, learn) builds the whole new file in
 * memory, writes it under a temporary name in the same directory, fsyncs it, renames it over
 * the book and fsyncs the directory (atomicWrite.ts). A rename is atomic, so a `kill -9` at any moment leaves
 * either the old book or the new one, and a reader that has the file open keeps reading the
 * version it opened. Changes take a lock file (`BOOK.lock`, holding the writer's pid and machine) so two
 * writers (two engines learning into one book) cannot lose each other's update; a lock whose
 * process is gone (killed) is taken over, and temporary files it left are removed.
 */
import { closeSync, existsSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, readSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as zlib from 'node:zlib';
import { BookError } from '../polyglot/select.js';
import { NAME_MAX, creatingTemp, fitName, hostTag, processAlive, registerTemp, releaseTemp, removeQuietly, sweepStaleTemps, tempPathFor } from '../../node/tempFiles.js';
import { ioReason, writeFileAtomicSync } from './atomicWrite.js';
import { loadTable } from '../rich/load.js';
import { BookPatch } from '../rich/patch.js';
import { crc32, type Crc32 } from '../rich/format.js';
import { RichBook, type ByteSource } from '../rich/reader.js';
import type { RichTable } from '../rich/table.js';
import { encodeBook, type BookInfo } from '../rich/writer.js';

/**
 * zlib's CRC-32 (Node 20.15 and later) where there is one: the same checksum as the portable
 * one, about four times as fast, which matters because every change checks and writes it.
 * Empty input leaves the CRC as it was: Node hands zlib a null pointer for an array over an
 * empty ArrayBuffer (what `slice()` of nothing or a message of no bytes gives), and zlib's
 * crc32() answers a null buffer with the initial value 0 (zlib.h: "If buf is Z_NULL, this
 * function returns the required initial value for the crc"), which threw away the CRC of
 * everything before, as a filtered build's chunks without a kept game did.
 */
export const fastCrc32: Crc32 = typeof zlib.crc32 === 'function' ? (b, c) => (b.length === 0 ? c : zlib.crc32(b, c)) : (b, c) => crc32(b, c);

const BLOCK = 4096;
const CACHE_BLOCKS = 256;

/** Positional reads of an open file, with a small LRU block cache. */
export class FileSource implements ByteSource {
  readonly size: number;
  private readonly cache = new Map<number, Uint8Array>();
  private closed = false;

  constructor(
    readonly path: string,
    private readonly fd: number,
  ) {
    this.size = fstatSync(fd).size;
  }

  read(offset: number, length: number): Uint8Array {
    const b = Math.floor(offset / BLOCK);
    if (offset + length <= (b + 1) * BLOCK) {
      const block = this.block(b);
      return block.subarray(offset - b * BLOCK, offset - b * BLOCK + length);
    }
    const out = new Uint8Array(length);
    let got = 0;
    try {
      while (got < length) {
        const n = readSync(this.fd, out, got, length - got, offset + got);
        if (n === 0) break;
        got += n;
      }
    } catch (e) {
      throw readError(this.path, e);
    }
    return out.subarray(0, got);
  }

  private block(b: number): Uint8Array {
    const hit = this.cache.get(b);
    if (hit !== undefined) {
      this.cache.delete(b);
      this.cache.set(b, hit);
      return hit;
    }
    const buf = new Uint8Array(BLOCK);
    let n: number;
    try {
      n = readSync(this.fd, buf, 0, BLOCK, b * BLOCK);
    } catch (e) {
      throw readError(this.path, e);
    }
    const data = n === BLOCK ? buf : buf.subarray(0, n);
    if (this.cache.size >= CACHE_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(b, data);
    return data;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

export interface OpenRichOptions {
  /** Books up to this many bytes are read into memory (default 64 MiB); larger ones stay on disk. */
  memoryLimit?: number;
  /**
   * Check the CRC-32 of the whole file when opening: by default for a book read into memory,
   * not for one left on disk (whose header, key order and entries are checked as they are read).
   * `false` skips it (book info reports the checksum itself).
   */
  verify?: boolean;
}

/** An open book; `close()` releases the file of an on-disk book. */
export interface OpenedRichBook {
  book: RichBook;
  close(): void;
}

/** Opens a `.tbk`; errors (missing, damaged, not a .tbk) are BookErrors naming the file. */
export function openRichBook(path: string, opts: OpenRichOptions = {}): OpenedRichBook {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new BookError('ERR_BOOK_READ', `${path}: cannot open: ${ioReason(e)}`, path);
  }
  const source = new FileSource(path, fd);
  let onDisk = false;
  let opened: RichBook;
  try {
    if (!fstatSync(fd).isFile()) throw new BookError('ERR_BOOK_READ', `${path}: not a regular file`, path);
    if (source.size <= (opts.memoryLimit ?? 64 * 1024 * 1024)) {
      const bytes = new Uint8Array(source.size);
      let got = 0;
      while (got < bytes.length) {
        const n = readSync(fd, bytes, got, bytes.length - got, got);
        if (n === 0) break;
        got += n;
      }
      opened = unwrapBook(RichBook.open(bytes.subarray(0, got), path, { verify: opts.verify, crc: fastCrc32 }));
    } else {
      onDisk = true;
      opened = unwrapBook(RichBook.open(source, path, { verify: opts.verify, crc: fastCrc32 }));
    }
  } catch (e) {
    source.close();
    throw e instanceof BookError ? e : readError(path, e);
  }
  if (!onDisk) source.close();
  return { book: opened, close: () => source.close() };
}

function readError(path: string, e: unknown): BookError {
  return new BookError('ERR_BOOK_READ', `${path}: cannot read: ${ioReason(e)}`, path);
}

function unwrapBook<T>(r: { ok: true; value: T } | { ok: false; error: BookError }): T {
  if (!r.ok) throw r.error;
  return r.value;
}

/** Does the file start like a `.tbk` (whatever its name)? */
export function isRichBookFile(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    const head = new Uint8Array(8);
    readSync(fd, head, 0, 8, 0);
    closeSync(fd);
    return new TextDecoder().decode(head) === 'TBKBOOK\n';
  } catch {
    return false;
  }
}

/** Writes bytes to `path` crash-safely: temporary file, fsync, rename, directory fsync (atomicWrite.ts). */
export function writeBookFile(path: string, bytes: Uint8Array): void {
  writeFileAtomicSync(path, bytes);
}

export interface LockOptions {
  /** Give up after this many milliseconds of waiting for another writer (default 30 s). */
  timeoutMs?: number;
}

const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** Replaces a book (make, merge, import) under its lock, so a writer learning into it cannot lose the race. */
export function replaceRichBook(path: string, bytes: Uint8Array, opts: LockOptions = {}): void {
  withBookLock(path, () => writeBookFile(path, bytes), opts);
}

/** Runs `fn` holding the book's lock file (until its promise settles, when it returns one). */
export function withBookLock<T>(path: string, fn: () => T, opts: LockOptions = {}): T {
  // One lock per file, whatever name reaches it: a symlink and its target (or a path through a
  // symlinked directory) share it. Locked by the name given, two writers each took their own
  // lock, and the one that rewrote the book lost the other's change (tabiya serve link.tbk
  // editing while book add target.tbk ran).
  const real = realFile(path);
  const lock = lockPathFor(real);
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  sweepStaleTemps(lock);
  for (;;) {
    if (takeLock(path, lock)) break;
    // Something else under the lock's name (a directory, a FIFO) is no writer's lock, and
    // removing it is not ours to do: say so at once rather than wait and fail to remove it.
    if (!isFileOrGone(lock)) throw new BookError('ERR_BOOK_LOCK', `${path}: its lock ${lock} is not a file; remove it if no tabiya writes the book, and try again`);
    const owner = lockOwner(lock);
    if (lockIsStale(lock, owner)) {
      // The writer died holding the lock (kill -9): its temporary files are garbage (made
      // beside the file a symlink points to: atomicWrite.ts).
      sweepStaleTemps(real);
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      const elsewhere = owner?.host !== undefined && owner.host !== hostTag();
      throw new BookError(
        'ERR_BOOK_LOCK',
        `${path}: locked by process ${owner?.pid ?? '?'}${elsewhere ? ` on ${owner.host}` : ''} (${lock}); try again when it has finished${elsewhere ? `, or remove the lock if no tabiya runs on ${owner.host}` : ''}`,
      );
    }
    Atomics.wait(SLEEP, 0, 0, 20);
  }
  const release = (): void => {
    rmSync(lock, { force: true });
    releaseTemp(lock);
  };
  let out: T;
  try {
    out = fn();
  } catch (e) {
    release();
    throw e;
  }
  // An async change keeps the lock until it settles.
  if (out instanceof Promise) return out.finally(release) as T;
  release();
  return out;
}

/**
 * Waits, without blocking the thread, while another live writer holds the book's lock (at most
 * `timeoutMs`, default 30 s, as withBookLock). The commands that change a book on the main
 * thread (`book set`, `book annotate`, `book audit --mark`, `book upgrade`) wait here first:
 * withBookLock's wait is synchronous (the engine learns through it), and on the main thread it
 * held a Ctrl-C back until it gave up. A writer that takes the lock between this wait and
 * withBookLock is then waited for as before.
 */
export async function whenUnlocked(path: string, opts: LockOptions = {}): Promise<void> {
  const lock = lockPathFor(realFile(path));
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  while (Date.now() <= deadline && existsSync(lock) && isFileOrGone(lock)) {
    if (lockIsStale(lock, lockOwner(lock))) return;
    await new Promise((wake) => setTimeout(wake, 20));
  }
}

/**
 * A book's lock, `BOOK.lock` beside it. A book whose name is legal but too long to take the
 * suffix (over 250 bytes, where file systems allow 255: NAME_MAX) is locked by the first bytes
 * of its name and a hash of the whole name (`BOOKPREFIX~<hash>.lock`), so every writer of that
 * book finds the same lock.
 */
export function lockPathFor(real: string): string {
  return join(dirname(real), `${fitName(basename(real), NAME_MAX - '.lock'.length)}.lock`);
}

/** Is the path a regular file, or gone (the lock released meanwhile)? */
function isFileOrGone(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return true;
  }
}

/** The file a path names, symlinks followed (for a file not there yet, its directory's). */
function realFile(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * Creates the lock file holding our pid, or answers false when it exists. The pid is written to a
 * temporary file first and published with link(2), which fails if the lock exists: so a lock file
 * always names its owner, even when the process is killed mid-way (the lockfile scheme of
 * procmail and Git's lockfile.c, which also never leave an anonymous lock behind).
 */
function takeLock(path: string, lock: string): boolean {
  // In a worker: not while the main thread is removing the temporaries at a signal, and the lock
  // registered before that clean-up can start (tempFiles.ts creatingTemp).
  return creatingTemp(() => takeLockNow(path, lock));
}

function takeLockNow(path: string, lock: string): boolean {
  const temp = tempPathFor(lock);
  registerTemp(temp);
  try {
    writeFileSync(temp, lockText());
    try {
      linkSync(temp, lock);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      // File systems without hard links (FAT, some network mounts): exclusive create, then the pid.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
      try {
        writeFileSync(lock, lockText(), { flag: 'wx' });
      } catch (e2) {
        if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw e2;
      }
    }
    // Ours now: removed with the temporary files if the process is interrupted.
    registerTemp(lock);
    return true;
  } catch (e) {
    // The user's path and the reason, not the temporary file's name (docs/cli.md).
    throw new BookError('ERR_BOOK_LOCK', `${path}: cannot lock: ${ioReason(e)}`);
  } finally {
    removeQuietly(temp, false);
    releaseTemp(temp);
  }
}

/** A lock file without a pid (an older tabiya, or a writer killed on a file system without links) left long ago. */
function anonymousAndOld(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > 10_000;
  } catch {
    return false;
  }
}

/**
 * What a lock holds: the writer's pid and machine, `4242@node17`. The machine matters on a file
 * system that several machines share (a cluster's home directories, NFS): a pid is only
 * meaningful where it runs, and a lock judged by a pid that happens to be free here would be
 * removed under a live writer elsewhere, and two writers would then change the book at once.
 */
function lockText(): string {
  return `${process.pid}@${hostTag()}\n`;
}

interface LockOwner {
  pid: number;
  /** Absent in the locks of earlier versions (the pid alone). */
  host?: string;
}

function lockOwner(lock: string): LockOwner | undefined {
  try {
    const m = /^(\d+)(?:@([A-Za-z0-9._-]+))?\s*$/.exec(readFileSync(lock, 'utf8'));
    if (m === null) return undefined;
    const pid = Number(m[1]);
    if (!(pid > 0)) return undefined;
    return m[2] === undefined ? { pid } : { pid, host: m[2] };
  } catch {
    return undefined;
  }
}

/**
 * Whether a lock's writer is gone: its pid is not alive on this machine. Another machine's lock
 * is never judged from here (its pid means nothing here); it is waited for, and the message
 * that ends the wait says where it was taken.
 */
function lockIsStale(lock: string, owner: LockOwner | undefined): boolean {
  if (owner === undefined) return anonymousAndOld(lock);
  if (owner.host !== undefined && owner.host !== hostTag()) return false;
  return !processAlive(owner.pid);
}

/**
 * Changes a book crash-safely under its lock: reads and checks it (CRC-32), hands its rows to
 * `change`, writes the result (one more change in the header). `change` returns its report and
 * may replace the header fields and the rows to keep.
 */
export function updateRichBook<T>(
  path: string,
  change: (t: RichTable, info: BookInfo, book: RichBook) => T,
  opts: LockOptions & { keep?: (t: RichTable) => ((r: number) => boolean) | undefined } = {},
): T {
  return withBookLock(
    path,
    () => {
      if (!existsSync(path)) throw new BookError('ERR_BOOK_READ', `${path}: no such book`);
      const { book, close } = openRichBook(path, { memoryLimit: Infinity, verify: true });
      close();
      const { table, info } = loadTable(book);
      const out = change(table, info, book);
      info.changes++;
      writeBookFile(path, encodeBook(table, info, opts.keep?.(table), fastCrc32));
      return out;
    },
    opts,
  );
}

/**
 * Changes a book in place under its lock, for small changes (book learning): reads and checks
 * it, hands `change` a BookPatch over its bytes, writes the result crash-safely. `learned` is
 * added to the header's learned-games count; the change count goes up by one.
 */
export function patchRichBook<T>(path: string, change: (patch: BookPatch) => T, learned: number | ((result: T) => number), opts: LockOptions = {}): T {
  return withBookLock(
    path,
    () => {
      if (!existsSync(path)) throw new BookError('ERR_BOOK_READ', `${path}: no such book`);
      const { book, close } = openRichBook(path, { memoryLimit: Infinity, verify: true });
      close();
      const bytes = (book.source as { bytes?: Uint8Array }).bytes!;
      const patch = new BookPatch(bytes, book.header);
      const out = change(patch);
      const n = typeof learned === 'number' ? learned : learned(out);
      writeBookFile(path, patch.finish({ learnedGames: book.header.learnedGames + n, changes: book.header.changes + 1 }, fastCrc32));
      return out;
    },
    opts,
  );
}


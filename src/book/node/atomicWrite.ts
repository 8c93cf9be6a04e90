/**
 * Output files are written under a temporary name in the same directory and renamed over the
 * target only when complete, so a failed or interrupted run never leaves a half-written book
 * (and never destroys the previous one). `-` means stdout.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BookError } from '../polyglot/select.js';

export class AtomicFile {
  private fh: FileHandle | undefined;
  private done = false;

  private constructor(
    readonly path: string,
    readonly tmp: string,
  ) {}

  /** Creates the temporary file next to `path`. */
  static async create(path: string): Promise<AtomicFile> {
    const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
    const f = new AtomicFile(path, tmp);
    try {
      f.fh = await open(tmp, 'wx');
    } catch (e) {
      throw new BookError('ERR_BOOK_WRITE', `${path}: cannot write: ${(e as Error).message}`);
    }
    return f;
  }

  async write(bytes: Uint8Array | string): Promise<void> {
    try {
      if (typeof bytes === 'string') await this.fh!.write(bytes);
      else await this.fh!.write(bytes, 0, bytes.length);
    } catch (e) {
      await this.abort();
      throw new BookError('ERR_BOOK_WRITE', `${this.path}: write failed: ${(e as Error).message}`);
    }
  }

  /** Flushes, closes and renames the file into place. */
  async commit(): Promise<void> {
    try {
      await this.fh!.sync();
      await this.fh!.close();
      this.fh = undefined;
      await rename(this.tmp, this.path);
      this.done = true;
    } catch (e) {
      await this.abort();
      throw new BookError('ERR_BOOK_WRITE', `${this.path}: cannot write: ${(e as Error).message}`);
    }
  }

  /** Removes the temporary file; the target is left as it was. */
  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    if (this.fh !== undefined) await this.fh.close().catch(() => {});
    this.fh = undefined;
    await unlink(this.tmp).catch(() => {});
  }
}

/** Writes a whole file atomically (or to stdout for `-`). */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  if (path === '-') {
    await new Promise<void>((resolve, reject) => process.stdout.write(data, (e) => (e ? reject(e) : resolve())));
    return;
  }
  const f = await AtomicFile.create(path);
  await f.write(data);
  await f.commit();
}

/** The synchronous form, for streaming writers that produce output in a loop. */
export class AtomicFileSync {
  private fd: number;
  private done = false;
  readonly tmp: string;

  constructor(readonly path: string) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
    try {
      this.fd = openSync(this.tmp, 'wx');
    } catch (e) {
      throw new BookError('ERR_BOOK_WRITE', `${path}: cannot write: ${(e as Error).message}`);
    }
  }

  write(bytes: Uint8Array): void {
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(this.fd, bytes, off);
    } catch (e) {
      this.abort();
      throw new BookError('ERR_BOOK_WRITE', `${this.path}: write failed: ${(e as Error).message}`);
    }
  }

  commit(): void {
    try {
      fsyncSync(this.fd);
      closeSync(this.fd);
      renameSync(this.tmp, this.path);
      this.done = true;
    } catch (e) {
      this.abort();
      throw new BookError('ERR_BOOK_WRITE', `${this.path}: cannot write: ${(e as Error).message}`);
    }
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    rmSync(this.tmp, { force: true });
  }
}

/**
 * What the `tabiya pgn` commands share: checking inputs, progress while reading, listing broken
 * games, and output files written to a temporary name and renamed when complete.
 */
import { closeSync, existsSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { startProgress } from '../../node/progress.js';
import type { PgnProgress } from '../../pgn/reader.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { CliError } from '../errors.js';

export function checkInputs(files: readonly string[]): void {
  if (files.length === 0) throw new CliError('no input files (give one or more PGN files, .gz, .zst or .bz2 allowed, or - for stdin)', 2);
  for (const f of files) if (f !== '-' && !existsSync(f)) throw new CliError(`${f}: no such file`, 1);
}

/** A progress display over the bytes read; returns the callback for readPgn and a stop function. */
export function progressOf(label: string, quiet: boolean | undefined): { onProgress(p: PgnProgress): void; stop(): void } {
  let bar: ReturnType<typeof startProgress> | undefined;
  return {
    onProgress(p) {
      bar ??= startProgress({ label, total: p.totalBytes, unit: 'B', quiet });
      bar.update(p.bytes, `${p.games} games, ${p.errors} broken`);
    },
    stop() {
      bar?.stop();
    },
  };
}

export function formatError(e: PgnGameError): string {
  return `${e.file}:${e.line}:${e.column}: game ${e.game}: ${e.kind}: ${e.message}`;
}

/** Writes to `path.tmp-<pid>` with large buffered writes and renames on close ('-' writes to stdout). */
export class OutputFile {
  private readonly fd: number;
  private readonly tmp: string;
  private parts: (string | Uint8Array)[] = [];
  private pending = 0;
  bytes = 0;

  constructor(readonly path: string) {
    this.tmp = path === '-' ? '-' : `${path}.tmp-${process.pid}`;
    try {
      this.fd = path === '-' ? 1 : openSync(this.tmp, 'w');
    } catch (e) {
      throw new CliError(`cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`, 1);
    }
  }

  write(data: string | Uint8Array): void {
    this.parts.push(data);
    this.pending += data.length;
    if (this.pending >= 1 << 20) this.flush();
  }

  private flush(): void {
    for (const p of this.parts) {
      const n = typeof p === 'string' ? writeSync(this.fd, p) : writeAll(this.fd, p);
      this.bytes += n;
    }
    this.parts = [];
    this.pending = 0;
  }

  /** Flushes and moves the file into place. */
  close(): void {
    this.flush();
    if (this.path === '-') return;
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }

  /** Drops the partial output. */
  abort(): void {
    if (this.path === '-') return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    rmSync(this.tmp, { force: true });
  }
}

function writeAll(fd: number, data: Uint8Array): number {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off);
  return data.length;
}

/**
 * What the `tabiya pgn` commands share: checking inputs, progress while reading, listing broken
 * games, and output files written to a temporary name and renamed when complete.
 */
import { existsSync } from 'node:fs';
import { AtomicFileSync } from '../../book/node/atomicWrite.js';
import { startProgress } from '../../node/progress.js';
import type { PgnProgress } from '../../pgn/reader.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { CliError } from '../errors.js';

export function checkInputs(files: readonly string[]): void {
  if (files.length === 0) throw new CliError('no input files (give one or more PGN files, .gz allowed, or - for stdin)', 2);
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

/** Buffers output in large writes to an atomic file (atomicWrite.ts; '-' writes to stdout). */
export class OutputFile {
  private readonly file: AtomicFileSync;
  private parts: (string | Uint8Array)[] = [];
  private pending = 0;
  bytes = 0;

  constructor(readonly path: string) {
    this.file = new AtomicFileSync(path);
  }

  write(data: string | Uint8Array): void {
    this.parts.push(data);
    this.pending += data.length;
    if (this.pending >= 1 << 20) this.flush();
  }

  private flush(): void {
    for (const p of this.parts) {
      this.file.write(p);
      this.bytes += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
    }
    this.parts = [];
    this.pending = 0;
  }

  /** Flushes and moves the file into place. */
  close(): void {
    this.flush();
    this.file.commit();
  }

  /** Drops the partial output. */
  abort(): void {
    this.file.abort();
  }
}

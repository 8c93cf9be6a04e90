/**
 * What the `tabiya pgn` commands share: checking inputs, progress while reading, listing broken
 * games, and output files written to a temporary name and renamed when complete.
 */
import { AtomicFileSync } from '../../book/node/atomicWrite.js';
import { progressNote, startProgress } from '../../node/progress.js';
import { textInputProblem } from '../../node/textFile.js';
import type { PgnProgress, PgnReadSummary } from '../../pgn/reader.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import { CliError, intOption } from '../errors.js';

/**
 * Refuses, before anything is read or written, inputs that cannot be PGN: a missing file, a
 * directory, binary data (a .bin book, an executable), UTF-16 text, damaged gzip.
 */
export function checkInputs(files: readonly string[]): void {
  if (files.length === 0) throw new CliError('no input files (give one or more PGN files, .gz, .zst or .bz2 allowed, or - for stdin)', 2);
  for (const f of files) {
    const problem = textInputProblem(f, 'PGN text');
    if (problem !== undefined) throw new CliError(problem, 1);
  }
}

/**
 * What a finished read says about its inputs: each input that held no game is named on stderr
 * (0 games is a truthful answer, but an empty file is usually a mistake); an input that could
 * not be read to its end (damaged gzip, read error) fails the run, since the counts and any
 * output would silently miss its games.
 */
export function checkRead(summary: PgnReadSummary, output?: string): void {
  for (const f of summary.withoutGames) process.stderr.write(`warning: ${inputName(f)} holds no games\n`);
  if (summary.unreadable.length > 0) {
    const why = summary.unreadable.map((u) => u.message).join('; ');
    throw new CliError(output === undefined ? why : `${why}; ${output === '-' ? 'the output is incomplete' : `${output} was not written`}`, 1);
  }
}

/** An input as messages name it. */
export function inputName(file: string): string {
  return file === '-' ? 'standard input' : file;
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
  return `${e.file}:${e.line}:${e.column}: game ${e.game}${e.part === undefined ? '' : ` of ${e.part}`}: ${e.kind}: ${e.message}`;
}

/**
 * Broken games on stderr: the first `--errors N` (default 20) as `verb: file:line:column: …`,
 * then one line for the rest, so a dump with thousands of broken games does not drown the
 * terminal (the JSON report lists them apart).
 */
export class ErrorLister {
  private count = 0;
  private readonly listed: number;

  constructor(
    private readonly verb: string,
    errors: string | undefined,
    private readonly on: boolean,
  ) {
    this.listed = intOption('--errors', errors ?? '20', 0)!;
  }

  add(e: PgnGameError): void {
    // Above the progress bar: written into its line, the message was glued to the bar's text.
    if (++this.count <= this.listed && this.on) progressNote(`${this.verb}: ${formatError(e)}`);
  }

  /** The line for the broken games not listed. */
  end(): void {
    if (this.count > this.listed && this.on) process.stderr.write(`${this.verb} ${this.count - this.listed} more broken games (--errors N lists more)\n`);
  }
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

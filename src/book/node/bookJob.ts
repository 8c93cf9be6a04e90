/**
 * A long book job (`book merge` of .tbk or .bin books, `book add`, `book learn`, `book export`, a `--shard` build,
 * `tabiya serve`'s imports and whole-book exports) run in a worker thread, so that the main thread stays free for a signal
 * (and a server for its other requests). Writing a book is seconds to minutes of synchronous
 * work; on the main thread a Ctrl-C waited for the book to be written and renamed into place, and
 * the run then exited 130 with the book there anyway. Here the main thread only relays progress
 * and the worker's temporaries (tempFiles.ts openTempLink): a signal removes those and ends the
 * process at once, as it does for a full `book make` (whose finish already runs in workers,
 * tbkRanges.ts), and the output is left as it was.
 */
import { Worker } from 'node:worker_threads';
import type { PgnGameError } from '../../pgn/visitor.js';
import { openTempLink } from '../../node/tempFiles.js';
import type { MakeOptions } from '../polyglot/make.js';
import type { MergeOptions as BinMergeOptions } from '../polyglot/merge.js';
import type { MergeFilesResult } from './mergeFiles.js';
import type { TbkMergeOptions, TbkMergeSummary } from './tbkCombine.js';
import type { TbkBuildOptions, TbkBuildSummary } from './tbkBuild.js';
import type { LearnPgnOptions, LearnPgnSummary } from './richLearn.js';
import type { ExportJob, ExportJobResult } from '../../cli/commands/richExport.js';
import { reviveWorkerError } from './workDir.js';

type Callbacks = 'onProgress' | 'onFinishProgress' | 'onError';
type BuildOptions = Omit<TbkBuildOptions, Callbacks>;
type MergeOptions = Omit<TbkMergeOptions, 'onProgress'>;
type LearnOptions = Omit<LearnPgnOptions, 'onProgress' | 'onError'>;

/** The jobs, as plain data (they cross to the worker by structured clone). */
export type BookJob =
  | { kind: 'merge'; paths: string[]; output: string; opts: MergeOptions }
  | { kind: 'mergeToBin'; paths: string[]; output: string; opts: MergeOptions & MakeOptions }
  | { kind: 'add'; path: string; opts: BuildOptions }
  | { kind: 'build'; output: string; opts: BuildOptions }
  | { kind: 'learn'; path: string; inputs: string[]; opts: LearnOptions }
  | { kind: 'export'; job: ExportJob }
  | { kind: 'mergeBins'; paths: string[]; output: string; opts: BinMergeOptions }
  | { kind: 'exportBin'; path: string };

export interface BookJobResults {
  merge: TbkMergeSummary;
  mergeToBin: { games: number; kept: number; bytes: number; minGame: number };
  add: TbkBuildSummary & { notes: string[] };
  build: TbkBuildSummary;
  learn: LearnPgnSummary;
  export: ExportJobResult;
  mergeBins: MergeFilesResult;
  /** The book's Polyglot export (what `book export` writes), as bytes. */
  exportBin: Uint8Array;
}

/** The callbacks of the job's options, called on the main thread. */
export interface BookJobCallbacks {
  onProgress?(...args: number[]): void;
  onFinishProgress?(done: number, total: number, unit?: string): void;
  onError?(e: PgnGameError): void;
  /** Cancels the job: its worker is terminated, its temporaries removed, and the promise rejects with JobCancelled. */
  signal?: AbortSignal;
}

/** A job cancelled by its `signal` before it finished. */
export class JobCancelled extends Error {
  constructor() {
    super('the book job was cancelled');
    this.name = 'JobCancelled';
  }
}

/** What the worker says. */
export type JobMessage =
  | { kind: 'call'; name: Callbacks; args: unknown[] }
  | { kind: 'done'; result: unknown }
  | { kind: 'failed'; error: unknown };

/** Runs `job` in a worker thread and resolves with its result; its errors are thrown here as the job's own. */
export function runBookJob<J extends BookJob>(job: J, callbacks: BookJobCallbacks = {}): Promise<BookJobResults[J['kind']]> {
  const inputs = job.kind === 'add' || job.kind === 'build' ? job.opts.inputs : job.kind === 'learn' ? job.inputs : [];
  const stdin = inputs.includes('-');
  // The worker's temporaries come by a port of their own, which a signal handler reads at once (tempFiles.ts).
  const temps = openTempLink();
  const worker = new Worker(new URL('./bookJobWorker.js', import.meta.url), { workerData: { job, temps: temps.link }, transferList: [temps.link.port!], stdin });
  if (stdin) process.stdin.pipe(worker.stdin!);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      if (stdin) process.stdin.unpipe(worker.stdin!);
      temps.close();
      f();
    };
    worker.on('message', (m: JobMessage) => {
      switch (m.kind) {
        case 'call':
          (callbacks[m.name] as ((...a: unknown[]) => void) | undefined)?.(...m.args);
          break;
        case 'done':
          settle(() => resolve(m.result as BookJobResults[J['kind']]));
          break;
        case 'failed':
          settle(() => reject(reviveWorkerError(errorOf(m.error))));
          break;
      }
    });
    worker.on('error', (e) => settle(() => reject(reviveWorkerError(e))));
    let cancelled = false;
    worker.on('exit', (code) => {
      if (!cancelled) settle(() => reject(new Error(`the book job's worker thread ended (exit code ${code}) without a result`)));
    });
    const cancel = (): void => {
      if (settled) return;
      cancelled = true;
      // Once the thread has stopped, nothing more is made: its temporaries (an output's
      // temporary file, the book's lock, scratch directories) can go, and the output stays as it was.
      void worker.terminate().then(() => {
        if (settled) return;
        settled = true;
        if (stdin) process.stdin.unpipe(worker.stdin!);
        temps.abandon();
        reject(new JobCancelled());
      });
    };
    if (callbacks.signal?.aborted) cancel();
    else callbacks.signal?.addEventListener('abort', cancel, { once: true });
  });
}

/** The worker's error (bookJobWorker.ts plainError) as an Error with its fields again. */
function errorOf(x: unknown): unknown {
  const p = x as { name?: unknown; message?: unknown; stack?: unknown; fields?: Record<string, unknown> } | null;
  if (p === null || typeof p !== 'object' || typeof p.message !== 'string') return x;
  const e = Object.assign(new Error(p.message), p.fields);
  if (typeof p.name === 'string') e.name = p.name;
  if (typeof p.stack === 'string') e.stack = p.stack;
  return e;
}

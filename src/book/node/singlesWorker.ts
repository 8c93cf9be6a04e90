/**
 * Worker thread of a threaded replay of a book's games (singlesThreads.ts), for its single
 * positions or, for book export, the games that pass a split filter to a max-ply: opens
 * the book (checked whole by the thread that started it), replays its range of the games into
 * a ply log of its own, spilling runs when the log is full, sorts the log and hands it over,
 * with its runs, to the thread that merges them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PlyLog } from '../rich/plyLog.js';
import { TbkBook } from '../rich/tbkBook.js';
import { BookError } from '../polyglot/select.js';
import { replayFiltered, replaySingles } from './bookRows.js';
import type { SplitFilter } from '../rich/splits.js';
import { fastCrc32 } from './richFile.js';
import { FileReader } from './tbkFile.js';
import { threadFiles, type ScratchFile } from './workDir.js';
import { joinTemps, type TempLink } from '../../node/tempFiles.js';

export interface SinglesSetup {
  path: string;
  /** The book the starting thread has open (FileReader.identity), when it is a file. */
  identity?: string;
  worker: number;
  /** Games [from, to) to replay. */
  from: number;
  to: number;
  /** Records of the worker's ply log (its share of the memory budget). */
  capacity: number;
  /** The job's scratch directory. */
  dir: string;
  /** The process's temporaries: no file is made here while a signal removes the directory. */
  temps: TempLink;
  task: ReplayTask;
}

/**
 * What the worker replays: the plies of single positions (book add, merge, and an export's
 * single games), or the games that pass a split filter, to a max-ply (replayFiltered).
 */
export type ReplayTask =
  | {
      kind: 'singles';
      /** The single-position index, when the job holds it in memory. */
      singles?: SharedArrayBuffer;
    }
  | { kind: 'filtered'; maxPly: number; filter: SplitFilter };

export interface SinglesProgress {
  kind: 'progress';
  /** Games of the range replayed. */
  done: number;
}

export interface SinglesDone {
  kind: 'done';
  runs: { path: string; size: number; crc: number }[];
  /** The sorted log's buffer and its records. */
  log: SharedArrayBuffer;
  size: number;
  /** A filtered replay: the games it kept (their numbers in the book), in order. */
  kept?: Uint32Array;
}

if (parentPort !== null) {
  const port = parentPort;
  const setup = workerData as SinglesSetup;
  joinTemps(setup.temps);
  const file = new FileReader(setup.path);
  try {
    if (setup.identity !== undefined && file.identity() !== setup.identity) throw new BookError('ERR_BOOK_READ', `${setup.path} was written over while it was read (by another command): run this one again`);
    const r = TbkBook.open(file, setup.path, fastCrc32);
    if (!r.ok) throw r.error;
    const book = r.value;
    const task = setup.task;
    if (task.kind === 'singles' && task.singles !== undefined) book.holdSingles(new Uint8Array(task.singles), true);
    const table = new PlyLog(setup.capacity, true);
    const runs: ScratchFile[] = [];
    const files = threadFiles(setup.dir, `s${setup.worker}`);
    const progress = (done: number): void => port.postMessage({ kind: 'progress', done } satisfies SinglesProgress);
    let kept: number[] | undefined;
    if (task.kind === 'singles') replaySingles(book, setup.from, setup.to, table, runs, files, progress);
    else kept = replayFiltered(book, setup.from, setup.to, task.filter, task.maxPly, table, runs, files, progress);
    table.sort();
    const done: SinglesDone = { kind: 'done', runs: runs.map((f) => ({ path: f.path, size: f.size, crc: f.crc })), log: table.buffer as SharedArrayBuffer, size: table.size, kept: kept === undefined ? undefined : Uint32Array.from(kept) };
    for (const f of runs) f.close();
    port.postMessage(done, done.kept === undefined ? [] : [done.kept.buffer as ArrayBuffer]);
  } finally {
    file.close();
  }
}

/**
 * The replay of a book's games for its single positions (bookRows.ts, singleRows) shared out to
 * worker threads: `book add --threads N` spends most of its time there on a big book. Each
 * worker replays a contiguous range of the games against the single-position index (one copy
 * in shared memory when it is held, else each worker reads it through its own page cache) into
 * a ply log of its own, spilling runs as the single-threaded replay does, and sorts its log.
 * A key's candidates all come from one game (the one the index names), so from one worker; the
 * runs and logs are merged in game order (each worker's runs, then its log), as the
 * single-threaded replay merges its runs, and give the same rows. `book export` with another
 * --max-ply or a split filter shares out its replay of the games the same way.
 */
import { Worker } from 'node:worker_threads';
import { LogMerge } from '../rich/logMerge.js';
import { RunMerger, type MergeInput, type RowSource } from '../rich/mergeRuns.js';
import { PlyLog } from '../rich/plyLog.js';
import { RunReader } from '../rich/runs.js';
import type { TbkBook } from '../rich/tbkBook.js';
import { sharedBytes } from '../sharedBuffers.js';
import { holdsSingles, singleRows } from './bookRows.js';
import type { ReplayTask, SinglesDone, SinglesProgress, SinglesSetup } from './singlesWorker.js';
import type { SplitFilter } from '../rich/splits.js';
import { ScratchFile, reviveWorkerError, type WorkDir } from './workDir.js';
import { tempGateLink } from '../../node/tempFiles.js';
import { FileReader } from './tbkFile.js';

/** Fewer games than this a thread are replayed on one thread: starting workers would cost more. */
export const MIN_GAMES_A_THREAD = 20_000;

/**
 * The single positions of the book at `path` (open as `book`), as singleRows gives them,
 * replayed on up to `threads` threads, and the threads used (1: the book has too few games
 * for more). `onGames(done, total)` as in singleRows.
 */
export async function singleRowsThreaded(
  book: TbkBook,
  path: string,
  memory: number,
  work: WorkDir,
  threads: number,
  onGames?: (done: number, total: number) => void,
  minGames = MIN_GAMES_A_THREAD,
): Promise<{ rows: RowSource; threads: number }> {
  const n = replayThreads(book, threads, minGames);
  if (n < 2) return { rows: singleRows(book, memory, work, onGames), threads: 1 };
  let held = 0;
  let singles: Uint8Array | undefined;
  if (holdsSingles(book, memory)) {
    held = book.singlesBytes;
    singles = sharedBytes(held);
    book.holdSingles(singles);
  }
  const results = await replayOnThreads(book, path, n, PlyLog.capacityFor((memory - held) / n), work, { kind: 'singles', singles: singles?.buffer as SharedArrayBuffer | undefined }, onGames);
  return { rows: mergeShares(results, () => 0), threads: n };
}

/**
 * `book export` with another --max-ply or a split filter: the games that pass `filter`
 * replayed to `maxPly` on up to `threads` threads (bookRows.ts, replayFiltered), as rows in
 * run order with the stamps one thread gives (each thread numbers the games it keeps from 0;
 * its share is shifted by the games kept by the threads before it), and the kept games' numbers
 * in the book, in order (the halving replay's games). Undefined when the book has too few games
 * for two threads: the caller replays them itself.
 */
export async function filteredRowsThreaded(
  book: TbkBook,
  path: string,
  o: { maxPly: number; filter: SplitFilter; memory: number; work: WorkDir; threads: number; onGames?: (done: number, total: number) => void; minGames?: number },
): Promise<{ rows: RowSource; kept: number[]; threads: number } | undefined> {
  const n = replayThreads(book, o.threads, o.minGames ?? MIN_GAMES_A_THREAD);
  if (n < 2) return undefined;
  const results = await replayOnThreads(book, path, n, PlyLog.capacityFor(o.memory / n), o.work, { kind: 'filtered', maxPly: o.maxPly, filter: o.filter }, o.onGames);
  const kept: number[] = [];
  const offsets = results.map((r) => {
    const before = kept.length;
    for (const g of r.kept!) kept.push(g);
    return before;
  });
  return { rows: mergeShares(results, (i) => offsets[i]!), kept, threads: n };
}

/** The threads a replay of the book's games runs on: at most `threads`, each with `minGames` games or more. */
function replayThreads(book: TbkBook, threads: number, minGames: number): number {
  return Math.min(threads, Math.floor((book.games?.count ?? 0) / Math.max(1, minGames)));
}

/** Each thread's runs then its log, in game order; thread i's stamps shifted by `gameOffset(i)` games. */
function mergeShares(results: readonly SinglesDone[], gameOffset: (thread: number) => number): RowSource {
  const inputs: MergeInput[] = [];
  results.forEach((r, i) => {
    for (const run of r.runs) {
      const f = ScratchFile.closed(run.path, run.size, run.crc);
      inputs.push({ reader: new RunReader((o, k) => f.read(o, k), 0, f.size, f.path, (into, o) => f.readInto(into, o)), gameOffset: gameOffset(i) });
    }
    if (r.size > 0) inputs.push({ reader: new LogMerge([{ words: new Int32Array(r.log), from: 0, to: r.size }]), gameOffset: gameOffset(i) });
  });
  return inputs.length === 0 ? { next: () => false } : new RunMerger(inputs);
}

/**
 * The games of the book at `path` (open as `book`) replayed by `n` workers, each a contiguous
 * share; their results in game order. The workers open the path again: a book written over it
 * since (a rename by another command) is refused, not read as if it were this one.
 */
async function replayOnThreads(book: TbkBook, path: string, n: number, capacity: number, work: WorkDir, task: ReplayTask, onGames?: (done: number, total: number) => void): Promise<SinglesDone[]> {
  const count = book.games?.count ?? 0;
  const identity = book.source instanceof FileReader ? book.source.identity() : undefined;
  const per = Math.ceil(count / n);
  const done = new Array<number>(n).fill(0);
  const workers = Array.from({ length: n }, (_, worker) => {
    const setup: SinglesSetup = { path, identity, worker, from: worker * per, to: Math.min(count, (worker + 1) * per), capacity, dir: work.path, temps: tempGateLink(), task };
    return new Worker(new URL('./singlesWorker.js', import.meta.url), { workerData: setup });
  });
  try {
    const results = await new Promise<SinglesDone[]>((resolve, reject) => {
      const got = new Array<SinglesDone | undefined>(n).fill(undefined);
      let left = n;
      workers.forEach((w, i) => {
        w.on('message', (m: SinglesDone | SinglesProgress) => {
          if (m.kind === 'progress') {
            done[i] = m.done;
            onGames?.(
              done.reduce((a, b) => a + b, 0),
              count,
            );
            return;
          }
          got[i] = m;
          if (--left === 0) resolve(got as SinglesDone[]);
        });
        w.on('error', (e) => reject(reviveWorkerError(e)));
        w.on('exit', (code) => {
          if (got[i] === undefined) reject(new Error(`a replay thread stopped (exit code ${code})`));
        });
      });
    });
    onGames?.(count, count);
    return results;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

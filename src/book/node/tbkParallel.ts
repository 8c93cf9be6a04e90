/**
 * The parallel reading of a build with `--threads N`: the main thread reads and decompresses
 * the inputs and cuts them into chunks at game starts; N worker threads parse the chunks
 * (tbkParseWorker.ts) into games and logged plies; the main thread takes the results in chunk
 * order, renumbers their games after the ones before and hands them on. A `.bin` build and a
 * shard's partial book count them on the main thread (the accumulation sorts and spills runs
 * while the workers parse on); a whole rich book's workers also own key ranges and do the rest
 * themselves (tbkRanges.ts, ChunkWorkers).
 */
import { Worker } from 'node:worker_threads';
import type { PgnFilterOptions } from '../../pgn/filter.js';
import type { PgnGameError } from '../../pgn/visitor.js';
import type { SplitKinds } from '../rich/splits.js';
import { checkEachInput, countPerInput, type Input } from './inputs.js';
import { ChunkTally, gameChunks } from './parallel.js';
import type { ParseRequest, ParseSetup, ParsedGames } from './tbkParseChunk.js';
import type { CountedInputs } from './tbkBuild.js';
import { reviveWorkerError } from './workDir.js';

const CHUNK_BYTES = 1 << 20;

export interface ThreadedReadOptions {
  threads: number;
  maxPly: number;
  split: SplitKinds;
  filter?: PgnFilterOptions;
  onProgress?(done: number, total: number, games: number): void;
  onError?(e: PgnGameError): void;
}

/**
 * Workers that parse chunks and do more (tbkRanges.ts): the caller made them and ends them,
 * takes their other messages, and says how many chunks it still holds (a chunk counts against
 * the window of chunks in flight until the caller is done with it).
 */
export interface ChunkWorkers {
  workers: Worker[];
  /** A message that is not a parsed chunk (one with a `kind` other than 'parsed'). */
  message(worker: number, m: { kind: string }): void;
  held(): number;
  /** Chunks in flight at most, held ones included (default 2 per thread). */
  window: number;
  /** Adds to a request what the workers need besides the chunk. */
  request?(req: ParseRequest): ParseRequest;
  /** Deal the chunks to the workers in turn rather than to the least busy: each worker's share is then the same from run to run. */
  inTurn?: boolean;
}

/**
 * Reads the inputs on `threads` workers; `take` receives each chunk's games and plies in input
 * order. Returns the counts, with make-book's failure rules (checkEachInput).
 */
export async function readInputsThreaded(inputs: Input[], o: ThreadedReadOptions, take: (r: ParsedGames) => void, own?: ChunkWorkers): Promise<CountedInputs> {
  const { perFile, onError } = countPerInput(inputs, o.onError);
  const total = inputs.reduce((n, s) => n + (s.source.size ?? 0), 0);
  const counted: CountedInputs = { games: 0, errors: 0, used: 0, positions: 0, rejected: {} };
  const setup: ParseSetup = { maxPly: o.maxPly, split: o.split, filter: o.filter };
  const jobs: { file: string; newFile: boolean }[] = [];
  const done = new Map<number, ParsedGames>();
  const pool: Uint8Array[] = [];
  let next = 0;
  let inFlight = 0;
  let raw = 0;
  const tally = new ChunkTally(counted, perFile, onError);
  let failed: Error | undefined;
  let wake: (() => void) | undefined;

  const absorb = (r: ParsedGames): void => {
    const job = jobs[r.id]!;
    tally.take(job.file, job.newFile, r);
    counted.positions += r.positions;
    take(r);
    o.onProgress?.(raw, total, counted.games);
  };

  const workers = own?.workers ?? Array.from({ length: o.threads }, () => new Worker(new URL('./tbkParseWorker.js', import.meta.url), { workerData: setup }));
  const window = own?.window ?? o.threads * 2;
  const held = own === undefined ? () => 0 : () => own.held();
  const busy = new Array<number>(o.threads).fill(0);
  workers.forEach((w, i) => {
    w.on('message', (r: ParsedGames & { kind?: string }) => {
      try {
        if (r.kind !== undefined && r.kind !== 'parsed') {
          own!.message(i, r as { kind: string });
          wake?.();
          return;
        }
        busy[i]!--;
        inFlight--;
        if (pool.length < o.threads * 3) pool.push(new Uint8Array(r.input.buffer));
        done.set(r.id, r);
        for (let d = done.get(next); d !== undefined; d = done.get(next)) {
          done.delete(next++);
          absorb(d);
        }
      } catch (e) {
        failed ??= e as Error;
      }
      wake?.();
    });
    w.on('error', (e) => {
      failed ??= reviveWorkerError(e) as Error;
      wake?.();
    });
  });
  const until = async (ready: () => boolean): Promise<void> => {
    while (!ready() && failed === undefined) await new Promise<void>((r) => (wake = r));
    if (failed !== undefined) throw failed;
  };
  const send = async (file: string, bytes: Uint8Array, newFile: boolean): Promise<void> => {
    // Parsed chunks waiting for an earlier one count too: a slow worker holds the rest back.
    await until(() => inFlight + done.size + held() < window);
    let by = jobs.length % o.threads;
    if (own?.inTurn !== true) for (let i = 0; i < o.threads; i++) if (busy[i]! < busy[by]!) by = i;
    busy[by]!++;
    inFlight++;
    const plain: ParseRequest = { id: jobs.length, file, bytes };
    const req = own?.request?.(plain) ?? plain;
    jobs.push({ file, newFile });
    // The chunk is a shared buffer (gameChunks): passed by reference, nothing detached.
    workers[by]!.postMessage(req);
  };

  try {
    for await (const c of gameChunks(inputs, CHUNK_BYTES, pool, (r) => (raw = r))) await send(c.file, c.bytes, c.newFile);
    await until(() => inFlight === 0);
  } finally {
    if (own === undefined) await Promise.all(workers.map((w) => w.terminate()));
  }
  checkEachInput(inputs, perFile);
  return counted;
}

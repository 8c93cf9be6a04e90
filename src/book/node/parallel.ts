/**
 * The parallel make-book (`--threads N`): the main thread reads and decompresses the input and
 * cuts it into chunks at game starts; N participants (the main thread's own partition and N-1
 * worker threads, see book/polyglot/partition.ts) parse chunks and exchange each chunk's moves
 * by key partition; every partition adds its moves in the original chunk order, so the merged
 * partitions are byte for byte the single-threaded book. Chunks and parts are shared buffers
 * (book/sharedBuffers.ts: a thread that detached a buffer would run slower) and are reused, so
 * memory stays at the accumulators plus a few chunks in flight.
 */
import { Worker } from 'node:worker_threads';
import type { PgnGameError } from '../../pgn/visitor.js';
import { ENTRY_SIZE, u32 } from '../polyglot/format.js';
import type { MakeOptions } from '../polyglot/make.js';
import { Partition, type FinishedPartition, type ParsedChunk, type PartitionSetup } from '../polyglot/partition.js';
import { expectedEntries, type Built, type Counts, type Input, type InputCount } from './inputs.js';
import type { MakeBookOptions } from './makeBook.js';
import type { FromWorker, ToWorker } from './makeWorker.js';
import { sharedBytes } from '../sharedBuffers.js';

const CHUNK_BYTES = 1 << 20;
const EVENT = new TextEncoder().encode('\n[Event ');
const EVENT_CR = new TextEncoder().encode('\r[Event ');

/** A participant of a parallel build: the main thread's own partition, or a worker thread. */
interface Participant {
  post(m: ToWorker): void;
  close(): Promise<unknown>;
}

export async function runThreaded(
  opts: MakeBookOptions,
  inputs: Input[],
  maxPly: number,
  threads: number,
  totalBytes: number,
  perFile: Map<string, InputCount>,
  onError: (e: PgnGameError) => void,
): Promise<Built> {
  const expected = Math.ceil(expectedEntries(inputs, maxPly) / threads);
  const setup = (index: number): PartitionSetup => ({ index, partitions: threads, maxPly, filter: opts.filter, expected });
  const chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
  const counts: Counts = { games: 0, errors: 0, used: 0, rejected: {} };
  const tally = new ChunkTally(counts, perFile, onError);
  // Per chunk: its file, whether it starts the file, partitions done, who parses it.
  const jobs: { file: string; newFile: boolean; acks: number; by: number }[] = [];
  // Chunks waiting to be parsed, per participant: the next chunk goes to the least busy one
  // (workers first on ties, since the main thread also reads and splits the input).
  const parsing = new Array<number>(threads).fill(0);
  const parsed = new Map<number, ParsedChunk>();
  let nextParsed = 0;
  let inFlight = 0;
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  let raw = 0;
  const finished: FinishedPartition[] = [];
  // Input buffers come back with their results and are reused for later chunks.
  const inputPool: Uint8Array[] = [];

  // Counters and error locations need the chunks in order (game numbers continue across chunks).
  const absorb = (r: ParsedChunk): void => {
    const job = jobs[r.id]!;
    tally.take(job.file, job.newFile, r);
    opts.onProgress?.(raw, totalBytes, counts.games);
  };

  const participants: Participant[] = [];
  const onMessage = (m: FromWorker): void => {
    try {
      if (m.type === 'parsed') {
        parsing[jobs[m.id]!.by]!--;
        if (inputPool.length < threads * 3) inputPool.push(new Uint8Array(m.input.buffer));
        m.parts.forEach((data, p) => participants[p]!.post({ type: 'part', id: m.id, data, length: m.lengths[p]! }));
        parsed.set(m.id, m);
        for (let r = parsed.get(nextParsed); r !== undefined; r = parsed.get(nextParsed)) {
          parsed.delete(nextParsed++);
          absorb(r);
        }
      } else if (m.type === 'ack') {
        for (const id of m.ids) if (++jobs[id]!.acks === threads) inFlight--;
      } else finished.push(m);
    } catch (e) {
      failed ??= e as Error;
    }
    wake?.();
  };

  // Partition 0 is the main thread's own; its work is queued behind pending events so that
  // worker messages keep flowing while it parses.
  const local = new Partition(setup(0));
  participants.push({
    post(m) {
      setImmediate(() => {
        try {
          if (m.type === 'parse') onMessage({ type: 'parsed', ...local.parse(m.id, m.file, m.bytes) });
          else if (m.type === 'part') {
            const ids = local.part(m.id, m.data, m.length);
            if (ids.length > 0) onMessage({ type: 'ack', ids });
          } else onMessage({ type: 'finished', ...local.finish(m.options) });
        } catch (e) {
          failed ??= e as Error;
          wake?.();
        }
      });
    },
    close: async () => {},
  });
  for (let i = 1; i < threads; i++) {
    const w = new Worker(new URL('./makeWorker.js', import.meta.url), { workerData: setup(i) });
    w.on('message', onMessage);
    w.on('error', (e) => {
      failed ??= e;
      wake?.();
    });
    participants.push({
      post(m) {
        // Chunks and parts are shared buffers: passed by reference, nothing detached.
        w.postMessage(m);
      },
      close: () => w.terminate(),
    });
  }
  const until = async (ready: () => boolean): Promise<void> => {
    while (!ready() && failed === undefined) await new Promise<void>((r) => (wake = r));
    if (failed !== undefined) throw failed;
  };

  const send = async (file: string, bytes: Uint8Array, newFile: boolean): Promise<void> => {
    await until(() => inFlight < threads * 2);
    const id = jobs.length;
    let by = threads - 1;
    for (let p = threads - 2; p >= 0; p--) if (parsing[p]! < parsing[by]!) by = p;
    parsing[by]!++;
    jobs.push({ file, newFile, acks: 0, by });
    inFlight++;
    participants[by]!.post({ type: 'parse', id, file, bytes });
  };

  try {
    for await (const c of gameChunks(inputs, chunkBytes, inputPool, (r) => (raw = r))) await send(c.file, c.bytes, c.newFile);
    await until(() => inFlight === 0);
    for (const p of participants) p.post({ type: 'finish', options: finishOptions(opts) });
    await until(() => finished.length === threads);
  } finally {
    await Promise.all(participants.map((p) => p.close()));
  }
  const bytes = mergePartitions(finished.map((f) => f.bytes));
  return {
    counts,
    bytes,
    kept: bytes.length / ENTRY_SIZE,
    size: finished.reduce((n, f) => n + f.size, 0),
    added: finished.reduce((n, f) => n + f.added, 0),
  };
}

/** The make-book options alone (what a worker needs to finish its partition). */
function finishOptions(o: MakeOptions): MakeOptions {
  return { minGame: o.minGame, minScore: o.minScore, colour: o.colour, uniform: o.uniform };
}

/** Merges sorted books whose keys are disjoint into one sorted book. */
export function mergePartitions(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const pos = parts.map(() => 0);
  let o = 0;
  for (;;) {
    let best = -1;
    let bh = 0;
    let bl = 0;
    for (let p = 0; p < parts.length; p++) {
      if (pos[p]! >= parts[p]!.length) continue;
      const h = u32(parts[p]!, pos[p]!);
      const l = u32(parts[p]!, pos[p]! + 4);
      if (best < 0 || h < bh || (h === bh && l < bl)) {
        best = p;
        bh = h;
        bl = l;
      }
    }
    if (best < 0) return out;
    // Copy the whole run of this key.
    const src = parts[best]!;
    let e = pos[best]!;
    while (e < src.length && u32(src, e) === bh && u32(src, e + 4) === bl) e += ENTRY_SIZE;
    out.set(src.subarray(pos[best]!, e), o);
    o += e - pos[best]!;
    pos[best] = e;
  }
}

/**
 * The counts of chunks parsed elsewhere, taken in input order: games per file and in all, and
 * the errors, placed in their files: a chunk is parsed from its line 1 and game 1, and its lines
 * (as the scanner counts them) and games are added to those of the chunks before it.
 */
export class ChunkTally {
  private games = 0;
  private lines = 0;

  constructor(
    readonly counts: Counts,
    private readonly perFile: Map<string, InputCount>,
    private readonly onError: (e: PgnGameError) => void,
  ) {}

  take(file: string, newFile: boolean, r: { errors: readonly PgnGameError[]; lines: number; lastGame: number; parsed: number; games: number; rejected: Record<string, number> }): void {
    if (newFile) {
      this.games = 0;
      this.lines = 0;
    }
    for (const e of r.errors) this.onError(this.placed(e));
    this.lines += r.lines;
    this.games += r.lastGame;
    this.perFile.get(file)!.games += r.parsed;
    const c = this.counts;
    c.games += r.parsed;
    c.errors += r.errors.length;
    c.used += r.games;
    for (const [k, v] of Object.entries(r.rejected)) c.rejected[k] = (c.rejected[k] ?? 0) + v;
  }

  /** An error of the current chunk with its file's line and game numbers, in its message too (the line a comment or variation opened on). */
  private placed(e: PgnGameError): PgnGameError {
    const out: PgnGameError = { ...e, line: e.line + this.lines, game: e.game + this.games };
    if (e.opened !== undefined) {
      out.opened = e.opened + this.lines;
      out.message = e.message.replace(`line ${e.opened}`, `line ${out.opened}`);
    }
    return out;
  }
}

/**
 * The inputs cut into chunks of about `chunkBytes` that end before a game start (the last
 * chunk of a file at its end), in order; `onRaw` hears the input bytes read so far.
 */
export async function* gameChunks(inputs: Input[], chunkBytes: number, pool: Uint8Array[], onRaw: (raw: number) => void): AsyncGenerator<{ file: string; bytes: Uint8Array; newFile: boolean }> {
  let before = 0;
  for (const input of inputs) {
    const source = input.source;
    // Chunks are gathered until there are enough bytes, then cut before the last game start.
    let parts: Uint8Array[] = [];
    let size = 0;
    let newFile = true;
    for await (const chunk of source.chunks) {
      onRaw(before + (source.bytesRead?.() ?? 0));
      parts.push(chunk);
      size += chunk.length;
      if (size < chunkBytes) continue;
      const all = concat(parts, size, pool);
      const cut = lastGameStart(all);
      if (cut <= 0) {
        parts = [all];
        continue;
      }
      const rest = all.slice(cut);
      parts = [rest];
      size = rest.length;
      yield { file: source.name, bytes: all.subarray(0, cut), newFile };
      newFile = false;
    }
    if (size > 0 || newFile) yield { file: source.name, bytes: concat(parts, size, pool), newFile };
    before += source.size ?? 0;
  }
}

/**
 * Where the last game in `buf` starts (index of its "["), or -1: the last line starting with
 * "[Event " (the reader starts a new game there even inside an unclosed comment), or, in files
 * without Event tags, the last "[" + letter that follows a blank line.
 */
export function lastGameStart(buf: Uint8Array): number {
  const at = (i: number, word: Uint8Array): boolean => {
    for (let k = 0; k < word.length; k++) if (buf[i + k] !== word[k]) return false;
    return true;
  };
  for (let i = buf.lastIndexOf(10, buf.length - EVENT.length); i >= 0; i = i > 0 ? buf.lastIndexOf(10, i - 1) : -1) {
    if (at(i, EVENT)) return i + 1;
  }
  for (let i = buf.lastIndexOf(91, buf.length - 2); i >= 2; i = buf.lastIndexOf(91, i - 1)) {
    const c = buf[i + 1]! | 32;
    if (c >= 97 && c <= 122 && buf[i - 1] === 10 && (buf[i - 2] === 10 || (buf[i - 2] === 13 && buf[i - 3] === 10))) return i;
  }
  // No line feed before a game: a file with lone CR line ends (old Mac exports, which the reader
  // takes), cut the same way, or it would be read as one chunk by one thread.
  for (let i = buf.lastIndexOf(13, buf.length - EVENT_CR.length); i >= 0; i = i > 0 ? buf.lastIndexOf(13, i - 1) : -1) {
    if (at(i, EVENT_CR)) return i + 1;
  }
  for (let i = buf.lastIndexOf(91, buf.length - 2); i >= 2; i = buf.lastIndexOf(91, i - 1)) {
    const c = buf[i + 1]! | 32;
    if (c >= 97 && c <= 122 && buf[i - 1] === 13 && buf[i - 2] === 13) return i;
  }
  return -1;
}

/**
 * The parts in one array of its own, in shared memory (never a view of a buffer Node shares
 * between streams), taken from `pool` when one is large enough.
 */
function concat(parts: readonly Uint8Array[], size: number, pool: Uint8Array[]): Uint8Array {
  let c: Uint8Array | undefined;
  for (let i = pool.length - 1; i >= 0 && c === undefined; i--) {
    if (pool[i]!.length >= size) c = pool.splice(i, 1)[0]!.subarray(0, size);
  }
  c ??= sharedBytes(Math.max(size, Math.min(size * 2, CHUNK_BYTES + (CHUNK_BYTES >> 1)))).subarray(0, size);
  let o = 0;
  for (const p of parts) {
    c.set(p, o);
    o += p.length;
  }
  return c;
}

/**
 * Loading a labelled-position file (plain or gzip) into a trace store, on worker threads, and
 * splitting it into training and validation parts with a seed. Blank lines and lines starting
 * with `#` are skipped silently; unreadable lines are skipped, counted and reported as
 * `file:line: why`.
 */
import { createRng } from '../match/rng.js';
import { notText } from '../node/textFile.js';
import { addCounts, buildTraces, emptyCounts, MAX_ERRORS, type BuildCounts } from './build.js';
import { TuneWorker } from './objective.js';
import { TraceStore } from './traceStore.js';
import { readInputFile } from '../node/matchFiles.js';

export interface LoadedData {
  store: TraceStore;
  counts: BuildCounts;
  /** `file:line: why`, the first MAX_ERRORS unreadable lines. */
  errors: string[];
}

export interface LoadOptions {
  /** Resolve positions with the quiescence search first (default true). */
  resolve?: boolean;
  /** Worker threads (1: the calling thread). */
  threads?: number;
  /** Use at most this many lines, drawn at random with `seed` (default all). */
  limit?: number;
  seed?: number;
  onProgress?: (done: number, total: number) => void;
}

/** The text of a file, decompressed when its first bytes say gzip, zstd or bzip2 (src/pgn/compression.ts). */
export function readText(file: string): string {
  const raw = readInputFile(file);
  // A binary file would otherwise give one "unreadable line" per newline byte it happens to hold.
  const bad = notText(raw.subarray(0, 1 << 16), 'labelled positions (EPD text)');
  if (bad) throw new Error(`${file}:${bad.line}: ${bad.message}`);
  return raw.toString('utf8');
}

export async function loadLabeled(file: string, opts: LoadOptions = {}): Promise<LoadedData> {
  const text = readText(file);
  let lines: string[] = [];
  let nos: number[] = [];
  let lineNo = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const l = raw.trim();
    if (l === '' || l.startsWith('#')) continue;
    lines.push(l);
    nos.push(lineNo);
  }
  if (opts.limit !== undefined && opts.limit < lines.length) {
    const pick = sampleIndices(lines.length, opts.limit, opts.seed ?? 1);
    lines = Array.from(pick, (i) => lines[i]!);
    nos = Array.from(pick, (i) => nos[i]!);
  }
  const threads = Math.max(1, Math.min(opts.threads ?? 1, Math.ceil(lines.length / 1000)));
  const resolve = opts.resolve ?? true;
  const counts = emptyCounts();
  const errors: string[] = [];
  if (threads === 1) {
    const r = buildTraces(lines, Int32Array.from(nos), { resolve, onProgress: (d) => opts.onProgress?.(d, lines.length) });
    addCounts(counts, r.counts);
    for (const e of r.errors) errors.push(`${file}:${e.line}: ${e.message}`);
    return { store: r.store, counts, errors };
  }
  const per = Math.ceil(lines.length / threads);
  const done = new Array<number>(threads).fill(0);
  const workers = Array.from({ length: threads }, () => new TuneWorker());
  try {
    const parts = await Promise.all(
      workers.map(async (w, t) => {
        w.onProgress = (d) => {
          done[t] = d;
          opts.onProgress?.(done.reduce((a, b) => a + b, 0), lines.length);
        };
        const r = await w.request({ type: 'build', lines: lines.slice(t * per, (t + 1) * per), lineNos: Int32Array.from(nos.slice(t * per, (t + 1) * per)), resolve });
        if (r.type !== 'built') throw new Error('tuner worker: unexpected reply');
        return r;
      }),
    );
    for (const p of parts) {
      addCounts(counts, p.counts);
      for (const e of p.errors) if (errors.length < MAX_ERRORS) errors.push(`${file}:${e.line}: ${e.message}`);
    }
    return { store: TraceStore.concat(parts.map((p) => TraceStore.fromBuffers(p.store))), counts, errors };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** `k` distinct indices below n, in increasing order, drawn with `seed`. */
export function sampleIndices(n: number, k: number, seed: number): Int32Array {
  const order = shuffled(n, seed);
  return order.subarray(0, Math.min(k, n)).sort();
}

/** 0..n−1 shuffled with `seed` (Fisher–Yates). */
export function shuffled(n: number, seed: number): Int32Array {
  const rng = createRng(seed);
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a;
}

/** Training and validation parts: a `fraction` of the positions, drawn with `seed`, is held out. */
export function splitStore(store: TraceStore, fraction: number, seed: number, shared = false): { train: TraceStore; validation: TraceStore } {
  const order = shuffled(store.n, seed ^ 0x5bd1e995);
  const nv = Math.round(store.n * fraction);
  const val = order.slice(0, nv).sort();
  const train = order.slice(nv).sort();
  return { train: store.select(train, shared), validation: store.select(val, shared) };
}

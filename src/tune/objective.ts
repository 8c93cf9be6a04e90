/**
 * The loss every optimiser minimises, over one trace store: on the calling thread
 * (`LocalObjective`), or split over worker threads (`PoolObjective`, one contiguous range of
 * positions each). Both return means; the gradient is the mean gradient.
 */
import { Worker } from 'node:worker_threads';
import { exactLossRange, lossGradRange, lossRange } from './linear.js';
import { TraceStore } from './traceStore.js';
import type { TuneWorkerReply, TuneWorkerRequest } from './worker.js';

export interface Objective {
  /** Positions. */
  readonly n: number;
  readonly store: TraceStore;
  loss(w: Float64Array, K: number): Promise<number>;
  /** Loss, with its gradient written into `grad` (same length as w). */
  lossGrad(w: Float64Array, K: number, grad: Float64Array): Promise<number>;
  /** The loss of integer weights as the engine evaluates with them (its truncations included). */
  exactLoss(w: Float64Array, K: number): Promise<number>;
  close(): Promise<void>;
}

export class LocalObjective implements Objective {
  constructor(readonly store: TraceStore) {}

  get n(): number {
    return this.store.n;
  }

  loss(w: Float64Array, K: number): Promise<number> {
    return Promise.resolve(this.store.n === 0 ? 0 : lossRange(this.store, w, K, 0, this.store.n) / this.store.n);
  }

  lossGrad(w: Float64Array, K: number, grad: Float64Array): Promise<number> {
    grad.fill(0);
    const n = this.store.n;
    if (n === 0) return Promise.resolve(0);
    const sum = lossGradRange(this.store, w, K, 0, n, grad);
    for (let i = 0; i < grad.length; i++) grad[i] /= n;
    return Promise.resolve(sum / n);
  }

  exactLoss(w: Float64Array, K: number): Promise<number> {
    return Promise.resolve(this.store.n === 0 ? 0 : exactLossRange(this.store, w, K, 0, this.store.n) / this.store.n);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export const WORKER_URL = new URL('./worker.js', import.meta.url);

/** A worker thread with one request in flight at a time. */
export class TuneWorker {
  readonly worker: Worker;
  private pending: ((r: TuneWorkerReply) => void) | null = null;
  onProgress?: (done: number) => void;
  private failure: Error | null = null;

  constructor() {
    this.worker = new Worker(WORKER_URL);
    this.worker.on('message', (r: TuneWorkerReply) => {
      if (r.type === 'progress') {
        this.onProgress?.(r.done);
        return;
      }
      const p = this.pending;
      this.pending = null;
      p?.(r);
    });
    this.worker.on('error', (e) => {
      this.failure = e;
      const p = this.pending;
      this.pending = null;
      p?.({ type: 'done' });
    });
  }

  request(msg: TuneWorkerRequest, transfer?: ArrayBuffer[]): Promise<TuneWorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending = (r) => (this.failure ? reject(this.failure) : resolve(r));
      this.worker.postMessage(msg, transfer);
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class PoolObjective implements Objective {
  private readonly weights: Float64Array;
  private readonly out: Float64Array;
  private constructor(
    readonly store: TraceStore,
    private readonly workers: TuneWorker[],
    width: number,
  ) {
    this.weights = new Float64Array(new SharedArrayBuffer(8 * width));
    this.out = new Float64Array(new SharedArrayBuffer(8 * (width + 1) * workers.length));
  }

  /** Splits `store` (copied into shared memory unless it already is) over `threads` workers. */
  static async create(store: TraceStore, threads: number, width: number): Promise<PoolObjective> {
    const shared = store.start.buffer instanceof SharedArrayBuffer ? store : store.select(identity(store.n), true);
    const workers = Array.from({ length: Math.max(1, threads) }, () => new TuneWorker());
    const pool = new PoolObjective(shared, workers, width);
    const per = Math.ceil(shared.n / workers.length);
    await Promise.all(
      workers.map((w, slot) =>
        w.request({
          type: 'attach',
          store: shared.buffers(),
          weights: pool.weights.buffer as SharedArrayBuffer,
          out: pool.out.buffer as SharedArrayBuffer,
          slot,
          from: Math.min(shared.n, slot * per),
          to: Math.min(shared.n, (slot + 1) * per),
        }),
      ),
    );
    return pool;
  }

  get n(): number {
    return this.store.n;
  }

  loss(w: Float64Array, K: number): Promise<number> {
    return this.sum(w, K, false);
  }

  exactLoss(w: Float64Array, K: number): Promise<number> {
    return this.sum(w, K, true);
  }

  private async sum(w: Float64Array, K: number, exact: boolean): Promise<number> {
    if (this.n === 0) return 0;
    this.weights.set(w);
    await Promise.all(this.workers.map((x) => x.request({ type: 'loss', K, exact })));
    const width = w.length + 1;
    let sum = 0;
    for (let s = 0; s < this.workers.length; s++) sum += this.out[s * width]!;
    return sum / this.n;
  }

  async lossGrad(w: Float64Array, K: number, grad: Float64Array): Promise<number> {
    grad.fill(0);
    if (this.n === 0) return 0;
    this.weights.set(w);
    await Promise.all(this.workers.map((x) => x.request({ type: 'grad', K })));
    const width = w.length + 1;
    let sum = 0;
    for (let s = 0; s < this.workers.length; s++) {
      sum += this.out[s * width]!;
      const base = s * width + 1;
      for (let i = 0; i < grad.length; i++) grad[i] += this.out[base + i]!;
    }
    for (let i = 0; i < grad.length; i++) grad[i] /= this.n;
    return sum / this.n;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/** An objective on `threads` threads: the calling thread for 1, workers otherwise. */
export async function makeObjective(store: TraceStore, threads: number, width: number): Promise<Objective> {
  return threads <= 1 ? new LocalObjective(store) : PoolObjective.create(store, threads, width);
}

/**
 * An EngineHost whose searches run on a worker thread (engineWorker.ts), so the protocol loop
 * on the main thread answers `isready`, `stop` and `ponderhit` at once during a search.
 *
 * Stop and ponderhit do not wait for the worker's message queue: they are written into a
 * SharedArrayBuffer the search polls every thousand nodes or so (well under a millisecond),
 * and an idle `go infinite` waits on it with Atomics.wait. The stop flag is cleared here before
 * a `go` is posted, never by the worker, so a `stop` sent right after `go` cannot be lost; a
 * `go` that arrives while a stopped search is still winding down waits for it to end.
 */
import { Worker } from 'node:worker_threads';
import type { LearnGame } from '../engine/bookProbe.js';
import type { EngineConfig, EngineHost, GoRequest, WireBest, WireInfo } from '../engine/host.js';
import { SIG_PONDER, SIG_SIZE, SIG_STOP } from '../engine/search/thread.js';

export type WorkerRequest =
  | { type: 'configure'; config: Partial<EngineConfig> }
  | { type: 'clearHash' }
  | { type: 'newGame' }
  | { type: 'go'; id: number; req: GoRequest }
  | { type: 'learn'; game: LearnGame }
  | { type: 'close' };

export type WorkerReply =
  | { type: 'info'; id: number; info: WireInfo }
  | { type: 'best'; id: number; best: WireBest }
  | { type: 'error'; message: string };

export class WorkerHost implements EngineHost {
  private readonly worker: Worker;
  private readonly signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  private nextId = 0;
  private current: { id: number; onInfo: (i: WireInfo) => void; onBest: (b: WireBest) => void } | undefined;
  /** Id of the search the worker is running (0: idle), and a request waiting for it to end. */
  private running = 0;
  private queued: GoRequest | undefined;
  /** Configuration errors (a bad book file), to report to the user. */
  onError?: (message: string) => void;

  constructor() {
    this.worker = new Worker(new URL('./engineWorker.js', import.meta.url), { workerData: { signals: this.signals.buffer } });
    this.worker.on('message', (r: WorkerReply) => this.received(r));
    this.worker.on('error', (e) => this.onError?.(`search thread failed: ${e.message}`));
  }

  private received(r: WorkerReply): void {
    if (r.type === 'error') {
      this.onError?.(r.message);
      return;
    }
    const c = this.current;
    if (r.type === 'best' && r.id === this.running) {
      this.running = 0;
      if (this.queued && this.current) {
        const req = this.queued;
        this.queued = undefined;
        this.launch(this.current.id, req);
      }
    }
    if (!c || c.id !== r.id) return;
    if (r.type === 'info') c.onInfo(r.info);
    else {
      this.current = undefined;
      c.onBest(r.best);
    }
  }

  private launch(id: number, req: GoRequest): void {
    this.running = id;
    Atomics.store(this.signals, SIG_STOP, 0);
    Atomics.store(this.signals, SIG_PONDER, req.limits.ponder ? 1 : 0);
    this.post({ type: 'go', id, req });
  }

  private post(m: WorkerRequest): void {
    this.worker.postMessage(m);
  }

  configure(config: Partial<EngineConfig>): void {
    this.post({ type: 'configure', config });
  }

  clearHash(): void {
    this.post({ type: 'clearHash' });
  }

  newGame(): void {
    this.post({ type: 'newGame' });
  }

  go(req: GoRequest, onInfo: (i: WireInfo) => void, onBest: (b: WireBest) => void): void {
    const id = ++this.nextId;
    this.current = { id, onInfo, onBest };
    // A previous search still winding down keeps its stop signal; this one starts after it.
    if (this.running !== 0) this.queued = req;
    else this.launch(id, req);
  }

  stop(): void {
    Atomics.store(this.signals, SIG_STOP, 1);
    Atomics.notify(this.signals, SIG_STOP);
  }

  ponderhit(): void {
    Atomics.store(this.signals, SIG_PONDER, 0);
    Atomics.notify(this.signals, SIG_STOP);
  }

  learn(game: LearnGame): void {
    this.post({ type: 'learn', game });
  }

  close(): void {
    this.stop();
    this.post({ type: 'close' });
    void this.worker.terminate();
  }
}

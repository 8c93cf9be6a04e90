/**
 * An EngineHost whose searches run on worker threads (engineWorker.ts), so the protocol loop
 * on the main thread answers `isready`, `stop` and `ponderhit` at once during a search.
 *
 * Stop and ponderhit do not wait for the workers' message queues: they are written into a
 * SharedArrayBuffer the search polls every few hundred nodes (well under a millisecond), and
 * an idle `go infinite` waits on it with Atomics.wait. The stop flag is cleared here before a
 * `go` is posted, never by a worker, so a `stop` sent right after `go` cannot be lost; a `go`
 * that arrives while a stopped search is still winding down waits for it to end.
 *
 * Threads > 1 adds Lazy SMP helpers: more workers searching the same position over the same
 * hash table (in the shared WebAssembly.Memory owned here, src/engine/wasm/smp.ts), each a
 * little ahead or behind the main search.
 * A generation number bumped for every `go` ends any helper still busy with an old search.
 *
 * A `stop` or `ponderhit` that comes while a `go` waits for the previous search to wind down
 * applies to that `go` when it starts, so it is not lost. A main search thread that fails (an
 * uncaught error, or an exit nobody asked for) leaves searches that will never answer: the
 * host reports it through `onFatal` so the front end can end the process instead of hanging.
 */
import { Worker } from 'node:worker_threads';
import { addressSpaceLimit, addressSpaceText, threadsThatFit } from './addressSpace.js';
import type { LearnGame } from '../engine/bookProbe.js';
import type { EngineConfig, EngineHost, GoRequest, WireBest, WireInfo } from '../engine/host.js';
import { MAX_THREADS, SIG_GEN, SIG_NODES, SIG_PONDER, SIG_SIZE, SIG_STOP } from '../engine/signals.js';
import { growForTable, sharedCoreMemory } from '../engine/wasm/smp.js';

export type WorkerRequest =
  | { type: 'configure'; config: Partial<EngineConfig> }
  | { type: 'hash'; megabytes: number }
  | { type: 'clearHash' }
  | { type: 'newGame' }
  | { type: 'go'; id: number; req: GoRequest; threads: number }
  | { type: 'learn'; game: LearnGame }
  | { type: 'sync' }
  | { type: 'close' };

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'info'; id: number; info: WireInfo }
  | { type: 'best'; id: number; best: WireBest }
  | { type: 'learned'; error?: string }
  | { type: 'synced' }
  | { type: 'error'; message: string };

export class WorkerHost implements EngineHost {
  private readonly workers: Worker[] = [];
  private readonly signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  /** The hash table size (MB) every thread's core has. */
  private hashMB = 16;
  /** The memory every thread's WebAssembly core shares when Threads > 1 (a string: why there is none). */
  private readonly memory: WebAssembly.Memory | string;
  /** Everything configured so far, for helpers started later. */
  private config: Partial<EngineConfig> = {};
  private nextId = 0;
  private current: { id: number; onInfo: (i: WireInfo) => void; onBest: (b: WireBest) => void } | undefined;
  /** Id of the search the main worker is running (0: idle), and a request waiting for it to end. */
  private running = 0;
  private queued: GoRequest | undefined;
  /** A stop came for the queued request: it starts stopped. */
  private queuedStopped = false;
  /** close() was called: the workers' exits are expected. */
  private closing = false;
  private failed = false;
  /** The main search thread failed; nothing it was asked will be answered. */
  onFatal?: (message: string) => void;
  /** Configuration errors (a bad book file), to report to the user. */
  onError?: (message: string) => void;
  /** Per worker, callbacks waiting for it to work through the messages posted before them. */
  private syncWaiters: (() => void)[][] = [];
  /** Games handed to book learning and not yet written; close waits for them. */
  private learning = 0;
  private learnedWaiters: (() => void)[] = [];

  /** `workerUrl`: the search thread's module (tests give one that fails). */
  constructor(private readonly workerUrl = new URL('./engineWorker.js', import.meta.url)) {
    this.memory = sharedCoreMemory(this.hashMB);
    this.spawn();
  }

  private spawn(): void {
    const index = this.workers.length;
    const memory = typeof this.memory === 'string' ? undefined : this.memory;
    const w = new Worker(this.workerUrl, { workerData: { signals: this.signals.buffer, hashMB: this.hashMB, index, memory } });
    if (index === 0) {
      w.on('message', (r: WorkerReply) => this.received(r));
      w.on('error', (e) => this.fail(`search thread failed: ${e.message}`));
      w.on('exit', (code) => this.fail(`search thread ended unexpectedly (exit code ${code})`));
    } else {
      // A helper only fills the shared table: the main search goes on without it.
      w.on('error', (e) => this.onError?.(`search thread ${index} failed: ${e.message}`));
      w.on('message', (r: WorkerReply) => {
        if (r.type === 'synced') this.syncWaiters[index]?.shift()?.();
      });
    }
    this.syncWaiters[index] = [];
    this.workers.push(w);
    if (index > 0) w.postMessage({ type: 'configure', config: this.config } satisfies WorkerRequest);
  }

  private fail(message: string): void {
    if (this.closing || this.failed) return;
    this.failed = true;
    if (this.onFatal) this.onFatal(message);
    else this.onError?.(message);
  }

  private received(r: WorkerReply): void {
    if (r.type === 'ready') return;
    if (r.type === 'error') {
      this.onError?.(r.message);
      return;
    }
    if (r.type === 'synced') {
      this.syncWaiters[0]!.shift()?.();
      return;
    }
    if (r.type === 'learned') {
      if (r.error) this.onError?.(r.error);
      this.learning = Math.max(0, this.learning - 1);
      if (this.learning === 0) for (const cb of this.learnedWaiters.splice(0)) cb();
      return;
    }
    const c = this.current;
    if (r.type === 'best' && r.id === this.running) {
      this.running = 0;
      if (this.queued && this.current) {
        const req = this.queued;
        this.queued = undefined;
        this.launch(this.current.id, req, this.queuedStopped);
      }
    }
    if (!c || c.id !== r.id) return;
    if (r.type === 'info') c.onInfo(r.info);
    else {
      this.current = undefined;
      c.onBest(r.best);
    }
  }

  private launch(id: number, req: GoRequest, stopped = false): void {
    this.running = id;
    Atomics.add(this.signals, SIG_GEN, 1);
    Atomics.store(this.signals, SIG_STOP, stopped ? 1 : 0);
    Atomics.store(this.signals, SIG_PONDER, req.limits.ponder ? 1 : 0);
    const threads = this.workers.length;
    for (let i = 0; i < threads; i++) Atomics.store(this.signals, SIG_NODES + i, 0);
    for (const w of this.workers) w.postMessage({ type: 'go', id, req, threads } satisfies WorkerRequest);
  }

  private broadcast(m: WorkerRequest): void {
    for (const w of this.workers) w.postMessage(m);
  }

  configure(config: Partial<EngineConfig>): void {
    if (config.threads !== undefined) {
      let n = Math.max(1, Math.min(MAX_THREADS, config.threads));
      if (n > 1 && typeof this.memory === 'string') {
        this.onError?.(`Threads ${n}: ${this.memory}; searching on one thread`);
        n = 1;
        config = { ...config, threads: 1 };
      }
      // A thread that finds no address space aborts the process (addressSpace.ts): start only
      // as many as fit under the limit, and say so.
      const fit = this.workers.length + threadsThatFit();
      if (n > fit) {
        this.onError?.(`Threads ${n}: ${addressSpaceText(addressSpaceLimit() ?? 0)}, room for ${fit} search thread${fit === 1 ? '' : 's'}; searching on ${fit}`);
        n = fit;
        config = { ...config, threads: fit };
      }
      while (this.workers.length < n) this.spawn();
      while (this.workers.length > n) {
        void this.workers.pop()!.terminate();
        // Nobody waits for a thread that is gone.
        for (const cb of this.syncWaiters.pop() ?? []) cb();
      }
    }
    if (config.hashMB !== undefined) {
      try {
        // The shared cores' table first: the threads attach to it when they get the message.
        if (typeof this.memory !== 'string') growForTable(this.memory, config.hashMB);
        this.hashMB = config.hashMB;
        this.broadcast({ type: 'hash', megabytes: config.hashMB });
      } catch (e) {
        this.onError?.(`Hash ${config.hashMB} MB: cannot allocate (${(e as Error).message}); the table keeps its size`);
      }
    }
    // Search parameters come a few at a time: helpers started later get them all.
    const searchParams = config.searchParams !== undefined ? { ...this.config.searchParams, ...config.searchParams } : undefined;
    Object.assign(this.config, config);
    if (searchParams) this.config.searchParams = searchParams;
    this.broadcast({ type: 'configure', config });
  }

  clearHash(): void {
    this.broadcast({ type: 'clearHash' });
  }

  newGame(): void {
    this.broadcast({ type: 'newGame' });
  }

  go(req: GoRequest, onInfo: (i: WireInfo) => void, onBest: (b: WireBest) => void): void {
    const id = ++this.nextId;
    this.current = { id, onInfo, onBest };
    // A previous search still winding down keeps its stop signal; this one starts after it.
    if (this.running !== 0) {
      this.queued = req;
      this.queuedStopped = false;
    } else this.launch(id, req);
  }

  stop(): void {
    Atomics.store(this.signals, SIG_STOP, 1);
    Atomics.notify(this.signals, SIG_STOP);
    if (this.queued) this.queuedStopped = true;
  }

  ponderhit(): void {
    Atomics.store(this.signals, SIG_PONDER, 0);
    Atomics.notify(this.signals, SIG_STOP);
    // A ponder search not started yet starts as the timed search; its clock runs from now.
    const q = this.queued;
    if (q?.limits.ponder) this.queued = { ...q, limits: { ...q.limits, ponder: false, startTime: Date.now() } };
  }

  /**
   * isready / ping: during a search at once; otherwise once every search thread has done what
   * was posted before (started, its core made, a new hash table allocated and emptied, a book
   * or parameters loaded), so a `go` after `readyok` does not pay for them on its clock. A
   * thread not started yet gets the request too: it reads its messages, in order, only once it
   * has made its core (engineWorker.ts), so the answer comes after a book's error message, as
   * the commands came, even when a `go` follows at once.
   */
  whenReady(cb: () => void): void {
    if (this.running !== 0) cb();
    else {
      let left = this.workers.length;
      const done = (): void => {
        if (--left === 0) cb();
      };
      this.workers.forEach((w, i) => {
        this.syncWaiters[i]!.push(done);
        w.postMessage({ type: 'sync' } satisfies WorkerRequest);
      });
    }
  }

  learn(game: LearnGame): void {
    this.learning++;
    this.workers[0]!.postMessage({ type: 'learn', game } satisfies WorkerRequest);
  }

  /**
   * Stops the search and ends the threads, once book learning has written the games handed to
   * it (a `quit` right after a game must not lose it), or after `learnTimeoutMs` at the latest.
   */
  close(learnTimeoutMs = 10_000): void {
    if (this.closing) return;
    this.closing = true;
    this.stop();
    const end = (): void => {
      this.broadcast({ type: 'close' });
      for (const w of this.workers) void w.terminate();
    };
    if (this.learning === 0) return end();
    const timer = setTimeout(() => {
      this.learnedWaiters.length = 0;
      this.onError?.('book learning did not finish in time; the game was not learned');
      end();
    }, learnTimeoutMs);
    this.learnedWaiters.push(() => {
      clearTimeout(timer);
      end();
    });
  }
}

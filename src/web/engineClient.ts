/**
 * The page's side of the engine (engineWorker.ts): starts its search threads, asks for
 * searches, and stops them through shared memory when the page is cross-origin isolated (the
 * server sends COOP/COEP), else by ending the worker and starting a new one.
 *
 * Threads: one Web Worker per search thread, all over one shared `WebAssembly.Memory` (Lazy
 * SMP, as the command-line engine's threads: src/node/workerHost.ts). That needs
 * SharedArrayBuffer, which a browser gives only to a cross-origin isolated page; without it,
 * or when the shared memory cannot be had, the engine searches on one thread and says why.
 */
import { MAX_THREADS, SIG_GEN, SIG_NODES, SIG_SIZE, SIG_STOP } from '../engine/signals.js';
import { compileCoreFrom } from '../engine/wasm/load.js';
import { sharedCoreMemory } from '../engine/wasm/smp.js';

export interface EngineInfo {
  depth: number;
  multipv: number;
  score: number;
  mate?: number;
  bound?: string;
  nodes: number;
  nps: number;
  time: number;
  pv: string[];
}

export interface SearchRequest {
  fen: string;
  moves: string[];
  multiPV: number;
  /** Milliseconds to think; none: until stopped. */
  movetime?: number;
  onInfo?: (info: EngineInfo) => void;
  onBest?: (move: string | null, score: number) => void;
}

/** Hash table of the page's engine in MB (one table for all threads). */
const HASH_MB = 32;

export class EngineClient {
  private workers: Worker[] = [];
  readonly isolated = typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  private readonly signals: Int32Array<ArrayBufferLike> = this.isolated ? new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4)) : new Int32Array(SIG_SIZE);
  /** Search threads in use (1 when more were asked for and cannot be had). */
  readonly threads: number;
  /** Why fewer threads than asked for are used ('' when all are). */
  readonly limitedBy: string = '';
  private readonly memory: WebAssembly.Memory | undefined;
  private module: Promise<WebAssembly.Module | undefined> | undefined;
  private gen = 0;
  private current: SearchRequest | undefined;
  /** Counts go() and stop() calls: a go() that finds it moved on while it waited for the engine to load was overtaken. */
  private requests = 0;
  private ready: Promise<void> | undefined;
  onError: (message: string) => void = () => {};

  /** `wanted`: threads asked for (`tabiya serve --engine-threads`). */
  constructor(wanted = 1) {
    let threads = Math.max(1, Math.min(MAX_THREADS, Math.floor(wanted)));
    if (threads > 1 && !this.isolated) {
      this.limitedBy = 'the page is not cross-origin isolated, so it has no SharedArrayBuffer';
      threads = 1;
    }
    if (threads > 1) {
      const memory = sharedCoreMemory(HASH_MB);
      if (typeof memory === 'string') {
        this.limitedBy = memory;
        threads = 1;
      } else this.memory = memory;
    }
    this.threads = threads;
  }

  private start(): Promise<void> {
    const wasm = this.memory === undefined ? '/assets/core.wasm' : '/assets/core-shared.wasm';
    // Isolated, one compile serves every thread (a compiled module is handed to workers as it
    // is); a page that is not isolated cannot hand it to its worker (which is, by its COEP
    // header), so the worker compiles its own.
    this.module ??= this.isolated ? compileCoreFrom(wasm) : Promise.resolve(undefined);
    const workers: Worker[] = [];
    const started: Promise<void>[] = [];
    // A thread that cannot start fails the whole start: said once, and the next go() starts
    // afresh (a server that was down a moment is no reason to need a reload of the page).
    let fail: (message: string) => void = () => {};
    const failed = new Promise<never>((_, reject) => (fail = (message) => reject(new Error(message))));
    for (let index = 0; index < this.threads; index++) {
      const w = new Worker('/assets/worker.js', { type: 'module' });
      workers.push(w);
      let ready = false;
      started.push(
        new Promise((resolve) => {
          w.onmessage = (e: MessageEvent) => {
            const msg = e.data as { type: string; gen?: number; move?: string | null; score?: number; message?: string } & EngineInfo;
            if (msg.type === 'ready') {
              ready = true;
              return resolve();
            }
            if (msg.type === 'error') return ready ? this.onError(msg.message ?? 'engine error') : fail(msg.message ?? 'engine error');
            if (index > 0 || msg.gen !== this.gen || this.current === undefined) return;
            if (msg.type === 'info') this.current.onInfo?.(msg);
            else if (msg.type === 'bestmove') {
              const req = this.current;
              this.current = undefined;
              req.onBest?.(msg.move ?? null, msg.score ?? 0);
            }
          };
          // A worker whose script cannot be fetched gets an ErrorEvent without a message.
          w.onerror = (e) => {
            const message = `engine worker: ${e.message || 'could not be loaded (is the server still running?)'}`;
            if (ready) this.onError(message);
            else fail(message);
          };
        }),
      );
    }
    this.workers = workers;
    const loaded = this.module.then(
      (module) => {
        workers.forEach((w, index) => w.postMessage({ type: 'init', module, wasm, hashMB: HASH_MB, index, memory: this.memory, signals: this.isolated ? this.signals.buffer : undefined }));
        return Promise.all(started).then(() => undefined);
      },
      (err: unknown) => Promise.reject(new Error(`cannot load the engine: ${(err as Error).message}`)),
    );
    this.ready = Promise.race([loaded, failed]).catch((err: unknown) => {
      // Only if this start is still the engine's (a stop may have ended its workers already).
      if (this.workers === workers) {
        for (const w of workers) w.terminate();
        this.workers = [];
        this.module = undefined;
        this.current = undefined;
        this.onError((err as Error).message);
      }
      throw err;
    });
    return this.ready;
  }

  get searching(): boolean {
    return this.current !== undefined;
  }

  /** Starts a search (stopping any running one, whose result is then dropped). */
  async go(req: SearchRequest): Promise<void> {
    this.stop();
    const request = ++this.requests;
    try {
      if (this.workers.length === 0) await this.start();
      await this.ready;
    } catch {
      return; // said through onError
    }
    // A stop or a newer search came while the engine loaded: this search is not wanted any
    // more (asked for anyway, it would run on unstopped: a worker without shared memory runs
    // it to its deepest iteration before the newer one, and with it nothing would stop it).
    if (request !== this.requests) return;
    if (this.isolated) {
      // Cleared here, before any thread is asked, so a stop that follows cannot be lost; the
      // previous search ends anyway: its generation is over.
      Atomics.store(this.signals, SIG_STOP, 0);
      for (let i = 0; i < this.threads; i++) Atomics.store(this.signals, SIG_NODES + i, 0);
      this.gen = Atomics.add(this.signals, SIG_GEN, 1) + 1;
    } else this.gen++;
    this.current = req;
    for (const w of this.workers) w.postMessage({ type: 'go', gen: this.gen, fen: req.fen, moves: req.moves, multiPV: req.multiPV, threads: this.threads, movetime: req.movetime });
  }

  /** Stops the running search; its bestmove is dropped. */
  stop(): void {
    this.requests++;
    if (this.current === undefined) return;
    this.current = undefined;
    if (this.isolated) {
      Atomics.store(this.signals, SIG_STOP, 1);
      Atomics.add(this.signals, SIG_GEN, 1);
      this.gen = Atomics.load(this.signals, SIG_GEN);
    } else {
      for (const w of this.workers) w.terminate();
      this.workers = [];
    }
  }
}

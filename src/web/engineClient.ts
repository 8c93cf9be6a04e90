/**
 * The page's side of the engine worker (engineWorker.ts): starts it, asks for searches, and
 * stops them through shared memory when the page is cross-origin isolated (the server sends
 * the headers), else by ending the worker and starting a new one.
 */
import { SIG_GEN, SIG_SIZE, SIG_STOP } from '../engine/signals.js';

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

export class EngineClient {
  private worker: Worker | undefined;
  private readonly shared = typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  private readonly signals: Int32Array<ArrayBufferLike> = this.shared ? new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4)) : new Int32Array(SIG_SIZE);
  private gen = 0;
  private current: SearchRequest | undefined;
  private ready: Promise<void> | undefined;
  onError: (message: string) => void = () => {};

  private start(): Promise<void> {
    const w = new Worker('/assets/worker.js', { type: 'module' });
    this.worker = w;
    this.ready = new Promise((resolve) => {
      w.onmessage = (e: MessageEvent) => {
        const msg = e.data as { type: string; gen?: number; move?: string | null; score?: number; message?: string } & EngineInfo;
        if (msg.type === 'ready') return resolve();
        if (msg.type === 'error') return this.onError(msg.message ?? 'engine error');
        if (msg.gen !== this.gen || this.current === undefined) return;
        if (msg.type === 'info') this.current.onInfo?.(msg);
        else if (msg.type === 'bestmove') {
          const req = this.current;
          this.current = undefined;
          req.onBest?.(msg.move ?? null, msg.score ?? 0);
        }
      };
      w.onerror = (e) => this.onError(`engine worker: ${e.message}`);
    });
    w.postMessage({ type: 'init', wasm: '/assets/core.wasm', signals: this.shared ? this.signals.buffer : undefined });
    return this.ready;
  }

  get searching(): boolean {
    return this.current !== undefined;
  }

  /** Starts a search (stopping any running one, whose result is then dropped). */
  async go(req: SearchRequest): Promise<void> {
    this.stop();
    if (this.worker === undefined) await this.start();
    await this.ready;
    this.gen = this.shared ? Atomics.add(this.signals, SIG_GEN, 1) + 1 : this.gen + 1;
    this.current = req;
    this.worker!.postMessage({ type: 'go', gen: this.gen, fen: req.fen, moves: req.moves, multiPV: req.multiPV, movetime: req.movetime });
  }

  /** Stops the running search; its bestmove is dropped. */
  stop(): void {
    if (this.current === undefined) return;
    this.current = undefined;
    if (this.shared) {
      Atomics.store(this.signals, SIG_STOP, 1);
      Atomics.add(this.signals, SIG_GEN, 1);
      this.gen = Atomics.load(this.signals, SIG_GEN);
    } else {
      this.worker?.terminate();
      this.worker = undefined;
    }
  }
}

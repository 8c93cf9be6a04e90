/**
 * tabiya's engine in a web page (`tabiya/engine`): the WebAssembly core in Web Workers, driven
 * by the same WasmSearcher as the command-line engine, so a page searches without a server.
 * `tabiya serve`'s page uses it; a page of one's own does the same:
 *
 *     import { BrowserEngine } from 'tabiya/engine';
 *     const engine = new BrowserEngine({ assets: '/static/tabiya/', threads: 2 });
 *     const r = await engine.search({ fen, depth: 18, onInfo: (i) => show(i) });
 *     r.bestMove; // 'e2e4' (UCI), r.score (centipawns, side to move's view), r.pv
 *
 * `assets` is the directory (URL) that serves the package's `worker.js`, `core.wasm` and
 * `core-shared.wasm` (`tabiya/worker.js`, `tabiya/core.wasm`, `tabiya/core-shared.wasm`).
 *
 * Threads: one worker per search thread, all over one shared `WebAssembly.Memory` (Lazy SMP,
 * as the command-line engine's threads: src/node/workerHost.ts). That needs SharedArrayBuffer,
 * which a browser gives only to a cross-origin isolated page (served with
 * `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`);
 * without it, or when the shared memory cannot be had, the engine searches on one thread and
 * `limitedBy` says why. A stop reaches an isolated page's search through shared memory; in a
 * page that is not isolated it ends the worker, and the next search starts a new one.
 */
import { MAX_THREADS, SIG_GEN, SIG_NODES, SIG_SIZE, SIG_STOP } from './signals.js';
import { compileCoreFrom } from './wasm/load.js';
import { MAX_SHARED_HASH_MB, WASM_MAX_HASH_MB, sharedCoreMemory } from './wasm/smp.js';

/** One line of a search's progress, as UCI's `info`. */
export interface EngineInfo {
  depth: number;
  /** Which line of a MultiPV search (1 = the best). */
  multipv: number;
  /** Centipawns from the side to move's view (for a mate, a large number; see `mate`). */
  score: number;
  /** Moves to mate: positive when the side to move mates, negative when it is mated. */
  mate?: number;
  /** Set while an aspiration window fails: the score is only a bound. */
  bound?: 'upper' | 'lower';
  nodes: number;
  nps: number;
  /** Milliseconds since the search started. */
  time: number;
  /** The line in UCI moves. */
  pv: string[];
}

/** What a search ends with. */
export interface EngineResult {
  /**
   * The move to play in UCI, or null when the position has none (mate, stalemate), and also
   * when the search was stopped or overtaken (`stopped`) before it finished its first iteration:
   * it had no line yet (the page does not wait for the worker, which a page that is not
   * isolated ends at once).
   */
  bestMove: string | null;
  score: number;
  mate?: number;
  depth: number;
  nodes: number;
  pv: string[];
  /** Ended by `stop()` or a newer search: the result is the last completed iteration's. */
  stopped: boolean;
}

export interface SearchOptions {
  /** The start position (default: the standard one). */
  fen?: string;
  /** Moves played from it, in UCI (the engine sees repetitions in them). */
  moves?: string[];
  /** Lines to search (default 1). */
  multiPV?: number;
  /** Limits; with none the search runs until `stop()`. */
  depth?: number;
  nodes?: number;
  /** Milliseconds to think. */
  movetime?: number;
  onInfo?: (info: EngineInfo) => void;
}

export interface BrowserEngineOptions {
  /** The URL of the directory that serves `worker.js`, `core.wasm` and `core-shared.wasm` (relative: to the page). */
  assets: string | URL;
  /** Search threads wanted (default 1, at most 56); more than one needs a cross-origin isolated page. */
  threads?: number;
  /**
   * Hash table in MB, one for all threads (default 32); at most 512 on one thread and 1024 on
   * more, the WebAssembly core's limits (`tabiya uci` says the same of a larger Hash).
   */
  hashMB?: number;
}

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The parts of the DOM's Worker used here (the package is typed without the DOM library). */
interface PageWorker {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((e: { data: unknown }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
}
type WorkerClass = new (url: string, options: { type: 'module' }) => PageWorker;

interface Pending {
  options: SearchOptions;
  last: EngineInfo | undefined;
  resolve: (r: EngineResult) => void;
  reject: (e: Error) => void;
}

interface WorkerMessage {
  type: string;
  gen?: number;
  message?: string;
  move?: string | null;
  score?: number;
  mate?: number;
  depth?: number;
  nodes?: number;
  pv?: string[];
}

export class BrowserEngine {
  /** Whether the page is cross-origin isolated (stops go through shared memory; threads possible). */
  readonly isolated = typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  /** Search threads in use (1 when more were asked for and cannot be had). */
  readonly threads: number;
  /** Why fewer threads than asked for are used ('' when all are). */
  readonly limitedBy: string = '';
  /** The hash table's size in MB: the one asked for, within the core's limit (512 MB on one thread, 1024 MB on more). */
  readonly hashMB: number;
  /** Called with an error that is not any one search's (a worker that fails after it started). */
  onError: (message: string) => void = () => {};
  private readonly urls: { worker: string; core: string; shared: string };
  private readonly signals: Int32Array<ArrayBufferLike> = this.isolated ? new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4)) : new Int32Array(SIG_SIZE);
  private readonly memory: WebAssembly.Memory | undefined;
  private workers: PageWorker[] = [];
  private module: Promise<WebAssembly.Module | undefined> | undefined;
  private ready: Promise<void> | undefined;
  private gen = 0;
  private current: Pending | undefined;
  /** Counts searches and stops: a search that finds it moved on while the engine loaded was overtaken. */
  private requests = 0;
  /**
   * Fails the start still waiting for its workers' 'ready'. Workers ended by `stop()` (a page
   * that is not isolated) or `terminate()` never send it, and a search awaiting that start
   * never settled: its promise, and the one of the search or load that ended it, hung forever.
   */
  private cancelStart: (message: string) => void = () => {};

  constructor(options: BrowserEngineOptions) {
    let base: URL;
    try {
      base = new URL(String(options.assets), (globalThis as { location?: { href: string } }).location?.href);
    } catch {
      throw new TypeError(`BrowserEngine: assets ${JSON.stringify(String(options.assets))} is not a URL (a relative one needs a page to resolve it)`);
    }
    const dir = base.href.endsWith('/') ? base : new URL(`${base.href}/`);
    this.urls = { worker: new URL('worker.js', dir).href, core: new URL('core.wasm', dir).href, shared: new URL('core-shared.wasm', dir).href };
    // NaN (a number read from an empty field) would pass every bound below as it is, and an
    // engine of NaN threads starts no worker: its searches would never end.
    for (const name of ['threads', 'hashMB'] as const) {
      const x = options[name];
      if (x !== undefined && (typeof x !== 'number' || Number.isNaN(x))) throw new RangeError(`BrowserEngine: ${name} ${String(x)} is not a number`);
    }
    const hashMB = Math.max(1, Math.floor(options.hashMB ?? 32));
    let threads = Math.max(1, Math.min(MAX_THREADS, Math.floor(options.threads ?? 1)));
    if (threads > 1 && !this.isolated) {
      this.limitedBy = 'the page is not cross-origin isolated, so it has no SharedArrayBuffer';
      threads = 1;
    }
    if (threads > 1) {
      const memory = sharedCoreMemory(hashMB);
      if (typeof memory === 'string') {
        this.limitedBy = memory;
        threads = 1;
      } else this.memory = memory;
    }
    this.threads = threads;
    // What the worker's core will use (wasmSearch.ts caps the table the same way), so that
    // `hashMB` does not claim a table the search does not have.
    this.hashMB = Math.min(hashMB, this.memory === undefined ? WASM_MAX_HASH_MB : MAX_SHARED_HASH_MB);
  }

  /** Whether a search is running. */
  get searching(): boolean {
    return this.current !== undefined;
  }

  /** Starts the workers now rather than at the first search (they take a moment to compile the core). */
  load(): Promise<void> {
    if (this.workers.length === 0) return this.start();
    return this.ready ?? Promise.resolve();
  }

  /**
   * Searches a position. A running search is stopped first (its promise resolves with what it
   * had found, `stopped: true`). Rejects when the engine cannot be loaded or a move is illegal,
   * and at once, with the running search left alone, on a limit that is not a positive number.
   */
  async search(options: SearchOptions): Promise<EngineResult> {
    // A limit of 0 or NaN (an empty field) would read as no limit, a search until stop(): said
    // instead, as `tabiya analyse --depth 0` is refused.
    for (const name of ['depth', 'nodes', 'movetime', 'multiPV'] as const) {
      const x = options[name];
      if (x !== undefined && !(typeof x === 'number' && x > 0 && x < Infinity)) {
        throw new RangeError(`${name} ${String(x)}: ${name === 'multiPV' ? 'the number of lines is a positive number' : 'a limit is a positive number (leave it out to search until stop())'}`);
      }
    }
    this.stop();
    const request = ++this.requests;
    const done = new Promise<EngineResult>((resolve, reject) => {
      this.current = { options, last: undefined, resolve, reject };
    });
    const pending = this.current!;
    try {
      await this.load();
    } catch (e) {
      if (this.current === pending) this.current = undefined;
      pending.reject(e as Error);
      return done;
    }
    // A stop or a newer search came while the engine loaded: this one has ended already.
    if (request !== this.requests) return done;
    if (this.isolated) {
      // Cleared here, before any thread is asked, so a stop that follows cannot be lost; the
      // previous search ends anyway: its generation is over.
      Atomics.store(this.signals, SIG_STOP, 0);
      for (let i = 0; i < this.threads; i++) Atomics.store(this.signals, SIG_NODES + i, 0);
      this.gen = Atomics.add(this.signals, SIG_GEN, 1) + 1;
    } else this.gen++;
    const { fen = START_FEN, moves = [], multiPV = 1, depth, nodes, movetime } = options;
    for (const w of this.workers) w.postMessage({ type: 'go', gen: this.gen, fen, moves, multiPV, threads: this.threads, depth, nodes, movetime });
    return done;
  }

  /** Stops the running search; its promise resolves with the last completed iteration. */
  stop(): void {
    this.requests++;
    const pending = this.current;
    if (pending === undefined) return;
    this.current = undefined;
    if (this.isolated) {
      Atomics.store(this.signals, SIG_STOP, 1);
      Atomics.add(this.signals, SIG_GEN, 1);
      this.gen = Atomics.load(this.signals, SIG_GEN);
    } else this.endWorkers();
    const last = pending.last;
    pending.resolve({
      bestMove: last?.pv[0] ?? null,
      score: last?.score ?? 0,
      ...(last?.mate !== undefined ? { mate: last.mate } : {}),
      depth: last?.depth ?? 0,
      nodes: last?.nodes ?? 0,
      pv: last?.pv ?? [],
      stopped: true,
    });
  }

  /** Stops and ends the workers (they are started again by the next search). */
  terminate(): void {
    this.stop();
    this.endWorkers();
    this.module = undefined;
  }

  private endWorkers(): void {
    for (const w of this.workers) w.terminate();
    this.workers = [];
    this.cancelStart('BrowserEngine: ended by stop() or terminate() before the engine had loaded');
  }

  private start(): Promise<void> {
    const Worker = (globalThis as { Worker?: WorkerClass }).Worker;
    if (Worker === undefined) return Promise.reject(new Error("BrowserEngine needs Web Workers (a browser); in Node, use the package root's openEngine, which runs `tabiya uci` as a process (README, \"The library\")"));
    const wasm = this.memory === undefined ? this.urls.core : this.urls.shared;
    // Isolated, one compile serves every thread (a compiled module is handed to workers as it
    // is); a page that is not isolated cannot hand it to its worker (which is, by its COEP
    // header), so the worker compiles its own.
    this.module ??= this.isolated ? compileCoreFrom(wasm) : Promise.resolve(undefined);
    const workers: PageWorker[] = [];
    const started: Promise<void>[] = [];
    // A thread that cannot start fails the whole start: said once, and the next search starts
    // afresh (a server that was down a moment is no reason to need a reload of the page).
    let fail: (message: string) => void = () => {};
    const failed = new Promise<never>((_, reject) => (fail = (message) => reject(new Error(message))));
    this.cancelStart = fail;
    for (let index = 0; index < this.threads; index++) {
      const w = new Worker(this.urls.worker, { type: 'module' });
      workers.push(w);
      let ready = false;
      started.push(
        new Promise((resolve) => {
          w.onmessage = (e) => {
            const msg = e.data as WorkerMessage & EngineInfo;
            if (msg.type === 'ready') {
              ready = true;
              return resolve();
            }
            if (msg.type === 'error') {
              const message = msg.message ?? 'engine error';
              if (!ready) return fail(message);
              // An error in a search (a bad FEN or move) is that search's, said by the main
              // thread; a helper reads the same position and says the same, which is no error
              // of the engine's (`onError`).
              if (msg.gen !== undefined && index > 0) return;
              if (msg.gen !== undefined && msg.gen === this.gen && this.current !== undefined) {
                const pending = this.current;
                this.current = undefined;
                return pending.reject(new Error(message));
              }
              return this.onError(message);
            }
            const pending = this.current;
            if (index > 0 || msg.gen !== this.gen || pending === undefined) return;
            if (msg.type === 'info') {
              if (msg.multipv === 1 && msg.bound === undefined) pending.last = msg;
              pending.options.onInfo?.(msg);
            } else if (msg.type === 'bestmove') {
              this.current = undefined;
              pending.resolve({
                bestMove: msg.move ?? null,
                score: msg.score ?? 0,
                ...(msg.mate !== undefined ? { mate: msg.mate } : {}),
                depth: msg.depth ?? 0,
                nodes: msg.nodes ?? 0,
                pv: msg.pv ?? [],
                stopped: false,
              });
            }
          };
          // A worker whose script cannot be fetched, or is refused, gets an ErrorEvent without
          // a message: the script is fetched again to say why (its status, its MIME type).
          w.onerror = (e) => {
            const said = e.message;
            void (said ? Promise.resolve(said) : workerScriptProblem(this.urls.worker)).then((why) => {
              const message = `engine worker ${this.urls.worker}: ${why}`;
              if (ready) this.onError(message);
              else fail(message);
            });
          };
        }),
      );
    }
    this.workers = workers;
    const loaded = this.module.then(
      (module) => {
        workers.forEach((w, index) => w.postMessage({ type: 'init', module, wasm, hashMB: this.hashMB, index, memory: this.memory, signals: this.isolated ? this.signals.buffer : undefined }));
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
        this.ready = undefined;
      }
      throw err;
    });
    return this.ready;
  }
}

/**
 * Why a module worker's script did not run, found by fetching it: the browser's error event
 * says nothing. A module worker's script must come with a JavaScript MIME type (the HTML
 * standard's "fetch a single module script"), which a server that does not know `.js` (or maps
 * it to application/octet-stream) does not give.
 */
async function workerScriptProblem(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    return `could not be loaded (${(e as Error).message}: is the server still running?)`;
  }
  if (!res.ok) return `HTTP ${res.status}${res.statusText === '' ? '' : ` ${res.statusText}`}`;
  const type = (res.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!/^(text|application)\/(javascript|ecmascript|x-javascript)$/.test(type)) {
    return `served as ${type === '' ? 'no MIME type' : type}, and a module worker's script must be served as text/javascript`;
  }
  return 'could not be loaded';
}

/**
 * A search thread of `tabiya uci` / `tabiya xboard`: a worker_threads Worker that owns an
 * Engine and runs each `go` to completion, while the main thread keeps reading commands. Stop
 * and ponderhit arrive through the shared signal array (the search polls it), everything else
 * as messages, handled in order between searches.
 *
 * With Threads > 1 there are several such workers over one shared hash table: worker 0 runs
 * the main search and answers; the others are Lazy SMP helpers that only fill the table.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { EngineConfigurator, runGo } from '../engine/host.js';
import { MAX_SHARED_HASH_MB } from '../engine/wasm/smp.js';
import { WASM_MAX_HASH_MB } from '../engine/wasmSearch.js';
import type { BookIndexer } from '../engine/bookReturn.js';
import { configureV8ForSearch } from './v8flags.js';
import { sharedCoreModule, wasmCoreModule } from './wasmCore.js';
import type { WorkerRequest, WorkerReply } from './workerHost.js';

/**
 * The readers of book and parameter files, with what they bring (the .tbk and Polyglot readers,
 * the PGN parser of a book's games, zlib, BookReturn's index cache): imported only when a
 * configuration first names such a file, so that an engine without one is ready sooner (a GUI
 * waits for `readyok` or `feature done=1` before it starts the clock).
 */
interface FileReaders {
  loadEngineBook: typeof import('./engineBook.js').loadEngineBook;
  cachedReachIndex: typeof import('../book/node/reachCache.js').cachedReachIndex;
  readParamsFile: typeof import('../tune/paramsFile.js').readParamsFile;
}

async function importFileReaders(): Promise<FileReaders> {
  const [book, reach, params] = await Promise.all([import('./engineBook.js'), import('../book/node/reachCache.js'), import('../tune/paramsFile.js')]);
  return { loadEngineBook: book.loadEngineBook, cachedReachIndex: reach.cachedReachIndex, readParamsFile: params.readParamsFile };
}

/** A configuration that names a file to read (a book for the main thread; parameters for every thread). */
export function namesFile(msg: WorkerRequest, helper: boolean): boolean {
  if (msg.type !== 'configure') return false;
  const c = msg.config;
  return (!helper && c.bookFile !== undefined && c.bookFile !== '') || (c.evalParams !== undefined && c.evalParams !== '');
}

const port = parentPort;
if (port) {
  configureV8ForSearch();
  const { signals, hashMB, index, memory } = workerData as { signals: SharedArrayBuffer; hashMB: number; index: number; memory?: WebAssembly.Memory };
  const helper = index > 0;
  // Every thread searches in its instance of the shared build over the shared memory (one hash
  // table for any number of threads; src/engine/wasm/smp.ts). Only without shared memory does
  // the main thread use a core of its own, on one thread.
  const smp = memory ? { module: sharedCoreModule, memory } : undefined;
  const wasm = helper || smp ? undefined : wasmCoreModule();
  const engine = new Engine({ signals: new Int32Array(signals), hashMB, threadIndex: index, wasm, smp });
  // The core is made now, not on the clock of the first move.
  engine.parallelCore();
  // Every thread loads the evaluation parameters: each has its own copy of the weights.
  // BookReturn's index of a book is kept between runs (reachCache.ts): no walk at every start.
  // The readers are there whenever they are called: a message that names a file waits for them.
  let readers: FileReaders | undefined;
  const indexBook = (path: string): BookIndexer => (movesOf, opts) => readers!.cachedReachIndex(path, movesOf, opts).index;
  const configurator = new EngineConfigurator(engine, helper ? undefined : (path) => readers!.loadEngineBook(path), (path) => readers!.readParamsFile(path), indexBook);
  const reply = (r: WorkerReply): void => port.postMessage(r);
  configurator.onBookFailure = (message) => reply({ type: 'error', message });
  reply({ type: 'ready' });
  const handle = (msg: WorkerRequest): void => {
    switch (msg.type) {
      case 'configure': {
        // The hash table's size comes as its own message (after the controller grew the shared memory); helpers need no book.
        const change = { ...msg.config };
        delete change.hashMB;
        if (helper) Object.assign(change, { bookFile: '', ownBook: false });
        for (const message of configurator.apply(change)) if (!helper) reply({ type: 'error', message });
        return;
      }
      case 'hash': {
        engine.resizeHash(msg.megabytes);
        const mb = msg.megabytes;
        const limit = smp ? MAX_SHARED_HASH_MB : WASM_MAX_HASH_MB;
        if (!helper && mb > limit) reply({ type: 'error', message: `Hash ${mb} MB: the search uses ${limit} MB of it (the WebAssembly core's limit)` });
        return;
      }
      case 'clearHash':
      case 'newGame':
        engine.newGame();
        return;
      case 'go': {
        const best = runGo(engine, msg.req, (info) => reply({ type: 'info', id: msg.id, info }), { threads: msg.threads, helper });
        if (!helper) reply({ type: 'best', id: msg.id, best });
        return;
      }
      case 'learn': {
        // Answered even when nothing learns, so the host knows when it may close.
        const done = (message?: string): void => reply(message === undefined ? { type: 'learned' } : { type: 'learned', error: message });
        if (helper || !configurator.config.bookLearning || !engine.book) return done();
        try {
          Promise.resolve(engine.book.learn(msg.game)).then(
            () => done(),
            (e: unknown) => done(`book learning: ${(e as Error).message}`),
          );
        } catch (e) {
          done(`book learning: ${(e as Error).message}`);
        }
        return;
      }
      case 'sync':
        reply({ type: 'synced' });
        return;
      case 'close':
        port.close();
        return;
    }
  };
  // Messages are handled in the order they came: while the readers load, the ones after the
  // message that needs them wait too (a `sync`, the host's isready, is answered after the book
  // is loaded or its error told).
  let waiting: WorkerRequest[] | undefined;
  port.on('message', (msg: WorkerRequest) => {
    if (waiting) {
      waiting.push(msg);
      return;
    }
    if (readers === undefined && namesFile(msg, helper)) {
      const held: WorkerRequest[] = (waiting = [msg]);
      void importFileReaders().then((r) => {
        readers = r;
        waiting = undefined;
        for (const m of held) handle(m);
      });
      return;
    }
    handle(msg);
  });
}

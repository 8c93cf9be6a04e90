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
import { readParamsFile } from '../tune/paramsFile.js';
import { loadEngineBook } from './engineBook.js';
import { cachedReachIndex } from '../book/node/reachCache.js';
import type { BookIndexer } from '../engine/bookReturn.js';
import { configureV8ForSearch } from './v8flags.js';
import { sharedCoreModule, wasmCoreModule } from './wasmCore.js';
import type { WorkerRequest, WorkerReply } from './workerHost.js';

export { loadPolyglotFile } from './engineBook.js';

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
  const indexBook = (path: string): BookIndexer => (movesOf, opts) => cachedReachIndex(path, movesOf, opts).index;
  const configurator = new EngineConfigurator(engine, helper ? undefined : loadEngineBook, readParamsFile, indexBook);
  const reply = (r: WorkerReply): void => port.postMessage(r);
  configurator.onBookFailure = (message) => reply({ type: 'error', message });
  reply({ type: 'ready' });
  port.on('message', (msg: WorkerRequest) => {
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
  });
}

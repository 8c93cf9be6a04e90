/**
 * tabiya's engine in a Web Worker: the WebAssembly core (dist/wasm/core.wasm) driven by the
 * same WasmSearcher the Node engine uses, so the page searches without a server round trip.
 * The page stops a search through shared memory (SIG_STOP, SIG_GEN), as the engine's own
 * threads are stopped; without cross-origin isolation it terminates the worker instead.
 *
 * Messages in: {type:'init', wasm, signals}, {type:'go', gen, fen, moves, multiPV, movetime?}.
 * Out: {type:'ready'}, {type:'info', gen, ...SearchInfo with pv as UCI}, {type:'bestmove', gen, move}.
 */
import { SIG_GEN, SIG_SIZE, SIG_STOP } from '../engine/signals.js';
import { WasmCore } from '../engine/wasm/core.js';
import { WasmSearcher } from '../engine/wasmSearch.js';
import { positionFromFen } from '../notation/fen.js';
import { makeUci, parseUci } from '../notation/uci.js';

interface WorkerScope {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}
const scope = self as unknown as WorkerScope;

let searcher: WasmSearcher | undefined;
let signals: Int32Array<ArrayBufferLike> = new Int32Array(SIG_SIZE);

scope.onmessage = (e: MessageEvent): void => {
  const msg = e.data as { type: string; [k: string]: unknown };
  if (msg.type === 'init') {
    if (msg.signals instanceof SharedArrayBuffer) signals = new Int32Array(msg.signals);
    WebAssembly.compileStreaming(fetch(String(msg.wasm))).then(
      (module) => {
        searcher = new WasmSearcher(new WasmCore(module), 32);
        scope.postMessage({ type: 'ready' });
      },
      (err: unknown) => scope.postMessage({ type: 'error', message: `cannot load the engine: ${(err as Error).message}` }),
    );
    return;
  }
  if (msg.type === 'go' && searcher !== undefined) {
    const gen = Number(msg.gen);
    // A search asked for before the latest stop or newer search is stale.
    if (signals.buffer instanceof SharedArrayBuffer && Atomics.load(signals, SIG_GEN) !== gen) return;
    Atomics.store(signals, SIG_GEN, gen);
    Atomics.store(signals, SIG_STOP, 0);
    const r = positionFromFen(String(msg.fen));
    if (!r.ok) return scope.postMessage({ type: 'error', message: r.error.message });
    const pos = r.value;
    for (const u of msg.moves as string[]) {
      const m = parseUci(pos, u);
      if (!m.ok) return scope.postMessage({ type: 'error', message: m.error.message });
      pos.play(m.value);
    }
    const movetime = typeof msg.movetime === 'number' ? msg.movetime : undefined;
    const ms = movetime ?? Infinity;
    const result = searcher.go(pos, signals, movetime === undefined ? { infinite: true } : { movetime }, {
      multiPV: Number(msg.multiPV ?? 1),
      softMs: ms,
      hardMs: ms,
      onInfo: (info) => scope.postMessage({ type: 'info', gen, depth: info.depth, multipv: info.multipv, score: info.score, mate: info.mate, bound: info.bound, nodes: info.nodes, nps: info.nps, time: info.time, pv: info.pv.map((m) => makeUci(m, false)) }),
    });
    scope.postMessage({ type: 'bestmove', gen, move: result.bestMove === 0 ? null : makeUci(result.bestMove, false), score: result.score });
  }
};

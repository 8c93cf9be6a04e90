/**
 * One search thread of tabiya's engine in the page: a Web Worker running the WebAssembly core
 * driven by the same WasmSearcher the Node engine uses, so the page searches without a server
 * round trip. With one thread it runs the normal build (dist/wasm/core.wasm) in a memory of
 * its own. With more (Lazy SMP, as `tabiya uci` with Threads > 1) every worker instantiates
 * the shared build (core-shared.wasm) over one shared `WebAssembly.Memory` made by the page,
 * in its own heap slot, with one hash table for all (src/engine/wasm/smp.ts): worker 0 runs
 * the main search and answers, the others are helpers that only fill the table.
 *
 * The page stops a search through shared memory (SIG_STOP, SIG_GEN) as the engine's own
 * threads are stopped; without cross-origin isolation it terminates the worker instead.
 *
 * Messages in: {type:'init', module or wasm (its URL), hashMB, signals?, memory?, index}, {type:'go', gen, fen, moves,
 * multiPV, threads, depth?, nodes?, movetime?}. Out: {type:'ready'}; worker 0 only: {type:'info', gen, ...},
 * {type:'bestmove', gen, move, score, mate?, depth, nodes, pv}; any worker: {type:'error', message, gen?}.
 * The page's side is src/engine/browserEngine.ts.
 */
import { SIG_GEN, SIG_SIZE, SIG_STOP } from '../engine/signals.js';
import { MATE_IN_MAX, mateInMoves } from '../engine/score.js';
import { WasmCore } from '../engine/wasm/core.js';
import { compileCoreFrom } from '../engine/wasm/load.js';
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
let index = 0;

/** A SharedArrayBuffer (a page that is not cross-origin isolated has no such class at all). */
function isShared(x: unknown): x is SharedArrayBuffer {
  return typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer;
}

scope.onmessage = (e: MessageEvent): void => {
  const msg = e.data as { type: string; [k: string]: unknown };
  if (msg.type === 'init') {
    if (isShared(msg.signals)) signals = new Int32Array(msg.signals);
    index = Number(msg.index ?? 0);
    const compiled = msg.module instanceof WebAssembly.Module ? Promise.resolve(msg.module) : compileCoreFrom(String(msg.wasm));
    compiled
      .then((module) => {
        const memory = msg.memory instanceof WebAssembly.Memory ? msg.memory : undefined;
        const core = new WasmCore(module, memory === undefined ? undefined : { memory, slot: index });
        if (memory !== undefined) core.setThreadIndex(index);
        searcher = new WasmSearcher(core, Number(msg.hashMB ?? 32));
        scope.postMessage({ type: 'ready', index });
      })
      .catch((err: unknown) => scope.postMessage({ type: 'error', message: `cannot start engine thread ${index}: ${(err as Error).message}` }));
    return;
  }
  if (msg.type === 'go' && searcher !== undefined) {
    const gen = Number(msg.gen);
    const shared = isShared(signals.buffer);
    // A search asked for before the latest stop or newer search is stale. With shared memory
    // the page cleared the stop flag before asking (a flag cleared here could undo a stop).
    if (shared && Atomics.load(signals, SIG_GEN) !== gen) return;
    if (!shared) {
      Atomics.store(signals, SIG_GEN, gen);
      Atomics.store(signals, SIG_STOP, 0);
    }
    const r = positionFromFen(String(msg.fen));
    if (!r.ok) return scope.postMessage({ type: 'error', gen, message: `bad FEN: ${r.error.message}` });
    const pos = r.value;
    for (const u of msg.moves as string[]) {
      const m = parseUci(pos, u);
      if (!m.ok) return scope.postMessage({ type: 'error', gen, message: `move ${u}: ${m.error.message}` });
      pos.play(m.value);
    }
    if (index > 0) return searcher.goHelper(pos, signals, index);
    const threads = Number(msg.threads ?? 1);
    const limit = (x: unknown): number | undefined => (typeof x === 'number' && x > 0 ? x : undefined);
    const movetime = limit(msg.movetime);
    const depth = limit(msg.depth);
    const nodes = limit(msg.nodes);
    const ms = movetime ?? Infinity;
    // Without shared memory nothing could end an infinite search's wait for a stop: the
    // search runs to its deepest iteration instead, or until the page ends the worker.
    const limited = movetime !== undefined || depth !== undefined || nodes !== undefined;
    const limits = { ...(movetime !== undefined ? { movetime } : {}), ...(depth !== undefined ? { depth } : {}), ...(nodes !== undefined ? { nodes } : {}), ...(!limited && shared ? { infinite: true } : {}) };
    const result = searcher.go(pos, signals, limits, {
      multiPV: Number(msg.multiPV ?? 1),
      softMs: ms,
      hardMs: ms,
      threads,
      onInfo: (info) => scope.postMessage({ type: 'info', gen, depth: info.depth, multipv: info.multipv, score: info.score, mate: info.mate, bound: info.bound, nodes: info.nodes, nps: info.nps, time: info.time, pv: info.pv.map((m) => makeUci(m, pos.chess960)) }),
    });
    // The helpers search until the generation changes: move it on, unless the page already
    // has (a newer search must not be stopped by this one's end).
    if (threads > 1) Atomics.compareExchange(signals, SIG_GEN, gen, gen + 1);
    scope.postMessage({
      type: 'bestmove',
      gen,
      move: result.bestMove === 0 ? null : makeUci(result.bestMove, pos.chess960),
      score: result.score,
      mate: Math.abs(result.score) >= MATE_IN_MAX ? mateInMoves(result.score) : undefined,
      depth: result.depth,
      nodes: result.nodes,
      pv: result.pv.map((m) => makeUci(m, pos.chess960)),
    });
  }
};

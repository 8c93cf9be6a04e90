/**
 * The engine core the tuner reads its data from: the WebAssembly build that plays, so that the
 * traces and quiet leaves are those of the evaluation and quiescence search the engine uses
 * (its trace build, core-trace.wasm: the same source compiled with the trace's counting on).
 * One instance per thread, given the current evaluation weights and search constants before
 * each use (they change when a tuner tries weights or a parameter file is loaded).
 */
import { WasmSearcher } from '../engine/wasmSearch.js';
import { WasmCore } from '../engine/wasm/core.js';
import { traceCoreModule } from '../node/wasmCore.js';

let searcher: WasmSearcher | null = null;

/** This thread's core, holding the current WEIGHTS and SP. */
export function tunerCore(): WasmCore {
  searcher ??= new WasmSearcher(new WasmCore(traceCoreModule()), 1);
  searcher.sync();
  return searcher.core;
}

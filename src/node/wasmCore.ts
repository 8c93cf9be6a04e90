/**
 * Loads the built WebAssembly core from dist/wasm in Node. The module is compiled once per
 * process (synchronously: it is small, and the CLI wants it before anything else runs).
 * The checked build keeps every array bounds check (slower; for tests: a bad index throws
 * instead of silently touching other memory). The shared build (core-shared.wasm) runs the
 * threads of a parallel search over one shared memory (src/engine/wasm/smp.ts).
 */
import { readFileSync } from 'node:fs';
import { WasmCore } from '../engine/wasm/core.js';

const modules = new Map<string, WebAssembly.Module>();

export function wasmCoreModule(checked = false): WebAssembly.Module {
  return loadModule(checked ? 'core-checked.wasm' : 'core.wasm');
}

/** The shared-memory build: instances are the threads of one search (WasmCore with a SharedCoreSlot). */
export function sharedCoreModule(): WebAssembly.Module {
  return loadModule('core-shared.wasm');
}

/** The trace build (core-trace.wasm): the same evaluation, able to trace it for the tuner (src/tune/core.ts). */
export function traceCoreModule(): WebAssembly.Module {
  return loadModule('core-trace.wasm');
}

function loadModule(name: string): WebAssembly.Module {
  let m = modules.get(name);
  if (!m) {
    // dist/src/node/wasmCore.js → dist/wasm/
    const url = new URL(`../../wasm/${name}`, import.meta.url);
    let bytes: Buffer;
    try {
      bytes = readFileSync(url);
    } catch (e) {
      throw new Error(`${url.pathname}: cannot read the WebAssembly core (run npm run build): ${(e as Error).message}`);
    }
    m = new WebAssembly.Module(bytes);
    modules.set(name, m);
  }
  return m;
}

/** A new core instance (its own board). */
export function loadWasmCore(checked = false): WasmCore {
  return new WasmCore(wasmCoreModule(checked));
}

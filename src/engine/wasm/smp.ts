/**
 * The memory of a parallel search in the WebAssembly core (Lazy SMP): one shared
 * `WebAssembly.Memory` that every search thread instantiates the shared build
 * (dist/wasm/core-shared.wasm, `--enable threads --sharedMemory --importMemory`) over.
 *
 *     0 ............ static data (the same bytes in every instance) and thread 0's heap
 *     SLOT_BYTES * i  thread i's heap: board, search stacks, histories, pawn hash (about 3.8 MB)
 *     TABLE_BASE      the hash table, shared by all threads
 *
 * The table is lockless as Hyatt and Mann's "A lock-less transposition table implementation
 * for parallel search chess engines" (ICGA Journal, 2002): each 16-byte entry stores its key
 * XORed with its data (src/wasm/search/tt.ts), so an entry torn by two threads writing at
 * once fails the key check and reads as a miss; no lock, no atomic instruction.
 *
 * Browser-safe: a page that is cross-origin isolated can build the memory the same way and
 * hand it to its Web Workers; without SharedArrayBuffer, `sharedCoreMemory` says why and the
 * engine searches on one thread. The Node threads are in src/node/engineWorker.ts.
 */
import { MAX_THREADS } from '../signals.js';

/** Heap bytes of each thread's instance (it uses about 3.8 MB; WasmCore checks it fits). */
export const SLOT_BYTES = 6 * 1024 * 1024;
/** Where the shared hash table starts: past the heap slots of the most threads. */
export const TABLE_BASE = SLOT_BYTES * (MAX_THREADS + 1);
/** The table's first entry (room before it for the length word a checked build reads). */
export const TABLE_PTR = TABLE_BASE + 64;
/** The largest shared table: a 32-bit memory holds it after the slots, and i32 bytes count it. */
export const MAX_SHARED_HASH_MB = 1024;
/** The largest table of the core in a memory of its own (an AssemblyScript array holds less than 1 GB). */
export const WASM_MAX_HASH_MB = 512;
const PAGE = 65536;
/** The shared build's declared maximum (`--maximumMemory`): 4 GB, the most a 32-bit memory has. */
const MAX_PAGES = 65536;

/** Bytes of a table of `megabytes` as the core sizes it (a power of two, at most MAX_SHARED_HASH_MB). */
export function sharedTableBytes(megabytes: number): number {
  const mb = Math.max(1, Math.min(MAX_SHARED_HASH_MB, megabytes));
  return 2 ** Math.floor(Math.log2(mb)) * 1024 * 1024;
}

/**
 * A shared memory for the threads of a parallel search with a table of `hashMB`, or the
 * reason there is none (no SharedArrayBuffer: a page that is not cross-origin isolated).
 */
export function sharedCoreMemory(hashMB: number): WebAssembly.Memory | string {
  if (typeof SharedArrayBuffer === 'undefined') return 'no SharedArrayBuffer (a page must be cross-origin isolated)';
  try {
    const initial = Math.ceil((TABLE_PTR + sharedTableBytes(hashMB)) / PAGE);
    return new WebAssembly.Memory({ initial, maximum: MAX_PAGES, shared: true });
  } catch (e) {
    return `no shared WebAssembly memory (${(e as Error).message})`;
  }
}

/** Grows `memory` so that it holds a table of `hashMB` (memory is never given back). */
export function growForTable(memory: WebAssembly.Memory, hashMB: number): void {
  const need = Math.ceil((TABLE_PTR + sharedTableBytes(hashMB)) / PAGE) - memory.buffer.byteLength / PAGE;
  if (need > 0) memory.grow(need);
}

/**
 * The signal array a controller and its search threads share (an Int32Array, in a
 * SharedArrayBuffer when the search runs on other threads): the controller writes stop,
 * ponderhit and the search generation; every thread publishes its node count. The search
 * polls it every few hundred nodes (the core's env.poll, wasmSearch.ts), so a stop is seen
 * well under a millisecond after it is written, without any message.
 */
import type { GoLimits } from './limits.js';

/** 1: stop the search. */
export const SIG_STOP = 0;
/** 1 while the search ponders; the controller sets it to 0 on ponderhit. */
export const SIG_PONDER = 1;
/** Search generation: the controller bumps it for every `go`; a thread still busy with an older one stops. */
export const SIG_GEN = 2;
/** Nodes searched by thread i, in units of NODE_UNIT, at SIG_NODES + i (for the total in info lines). */
export const SIG_NODES = 8;
export const NODE_UNIT = 512;
/** Threads a signal array has room for. */
export const MAX_THREADS = 56;
/**
 * The search generation (SIG_GEN) whose nodes SIG_NODES + i counts, at SIG_NODES_GEN + i: a
 * helper still winding down from an older search when the next one starts publishes that
 * search's count, which the main thread must not add to the new one's.
 */
export const SIG_NODES_GEN = SIG_NODES + MAX_THREADS;
export const SIG_SIZE = SIG_NODES_GEN + MAX_THREADS;

/**
 * UCI forbids answering `go infinite` or `go ponder` before `stop` (or `ponderhit`), even when
 * the search has nothing left to do: waits for the controller's signal, for a search of
 * generation `gen` on the signal array `sig`.
 */
export function waitForStopSignal(sig: Int32Array, gen: number, limits: GoLimits): void {
  for (;;) {
    if (Atomics.load(sig, SIG_STOP) !== 0 || Atomics.load(sig, SIG_GEN) !== gen) return;
    const pondering = limits.ponder === true && Atomics.load(sig, SIG_PONDER) !== 0;
    if (!limits.infinite && !pondering) return;
    if (!(sig.buffer instanceof SharedArrayBuffer)) return; // nobody could ever stop us
    Atomics.wait(sig, SIG_STOP, 0, 20);
  }
}

/**
 * Port of src/engine/search/limits.ts: the cheap checks a search makes every CHECK_MASK + 1
 * nodes: the stop word, the node limit and the hard time limit.
 * Changes from the TS: the clock is a function the host imports (env.now, milliseconds);
 * instead of the controller's Int32Array of signals there is one stop word in memory, at
 * stopFlagPtr(), that the host sets (from another thread when the memory is shared; a host
 * that searches on its own thread stops a search with limits instead); no pondering.
 */
import { SearchThread } from './thread';

/** How often (in nodes, a power of two minus one as mask) limits are checked. */
export const CHECK_MASK = 511;

// @ts-ignore: decorator
@external('env', 'now')
export declare function now(): f64;

/** Non-zero: stop the running search (the host writes it; a search clears it when it starts). */
export const STOP = new StaticArray<i32>(1);

export function checkLimits(t: SearchThread): void {
  if (unchecked(STOP[0]) != 0) {
    t.stopped = true;
    return;
  }
  if (<f64>t.nodes >= t.nodeLimit) {
    t.stopped = true;
    return;
  }
  if (t.hardMs != Infinity && now() - t.clockStart >= t.hardMs) t.stopped = true;
}

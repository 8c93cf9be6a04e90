/**
 * The cheap checks a search makes every CHECK_INTERVAL
 * nodes, and at the node limit itself: the stop signals, ponderhit, the node limit and the hard
 * time limit. A search node tests its count against t.nextCheck (as cheap as a mask), so that
 * `go nodes N` stops at N, not at the next multiple of 512 (Stockfish likewise checks more often
 * under a node limit).
 * The clock is a function the host imports (env.now, milliseconds), and
 * so is the controller's signal array: env.poll() returns POLL_STOP when the search must stop
 * (stop, or a newer search started) and POLL_PONDER while the controller still ponders: one
 * call out of the core and three Atomics.load every 512 nodes, about 2,000 calls a second,
 * which the bench does not see. A stop word in memory, at stopFlagPtr(), stops a search too
 * (a host that shares the memory with another thread).
 */
import { SearchThread } from './thread';

/** How often (in nodes) limits are checked. */
export const CHECK_INTERVAL = 512;

/** The node count of the next check: CHECK_INTERVAL on, or the node limit if that comes first. */
// @ts-ignore: decorator
@inline export function scheduleCheck(t: SearchThread): void {
  const next = t.nodes + CHECK_INTERVAL;
  t.nextCheck = <f64>next > t.nodeLimit && !t.pondering ? max<i64>(t.nodes + 1, <i64>t.nodeLimit) : next;
}

/** env.poll() bits. */
export const POLL_STOP = 1;
export const POLL_PONDER = 2;
/** The nodes of all the threads of a parallel search have reached the node limit (go nodes counts them all). */
export const POLL_NODES = 4;

// @ts-ignore: decorator
@external('env', 'now')
export declare function now(): f64;

// @ts-ignore: decorator
@external('env', 'poll')
export declare function poll(): i32;

/** Non-zero: stop the running search (the host writes it; a search clears it when it starts). */
export const STOP = new StaticArray<i32>(1);

export function checkLimits(t: SearchThread): void {
  scheduleCheck(t);
  const p = poll();
  if (unchecked(STOP[0]) != 0 || (p & POLL_STOP) != 0) {
    t.stopped = true;
    return;
  }
  if (t.pondering) {
    if ((p & POLL_PONDER) == 0) {
      // Ponderhit: the clock starts now.
      t.pondering = false;
      t.clockStart = now();
      scheduleCheck(t);
    }
    return;
  }
  // The first iteration always completes (a few dozen nodes): a smaller node limit would
  // otherwise answer the first move generated, unsearched (Stockfish too answers `go nodes 1`
  // with a searched move).
  if ((<f64>t.nodes >= t.nodeLimit || (p & POLL_NODES) != 0) && t.rootDepth > 1) {
    t.stopped = true;
    return;
  }
  if (t.hardMs != Infinity && now() - t.clockStart >= t.hardMs) t.stopped = true;
}

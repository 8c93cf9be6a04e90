/**
 * What a search may spend, and the cheap checks the search makes against it every few
 * thousand nodes: the stop signal from the controller, ponderhit, the hard time limit and the
 * node limit. Reading the clock at every node would cost more than the nodes themselves.
 */
import { SIG_PONDER as SIG_PONDER_, SIG_STOP as SIG_STOP_, type SearchThread } from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const SIG_PONDER = SIG_PONDER_;
const SIG_STOP = SIG_STOP_;

/** How often (in nodes, a power of two minus one as mask) limits are checked. */
export const CHECK_MASK = 511;

/** The `go` parameters, as in UCI (times in milliseconds). */
export interface GoLimits {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  movetime?: number;
  depth?: number;
  nodes?: number;
  /** Search for a mate in this many moves. */
  mate?: number;
  infinite?: boolean;
  ponder?: boolean;
  /** Restrict the root to these moves (integer moves). */
  searchmoves?: number[];
  /**
   * When the command arrived (Date.now() ms); the clock runs from there, so time spent
   * before the search starts (message passing, a busy thread) is not forgotten.
   */
  startTime?: number;
}

/** Wall clock in ms; Date.now() is shared by all threads, unlike performance.now(). */
export const now = (): number => Date.now();

/** Checks the limits; sets `t.stopped` when the search must end. Called every CHECK_MASK + 1 nodes. */
export function checkLimits(t: SearchThread): void {
  const sig = t.signals;
  if (Atomics.load(sig, SIG_STOP) !== 0) {
    t.stopped = true;
    return;
  }
  if (t.pondering) {
    if (Atomics.load(sig, SIG_PONDER) === 0) {
      // Ponderhit: the clock starts now.
      t.pondering = false;
      t.clockStart = now();
    }
    return;
  }
  if (t.nodes >= t.nodeLimit) {
    t.stopped = true;
    return;
  }
  if (t.hardMs !== Infinity && now() - t.clockStart >= t.hardMs) t.stopped = true;
}

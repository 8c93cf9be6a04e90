/**
 * What a search may spend, and the cheap checks the search makes against it every few
 * thousand nodes: the stop signal from the controller, ponderhit, the hard time limit and the
 * node limit. Reading the clock at every node would cost more than the nodes themselves.
 */
import {
  NODE_UNIT as NODE_UNIT_,
  SIG_GEN as SIG_GEN_,
  SIG_NODES as SIG_NODES_,
  SIG_PONDER as SIG_PONDER_,
  SIG_STOP as SIG_STOP_,
  type SearchThread,
} from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const SIG_PONDER = SIG_PONDER_;
const SIG_STOP = SIG_STOP_;
const SIG_GEN = SIG_GEN_;
const SIG_NODES = SIG_NODES_;
const NODE_UNIT = NODE_UNIT_;

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

/** Nodes of all threads of the search, as far as the helpers have reported them. */
export function totalNodes(t: SearchThread): number {
  let n = t.nodes;
  for (let i = 1; i < t.threadCount; i++) n += Atomics.load(t.signals, SIG_NODES + i) * NODE_UNIT;
  return n;
}

/** Checks the limits; sets `t.stopped` when the search must end. Called every CHECK_MASK + 1 nodes. */
export function checkLimits(t: SearchThread): void {
  const sig = t.signals;
  if (Atomics.load(sig, SIG_STOP) !== 0 || Atomics.load(sig, SIG_GEN) !== t.gen) {
    t.stopped = true;
    return;
  }
  Atomics.store(sig, SIG_NODES + t.index, (t.nodes / NODE_UNIT) | 0);
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

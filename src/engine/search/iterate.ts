/**
 * Iterative deepening at the root: search depth 1, 2, 3, ... each iteration inside an
 * aspiration window around the previous score (widened by half on every failure), with
 * MultiPV lines searched one after another (each excluding the moves of the lines before it).
 * The previous iteration's order makes the next one fast, and a search stopped mid-iteration
 * still has the last complete answer (or a better move found since).
 *
 * Time: an iteration is not started once most of the soft limit (scaled by how unstable the best
 * move and how falling the score is) has passed (timeman.ts: the next one would end far past
 * it); the hard limit aborts the search wherever it is.
 * Book-aware search (seed 000, Deliverable 3): when the principal variation reaches a
 * position the book knows with good statistics, deepening stops and the PV move is played.
 */
import { generateLegal as generateLegal_ } from '../../core/movegen.js';
import { psqtDelta as psqtDelta_, psqtFromScratch as psqtFromScratch_ } from '../eval/psqt.js';
import {
  INFINITE as INFINITE_,
  MATE as MATE_,
  MATE_IN_MAX as MATE_IN_MAX_,
  MAX_PLY as MAX_PLY_,
  mateInMoves as mateInMoves_,
} from '../score.js';
import { now as now_, totalNodes as totalNodes_, type GoLimits } from './limits.js';
import { isQuiet as isQuiet_ } from './movepick.js';
import { LMR as LMR_, SP as SP_ } from './params.js';
import { search as search_ } from './pvs.js';
import { RootMoves } from './rootMoves.js';
import { mayStartIteration } from '../timeman.js';
import {
  SIG_GEN as SIG_GEN_,
  SIG_PONDER as SIG_PONDER_,
  SIG_STOP as SIG_STOP_,
  STACK_OFFSET as STACK_OFFSET_,
  SearchThread,
} from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const generateLegal = generateLegal_;
const psqtDelta = psqtDelta_;
const psqtFromScratch = psqtFromScratch_;
const INFINITE = INFINITE_;
const MATE = MATE_;
const MATE_IN_MAX = MATE_IN_MAX_;
const MAX_PLY = MAX_PLY_;
const mateInMoves = mateInMoves_;
const now = now_;
const totalNodes = totalNodes_;
const isQuiet = isQuiet_;
const LMR = LMR_;
const SP = SP_;
const search = search_;
const SIG_PONDER = SIG_PONDER_;
const SIG_STOP = SIG_STOP_;
const SIG_GEN = SIG_GEN_;
const STACK_OFFSET = STACK_OFFSET_;

/** One line of search output, reported after each iteration (and on aspiration failures). */
export interface SearchInfo {
  depth: number;
  seldepth: number;
  /** 1-based line number (MultiPV). */
  multipv: number;
  /** Internal score (centipawns, or MATE − plies); see score.ts. */
  score: number;
  /** Moves to mate when the score is a mate score (negative: being mated). */
  mate?: number;
  /** The score is only a bound (aspiration failure). */
  bound?: 'lower' | 'upper';
  nodes: number;
  nps: number;
  /** Milliseconds since the search started. */
  time: number;
  hashfull: number;
  pv: number[];
}

export interface SearchResult {
  /** 0 when the side to move has no legal move. */
  bestMove: number;
  /** Expected reply (0 if unknown). */
  ponderMove: number;
  score: number;
  depth: number;
  seldepth: number;
  nodes: number;
  time: number;
  pv: number[];
  /** All MultiPV lines, best first (present when more than one line was searched). */
  lines?: { move: number; score: number; pv: number[] }[];
  /** Why the search ended early, if it did: 'book' (book move), 'book-pv' (book-aware search). */
  reason?: string;
  /** A line for the GUI about how the move was chosen (BookReturn), sent as an info string. */
  note?: string;
}

export interface IterateOptions {
  multiPV: number;
  /** Soft and hard time limits in ms (Infinity: none); see timeman.ts. */
  softMs: number;
  hardMs: number;
  onInfo?: (info: SearchInfo) => void;
  /** Book-aware search: true when the position (at the end of a PV prefix) is a good book position. */
  bookKnows?: () => boolean;
  /** Minimum depth before book-aware search may stop deepening. */
  bookMinDepth?: number;
  /**
   * A helper of a parallel (Lazy SMP) search: it fills the shared hash table, reports
   * nothing, ignores the clock and stops when the main thread stops (SIG_STOP) or a new
   * search starts (SIG_GEN).
   */
  helper?: boolean;
}

const PL = SearchThread.PLIES;

/** Searches every root move at `depth` in (alpha, beta), from index pvIdx on. */
function searchRoot(t: SearchThread, rm: RootMoves, depth: number, alpha: number, beta: number, pvIdx: number): number {
  const pos = t.pos;
  let bestScore = -INFINITE;
  for (let i = pvIdx; i < rm.n; i++) {
    const m = rm.moves[i]!;
    const quiet = isQuiet(pos.board, m);
    t.pieceTo[STACK_OFFSET] = (pos.board[(m >>> 6) & 63]! << 6) | (m & 63);
    t.movePlayed[STACK_OFFSET] = m;
    t.seldepth = 0;
    t.psqt[1] = t.psqt[0]! + psqtDelta(pos, m);
    pos.play(m);
    const gc = pos.inCheck();
    const newDepth = depth - 1 + (gc ? 1 : 0);
    t.pvLen[1] = 1;
    let score: number;
    if (i === pvIdx) {
      score = 0 - search(t, newDepth, 0 - beta, 0 - alpha, 1, false, gc);
    } else {
      let d = newDepth;
      const k = i - pvIdx + 1;
      if (depth >= 3 && k >= 4 && quiet && !gc) {
        const r = LMR[(depth < 64 ? depth : 63) * 64 + (k < 64 ? k : 63)]! - 1;
        if (r > 0) d = newDepth - r > 1 ? newDepth - r : 1;
      }
      score = 0 - search(t, d, 0 - alpha - 1, 0 - alpha, 1, true, gc);
      if (score > alpha && d < newDepth) score = 0 - search(t, newDepth, 0 - alpha - 1, 0 - alpha, 1, false, gc);
      if (score > alpha && score < beta) score = 0 - search(t, newDepth, 0 - beta, 0 - alpha, 1, false, gc);
    }
    pos.undo();
    if (t.stopped) break;
    if (i === pvIdx || score > alpha) {
      rm.score[i] = score;
      rm.seldepth[i] = t.seldepth;
      const row = i * PL;
      rm.pv[row] = m;
      let len = 1;
      for (let p = 1; p < t.pvLen[1]! && len < PL - 1; p++) rm.pv[row + len++] = t.pv[PL + p]!;
      rm.pvLen[i] = len;
    } else {
      rm.score[i] = -INFINITE;
    }
    if (score > bestScore) bestScore = score;
    if (score > alpha) {
      if (i !== pvIdx) t.bestMoveChanges++;
      if (score >= beta) break;
      alpha = score;
    }
  }
  return bestScore;
}

/** Plays the PV of root move i, asking the book after each move; true if any position is known. */
function pvReachesBook(t: SearchThread, rm: RootMoves, i: number, bookKnows: () => boolean): boolean {
  const pos = t.pos;
  const len = rm.pvLen[i]!;
  let played = 0;
  let found = false;
  for (let k = 0; k < len; k++) {
    pos.play(rm.pv[i * PL + k]!);
    played++;
    if (bookKnows()) {
      found = true;
      break;
    }
  }
  while (played-- > 0) pos.undo();
  return found;
}

/** Runs iterative deepening; returns when a limit is reached or the search is stopped. */
export function iterate(t: SearchThread, limits: GoLimits, opts: IterateOptions): SearchResult {
  const pos = t.pos;
  const start = limits.startTime !== undefined && limits.startTime <= now() ? limits.startTime : now();
  t.clockStart = start;
  t.nodes = 0;
  t.stopped = false;
  t.seldepth = 0;
  t.nullAt = -1;
  t.nmpMinPly = 0;
  t.bestMoveChanges = 0;
  t.softMs = opts.softMs;
  t.hardMs = opts.hardMs;
  t.nodeLimit = limits.nodes !== undefined && limits.nodes > 0 ? limits.nodes : Infinity;
  t.pondering = limits.ponder === true && !opts.helper;
  t.gen = Atomics.load(t.signals, SIG_GEN);
  t.tt.newSearch();
  t.hist.clearKillers();
  for (let i = 0; i < STACK_OFFSET; i++) {
    t.staticEval[i] = 0;
    t.pieceTo[i] = 0;
    t.movePlayed[i] = 0;
  }
  t.excluded.fill(0);
  t.evalCache.fill(0);
  t.psqt[0] = psqtFromScratch(pos);

  const rm = (t.rootMoves ??= new RootMoves()) as RootMoves;
  rm.n = 0;
  const buf = rm.generated;
  const n = generateLegal(pos, buf, 0);
  for (let i = 0; i < n; i++) {
    const m = buf[i]!;
    if (limits.searchmoves && limits.searchmoves.length > 0 && !limits.searchmoves.includes(m)) continue;
    rm.moves[rm.n] = m;
    rm.score[rm.n] = -INFINITE;
    rm.prevScore[rm.n] = -INFINITE;
    rm.pv[rm.n * PL] = m;
    rm.pvLen[rm.n] = 1;
    rm.n++;
  }
  const result: SearchResult = { bestMove: 0, ponderMove: 0, score: 0, depth: 0, seldepth: 0, nodes: 0, time: 0, pv: [] };
  if (rm.n === 0) {
    result.score = pos.inCheck() ? -MATE : 0;
    waitForStop(t, limits);
    return result;
  }
  const multiPV = Math.max(1, Math.min(opts.multiPV, rm.n));
  const maxDepth = limits.depth !== undefined && limits.depth > 0 ? Math.min(limits.depth, MAX_PLY - 4) : MAX_PLY - 4;
  // A fixed `movetime` is a promise to think that long (test suites, analysis); the early stop
  // on a stable best move is for clock games, where saved time is spent on later moves.
  const timed = opts.softMs !== Infinity && !(limits.movetime !== undefined && limits.movetime > 0);
  let completed = 0;
  let lastBest = 0;
  let stableFor = 0;
  let instability = 0;
  let lastScore = 0;

  const report = (line: number, depth: number, bound?: 'lower' | 'upper'): void => {
    if (!opts.onInfo || opts.helper) return;
    const time = now() - start;
    const nodes = totalNodes(t);
    const score = rm.score[line]! === -INFINITE ? rm.prevScore[line]! : rm.score[line]!;
    if (score === -INFINITE) return;
    const info: SearchInfo = {
      depth,
      seldepth: Math.max(rm.seldepth[line]!, depth),
      multipv: line + 1,
      score,
      nodes,
      nps: Math.round((nodes * 1000) / Math.max(1, time)),
      time,
      hashfull: t.tt.hashfull(),
      pv: rm.pvOf(line),
    };
    if (score >= MATE_IN_MAX || score <= -MATE_IN_MAX) info.mate = mateInMoves(score);
    if (bound) info.bound = bound;
    opts.onInfo(info);
  };

  // Helpers start one ply deeper every other thread, so that the threads do not all search the
  // same iteration at the same time.
  const firstDepth = opts.helper ? 1 + (t.index & 1) : 1;
  for (let depth = firstDepth; depth <= maxDepth; depth++) {
    t.rootDepth = depth;
    t.bestMoveChanges = 0;
    for (let pvIdx = 0; pvIdx < multiPV && !t.stopped; pvIdx++) {
      const prev = rm.prevScore[pvIdx]!;
      let delta = SP.aspirationDelta;
      let alpha = -INFINITE;
      let beta = INFINITE;
      if (depth >= SP.aspirationDepth && prev !== -INFINITE && prev > -MATE_IN_MAX && prev < MATE_IN_MAX) {
        alpha = Math.max(prev - delta, -INFINITE);
        beta = Math.min(prev + delta, INFINITE);
      }
      for (;;) {
        const score = searchRoot(t, rm, depth, alpha, beta, pvIdx);
        rm.sort(pvIdx, rm.n);
        if (t.stopped) break;
        if (score <= alpha) {
          beta = (alpha + beta) >> 1;
          alpha = Math.max(score - delta, -INFINITE);
          if (now() - start > 2000) report(pvIdx, depth, 'upper');
        } else if (score >= beta) {
          beta = Math.min(score + delta, INFINITE);
          if (now() - start > 2000) report(pvIdx, depth, 'lower');
        } else break;
        delta += delta >> 1;
        if (delta > 600) {
          alpha = -INFINITE;
          beta = INFINITE;
        }
      }
      rm.sort(0, pvIdx + 1);
    }
    if (t.stopped) {
      // A stopped iteration still counts if its first line has a fresh score.
      if (rm.score[0]! !== -INFINITE && depth > 1) {
        for (let i = 0; i < multiPV; i++) report(i, depth);
        completed = depth;
      }
      break;
    }
    completed = depth;
    for (let i = 0; i < multiPV; i++) report(i, depth);
    for (let i = 0; i < rm.n; i++) rm.prevScore[i] = rm.score[i]!;

    // Stop conditions between iterations.
    const best = rm.moves[0]!;
    const score = rm.score[0]!;
    stableFor = best === lastBest ? stableFor + 1 : 0;
    lastBest = best;
    instability = instability / 2 + t.bestMoveChanges;
    if (limits.mate !== undefined && limits.mate > 0 && score >= MATE_IN_MAX && mateInMoves(score) <= limits.mate) break;
    if (opts.bookKnows && depth >= (opts.bookMinDepth ?? 4) && pvReachesBook(t, rm, 0, opts.bookKnows)) {
      result.reason = 'book-pv';
      break;
    }
    if (timed && !t.pondering) {
      const elapsed = now() - t.clockStart;
      let falling = 1 + (lastScore - score) / 250;
      falling = falling < 0.8 ? 0.8 : falling > 1.6 ? 1.6 : falling;
      const unstable = 1 + instability * 0.6;
      const stable = stableFor >= 5 ? 0.7 : 1;
      if (!mayStartIteration(elapsed, t.softMs * falling * unstable * stable)) break;
      if (rm.n === 1 && depth >= 6) break;
    }
    lastScore = score;
    if (t.nodes >= t.nodeLimit) break;
    if (depth === maxDepth) break;
  }
  if (!t.stopped && !opts.helper) waitForStop(t, limits);

  const pv = rm.pvOf(0);
  result.bestMove = rm.moves[0]!;
  result.ponderMove = pv.length > 1 ? pv[1]! : 0;
  result.score = rm.score[0]! !== -INFINITE ? rm.score[0]! : rm.prevScore[0]!;
  if (result.score === -INFINITE) result.score = 0;
  result.depth = completed;
  result.seldepth = rm.seldepth[0]!;
  result.nodes = totalNodes(t);
  result.time = now() - start;
  result.pv = pv;
  if (multiPV > 1) {
    result.lines = [];
    for (let i = 0; i < multiPV; i++) {
      const sc = rm.score[i]! !== -INFINITE ? rm.score[i]! : rm.prevScore[i]!;
      if (sc !== -INFINITE) result.lines.push({ move: rm.moves[i]!, score: sc, pv: rm.pvOf(i) });
    }
  }
  return result;
}

/**
 * UCI forbids answering `go infinite` or `go ponder` before `stop` (or `ponderhit`), even when
 * the search has nothing left to do, so wait for the controller's signal.
 */
function waitForStop(t: SearchThread, limits: GoLimits): void {
  waitForStopSignal(t.signals, t.gen, limits);
}

/** waitForStop for a search of generation `gen` on the signal array `sig` (any core's search). */
export function waitForStopSignal(sig: Int32Array, gen: number, limits: GoLimits): void {
  for (;;) {
    if (Atomics.load(sig, SIG_STOP) !== 0 || Atomics.load(sig, SIG_GEN) !== gen) return;
    const pondering = limits.ponder === true && Atomics.load(sig, SIG_PONDER) !== 0;
    if (!limits.infinite && !pondering) return;
    if (!(sig.buffer instanceof SharedArrayBuffer)) return; // nobody could ever stop us
    Atomics.wait(sig, SIG_STOP, 0, 20);
  }
}

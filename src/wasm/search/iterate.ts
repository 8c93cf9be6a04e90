/**
 * Iterative deepening at the root, each iteration inside
 * an aspiration window around the previous score (widened by half on every failure), MultiPV
 * lines one after another. The previous iteration's order makes the next one fast.
 *
 * Info lines go out through an imported env.report (the host reads the line's PV from
 * memory), and the mate limit and book-aware search are decided by the host in an imported
 * env.iterationDone after each iteration; `searchmoves` is a list the host fills (rootFilter);
 * the result is left in globals (see index.ts). Time: the hard limit aborts the search
 * (limits.ts); no iteration starts past ITERATION_START_SHARE of the soft limit scaled by
 * the best move's stability, a falling score and the nodes spent off the best move.
 */
import { psqtDelta, psqtFromScratch } from '../eval/psqt';
import { generateLegal } from '../movegen';
import { MAX_MOVES } from '../types';
import { LMR, aspFailHighReduce, aspirationDelta, aspirationDepth, timeNodeBase, timeNodeMul } from './params';
import { now, scheduleCheck } from './limits';

// @ts-ignore: decorator
@external('env', 'report')
/**
 * One info line: MultiPV line (0-based), depth, bound (0 exact, 1 upper, 2 lower), score,
 * the line's seldepth and the nodes so far. The host reads the PV with linePv*.
 */
declare function report(line: i32, depth: i32, bound: i32, score: i32, seldepth: i32, nodes: f64): void;

// @ts-ignore: decorator
@external('env', 'iterationDone')
/** After each completed iteration (depth, best score): non-zero ends the search there (mate limit, book). */
declare function iterationDone(depth: i32, score: i32): i32;

/** Flags of iterate: call env.report, call env.iterationDone. */
export const ITERATE_REPORT = 1;
export const ITERATE_HOOK = 2;

/** Root moves allowed (`searchmoves`); none: all. */
export const rootFilter = new StaticArray<u16>(MAX_MOVES);
export let rootFilterN = 0;
export function clearRootFilter(): void {
  rootFilterN = 0;
}
export function addRootFilter(m: i32): void {
  if (rootFilterN < MAX_MOVES) unchecked(rootFilter[rootFilterN++] = <u16>m);
}
function allowedAtRoot(m: i32): bool {
  if (rootFilterN == 0) return true;
  for (let i = 0; i < rootFilterN; i++) if (<i32>unchecked(rootFilter[i]) == m) return true;
  return false;
}

/**
 * A bonus in centipawns for one root move (0: none), so that one search decides whether that
 * move is within `bonus` of the best: the move is searched with the window lowered by the bonus
 * and its score raised by it (mate scores excepted), and it is chosen exactly when its raised
 * score beats the others' (BookReturn: heading back into the book when it costs at most the
 * margin). The bonus never reaches a reported score: rootScore takes it off. The search of
 * every other move is unchanged, and no second search of the move alone is needed (which would
 * spend time beyond the clock's plan, or nodes beyond a `go nodes`).
 */
export let rootBonusMove = 0;
export let rootBonusCp = 0;
export function setRootBonus(m: i32, cp: i32): void {
  rootBonusMove = m;
  rootBonusCp = cp;
}
// @ts-ignore: decorator
@inline function bonusOf(m: i32): i32 {
  return rootBonusCp != 0 && m == rootBonusMove ? rootBonusCp : 0;
}
// @ts-ignore: decorator
@inline function isMateScore(s: i32): bool {
  return s <= -MATE_IN_MAX || s >= MATE_IN_MAX;
}
/** Root line i's score `s` as the search found it: without the bonus. */
export function rootScore(i: i32, s: i32): i32 {
  const b = bonusOf(<i32>rm.moves[i]);
  return b == 0 || s == -INFINITE || isMateScore(s) ? s : s - b;
}
import { isQuiet } from './movepick';
import { search } from './pvs';
import { RootMoves } from './rootMoves';
import { INFINITE, MATE, MATE_IN_MAX, MAX_PLY } from './score';
import { PLIES, STACK_OFFSET, SearchThread } from './thread';

const PL = PLIES;

/**
 * Share of the time target (the soft limit scaled by stability) past which no new iteration
 * starts. An iteration costs about as much as all the ones before it together, so one started
 * late ends far past the target: checking against the whole target, the engine spent two to
 * three times its soft limit a move and ran its clock down to about 0.6 s at 10+0.1 (matches
 * against Phalanx), one stall of the machine away from losing on time.
 */
export const ITERATION_START_SHARE = 0.6;

export const rm = new RootMoves();

/**
 * This instance's thread in a parallel (Lazy SMP) search: 0 the main thread, 1, 2, ... the
 * helpers, which only fill the shared hash table. A helper skips some iterations, differently
 * for each thread, so that the threads spread over several depths at once: Stockfish 10's
 * SkipSize/SkipPhase tables (src/search.cpp, Thread::search).
 */
export let helperIndex = 0;
export function setHelperIndex(i: i32): void {
  helperIndex = i;
}
const SKIP_SIZE: StaticArray<i32> = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: StaticArray<i32> = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/** Searches every root move at `depth` in (alpha, beta), from index pvIdx on. */
function searchRoot(t: SearchThread, depth: i32, alpha: i32, beta: i32, pvIdx: i32): i32 {
  const pos = t.pos;
  let bestScore = -INFINITE;
  // The grandchildren's fail-high count starts again with every root search (pvs.ts).
  t.cutoffCount[2] = 0;
  for (let i = pvIdx; i < rm.n; i++) {
    const m = <i32>rm.moves[i];
    const quiet = isQuiet(pos.board, m);
    t.pieceTo[STACK_OFFSET] = (<i32>pos.board[(m >>> 6) & 63] << 6) | (m & 63);
    t.movePlayed[STACK_OFFSET] = <u16>m;
    t.seldepth = 0;
    t.psqt[1] = t.psqt[0] + psqtDelta(pos, m);
    pos.play(m);
    const gc = pos.inCheck();
    const newDepth = depth - 1 + (gc ? 1 : 0);
    t.pvLen[1] = 1;
    const nodesBefore = t.nodes;
    // The window of this move, lowered by its bonus (rootBonusMove); an infinite bound stays.
    const bonus = bonusOf(m);
    const lo = alpha == -INFINITE ? alpha : alpha - bonus;
    const hi = beta == INFINITE ? beta : beta - bonus;
    let score: i32;
    if (i == pvIdx) {
      score = -search(t, newDepth, -hi, -lo, 1, false, gc);
    } else {
      let d = newDepth;
      const k = i - pvIdx + 1;
      if (depth >= 3 && k >= 4 && quiet && !gc) {
        const r = <i32>LMR[(depth < 64 ? depth : 63) * 64 + (k < 64 ? k : 63)] - 1;
        if (r > 0) d = newDepth - r > 1 ? newDepth - r : 1;
      }
      score = -search(t, d, -lo - 1, -lo, 1, true, gc);
      if (score > lo && d < newDepth) score = -search(t, newDepth, -lo - 1, -lo, 1, false, gc);
      if (score > lo && score < hi) score = -search(t, newDepth, -hi, -lo, 1, false, gc);
    }
    pos.undo();
    rm.nodes[i] += t.nodes - nodesBefore;
    if (t.stopped) break;
    if (bonus != 0 && !isMateScore(score)) score += bonus;
    if (i == pvIdx || score > alpha) {
      rm.score[i] = score;
      // As Stockfish's rootMoves scoreLowerbound/scoreUpperbound: a stopped iteration reports it.
      rm.bound[i] = score >= beta ? 2 : score <= alpha ? 1 : 0;
      rm.seldepth[i] = <u8>t.seldepth;
      const row = i * PL;
      rm.pv[row] = <u16>m;
      let len = 1;
      for (let p = 1; p < <i32>t.pvLen[1] && len < PL - 1; p++) rm.pv[row + len++] = t.pv[PL + p];
      rm.pvLen[i] = <u8>len;
    } else {
      rm.score[i] = -INFINITE;
    }
    if (score > bestScore) bestScore = score;
    if (score > alpha) {
      if (i != pvIdx) t.bestMoveChanges++;
      if (score >= beta) break;
      alpha = score;
    }
  }
  return bestScore;
}

// The result of the last search.
export let resultMove = 0;
export let resultScore = 0;
export let resultDepth = 0;
export let resultSeldepth = 0;
/** The iteration that ended the search was cut by iterationDone. */
export let resultHooked = false;

/** Reports line `line` as env.report (nothing while it has no score). */
function reportLine(t: SearchThread, line: i32, depth: i32, bound: i32): void {
  let score = rm.score[line];
  if (score == -INFINITE) score = rm.prevScore[line];
  if (score == -INFINITE) return;
  score = rootScore(line, score);
  report(line, depth, bound, score, <i32>rm.seldepth[line], <f64>t.nodes);
}

/**
 * Runs iterative deepening to `maxDepth` (0: no depth limit) within the limits set on `t`
 * (nodeLimit, softMs, hardMs: Infinity for none); returns when a limit is reached or the
 * search is stopped. `timed` enables the soft-limit test between iterations.
 */
export function iterate(t: SearchThread, maxDepthIn: i32, multiPVIn: i32, timed: bool, startMs: f64 = 0, flags: i32 = 0): void {
  const pos = t.pos;
  const reporting = (flags & ITERATE_REPORT) != 0;
  const hooked = (flags & ITERATE_HOOK) != 0;
  const start = startMs > 0 ? startMs : now();
  t.clockStart = start;
  t.nodes = 0;
  scheduleCheck(t);
  t.stopped = false;
  t.seldepth = 0;
  t.nullAt = -1;
  t.rootPly = pos.ply;
  t.nmpMinPly = 0;
  t.bestMoveChanges = 0;
  t.tt.newSearch();
  t.hist.clearKillers();
  for (let i = 0; i < STACK_OFFSET; i++) {
    t.staticEval[i] = 0;
    t.pieceTo[i] = 0;
    t.movePlayed[i] = 0;
  }
  memory.fill(changetype<usize>(t.excluded), 0, <usize>t.excluded.length << 1);
  memory.fill(changetype<usize>(t.cutoffCount), 0, <usize>t.cutoffCount.length << 2);
  t.ttPv[0] = 1;
  memory.fill(changetype<usize>(t.evalCache), 0, <usize>t.evalCache.length << 2);
  t.psqt[0] = psqtFromScratch(pos);

  rm.n = 0;
  const buf = rm.generated;
  const n = generateLegal(pos, buf, 0);
  for (let i = 0; i < n; i++) {
    const m = buf[i];
    if (!allowedAtRoot(<i32>m)) continue;
    rm.moves[rm.n] = m;
    rm.score[rm.n] = -INFINITE;
    rm.prevScore[rm.n] = -INFINITE;
    rm.pv[rm.n * PL] = m;
    rm.pvLen[rm.n] = 1;
    rm.nodes[rm.n] = 0;
    rm.n++;
  }
  resultMove = 0;
  resultScore = 0;
  resultDepth = 0;
  resultSeldepth = 0;
  resultHooked = false;
  if (rm.n == 0) {
    resultScore = pos.inCheck() ? -MATE : 0;
    return;
  }
  const multiPV = max<i32>(1, min<i32>(multiPVIn, rm.n));
  const maxDepth = maxDepthIn > 0 ? min<i32>(maxDepthIn, MAX_PLY - 4) : MAX_PLY - 4;
  let completed = 0;
  let lastBest = 0;
  let stableFor = 0;
  let instability: f64 = 0;
  let lastScore = 0;

  for (let depth = 1; depth <= maxDepth; depth++) {
    if (helperIndex > 0) {
      const k = (helperIndex - 1) % 20;
      if (((depth + unchecked(SKIP_PHASE[k])) / unchecked(SKIP_SIZE[k])) % 2 != 0) continue;
    }
    t.rootDepth = depth;
    t.bestMoveChanges = 0;
    for (let pvIdx = 0; pvIdx < multiPV && !t.stopped; pvIdx++) {
      const prev = rm.prevScore[pvIdx];
      let delta = aspirationDelta;
      let alpha = -INFINITE;
      let beta = INFINITE;
      if (depth >= aspirationDepth && prev != -INFINITE && prev > -MATE_IN_MAX && prev < MATE_IN_MAX) {
        alpha = max<i32>(prev - delta, -INFINITE);
        beta = min<i32>(prev + delta, INFINITE);
      }
      let failedHigh = 0;
      for (;;) {
        const score = searchRoot(t, max<i32>(1, depth - failedHigh), alpha, beta, pvIdx);
        rm.sort(pvIdx, rm.n);
        if (t.stopped) break;
        if (score <= alpha) {
          failedHigh = 0;
          beta = (alpha + beta) >> 1;
          alpha = max<i32>(score - delta, -INFINITE);
          if (reporting && now() - start > 2000) reportLine(t, pvIdx, depth, 1);
        } else if (score >= beta) {
          beta = min<i32>(score + delta, INFINITE);
          if (aspFailHighReduce != 0 && failedHigh < 3 && score < MATE_IN_MAX) failedHigh++;
          if (reporting && now() - start > 2000) reportLine(t, pvIdx, depth, 2);
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
      // A stopped iteration still counts if its first line has a fresh score, which may be the
      // bound of a window it failed: its report says so.
      if (rm.score[0] != -INFINITE && depth > 1) {
        if (reporting) for (let i = 0; i < multiPV; i++) reportLine(t, i, depth, rm.score[i] != -INFINITE ? <i32>rm.bound[i] : 0);
        completed = depth;
      }
      break;
    }
    completed = depth;
    if (reporting) for (let i = 0; i < multiPV; i++) reportLine(t, i, depth, 0);
    for (let i = 0; i < rm.n; i++) rm.prevScore[i] = rm.score[i];

    // Stop conditions between iterations.
    const best = <i32>rm.moves[0];
    const score = rm.score[0];
    stableFor = best == lastBest ? stableFor + 1 : 0;
    lastBest = best;
    instability = instability / 2 + <f64>t.bestMoveChanges;
    if (hooked && iterationDone(depth, score) != 0) {
      resultHooked = true;
      break;
    }
    if (timed && !t.pondering) {
      const elapsed = now() - t.clockStart;
      let falling = 1 + <f64>(lastScore - score) / 250;
      falling = falling < 0.8 ? 0.8 : falling > 1.6 ? 1.6 : falling;
      const unstable = 1 + instability * 0.6;
      const stable = stableFor >= 5 ? 0.7 : 1;
      const spread = t.nodes > 0 ? 1 - <f64>rm.nodes[0] / <f64>t.nodes : 0;
      let effort = (<f64>timeNodeBase + <f64>timeNodeMul * spread) / 100;
      effort = effort < 0.5 ? 0.5 : effort > 2.5 ? 2.5 : effort;
      if (elapsed > t.softMs * falling * unstable * stable * effort * ITERATION_START_SHARE) break;
      if (rm.n == 1 && depth >= 6) break;
    }
    lastScore = score;
    if (<f64>t.nodes >= t.nodeLimit) break;
    if (depth == maxDepth) break;
  }

  resultMove = <i32>rm.moves[0];
  resultScore = rootScore(0, rm.score[0] != -INFINITE ? rm.score[0] : rm.prevScore[0]);
  if (resultScore == -INFINITE) resultScore = 0;
  resultDepth = completed;
  resultSeldepth = <i32>rm.seldepth[0];
}

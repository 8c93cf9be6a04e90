/**
 * The main search: principal variation search (seed 000, Deliverable 2) in negamax form with a
 * transposition table, selective pruning, reductions and extensions. Root moves are handled by
 * iterate.ts; this function searches every other node.
 *
 *   Step 1.  Node bookkeeping, limits, draws, mate-distance pruning
 *   Step 2.  Hash table probe and cutoff
 *   Step 3.  Static evaluation ("improving": better than two plies ago)
 *   Step 4.  Razoring, reverse futility, null move, ProbCut (non-PV, not in check)
 *   Step 5.  Internal iterative reduction
 *   Step 6.  Move loop: pruning at low depth, extensions, late move reductions, PVS re-search
 *   Step 7.  Mate/stalemate, history updates, hash store
 *
 * Scores are negated as `0 - x`, never `-x`: negating a zero gives -0, which is not a small
 * integer to V8 and would make it deoptimise the search into floating-point code.
 */
import {
  CHECK_INFO_SIZE as CHECK_INFO_SIZE_,
  givesCheck as givesCheckFast,
  prepareCheckInfo as prepareCheckInfo_,
} from '../../core/givesCheck.js';
import { KIND_MASK as KIND_MASK_, PROMOTION as PROMOTION_ } from '../../core/move.js';
import { KING as KING_ } from '../../core/types.js';
import { evaluateWith as evaluateWith_ } from '../eval/evaluate.js';
import { psqtDelta as psqtDelta_ } from '../eval/psqt.js';
import { MATE as MATE_, MATE_IN_MAX as MATE_IN_MAX_, MAX_PLY as MAX_PLY_, NONE_SCORE as NONE_SCORE_ } from '../score.js';
import { BOUND_EXACT as BOUND_EXACT_, BOUND_LOWER as BOUND_LOWER_, BOUND_UPPER as BOUND_UPPER_ } from '../tt.js';
import { CHECK_MASK as CHECK_MASK_, checkLimits as checkLimits_ } from './limits.js';
import { initMainPicker as initMainPicker_, isQuiet as isQuiet_, nextMove as nextMove_ } from './movepick.js';
import { LMR as LMR_, SP as SP_ } from './params.js';
import { qsearch as qsearch_ } from './qsearch.js';
import { seeGe as seeGe_ } from './see.js';
import { EVAL_MISS as EVAL_MISS_, probeEval as probeEval_, storeEval as storeEval_ } from './evalCache.js';
import { updateCaptureStats as updateCaptureStats_, updateQuietStats as updateQuietStats_ } from './cutoffs.js';
import { hasNonPawnMaterial as hasNonPawnMaterial_, isDraw as isDraw_ } from './draw.js';
import { STACK_OFFSET as STACK_OFFSET_, SearchThread } from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const CHECK_INFO_SIZE = CHECK_INFO_SIZE_;
const prepareCheckInfo = prepareCheckInfo_;
const KIND_MASK = KIND_MASK_;
const PROMOTION = PROMOTION_;
const KING = KING_;
const evaluateWith = evaluateWith_;
const psqtDelta = psqtDelta_;
const MATE = MATE_;
const MATE_IN_MAX = MATE_IN_MAX_;
const MAX_PLY = MAX_PLY_;
const NONE_SCORE = NONE_SCORE_;
const BOUND_EXACT = BOUND_EXACT_;
const BOUND_LOWER = BOUND_LOWER_;
const BOUND_UPPER = BOUND_UPPER_;
const CHECK_MASK = CHECK_MASK_;
const checkLimits = checkLimits_;
const initMainPicker = initMainPicker_;
const isQuiet = isQuiet_;
const nextMove = nextMove_;
const LMR = LMR_;
const SP = SP_;
const qsearch = qsearch_;
const seeGe = seeGe_;
const EVAL_MISS = EVAL_MISS_;
const probeEval = probeEval_;
const storeEval = storeEval_;
const updateCaptureStats = updateCaptureStats_;
const updateQuietStats = updateQuietStats_;
const hasNonPawnMaterial = hasNonPawnMaterial_;
const isDraw = isDraw_;
const STACK_OFFSET = STACK_OFFSET_;

function updatePv(t: SearchThread, ply: number, m: number): void {
  const PL = SearchThread.PLIES;
  const dst = ply * PL;
  const src = (ply + 1) * PL;
  t.pv[dst + ply] = m;
  const len = t.pvLen[ply + 1]!;
  for (let i = ply + 1; i < len; i++) t.pv[dst + i] = t.pv[src + i]!;
  t.pvLen[ply] = len > ply + 1 ? len : ply + 1;
}

/** A child node: quiescence search at the horizon (skipping the main search's entry), else search. */
function child(t: SearchThread, depth: number, alpha: number, beta: number, ply: number, cutNode: boolean, inCheck: boolean): number {
  return depth <= 0 ? qsearch(t, alpha, beta, ply, inCheck, false) : search(t, depth, alpha, beta, ply, cutNode, inCheck);
}

export function search(t: SearchThread, depth: number, alpha: number, beta: number, ply: number, cutNode: boolean, inCheck: boolean): number {
  if (depth <= 0) return qsearch(t, alpha, beta, ply, inCheck, false);

  // Step 1.
  const pos = t.pos;
  const pvNode = beta - alpha > 1;
  const S = ply + STACK_OFFSET;
  if (pvNode) t.pvLen[ply] = ply;
  if ((++t.nodes & CHECK_MASK) === 0) checkLimits(t);
  if (t.stopped) return 0;
  if (ply > t.seldepth) t.seldepth = ply;
  if (isDraw(t)) return 0;
  if (ply >= MAX_PLY - 1) return inCheck ? 0 : evaluateWith(pos, t.psqt[ply]!);
  if (alpha < -MATE + ply) alpha = -MATE + ply;
  if (beta > MATE - ply - 1) beta = MATE - ply - 1;
  if (alpha >= beta) return alpha;
  const excluded = t.excluded[ply]!;
  // Decided here, on every visit, rather than in the rarely reached "no legal move" branch:
  // a comparison V8 has never seen executed deoptimises the whole function when first reached.
  const noMoveScore = excluded !== 0 ? alpha : inCheck ? -MATE + ply : 0;
  // Killers two plies down come from a different subtree.
  t.hist.killers[(ply + 2) * 2] = 0;
  t.hist.killers[(ply + 2) * 2 + 1] = 0;

  // Step 2.
  const hit = excluded === 0 && t.tt.probe(pos.keyLo, pos.keyHi, ply);
  const ttMove = hit ? t.tt.move : 0;
  const ttScore = hit ? t.tt.score : NONE_SCORE;
  const ttBound = hit ? t.tt.bound : 0;
  const ttDepth = hit ? t.tt.depth : -99;
  const ttEval = hit ? t.tt.eval : NONE_SCORE;
  if (!pvNode && hit && ttDepth >= depth && ttScore !== NONE_SCORE && (ttBound & (ttScore >= beta ? BOUND_LOWER : BOUND_UPPER)) !== 0) {
    if (ttScore >= beta && ttMove !== 0 && isQuiet(pos.board, ttMove) && !inCheck) {
      // Keep the hash move's history up to date even on a cutoff.
      const h = t.hist;
      if (h.killers[ply * 2] !== ttMove) {
        h.killers[ply * 2 + 1] = h.killers[ply * 2]!;
        h.killers[ply * 2] = ttMove;
      }
    }
    if (pos.halfmoves < 90) return ttScore;
  }

  // Step 3.
  let rawEval = NONE_SCORE;
  let evalScore = NONE_SCORE;
  let improving = false;
  if (inCheck) {
    t.staticEval[S] = NONE_SCORE;
  } else {
    rawEval = ttEval;
    if (rawEval === NONE_SCORE) {
      rawEval = probeEval(t.evalCache, pos.keyLo, pos.keyHi);
      if (rawEval === EVAL_MISS) {
        rawEval = evaluateWith(pos, t.psqt[ply]!);
        storeEval(t.evalCache, pos.keyLo, pos.keyHi, rawEval);
      }
    }
    evalScore = rawEval;
    t.staticEval[S] = rawEval;
    if (hit && ttScore !== NONE_SCORE && (ttBound & (ttScore > evalScore ? BOUND_LOWER : BOUND_UPPER)) !== 0) evalScore = ttScore;
    const prev2 = t.staticEval[S - 2]!;
    const prev4 = t.staticEval[S - 4]!;
    improving = prev2 !== NONE_SCORE ? rawEval > prev2 : prev4 !== NONE_SCORE ? rawEval > prev4 : true;
  }

  // Step 4.
  if (!pvNode && !inCheck && excluded === 0) {
    // Razoring: hopeless at low depth unless a capture saves it.
    if (depth <= SP.razorDepth && evalScore < alpha - SP.razorBase - SP.razorMargin * depth * depth) {
      const v = qsearch(t, alpha, alpha + 1, ply, false);
      if (v <= alpha) return v;
    }
    // Reverse futility: so far above beta that a quiet move will not bring it back.
    if (depth <= SP.rfpDepth && evalScore - SP.rfpMargin * (depth - (improving ? 1 : 0)) >= beta && evalScore < MATE_IN_MAX) {
      return (evalScore + beta) >> 1;
    }
    // Null move: if passing still fails high, a real move will too (not in pawn endings: zugzwang).
    if (depth >= SP.nmpMinDepth && evalScore >= beta && rawEval >= beta - 20 * depth + 150 && t.pieceTo[S - 1] !== 0 &&
      ply >= t.nmpMinPly && beta > -MATE_IN_MAX && hasNonPawnMaterial(t)) {
      let r = SP.nmpBase + ((depth / SP.nmpDepthDiv) | 0);
      const e = ((evalScore - beta) / SP.nmpEvalDiv) | 0;
      r += e < 3 ? e : 3;
      t.pieceTo[S] = 0;
      t.movePlayed[S] = 0;
      const savedNull = t.nullAt;
      t.nullAt = pos.ply;
      t.psqt[ply + 1] = t.psqt[ply]!;
      pos.playNull();
      let v = 0 - search(t, depth - r, 0 - beta, 1 - beta, ply + 1, !cutNode, false);
      pos.undo();
      t.nullAt = savedNull;
      if (t.stopped) return 0;
      if (v >= beta) {
        if (v >= MATE_IN_MAX) v = beta;
        if (depth < SP.nmpVerifyDepth) return v;
        // Verify at high depth with null moves disabled for the first plies.
        t.nmpMinPly = ply + ((3 * (depth - r)) >> 2);
        const w = search(t, depth - r, beta - 1, beta, ply, false, false);
        t.nmpMinPly = 0;
        if (w >= beta) return v;
      }
    }
    // ProbCut: a good capture that beats beta by a margin at reduced depth very likely beats beta.
    const pcBeta = beta + SP.probcutMargin;
    if (depth >= SP.probcutDepth && beta < MATE_IN_MAX && !(hit && ttDepth >= depth - 3 && ttScore !== NONE_SCORE && ttScore < pcBeta)) {
      initMainPicker(t, ply, ttMove !== 0 && !isQuiet(pos.board, ttMove) ? ttMove : 0, false, true);
      for (;;) {
        const m = nextMove(t, ply, true);
        if (m === 0) break;
        if (!seeGe(pos, m, pcBeta - evalScore)) continue;
        t.pieceTo[S] = (pos.board[(m >>> 6) & 63]! << 6) | (m & 63);
        t.movePlayed[S] = m;
        t.psqt[ply + 1] = t.psqt[ply]! + psqtDelta(pos, m);
        pos.play(m);
        const gc = pos.inCheck();
        let v = 0 - qsearch(t, 0 - pcBeta, 0 - pcBeta + 1, ply + 1, gc);
        if (v >= pcBeta) v = 0 - search(t, depth - 4, 0 - pcBeta, 1 - pcBeta, ply + 1, !cutNode, gc);
        pos.undo();
        if (t.stopped) return 0;
        if (v >= pcBeta) {
          t.tt.store(pos.keyLo, pos.keyHi, ply, m, v, rawEval, depth - 3, BOUND_LOWER, false);
          return v;
        }
      }
    }
  }

  // Step 5.
  if ((pvNode || cutNode) && depth >= SP.iirDepth && ttMove === 0) depth--;

  // Step 6.
  initMainPicker(t, ply, ttMove, inCheck);
  const oldAlpha = alpha;
  let bestScore = -MATE + ply;
  let bestMove = 0;
  let moveCount = 0;
  let nQuiets = 0;
  let nCaptures = 0;
  let skipQuiets = false;
  const board = pos.board;
  const c1 = t.pieceTo[S - 1]! << 10;
  const c2 = t.pieceTo[S - 2]! << 10;
  const cont = t.hist.continuation;
  const ttCapture = ttMove !== 0 && !isQuiet(board, ttMove);
  const nonPawn = hasNonPawnMaterial(t);
  const ci = ply * CHECK_INFO_SIZE;
  prepareCheckInfo(pos, t.checkInfo, ci);
  for (;;) {
    const m = nextMove(t, ply, skipQuiets);
    if (m === 0) break;
    if (m === excluded) continue;
    moveCount++;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const piece = board[from]!;
    const quiet = isQuiet(board, m);
    const pt = (piece << 6) | to;
    const histScore = quiet ? t.hist.butterfly[(pos.turn << 12) | (m & 4095)]! + cont[c1 | pt]! + cont[c2 | pt]! : 0;
    let r = depth < 64 ? LMR[depth * 64 + (moveCount < 64 ? moveCount : 63)]! : LMR[63 * 64 + 63]!;
    let givesCheck = inCheck ? false : givesCheckFast(pos, m, t.checkInfo, ci);

    // Pruning at low depth, once a move that does not lose to mate is known. Late move pruning
    // stops the picker's quiet stages; checks are never pruned as quiet moves.
    if (bestScore > -MATE_IN_MAX && nonPawn) {
      const lmrDepth = depth - 1 - r > 0 ? depth - 1 - r : 0;
      if (moveCount >= ((SP.lmpBase + depth * depth) / (improving ? 1 : 2) | 0)) skipQuiets = true;
      if (quiet && !givesCheck) {
        if (skipQuiets) continue;
        if (lmrDepth < SP.historyPruneDepth && cont[c1 | pt]! + cont[c2 | pt]! < -SP.historyPruneMul * depth) continue;
        if (!inCheck && lmrDepth < SP.futilityDepth && evalScore + SP.futilityBase + SP.futilityMul * lmrDepth <= alpha) continue;
        if (lmrDepth < SP.seePruneDepth && !seeGe(pos, m, -SP.seeQuietMul * lmrDepth * lmrDepth)) continue;
      } else if (!givesCheck && depth < SP.seePruneDepth && !seeGe(pos, m, -SP.seeCaptureMul * depth)) continue;
    }

    // Singular extension: if every other move fails well below the hash score, the hash move is
    // the only good one and deserves a deeper look.
    let extension = 0;
    if (ply < 2 * t.rootDepth && depth >= SP.singularDepth && m === ttMove && excluded === 0 && ttScore !== NONE_SCORE &&
      ttScore < MATE_IN_MAX && ttScore > -MATE_IN_MAX && (ttBound & BOUND_LOWER) !== 0 && ttDepth >= depth - 3) {
      const sBeta = ttScore - SP.singularMargin * depth;
      t.excluded[ply] = m;
      const v = search(t, (depth - 1) >> 1, sBeta - 1, sBeta, ply, cutNode, inCheck);
      t.excluded[ply] = 0;
      if (t.stopped) return 0;
      if (v < sBeta) {
        extension = !pvNode && v < sBeta - 20 ? 2 : 1;
      } else if (sBeta >= beta) {
        // Multi-cut: more than one move beats beta.
        return sBeta;
      } else if (ttScore >= beta) {
        extension = -1;
      }
      // The picker of this ply was reused by the exclusion search: restart it past the hash move.
      initMainPicker(t, ply, ttMove, inCheck);
      nextMove(t, ply, false);
    }

    t.pieceTo[S] = pt;
    t.movePlayed[S] = m;
    t.psqt[ply + 1] = t.psqt[ply]! + psqtDelta(pos, m);
    pos.play(m);
    if (inCheck) givesCheck = pos.inCheck();
    if (givesCheck && extension === 0 && ply < 2 * t.rootDepth) extension = 1;
    const newDepth = depth - 1 + extension;
    let score: number;
    if (depth >= 2 && moveCount > 1 + (pvNode ? 1 : 0) && (quiet || !pvNode)) {
      if (pvNode) r--;
      if (cutNode) r += 2;
      if (!improving) r++;
      if (givesCheck) r--;
      if (ttCapture && quiet) r++;
      if (m === t.killer1[ply] || m === t.killer2[ply] || m === t.counterMove[ply]) r--;
      if (quiet) r -= (histScore / SP.lmrHistoryDiv) | 0;
      else r--;
      let d = newDepth - r;
      if (d > newDepth) d = newDepth;
      if (d < 1) d = 1;
      score = 0 - search(t, d, 0 - alpha - 1, 0 - alpha, ply + 1, true, givesCheck);
      if (score > alpha && d < newDepth) score = 0 - child(t, newDepth, 0 - alpha - 1, 0 - alpha, ply + 1, !cutNode, givesCheck);
    } else if (!pvNode || moveCount > 1) {
      score = 0 - child(t, newDepth, 0 - alpha - 1, 0 - alpha, ply + 1, !cutNode, givesCheck);
    } else {
      score = alpha + 1;
    }
    if (pvNode && (moveCount === 1 || score > alpha)) score = 0 - child(t, newDepth, 0 - beta, 0 - alpha, ply + 1, false, givesCheck);
    pos.undo();
    if (t.stopped) return 0;

    if (score > bestScore) {
      bestScore = score;
      if (score > alpha) {
        bestMove = m;
        if (pvNode) updatePv(t, ply, m);
        if (score >= beta) break;
        alpha = score;
      }
    }
    if (quiet) {
      if (nQuiets < 64) t.quietsTried[ply * 64 + nQuiets++] = m;
    } else if (nCaptures < 32 && (m & KIND_MASK) !== PROMOTION && (board[to]! & 7) !== KING) {
      t.capturesTried[ply * 32 + nCaptures++] = m;
    }
  }

  // Step 7.
  if (moveCount === 0) return noMoveScore;
  if (bestScore >= beta && bestMove !== 0) {
    if (isQuiet(board, bestMove)) {
      if (nQuiets === 64) nQuiets--;
      t.quietsTried[ply * 64 + nQuiets++] = bestMove;
      updateQuietStats(t, ply, bestMove, depth + (bestScore > beta + 80 ? 1 : 0), nQuiets);
    } else if ((bestMove & KIND_MASK) !== PROMOTION) {
      if (nCaptures === 32) nCaptures--;
      t.capturesTried[ply * 32 + nCaptures++] = bestMove;
    }
    if (nCaptures > 0) updateCaptureStats(t, ply, bestMove, depth, nCaptures);
  }
  if (excluded === 0) {
    const bound = bestScore >= beta ? BOUND_LOWER : pvNode && bestScore > oldAlpha ? BOUND_EXACT : BOUND_UPPER;
    t.tt.store(pos.keyLo, pos.keyHi, ply, bestMove, bestScore, rawEval, depth, bound, pvNode);
  }
  return bestScore;
}

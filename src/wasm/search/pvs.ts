/**
 * Principal variation search in negamax form with a
 * transposition table, selective pruning, reductions and extensions. Root moves are handled by
 * iterate.ts; this function searches every other node. Same steps, same order of operations:
 *
 *   Step 1.  Node bookkeeping, limits, draws, mate-distance pruning
 *   Step 2.  Hash table probe and cutoff
 *   Step 3.  Static evaluation ("improving": better than two plies ago)
 *   Step 4.  Razoring, reverse futility, null move, ProbCut (non-PV, not in check)
 *   Step 5.  Internal iterative reduction
 *   Step 6.  Move loop: pruning at low depth, extensions, late move reductions, PVS re-search
 *   Step 7.  Mate/stalemate, history updates, hash store
 *
 * Scores are i32 (no -0, so `-x` is safe); the position key is one u64.
 */
import { CHECK_INFO_SIZE, givesCheck as givesCheckFast, prepareCheckInfo } from '../givesCheck';
import { evaluateWith } from '../eval/evaluate';
import { psqtDelta } from '../eval/psqt';
import { EN_PASSANT, KIND_MASK, KING, MAX_MOVES, PAWN, PROMOTION } from '../types';
import { corrected, updateCorrection } from './correction';
import { rewardPriorQuiet, rewardQuiet, updateCaptureStats, updateQuietStats } from './cutoffs';
import { hasNonPawnMaterial, isDraw, isPawnEnding, matedAfterFiftyMoves } from '../draw';
import { EVAL_MISS, probeEval, storeEval } from './evalCache';
import { checkLimits } from './limits';
import { initMainPicker, isQuiet, nextMove } from './movepick';
import {
  LMR, contHistPly4, corrHistory, cutoffBonusMargin, doubleExtMargin, futilityBase, futilityDepth, futilityMul, historyPruneDepth, historyPruneMul, iirDepth, lmpBase,
  lmrCutoffCount, lmrDeeperMargin, lmrHistoryDiv, nmpBase, nmpDepthDiv, nmpEvalBase, nmpEvalDepthMul, nmpEvalDiv, nmpMinDepth, nmpVerifyDepth, priorQuietBonus, probcutDepth,
  probcutMargin, failHighBlend, razorBase, razorDepth, razorMargin, rfpDepth, rfpMargin, seeCaptureMul, seePruneDepth, seeQuietMul, singularDepth, singularMargin, ttCutHistory,
  ttPvReduction, pawnHistory, pawnEndingExt,
} from './params';
import { pawnHistoryRow } from './history';
import { qsearch } from './qsearch';
import { MATE, MATE_IN_MAX, MAX_PLY, NONE_SCORE } from './score';
import { seeGe } from '../see';
import { PLIES, STACK_OFFSET, SearchThread } from './thread';
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER } from './tt';

function updatePv(t: SearchThread, ply: i32, m: i32): void {
  const PL = PLIES;
  const dst = ply * PL;
  const src = (ply + 1) * PL;
  const pv = t.pv;
  unchecked(pv[dst + ply] = <u16>m);
  const len = <i32>unchecked(t.pvLen[ply + 1]);
  for (let i = ply + 1; i < len; i++) unchecked(pv[dst + i] = unchecked(pv[src + i]));
  unchecked(t.pvLen[ply] = <u8>(len > ply + 1 ? len : ply + 1));
}

/** A child node: quiescence search at the horizon (skipping the main search's entry), else search. */
// @ts-ignore: decorator
@inline function child(t: SearchThread, depth: i32, alpha: i32, beta: i32, ply: i32, cutNode: bool, inCheck: bool): i32 {
  return depth <= 0 ? qsearch(t, alpha, beta, ply, inCheck, false) : search(t, depth, alpha, beta, ply, cutNode, inCheck);
}

export function search(t: SearchThread, depth: i32, alpha: i32, beta: i32, ply: i32, cutNode: bool, inCheck: bool): i32 {
  if (depth <= 0) return qsearch(t, alpha, beta, ply, inCheck, false);

  // Step 1.
  const pos = t.pos;
  const pvNode = beta - alpha > 1;
  const S = ply + STACK_OFFSET;
  if (pvNode) unchecked(t.pvLen[ply] = <u8>ply);
  if (++t.nodes >= t.nextCheck) checkLimits(t);
  if (t.stopped) return 0;
  if (ply > t.seldepth) t.seldepth = ply;
  if (isDraw(pos, t.nullAt, t.rootPly)) return matedAfterFiftyMoves(pos, inCheck, t.moves, ply * MAX_MOVES) ? -MATE + ply : 0;
  if (ply >= MAX_PLY - 1) return inCheck ? 0 : evaluateWith(pos, unchecked(t.psqt[ply]));
  if (alpha < -MATE + ply) alpha = -MATE + ply;
  if (beta > MATE - ply - 1) beta = MATE - ply - 1;
  if (alpha >= beta) return alpha;
  const excluded = <i32>unchecked(t.excluded[ply]);
  const noMoveScore = excluded != 0 ? alpha : inCheck ? -MATE + ply : 0;
  // Killers two plies down come from a different subtree.
  const killers = t.hist.killers;
  unchecked(killers[(ply + 2) * 2] = 0);
  unchecked(killers[(ply + 2) * 2 + 1] = 0);
  unchecked(t.cutoffCount[ply + 2] = 0);

  // Step 2.
  const tt = t.tt;
  const key = pos.key;
  const hit = excluded == 0 && tt.probe(key, ply);
  const ttMove = hit ? tt.move : 0;
  const ttScore = hit ? tt.score : NONE_SCORE;
  const ttBound = hit ? tt.bound : 0;
  const ttDepth = hit ? tt.depth : -99;
  const ttEval = hit ? tt.eval : NONE_SCORE;
  // Is or has been on the PV: the exclusion search of a singular extension keeps its node's flag.
  const ttPvOn = ttPvReduction != 0;
  let ttPv = excluded != 0 ? unchecked(t.ttPv[ply]) != 0 : pvNode || (ttPvOn && hit && tt.pv);
  unchecked(t.ttPv[ply] = <u8>ttPv);
  if (!pvNode && hit && ttDepth >= depth && ttScore != NONE_SCORE && (ttBound & (ttScore >= beta ? BOUND_LOWER : BOUND_UPPER)) != 0) {
    if (ttScore >= beta && ttMove != 0 && isQuiet(pos.board, ttMove) && !inCheck) {
      // Keep the hash move's history up to date even on a cutoff.
      if (<i32>unchecked(killers[ply * 2]) != ttMove) {
        unchecked(killers[ply * 2 + 1] = unchecked(killers[ply * 2]));
        unchecked(killers[ply * 2] = <u16>ttMove);
      }
      if (ttCutHistory != 0) rewardQuiet(t, ply, ttMove, depth);
    }
    if (pos.halfmoves < 90) return ttScore;
  }

  // Step 3.
  let rawEval = NONE_SCORE;
  /** The static evaluation, corrected by the correction history when it is on. */
  let staticScore = NONE_SCORE;
  let evalScore = NONE_SCORE;
  let improving = false;
  if (inCheck) {
    unchecked(t.staticEval[S] = NONE_SCORE);
  } else {
    rawEval = ttEval;
    if (rawEval == NONE_SCORE) {
      rawEval = probeEval(t.evalCache, key);
      if (rawEval == EVAL_MISS) {
        rawEval = evaluateWith(pos, unchecked(t.psqt[ply]));
        storeEval(t.evalCache, key, rawEval);
      }
    }
    staticScore = corrHistory != 0 ? corrected(t.hist.correction, pos, rawEval) : rawEval;
    evalScore = staticScore;
    unchecked(t.staticEval[S] = staticScore);
    if (hit && ttScore != NONE_SCORE && (ttBound & (ttScore > evalScore ? BOUND_LOWER : BOUND_UPPER)) != 0) evalScore = ttScore;
    const prev2 = unchecked(t.staticEval[S - 2]);
    const prev4 = unchecked(t.staticEval[S - 4]);
    improving = prev2 != NONE_SCORE ? staticScore > prev2 : prev4 != NONE_SCORE ? staticScore > prev4 : true;
  }

  // Step 4.
  if (!pvNode && !inCheck && excluded == 0) {
    // Razoring: hopeless at low depth unless a capture saves it.
    if (depth <= razorDepth && evalScore < alpha - razorBase - razorMargin * depth * depth) {
      const v = qsearch(t, alpha, alpha + 1, ply, false);
      if (v <= alpha) return v;
    }
    // Reverse futility: so far above beta that a quiet move will not bring it back.
    if (depth <= rfpDepth && evalScore - rfpMargin * (depth - (improving ? 1 : 0)) >= beta && evalScore < MATE_IN_MAX) {
      return (evalScore + beta) >> 1;
    }
    // Null move: if passing still fails high, a real move will too (not in pawn endings: zugzwang).
    if (depth >= nmpMinDepth && evalScore >= beta && staticScore >= beta - nmpEvalDepthMul * depth + nmpEvalBase && unchecked(t.pieceTo[S - 1]) != 0 &&
      ply >= t.nmpMinPly && beta > -MATE_IN_MAX && hasNonPawnMaterial(pos)) {
      let r = nmpBase + depth / nmpDepthDiv;
      const e = (evalScore - beta) / nmpEvalDiv;
      r += e < 3 ? e : 3;
      unchecked(t.pieceTo[S] = 0);
      unchecked(t.movePlayed[S] = 0);
      const savedNull = t.nullAt;
      t.nullAt = pos.ply;
      unchecked(t.psqt[ply + 1] = unchecked(t.psqt[ply]));
      pos.playNull();
      let v = -search(t, depth - r, -beta, 1 - beta, ply + 1, !cutNode, false);
      pos.undo();
      t.nullAt = savedNull;
      if (t.stopped) return 0;
      if (v >= beta) {
        if (v >= MATE_IN_MAX) v = beta;
        if (depth < nmpVerifyDepth) return v;
        // Verify at high depth with null moves disabled for the first plies.
        t.nmpMinPly = ply + ((3 * (depth - r)) >> 2);
        const w = search(t, depth - r, beta - 1, beta, ply, false, false);
        t.nmpMinPly = 0;
        if (w >= beta) return v;
      }
    }
    // ProbCut: a good capture that beats beta by a margin at reduced depth very likely beats beta.
    const pcBeta = beta + probcutMargin;
    if (depth >= probcutDepth && beta < MATE_IN_MAX && !(hit && ttDepth >= depth - 3 && ttScore != NONE_SCORE && ttScore < pcBeta)) {
      initMainPicker(t, ply, ttMove != 0 && !isQuiet(pos.board, ttMove) ? ttMove : 0, false, true);
      for (;;) {
        const m = nextMove(t, ply, true);
        if (m == 0) break;
        if (!seeGe(pos, m, pcBeta - evalScore)) continue;
        unchecked(t.pieceTo[S] = (<i32>unchecked(pos.board[(m >>> 6) & 63]) << 6) | (m & 63));
        unchecked(t.movePlayed[S] = <u16>m);
        unchecked(t.psqt[ply + 1] = unchecked(t.psqt[ply]) + psqtDelta(pos, m));
        pos.play(m);
        const gc = pos.inCheck();
        let v = -qsearch(t, -pcBeta, -pcBeta + 1, ply + 1, gc);
        if (v >= pcBeta) v = -search(t, depth - 4, -pcBeta, 1 - pcBeta, ply + 1, !cutNode, gc);
        pos.undo();
        if (t.stopped) return 0;
        if (v >= pcBeta) {
          tt.store(key, ply, m, v, rawEval, depth - 3, BOUND_LOWER, ttPvOn && ttPv);
          return v;
        }
      }
    }
  }

  // Step 5.
  if ((pvNode || cutNode) && depth >= iirDepth && ttMove == 0) depth--;

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
  const c1 = unchecked(t.pieceTo[S - 1]) << 10;
  const c2 = unchecked(t.pieceTo[S - 2]) << 10;
  const c4 = contHistPly4 != 0 ? unchecked(t.pieceTo[S - 4]) << 10 : 0;
  const cont = t.hist.continuation;
  const bf = t.hist.butterfly;
  const pawnRow = pawnHistory != 0 ? pawnHistoryRow(pos) : -1;
  const ttCapture = ttMove != 0 && !isQuiet(board, ttMove);
  const nonPawn = hasNonPawnMaterial(pos);
  const ci = ply * CHECK_INFO_SIZE;
  prepareCheckInfo(pos, t.checkInfo, ci);
  for (;;) {
    const m = nextMove(t, ply, skipQuiets);
    if (m == 0) break;
    if (m == excluded) continue;
    moveCount++;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const piece = <i32>unchecked(board[from]);
    const quiet = isQuiet(board, m);
    const pt = (piece << 6) | to;
    const histScore = quiet
      ? <i32>unchecked(bf[(pos.turn << 12) | (m & 4095)]) + <i32>unchecked(cont[c1 | pt]) + <i32>unchecked(cont[c2 | pt]) +
        (c4 != 0 ? <i32>unchecked(cont[c4 | pt]) : 0)
      : 0;
    let r = depth < 64 ? <i32>unchecked(LMR[depth * 64 + (moveCount < 64 ? moveCount : 63)]) : <i32>unchecked(LMR[63 * 64 + 63]);
    let givesCheck = inCheck ? false : givesCheckFast(pos, m, t.checkInfo, ci);

    // Pruning at low depth, once a move that does not lose to mate is known. Late move pruning
    // stops the picker's quiet stages; checks are never pruned as quiet moves.
    if (bestScore > -MATE_IN_MAX && nonPawn) {
      const lmrDepth = depth - 1 - r > 0 ? depth - 1 - r : 0;
      if (moveCount >= (lmpBase + depth * depth) / (improving ? 1 : 2)) skipQuiets = true;
      if (quiet && !givesCheck) {
        if (skipQuiets) continue;
        if (lmrDepth < historyPruneDepth && <i32>unchecked(cont[c1 | pt]) + <i32>unchecked(cont[c2 | pt]) +
          (pawnRow >= 0 ? <i32>unchecked(t.hist.pawn[pawnRow | pt]) : 0) < -historyPruneMul * depth) continue;
        if (!inCheck && lmrDepth < futilityDepth && evalScore + futilityBase + futilityMul * lmrDepth <= alpha) continue;
        if (lmrDepth < seePruneDepth && !seeGe(pos, m, -seeQuietMul * lmrDepth * lmrDepth)) continue;
      } else if (!givesCheck && depth < seePruneDepth && !seeGe(pos, m, -seeCaptureMul * depth)) continue;
    }

    // Singular extension: if every other move fails well below the hash score, the hash move is
    // the only good one and deserves a deeper look.
    let extension = 0;
    if (ply < 2 * t.rootDepth && depth >= singularDepth && m == ttMove && excluded == 0 && ttScore != NONE_SCORE &&
      ttScore < MATE_IN_MAX && ttScore > -MATE_IN_MAX && (ttBound & BOUND_LOWER) != 0 && ttDepth >= depth - 3) {
      const sBeta = ttScore - singularMargin * depth;
      unchecked(t.excluded[ply] = <u16>m);
      const v = search(t, (depth - 1) >> 1, sBeta - 1, sBeta, ply, cutNode, inCheck);
      unchecked(t.excluded[ply] = 0);
      if (t.stopped) return 0;
      if (v < sBeta) {
        extension = !pvNode && v < sBeta - doubleExtMargin ? 2 : 1;
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

    // A capture of a piece (not a pawn, not en passant) may leave a pawn ending (params.ts).
    const victimType = pawnEndingExt != 0 && !quiet && (m & KIND_MASK) != EN_PASSANT ? <i32>unchecked(board[to]) & 7 : 0;
    unchecked(t.pieceTo[S] = pt);
    unchecked(t.movePlayed[S] = <u16>m);
    unchecked(t.psqt[ply + 1] = unchecked(t.psqt[ply]) + psqtDelta(pos, m));
    pos.play(m);
    if (inCheck) givesCheck = pos.inCheck();
    if (givesCheck && extension == 0 && ply < 2 * t.rootDepth) extension = 1;
    const intoPawnEnding = victimType > PAWN && victimType < KING && isPawnEnding(pos);
    if (intoPawnEnding && extension < pawnEndingExt && ply < 2 * t.rootDepth) extension = pawnEndingExt;
    let newDepth = depth - 1 + extension;
    let score: i32;
    if (depth >= 2 && moveCount > 1 + (pvNode ? 1 : 0) && (quiet || !pvNode) && !intoPawnEnding) {
      if (pvNode) r--;
      if (ttPv) r -= ttPvReduction;
      if (cutNode) r += 2;
      if (!improving) r++;
      if (givesCheck) r--;
      if (ttCapture && quiet) r++;
      if (m == <i32>unchecked(t.killer1[ply]) || m == <i32>unchecked(t.killer2[ply]) || m == <i32>unchecked(t.counterMove[ply])) r--;
      if (lmrCutoffCount != 0 && unchecked(t.cutoffCount[ply + 1]) > lmrCutoffCount) r++;
      if (quiet) r -= histScore / lmrHistoryDiv;
      else r--;
      let d = newDepth - r;
      if (d > newDepth) d = newDepth;
      if (d < 1) d = 1;
      score = -search(t, d, -alpha - 1, -alpha, ply + 1, true, givesCheck);
      if (score > alpha && d < newDepth) {
        // How far the reduced search overshot sets the full search's depth (params.ts).
        if (lmrDeeperMargin != 0) {
          if (score > bestScore + lmrDeeperMargin + 10 * (newDepth - d)) newDepth++;
          else if (score < bestScore + newDepth) newDepth--;
        }
        if (newDepth > d) score = -child(t, newDepth, -alpha - 1, -alpha, ply + 1, !cutNode, givesCheck);
      }
    } else if (!pvNode || moveCount > 1) {
      score = -child(t, newDepth, -alpha - 1, -alpha, ply + 1, !cutNode, givesCheck);
    } else {
      score = alpha + 1;
    }
    if (pvNode && (moveCount == 1 || score > alpha)) {
      // The child writes its PV only if its window is wider than one (alpha may be beta - 1
      // here): else updatePv must find it empty, not a line left from another subtree.
      unchecked(t.pvLen[ply + 1] = <u8>(ply + 1));
      score = -child(t, newDepth, -beta, -alpha, ply + 1, false, givesCheck);
    }
    pos.undo();
    if (t.stopped) return 0;

    if (score > bestScore) {
      bestScore = score;
      if (score > alpha) {
        bestMove = m;
        if (pvNode) updatePv(t, ply, m);
        if (score >= beta) {
          unchecked(t.cutoffCount[ply] += ttMove == 0 ? 2 : 1);
          break;
        }
        alpha = score;
      }
    }
    if (quiet) {
      if (nQuiets < 64) unchecked(t.quietsTried[ply * 64 + nQuiets++] = <u16>m);
    } else if (nCaptures < 32 && (m & KIND_MASK) != PROMOTION && (<i32>unchecked(board[to]) & 7) != KING) {
      unchecked(t.capturesTried[ply * 32 + nCaptures++] = <u16>m);
    }
  }

  // Step 7.
  if (moveCount == 0) return noMoveScore;
  if (bestScore >= beta && bestMove != 0) {
    if (isQuiet(board, bestMove)) {
      if (nQuiets == 64) nQuiets--;
      unchecked(t.quietsTried[ply * 64 + nQuiets++] = <u16>bestMove);
      updateQuietStats(t, ply, bestMove, depth + (bestScore > beta + cutoffBonusMargin ? 1 : 0), nQuiets);
    } else if ((bestMove & KIND_MASK) != PROMOTION) {
      if (nCaptures == 32) nCaptures--;
      unchecked(t.capturesTried[ply * 32 + nCaptures++] = <u16>bestMove);
    }
    if (nCaptures > 0) updateCaptureStats(t, ply, bestMove, depth, nCaptures);
  } else if (priorQuietBonus != 0 && excluded == 0 && bestScore <= oldAlpha) rewardPriorQuiet(t, ply, depth);
  // The correction history learns from scores the static evaluation could have given: not after
  // a capture or promotion proved best, nor from a bound on the wrong side of it.
  if (corrHistory != 0 && !inCheck && excluded == 0 && (bestMove == 0 || isQuiet(board, bestMove)) && bestScore > -MATE_IN_MAX &&
    bestScore < MATE_IN_MAX && !(bestScore >= beta && bestScore <= staticScore) && !(bestMove == 0 && bestScore >= staticScore)) {
    updateCorrection(t.hist.correction, pos, depth, bestScore - staticScore);
  }
  if (failHighBlend != 0 && bestScore >= beta && bestScore < MATE_IN_MAX && beta > -MATE_IN_MAX) {
    bestScore = (bestScore * depth + beta) / (depth + 1);
  }
  if (excluded == 0) {
    // A node that failed low under a parent on the PV may well be on the next one.
    if (ttPvOn && bestScore <= oldAlpha && !ttPv) ttPv = unchecked(t.ttPv[ply - 1]) != 0 && depth > 3;
    const bound = bestScore >= beta ? BOUND_LOWER : pvNode && bestScore > oldAlpha ? BOUND_EXACT : BOUND_UPPER;
    tt.store(key, ply, bestMove, bestScore, rawEval, depth, bound, ttPv);
  }
  return bestScore;
}

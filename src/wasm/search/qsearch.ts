/**
 * Quiescence search (captures and promotions until the
 * position is quiet, stand pat on the static evaluation, every evasion in check), with SEE and
 * delta pruning, quiet checks at the first quiescence ply when asked.
 *
 *   Step 1. Node bookkeeping, limits, draws
 *   Step 2. Hash table probe and cutoff
 *   Step 3. Stand pat
 *   Step 4. Move loop with pruning
 *   Step 5. Mate detection and hash store
 */
import { CHECK_INFO_SIZE, givesCheck, prepareCheckInfo } from '../givesCheck';
import { evaluateWith, lazyEval } from '../eval/evaluate';
import { psqtDelta } from '../eval/psqt';
import { matedAfterFiftyMoves } from '../draw';
import { EN_PASSANT, KIND_MASK, MAX_MOVES, PAWN, PROMOTION } from '../types';
import { EVAL_MISS, probeEval, storeEval } from './evalCache';
import { checkLimits } from './limits';
import { initQsPicker, isQuiet, nextMove } from './movepick';
import { corrHistory, failHighBlend, lazyMargin, qsFutility, ttPvReduction } from './params';
import { corrected } from './correction';
import { MATE, MATE_IN_MAX, MAX_PLY, NONE_SCORE } from './score';
import { SEE_VALUE, seeGe } from '../see';
import { PLIES, STACK_OFFSET, SearchThread } from './thread';
import { BOUND_EXACT, BOUND_LOWER, BOUND_UPPER } from './tt';

export function qsearch(t: SearchThread, alpha: i32, beta: i32, ply: i32, inCheck: bool, checks: bool = false): i32 {
  // Step 1.
  const pos = t.pos;
  const pvNode = beta - alpha > 1;
  const PL = PLIES;
  if (pvNode) unchecked(t.pvLen[ply] = <u8>ply);
  if (++t.nodes >= t.nextCheck) checkLimits(t);
  if (t.stopped) return 0;
  if (ply > t.seldepth) t.seldepth = ply;
  if (pos.halfmoves >= 100) return matedAfterFiftyMoves(pos, inCheck, t.moves, ply * MAX_MOVES) ? -MATE + ply : 0;
  if (ply >= MAX_PLY - 1) return inCheck ? 0 : evaluateWith(pos, unchecked(t.psqt[ply]));

  // Step 2.
  const oldAlpha = alpha;
  const tt = t.tt;
  const key = pos.key;
  const hit = tt.probe(key, ply);
  const ttMove = hit ? tt.move : 0;
  const ttScore = hit ? tt.score : NONE_SCORE;
  const ttBound = hit ? tt.bound : 0;
  const ttPv = pvNode || (ttPvReduction != 0 && hit && tt.pv);
  if (hit && !pvNode && ttScore != NONE_SCORE && (ttBound & (ttScore >= beta ? BOUND_LOWER : BOUND_UPPER)) != 0) return ttScore;

  // Step 3.
  let bestScore: i32;
  let rawEval = NONE_SCORE;
  let futilityBase: i32;
  if (inCheck) {
    bestScore = -MATE + ply;
    futilityBase = -MATE;
  } else {
    if (hit && tt.eval != NONE_SCORE) rawEval = tt.eval;
    else {
      rawEval = probeEval(t.evalCache, key);
      if (rawEval == EVAL_MISS) {
        // Lazy cutoff: material alone is so far above beta that the rest cannot matter.
        const lazy = lazyEval(pos, unchecked(t.psqt[ply]));
        if (lazy - lazyMargin >= beta) return lazy;
        rawEval = evaluateWith(pos, unchecked(t.psqt[ply]));
        storeEval(t.evalCache, key, rawEval);
      }
    }
    bestScore = corrHistory != 0 ? corrected(t.hist.correction, pos, rawEval) : rawEval;
    if (hit && ttScore != NONE_SCORE && (ttBound & (ttScore > bestScore ? BOUND_LOWER : BOUND_UPPER)) != 0) bestScore = ttScore;
    if (bestScore >= beta) {
      if (failHighBlend != 0 && !pvNode && bestScore < MATE_IN_MAX) bestScore = (bestScore + beta) >> 1;
      if (!hit) tt.store(key, ply, 0, bestScore, rawEval, 0, BOUND_LOWER, false);
      return bestScore;
    }
    if (bestScore > alpha) alpha = bestScore;
    futilityBase = bestScore + qsFutility;
  }

  // Step 4.
  initQsPicker(t, ply, ttMove, inCheck, checks);
  let bestMove = 0;
  let moveCount = 0;
  let checkInfoReady = checks && !inCheck;
  const ci = ply * CHECK_INFO_SIZE;
  const board = pos.board;
  for (;;) {
    const m = nextMove(t, ply, false);
    if (m == 0) break;
    moveCount++;
    if (!inCheck && isQuiet(board, m)) {
      // A quiet check from the first quiescence ply: only if it does not lose material.
      if (!seeGe(pos, m, 0)) continue;
    } else if (!inCheck) {
      const kind = m & KIND_MASK;
      if (kind == PROMOTION && ((m >>> 12) & 3) != 3) continue;
      if (kind != PROMOTION) {
        const victim = kind == EN_PASSANT ? PAWN : <i32>unchecked(board[m & 63]) & 7;
        const gain = futilityBase + unchecked(SEE_VALUE[victim]);
        if (gain <= alpha) {
          // A capture that checks may still mate: never prune it here.
          if (!checkInfoReady) {
            prepareCheckInfo(pos, t.checkInfo, ci);
            checkInfoReady = true;
          }
          if (!givesCheck(pos, m, t.checkInfo, ci)) {
            if (gain > bestScore) bestScore = gain;
            continue;
          }
        }
      }
      if (!seeGe(pos, m, 0)) continue;
    } else if (bestScore > -MATE_IN_MAX && moveCount > 2 && unchecked(board[m & 63]) == 0 && (m & KIND_MASK) != PROMOTION) {
      // Out of check, once a non-losing evasion was found, later quiet evasions are skipped.
      continue;
    }
    const from = (m >>> 6) & 63;
    unchecked(t.pieceTo[ply + STACK_OFFSET] = (<i32>unchecked(board[from]) << 6) | (m & 63));
    unchecked(t.movePlayed[ply + STACK_OFFSET] = <u16>m);
    unchecked(t.psqt[ply + 1] = unchecked(t.psqt[ply]) + psqtDelta(pos, m));
    pos.play(m);
    // As in search: a child whose window is one wide writes no PV, and must leave none behind.
    if (pvNode) unchecked(t.pvLen[ply + 1] = <u8>(ply + 1));
    const score = -qsearch(t, -beta, -alpha, ply + 1, pos.inCheck());
    pos.undo();
    if (t.stopped) return 0;
    if (score > bestScore) {
      bestScore = score;
      if (score > alpha) {
        bestMove = m;
        if (pvNode) {
          const dst = ply * PL;
          const src = (ply + 1) * PL;
          unchecked(t.pv[dst + ply] = <u16>m);
          const len = <i32>unchecked(t.pvLen[ply + 1]);
          for (let i = ply + 1; i < len; i++) unchecked(t.pv[dst + i] = unchecked(t.pv[src + i]));
          unchecked(t.pvLen[ply] = <u8>(len > ply + 1 ? len : ply + 1));
        }
        if (score >= beta) break;
        alpha = score;
      }
    }
  }

  // Step 5.
  if (inCheck && bestScore == -MATE + ply) return bestScore;
  const bound = bestScore >= beta ? BOUND_LOWER : pvNode && bestScore > oldAlpha ? BOUND_EXACT : BOUND_UPPER;
  tt.store(key, ply, bestMove, bestScore, rawEval, 0, bound, ttPv);
  return bestScore;
}

/**
 * Quiescence search: at the horizon, keep resolving captures (and promotions) until the
 * position is quiet, so the static evaluation is never taken in the middle of an exchange
 * (the horizon effect of seed 002). The side to move may "stand pat" on its static evaluation.
 * In check every evasion is searched, since standing pat is not an option there.
 *
 * Captures that lose material by SEE, and captures that cannot lift the score to alpha even
 * when the victim is free (delta pruning), are skipped. At the first ply below the main search,
 * quiet checks are searched too (with `checks`), which finds most short mates at the horizon.
 *
 *   Step 1. Node bookkeeping, limits, draws
 *   Step 2. Hash table probe and cutoff
 *   Step 3. Stand pat
 *   Step 4. Move loop with pruning
 *   Step 5. Mate detection and hash store
 */
import {
  CHECK_INFO_SIZE as CHECK_INFO_SIZE_,
  givesCheck as givesCheck_,
  prepareCheckInfo as prepareCheckInfo_,
} from '../../core/givesCheck.js';
import { EN_PASSANT as EN_PASSANT_, KIND_MASK as KIND_MASK_, PROMOTION as PROMOTION_ } from '../../core/move.js';
import { PAWN as PAWN_ } from '../../core/types.js';
import { evaluateWith as evaluateWith_, lazyEval as lazyEval_ } from '../eval/evaluate.js';
import { psqtDelta as psqtDelta_ } from '../eval/psqt.js';
import {
  MATE as MATE_,
  MATE_IN_MAX as MATE_IN_MAX_,
  MAX_PLY as MAX_PLY_,
  NONE_SCORE as NONE_SCORE_,
} from '../score.js';
import { BOUND_EXACT as BOUND_EXACT_, BOUND_LOWER as BOUND_LOWER_, BOUND_UPPER as BOUND_UPPER_ } from '../tt.js';
import { CHECK_MASK as CHECK_MASK_, checkLimits as checkLimits_ } from './limits.js';
import { initQsPicker as initQsPicker_, isQuiet as isQuiet_, nextMove as nextMove_ } from './movepick.js';
import { SP as SP_ } from './params.js';
import { SEE_VALUE as SEE_VALUE_, seeGe as seeGe_ } from './see.js';
import { EVAL_MISS as EVAL_MISS_, probeEval as probeEval_, storeEval as storeEval_ } from './evalCache.js';
import { STACK_OFFSET as STACK_OFFSET_, SearchThread } from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const CHECK_INFO_SIZE = CHECK_INFO_SIZE_;
const givesCheck = givesCheck_;
const prepareCheckInfo = prepareCheckInfo_;
const EN_PASSANT = EN_PASSANT_;
const KIND_MASK = KIND_MASK_;
const PROMOTION = PROMOTION_;
const PAWN = PAWN_;
const evaluateWith = evaluateWith_;
const lazyEval = lazyEval_;
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
const initQsPicker = initQsPicker_;
const isQuiet = isQuiet_;
const nextMove = nextMove_;
const SP = SP_;
const SEE_VALUE = SEE_VALUE_;
const seeGe = seeGe_;
const EVAL_MISS = EVAL_MISS_;
const probeEval = probeEval_;
const storeEval = storeEval_;
const STACK_OFFSET = STACK_OFFSET_;

export function qsearch(t: SearchThread, alpha: number, beta: number, ply: number, inCheck: boolean, checks = false): number {
  // Step 1.
  const pos = t.pos;
  const pvNode = beta - alpha > 1;
  const PL = SearchThread.PLIES;
  if (pvNode) t.pvLen[ply] = ply;
  if ((++t.nodes & CHECK_MASK) === 0) checkLimits(t);
  if (t.stopped) return 0;
  if (ply > t.seldepth) t.seldepth = ply;
  if (pos.halfmoves >= 100) return 0;
  if (ply >= MAX_PLY - 1) return inCheck ? 0 : evaluateWith(pos, t.psqt[ply]!);

  // Step 2.
  const oldAlpha = alpha;
  const hit = t.tt.probe(pos.keyLo, pos.keyHi, ply);
  const ttMove = hit ? t.tt.move : 0;
  const ttScore = hit ? t.tt.score : NONE_SCORE;
  const ttBound = hit ? t.tt.bound : 0;
  if (hit && !pvNode && ttScore !== NONE_SCORE && (ttBound & (ttScore >= beta ? BOUND_LOWER : BOUND_UPPER)) !== 0) return ttScore;

  // Step 3.
  let bestScore: number;
  let rawEval = NONE_SCORE;
  let futilityBase: number;
  if (inCheck) {
    bestScore = -MATE + ply;
    futilityBase = -MATE;
  } else {
    if (hit && t.tt.eval !== NONE_SCORE) rawEval = t.tt.eval;
    else {
      rawEval = probeEval(t.evalCache, pos.keyLo, pos.keyHi);
      if (rawEval === EVAL_MISS) {
        // Lazy cutoff: material alone is so far above beta that the rest cannot matter.
        const lazy = lazyEval(pos, t.psqt[ply]!);
        if (lazy - SP.lazyMargin >= beta) return lazy;
        rawEval = evaluateWith(pos, t.psqt[ply]!);
        storeEval(t.evalCache, pos.keyLo, pos.keyHi, rawEval);
      }
    }
    bestScore = rawEval;
    if (hit && ttScore !== NONE_SCORE && (ttBound & (ttScore > bestScore ? BOUND_LOWER : BOUND_UPPER)) !== 0) bestScore = ttScore;
    if (bestScore >= beta) {
      if (!hit) t.tt.store(pos.keyLo, pos.keyHi, ply, 0, bestScore, rawEval, 0, BOUND_LOWER, false);
      return bestScore;
    }
    if (bestScore > alpha) alpha = bestScore;
    futilityBase = bestScore + SP.qsFutility;
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
    if (m === 0) break;
    moveCount++;
    if (!inCheck && isQuiet(board, m)) {
      // A quiet check from the first quiescence ply: only if it does not lose material.
      if (!seeGe(pos, m, 0)) continue;
    } else if (!inCheck) {
      const kind = m & KIND_MASK;
      if (kind === PROMOTION && ((m >>> 12) & 3) !== 3) continue;
      if (kind !== PROMOTION) {
        const victim = kind === EN_PASSANT ? PAWN : board[m & 63]! & 7;
        const gain = futilityBase + SEE_VALUE[victim]!;
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
    } else if (bestScore > -MATE_IN_MAX && moveCount > 2 && board[m & 63] === 0 && (m & KIND_MASK) !== PROMOTION) {
      // Out of check, once a non-losing evasion was found, later quiet evasions are skipped.
      continue;
    }
    const from = (m >>> 6) & 63;
    t.pieceTo[ply + STACK_OFFSET] = (board[from]! << 6) | (m & 63);
    t.movePlayed[ply + STACK_OFFSET] = m;
    t.psqt[ply + 1] = t.psqt[ply]! + psqtDelta(pos, m);
    pos.play(m);
    const score = 0 - qsearch(t, 0 - beta, 0 - alpha, ply + 1, pos.inCheck());
    pos.undo();
    if (t.stopped) return 0;
    if (score > bestScore) {
      bestScore = score;
      if (score > alpha) {
        bestMove = m;
        if (pvNode) {
          const dst = ply * PL;
          const src = (ply + 1) * PL;
          t.pv[dst + ply] = m;
          const len = t.pvLen[ply + 1]!;
          for (let i = ply + 1; i < len; i++) t.pv[dst + i] = t.pv[src + i]!;
          t.pvLen[ply] = len > ply + 1 ? len : ply + 1;
        }
        if (score >= beta) break;
        alpha = score;
      }
    }
  }

  // Step 5.
  if (inCheck && bestScore === -MATE + ply) return bestScore;
  const bound = bestScore >= beta ? BOUND_LOWER : pvNode && bestScore > oldAlpha ? BOUND_EXACT : BOUND_UPPER;
  t.tt.store(pos.keyLo, pos.keyHi, ply, bestMove, bestScore, rawEval, 0, bound, pvNode);
  return bestScore;
}

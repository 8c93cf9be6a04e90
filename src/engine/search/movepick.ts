/**
 * Staged move ordering (Stockfish's movepick, flattened into per-ply typed arrays):
 *
 *   main search:  hash move → captures that do not lose material (SEE ≥ 0), most valuable
 *                 victim first → killer 1 → killer 2 → counter-move → quiet moves by history
 *                 → losing captures and under-promotions. Once search asks to skip quiet
 *                 moves (late move pruning), only quiet checks are still handed out.
 *   in check:     all evasions, hash move first, then captures, then quiets by history
 *   quiescence:   hash move (if noisy) → captures and promotions, most valuable victim first
 *                 → (first quiescence ply only) quiet checks
 *
 * Each list is generated only when its stage is reached, so a cutoff by the hash move or a
 * capture costs no quiet-move generation. Moves are picked by selection (best remaining
 * first), which beats sorting because most nodes stop after a move or two.
 */
import { computePins as computePins_, isLegalNotInCheck as isLegalNotInCheck_, PINS as PINS_ } from '../../core/legality.js';
import { generateNoisy as generateNoisy_, generateQuiets as generateQuiets_ } from '../../core/movegenStaged.js';
import { generateLegal as generateLegal_ } from '../../core/movegen.js';
import {
  CHECK_INFO_SIZE as CHECK_INFO_SIZE_,
  givesCheck as givesCheck_,
  prepareCheckInfo as prepareCheckInfo_,
} from '../../core/givesCheck.js';
import { EN_PASSANT as EN_PASSANT_, KIND_MASK as KIND_MASK_, PROMOTION as PROMOTION_ } from '../../core/move.js';
import { MAX_MOVES as MAX_MOVES_, PAWN as PAWN_ } from '../../core/types.js';
import { seeGe as seeGe_ } from './see.js';
import { STACK_OFFSET as STACK_OFFSET_, type SearchThread } from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const computePins = computePins_;
const generateNoisy = generateNoisy_;
const generateQuiets = generateQuiets_;
const isLegalNotInCheck = isLegalNotInCheck_;
const PINS = PINS_;
const generateLegal = generateLegal_;
const CHECK_INFO_SIZE = CHECK_INFO_SIZE_;
const givesCheck = givesCheck_;
const prepareCheckInfo = prepareCheckInfo_;
const EN_PASSANT = EN_PASSANT_;
const KIND_MASK = KIND_MASK_;
const PROMOTION = PROMOTION_;
const MAX_MOVES = MAX_MOVES_;
const PAWN = PAWN_;
const seeGe = seeGe_;
const STACK_OFFSET = STACK_OFFSET_;

const MP_TT = 0;
const MP_CAPTURE_INIT = 1;
const MP_GOOD_CAPTURE = 2;
const MP_KILLER1 = 3;
const MP_KILLER2 = 4;
const MP_COUNTER = 5;
const MP_QUIET_INIT = 6;
const MP_QUIET = 7;
const MP_BAD_CAPTURE = 8;
const MP_DONE = 9;
const EV_INIT = 10;
const EV_MOVES = 11;
const QS_TT = 12;
const QS_INIT = 13;
const QS_CAPTURE = 14;
const QS_CHECKS = 15;

/** Victim values for ordering captures (by type). */
const VICTIM = new Int32Array([0, 100, 320, 330, 500, 950, 0, 0]);

/** A move is quiet if it captures nothing and promotes nothing (castling is quiet). */
export function isQuiet(board: Int8Array, m: number): boolean {
  const kind = m & KIND_MASK;
  return board[m & 63] === 0 && kind !== PROMOTION && kind !== EN_PASSANT;
}

/**
 * Prepares the picker at `ply` for the main search; with `capturesOnly` (ProbCut) it stops
 * after the hash move and the captures that do not lose material.
 */
export function initMainPicker(t: SearchThread, ply: number, ttMove: number, inCheck: boolean, capturesOnly = false): void {
  t.ttMove[ply] = ttMove;
  t.capturesOnly[ply] = capturesOnly ? 1 : 0;
  t.cur[ply] = ply * MAX_MOVES;
  t.end[ply] = ply * MAX_MOVES;
  t.badEnd[ply] = ply * MAX_MOVES;
  if (inCheck) {
    t.stage[ply] = EV_INIT;
    return;
  }
  computePins(t.pos);
  t.pinLo[ply] = PINS[0]!;
  t.pinHi[ply] = PINS[1]!;
  t.killer1[ply] = t.hist.killers[ply * 2]!;
  t.killer2[ply] = t.hist.killers[ply * 2 + 1]!;
  const prev = t.pieceTo[ply + STACK_OFFSET - 1]!;
  t.counterMove[ply] = prev !== 0 ? t.hist.counter[prev]! : 0;
  t.stage[ply] = ttMove !== 0 && isLegalNotInCheck(t.pos, ttMove, PINS[0]!, PINS[1]!) ? MP_TT : MP_CAPTURE_INIT;
}

/** Prepares the picker at `ply` for quiescence search; `checks` adds quiet checks after captures. */
export function initQsPicker(t: SearchThread, ply: number, ttMove: number, inCheck: boolean, checks: boolean): void {
  t.cur[ply] = ply * MAX_MOVES;
  t.end[ply] = ply * MAX_MOVES;
  t.badEnd[ply] = ply * MAX_MOVES;
  if (inCheck) {
    t.ttMove[ply] = ttMove;
    t.stage[ply] = EV_INIT;
    return;
  }
  computePins(t.pos);
  t.pinLo[ply] = PINS[0]!;
  t.pinHi[ply] = PINS[1]!;
  const noisy = ttMove !== 0 && !isQuiet(t.pos.board, ttMove);
  t.ttMove[ply] = noisy ? ttMove : 0;
  t.stage[ply] = noisy && isLegalNotInCheck(t.pos, ttMove, PINS[0]!, PINS[1]!) ? QS_TT : QS_INIT;
  t.qsChecks[ply] = checks ? 1 : 0;
  if (checks) prepareCheckInfo(t.pos, t.checkInfo, ply * CHECK_INFO_SIZE);
}

function scoreCaptures(t: SearchThread, from: number, to: number): void {
  const board = t.pos.board;
  const moves = t.moves;
  const scores = t.scores;
  const capHist = t.hist.capture;
  for (let i = from; i < to; i++) {
    const m = moves[i]!;
    const sq = m & 63;
    const piece = board[(m >>> 6) & 63]!;
    const kind = m & KIND_MASK;
    const victim = kind === EN_PASSANT ? PAWN : board[sq]! & 7;
    let s = 64 * VICTIM[victim]! + (capHist[(((piece << 6) | sq) << 3) | victim]! >> 2) - (piece & 7);
    if (kind === PROMOTION) s = ((m >>> 12) & 3) === 3 ? s + 64 * 900 : -100000;
    scores[i] = s;
  }
}

function scoreQuiets(t: SearchThread, ply: number, from: number, to: number): void {
  const board = t.pos.board;
  const moves = t.moves;
  const scores = t.scores;
  const bf = t.hist.butterfly;
  const cont = t.hist.continuation;
  const side = t.pos.turn << 12;
  const c1 = t.pieceTo[ply + STACK_OFFSET - 1]! << 10;
  const c2 = t.pieceTo[ply + STACK_OFFSET - 2]! << 10;
  for (let i = from; i < to; i++) {
    const m = moves[i]!;
    const pt = (board[(m >>> 6) & 63]! << 6) | (m & 63);
    scores[i] = bf[side | (m & 4095)]! + cont[c1 | pt]! + cont[c2 | pt]!;
  }
}

function scoreEvasions(t: SearchThread, ply: number, from: number, to: number): void {
  const board = t.pos.board;
  scoreQuiets(t, ply, from, to);
  const tt = t.ttMove[ply]!;
  for (let i = from; i < to; i++) {
    const m = t.moves[i]!;
    if (m === tt) t.scores[i] = 1 << 30;
    else if (!isQuiet(board, m)) {
      const victim = (m & KIND_MASK) === EN_PASSANT ? PAWN : board[m & 63]! & 7;
      t.scores[i] = (1 << 24) + 64 * VICTIM[victim]! - (board[(m >>> 6) & 63]! & 7);
    }
  }
}

/** Moves the best-scored move of [cur, end) to cur and returns it. */
function pickBest(t: SearchThread, cur: number, end: number): number {
  const moves = t.moves;
  const scores = t.scores;
  let best = cur;
  let bs = scores[cur]!;
  for (let i = cur + 1; i < end; i++) {
    const s = scores[i]!;
    if (s > bs) {
      bs = s;
      best = i;
    }
  }
  const m = moves[best]!;
  if (best !== cur) {
    moves[best] = moves[cur]!;
    scores[best] = scores[cur]!;
    moves[cur] = m;
    scores[cur] = bs;
  }
  return m;
}

/** Killers and counter-moves are remembered from other positions: use them only if legal and quiet. */
function usableQuiet(t: SearchThread, ply: number, m: number): boolean {
  return m !== 0 && m !== t.ttMove[ply] && isQuiet(t.pos.board, m) && isLegalNotInCheck(t.pos, m, t.pinLo[ply]!, t.pinHi[ply]!);
}

/** The next move at `ply`, or 0 when there are none left. `skipQuiets` drops the quiet stages. */
export function nextMove(t: SearchThread, ply: number, skipQuiets: boolean): number {
  for (;;) {
    switch (t.stage[ply]) {
      case MP_TT:
        t.stage[ply] = MP_CAPTURE_INIT;
        return t.ttMove[ply]!;
      case MP_CAPTURE_INIT: {
        const base = ply * MAX_MOVES;
        const end = generateNoisy(t.pos, t.moves, base, t.pinLo[ply]!, t.pinHi[ply]!);
        scoreCaptures(t, base, end);
        t.cur[ply] = base;
        t.end[ply] = end;
        t.badEnd[ply] = base;
        t.stage[ply] = MP_GOOD_CAPTURE;
        break;
      }
      case MP_GOOD_CAPTURE: {
        const end = t.end[ply]!;
        while (t.cur[ply]! < end) {
          const cur = t.cur[ply]!;
          const m = pickBest(t, cur, end);
          t.cur[ply] = cur + 1;
          if (m === t.ttMove[ply]) continue;
          if (t.scores[cur]! < 0 || !seeGe(t.pos, m, 0)) {
            t.moves[t.badEnd[ply]!++] = m;
            continue;
          }
          return m;
        }
        if (t.capturesOnly[ply] !== 0) {
          t.stage[ply] = MP_DONE;
          return 0;
        }
        t.stage[ply] = MP_KILLER1;
        break;
      }
      case MP_KILLER1: {
        t.stage[ply] = MP_KILLER2;
        const k = t.killer1[ply]!;
        if (!skipQuiets && usableQuiet(t, ply, k)) return k;
        break;
      }
      case MP_KILLER2: {
        t.stage[ply] = MP_COUNTER;
        const k = t.killer2[ply]!;
        if (!skipQuiets && k !== t.killer1[ply] && usableQuiet(t, ply, k)) return k;
        break;
      }
      case MP_COUNTER: {
        t.stage[ply] = MP_QUIET_INIT;
        const k = t.counterMove[ply]!;
        if (!skipQuiets && k !== t.killer1[ply] && k !== t.killer2[ply] && usableQuiet(t, ply, k)) return k;
        break;
      }
      case MP_QUIET_INIT: {
        const start = t.end[ply]!;
        const end = generateQuiets(t.pos, t.moves, start, t.pinLo[ply]!, t.pinHi[ply]!);
        if (!skipQuiets) scoreQuiets(t, ply, start, end);
        t.cur[ply] = start;
        t.end[ply] = end;
        t.stage[ply] = MP_QUIET;
        break;
      }
      case MP_QUIET: {
        const end = t.end[ply]!;
        const moves = t.moves;
        const tt = t.ttMove[ply]!;
        const k1 = t.killer1[ply]!;
        const k2 = t.killer2[ply]!;
        const cm = t.counterMove[ply]!;
        let cur = t.cur[ply]!;
        while (cur < end) {
          // Once quiet moves are being skipped, only checks are still handed out (unsorted).
          const m = skipQuiets ? moves[cur]! : pickBest(t, cur, end);
          cur++;
          if (m === tt || m === k1 || m === k2 || m === cm) continue;
          if (skipQuiets && !givesCheck(t.pos, m, t.checkInfo, ply * CHECK_INFO_SIZE)) continue;
          t.cur[ply] = cur;
          return m;
        }
        t.stage[ply] = MP_BAD_CAPTURE;
        t.cur[ply] = ply * MAX_MOVES;
        break;
      }
      case MP_BAD_CAPTURE: {
        const cur = t.cur[ply]!;
        if (cur < t.badEnd[ply]!) {
          t.cur[ply] = cur + 1;
          return t.moves[cur]!;
        }
        t.stage[ply] = MP_DONE;
        return 0;
      }
      case EV_INIT: {
        const base = ply * MAX_MOVES;
        const end = generateLegal(t.pos, t.moves, base);
        scoreEvasions(t, ply, base, end);
        t.cur[ply] = base;
        t.end[ply] = end;
        t.stage[ply] = EV_MOVES;
        break;
      }
      case EV_MOVES: {
        const cur = t.cur[ply]!;
        if (cur >= t.end[ply]!) return 0;
        t.cur[ply] = cur + 1;
        return pickBest(t, cur, t.end[ply]!);
      }
      case QS_TT:
        t.stage[ply] = QS_INIT;
        return t.ttMove[ply]!;
      case QS_INIT: {
        const base = ply * MAX_MOVES;
        const end = generateNoisy(t.pos, t.moves, base, t.pinLo[ply]!, t.pinHi[ply]!);
        scoreCaptures(t, base, end);
        t.cur[ply] = base;
        t.end[ply] = end;
        t.stage[ply] = QS_CAPTURE;
        break;
      }
      case QS_CAPTURE: {
        const end = t.end[ply]!;
        while (t.cur[ply]! < end) {
          const cur = t.cur[ply]!;
          const m = pickBest(t, cur, end);
          t.cur[ply] = cur + 1;
          if (m !== t.ttMove[ply]) return m;
        }
        if (t.qsChecks[ply] === 0) return 0;
        const start = t.end[ply]!;
        t.end[ply] = generateQuiets(t.pos, t.moves, start, t.pinLo[ply]!, t.pinHi[ply]!);
        t.cur[ply] = start;
        t.stage[ply] = QS_CHECKS;
        break;
      }
      case QS_CHECKS: {
        const end = t.end[ply]!;
        const ci = ply * CHECK_INFO_SIZE;
        while (t.cur[ply]! < end) {
          const m = t.moves[t.cur[ply]!++]!;
          if (givesCheck(t.pos, m, t.checkInfo, ci)) return m;
        }
        return 0;
      }
      default:
        return 0;
    }
  }
}

/** The picker at `ply` is handing out quiet moves or later stages (used by pruning decisions). */
export function pickerPastCaptures(t: SearchThread, ply: number): boolean {
  return t.stage[ply]! >= MP_KILLER2 && t.stage[ply]! <= MP_DONE;
}

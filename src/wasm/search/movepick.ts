/**
 * Staged move ordering, per-ply state in the thread's
 * stacks.
 *
 *   main search:  hash move → captures that do not lose material (SEE ≥ 0), most valuable
 *                 victim first → killer 1 → killer 2 → counter-move → quiet moves by history
 *                 → losing captures and under-promotions. Once search asks to skip quiet
 *                 moves (late move pruning), only quiet checks are still handed out.
 *   in check:     all evasions, hash move first, then captures, then quiets by history
 *   quiescence:   hash move (if noisy) → captures and promotions, most valuable victim first
 *                 → (first quiescence ply only) quiet checks
 */
import { CHECK_INFO_SIZE, givesCheck, prepareCheckInfo } from '../givesCheck';
import { isLegalNotInCheck } from '../legality';
import { computePins, generateLegal, generateNoisy, generateQuiets } from '../movegen';
import { BISHOP, EN_PASSANT, KIND_MASK, KNIGHT, MAX_MOVES, PAWN, PROMOTION, QUEEN, ROOK } from '../types';
import { KNIGHT_ATT, bishopAttacks, rookAttacks } from '../attacks';
import { seeGe } from '../see';
import { contHistPly4, pawnHistory, threatOrder } from './params';
import { pawnHistoryRow } from './history';
import { STACK_OFFSET, SearchThread } from './thread';

const MP_TT: u8 = 0;
const MP_CAPTURE_INIT: u8 = 1;
const MP_GOOD_CAPTURE: u8 = 2;
const MP_KILLER1: u8 = 3;
const MP_KILLER2: u8 = 4;
const MP_COUNTER: u8 = 5;
const MP_QUIET_INIT: u8 = 6;
const MP_QUIET: u8 = 7;
const MP_BAD_CAPTURE: u8 = 8;
const MP_DONE: u8 = 9;
const EV_INIT: u8 = 10;
const EV_MOVES: u8 = 11;
const QS_TT: u8 = 12;
const QS_INIT: u8 = 13;
const QS_CAPTURE: u8 = 14;
const QS_CHECKS: u8 = 15;

/** Victim values for ordering captures (by type). */
const VICTIM: StaticArray<i32> = [0, 100, 320, 330, 500, 950, 0, 0];

/** A move is quiet if it captures nothing and promotes nothing (castling is quiet). */
// @ts-ignore: decorator
@inline export function isQuiet(board: StaticArray<i8>, m: i32): bool {
  const kind = m & KIND_MASK;
  return unchecked(board[m & 63]) == 0 && kind != PROMOTION && kind != EN_PASSANT;
}

/**
 * Prepares the picker at `ply` for the main search; with `capturesOnly` (ProbCut) it stops
 * after the hash move and the captures that do not lose material.
 */
export function initMainPicker(t: SearchThread, ply: i32, ttMove: i32, inCheck: bool, capturesOnly: bool = false): void {
  unchecked(t.ttMove[ply] = <u16>ttMove);
  unchecked(t.capturesOnly[ply] = capturesOnly ? 1 : 0);
  unchecked(t.cur[ply] = ply * MAX_MOVES);
  unchecked(t.end[ply] = ply * MAX_MOVES);
  unchecked(t.badEnd[ply] = ply * MAX_MOVES);
  if (inCheck) {
    unchecked(t.stage[ply] = EV_INIT);
    return;
  }
  const pins = computePins(t.pos);
  unchecked(t.pins[ply] = pins);
  const killers = t.hist.killers;
  unchecked(t.killer1[ply] = unchecked(killers[ply * 2]));
  unchecked(t.killer2[ply] = unchecked(killers[ply * 2 + 1]));
  const prev = unchecked(t.pieceTo[ply + STACK_OFFSET - 1]);
  unchecked(t.counterMove[ply] = prev != 0 ? unchecked(t.hist.counter[prev]) : 0);
  unchecked(t.stage[ply] = ttMove != 0 && isLegalNotInCheck(t.pos, ttMove, pins) ? MP_TT : MP_CAPTURE_INIT);
}

/** Prepares the picker at `ply` for quiescence search; `checks` adds quiet checks after captures. */
export function initQsPicker(t: SearchThread, ply: i32, ttMove: i32, inCheck: bool, checks: bool): void {
  unchecked(t.cur[ply] = ply * MAX_MOVES);
  unchecked(t.end[ply] = ply * MAX_MOVES);
  unchecked(t.badEnd[ply] = ply * MAX_MOVES);
  if (inCheck) {
    unchecked(t.ttMove[ply] = <u16>ttMove);
    unchecked(t.stage[ply] = EV_INIT);
    return;
  }
  const pins = computePins(t.pos);
  unchecked(t.pins[ply] = pins);
  const noisy = ttMove != 0 && !isQuiet(t.pos.board, ttMove);
  unchecked(t.ttMove[ply] = noisy ? <u16>ttMove : 0);
  unchecked(t.stage[ply] = noisy && isLegalNotInCheck(t.pos, ttMove, pins) ? QS_TT : QS_INIT);
  unchecked(t.qsChecks[ply] = checks ? 1 : 0);
  if (checks) prepareCheckInfo(t.pos, t.checkInfo, ply * CHECK_INFO_SIZE);
}

function scoreCaptures(t: SearchThread, from: i32, to: i32): void {
  const board = t.pos.board;
  const moves = t.moves;
  const scores = t.scores;
  const capHist = t.hist.capture;
  for (let i = from; i < to; i++) {
    const m = <i32>unchecked(moves[i]);
    const sq = m & 63;
    const piece = <i32>unchecked(board[(m >>> 6) & 63]);
    const kind = m & KIND_MASK;
    const victim = kind == EN_PASSANT ? PAWN : <i32>unchecked(board[sq]) & 7;
    let s = 64 * unchecked(VICTIM[victim]) + (<i32>unchecked(capHist[(((piece << 6) | sq) << 3) | victim]) >> 2) - (piece & 7);
    if (kind == PROMOTION) s = ((m >>> 12) & 3) == 3 ? s + 64 * 900 : -100000;
    unchecked(scores[i] = s);
  }
}

const NOT_FILE_A: u64 = 0xfefefefefefefefe;
const NOT_FILE_H: u64 = 0x7f7f7f7f7f7f7f7f;

/**
 * Adds to the quiet moves' scores a bonus for a piece moved off a square attacked by a lesser
 * enemy piece to one that is not, and a malus for a piece moved onto such a square (Stockfish
 * 16's movepick.cpp, threatenedPieces: the history tables cannot see that a move hangs or
 * saves a piece in this position). The bonus of a minor piece leaving a pawn's attack is
 * threatOrder; a rook's is 5/3 of it and a queen's 10/3, in Stockfish's proportions.
 */
function scoreThreats(t: SearchThread, from: i32, to: i32): void {
  const pos = t.pos;
  const bb = pos.bb;
  const us = pos.turn << 3;
  const them = us ^ 8;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const p = unchecked(bb[them | PAWN]);
  const byPawn: u64 = them == 0 ? ((p & NOT_FILE_A) << 7) | ((p & NOT_FILE_H) << 9) : ((p & NOT_FILE_A) >> 9) | ((p & NOT_FILE_H) >> 7);
  let byMinor = byPawn;
  let b = unchecked(bb[them | KNIGHT]);
  while (b != 0) {
    byMinor |= unchecked(KNIGHT_ATT[<i32>ctz(b)]);
    b &= b - 1;
  }
  b = unchecked(bb[them | BISHOP]);
  while (b != 0) {
    byMinor |= bishopAttacks(<i32>ctz(b), occ);
    b &= b - 1;
  }
  let byRook = byMinor;
  b = unchecked(bb[them | ROOK]);
  while (b != 0) {
    byRook |= rookAttacks(<i32>ctz(b), occ);
    b &= b - 1;
  }
  const threatened = (unchecked(bb[us | QUEEN]) & byRook) | (unchecked(bb[us | ROOK]) & byMinor) |
    ((unchecked(bb[us | KNIGHT]) | unchecked(bb[us | BISHOP])) & byPawn);
  const T = threatOrder;
  const board = pos.board;
  const moves = t.moves;
  const scores = t.scores;
  for (let i = from; i < to; i++) {
    const m = <i32>unchecked(moves[i]);
    const f = (m >>> 6) & 63;
    const pt = <i32>unchecked(board[f]) & 7;
    if (pt == PAWN) continue;
    const toBit = (<u64>1) << <u64>(m & 63);
    let s = 0;
    if ((threatened >> <u64>f) & 1) {
      if (pt == QUEEN) s = (toBit & byRook) == 0 ? (T * 10) / 3 : 0;
      else if (pt == ROOK) s = (toBit & byMinor) == 0 ? (T * 5) / 3 : 0;
      else s = (toBit & byPawn) == 0 ? T : 0;
    } else if (pt == QUEEN) {
      s = -((toBit & byRook) != 0 ? (T * 10) / 3 : 0) - ((toBit & byMinor) != 0 ? (T * 2) / 3 : 0) - ((toBit & byPawn) != 0 ? (T * 4) / 3 : 0);
    } else if (pt == ROOK) {
      s = -((toBit & byMinor) != 0 ? (T * 5) / 3 : 0) - ((toBit & byPawn) != 0 ? (T * 2) / 3 : 0);
    } else if (pt == KNIGHT || pt == BISHOP) {
      s = (toBit & byPawn) != 0 ? -T : 0;
    }
    if (s != 0) unchecked(scores[i] += s);
  }
}

function scoreQuiets(t: SearchThread, ply: i32, from: i32, to: i32): void {
  scoreQuietHistory(t, ply, from, to);
  if (pawnHistory != 0) scorePawnHistory(t, from, to);
  if (threatOrder != 0) scoreThreats(t, from, to);
}

/** Adds pawnHistory times the pawn-structure history of each quiet move (params.ts). */
function scorePawnHistory(t: SearchThread, from: i32, to: i32): void {
  const board = t.pos.board;
  const moves = t.moves;
  const scores = t.scores;
  const ph = t.hist.pawn;
  const row = pawnHistoryRow(t.pos);
  const w = pawnHistory;
  for (let i = from; i < to; i++) {
    const m = <i32>unchecked(moves[i]);
    const pt = (<i32>unchecked(board[(m >>> 6) & 63]) << 6) | (m & 63);
    unchecked(scores[i] += w * <i32>unchecked(ph[row | pt]));
  }
}

function scoreQuietHistory(t: SearchThread, ply: i32, from: i32, to: i32): void {
  const board = t.pos.board;
  const moves = t.moves;
  const scores = t.scores;
  const bf = t.hist.butterfly;
  const cont = t.hist.continuation;
  const side = t.pos.turn << 12;
  const c1 = unchecked(t.pieceTo[ply + STACK_OFFSET - 1]) << 10;
  const c2 = unchecked(t.pieceTo[ply + STACK_OFFSET - 2]) << 10;
  const c4 = contHistPly4 != 0 ? unchecked(t.pieceTo[ply + STACK_OFFSET - 4]) << 10 : 0;
  if (c4 != 0) {
    for (let i = from; i < to; i++) {
      const m = <i32>unchecked(moves[i]);
      const pt = (<i32>unchecked(board[(m >>> 6) & 63]) << 6) | (m & 63);
      unchecked(scores[i] = <i32>unchecked(bf[side | (m & 4095)]) + <i32>unchecked(cont[c1 | pt]) + <i32>unchecked(cont[c2 | pt]) + <i32>unchecked(cont[c4 | pt]));
    }
    return;
  }
  for (let i = from; i < to; i++) {
    const m = <i32>unchecked(moves[i]);
    const pt = (<i32>unchecked(board[(m >>> 6) & 63]) << 6) | (m & 63);
    unchecked(scores[i] = <i32>unchecked(bf[side | (m & 4095)]) + <i32>unchecked(cont[c1 | pt]) + <i32>unchecked(cont[c2 | pt]));
  }
}

function scoreEvasions(t: SearchThread, ply: i32, from: i32, to: i32): void {
  const board = t.pos.board;
  scoreQuiets(t, ply, from, to);
  const tt = <i32>unchecked(t.ttMove[ply]);
  const moves = t.moves;
  const scores = t.scores;
  for (let i = from; i < to; i++) {
    const m = <i32>unchecked(moves[i]);
    if (m == tt) unchecked(scores[i] = 1 << 30);
    else if (!isQuiet(board, m)) {
      const victim = (m & KIND_MASK) == EN_PASSANT ? PAWN : <i32>unchecked(board[m & 63]) & 7;
      unchecked(scores[i] = (1 << 24) + 64 * unchecked(VICTIM[victim]) - (<i32>unchecked(board[(m >>> 6) & 63]) & 7));
    }
  }
}

/** Moves the best-scored move of [cur, end) to cur and returns it. */
function pickBest(t: SearchThread, cur: i32, end: i32): i32 {
  const moves = t.moves;
  const scores = t.scores;
  let best = cur;
  let bs = unchecked(scores[cur]);
  for (let i = cur + 1; i < end; i++) {
    const s = unchecked(scores[i]);
    if (s > bs) {
      bs = s;
      best = i;
    }
  }
  const m = unchecked(moves[best]);
  if (best != cur) {
    unchecked(moves[best] = unchecked(moves[cur]));
    unchecked(scores[best] = unchecked(scores[cur]));
    unchecked(moves[cur] = m);
    unchecked(scores[cur] = bs);
  }
  return <i32>m;
}

/** Killers and counter-moves are remembered from other positions: use them only if legal and quiet. */
// @ts-ignore: decorator
@inline function usableQuiet(t: SearchThread, ply: i32, m: i32): bool {
  return m != 0 && m != <i32>unchecked(t.ttMove[ply]) && isQuiet(t.pos.board, m) && isLegalNotInCheck(t.pos, m, unchecked(t.pins[ply]));
}

/** The next move at `ply`, or 0 when there are none left. `skipQuiets` drops the quiet stages. */
export function nextMove(t: SearchThread, ply: i32, skipQuiets: bool): i32 {
  for (;;) {
    switch (unchecked(t.stage[ply])) {
      case MP_TT:
        unchecked(t.stage[ply] = MP_CAPTURE_INIT);
        return <i32>unchecked(t.ttMove[ply]);
      case MP_CAPTURE_INIT: {
        const base = ply * MAX_MOVES;
        const end = generateNoisy(t.pos, t.moves, base, unchecked(t.pins[ply]));
        scoreCaptures(t, base, end);
        unchecked(t.cur[ply] = base);
        unchecked(t.end[ply] = end);
        unchecked(t.badEnd[ply] = base);
        unchecked(t.stage[ply] = MP_GOOD_CAPTURE);
        break;
      }
      case MP_GOOD_CAPTURE: {
        const end = unchecked(t.end[ply]);
        const tt = <i32>unchecked(t.ttMove[ply]);
        while (unchecked(t.cur[ply]) < end) {
          const cur = unchecked(t.cur[ply]);
          const m = pickBest(t, cur, end);
          unchecked(t.cur[ply] = cur + 1);
          if (m == tt) continue;
          if (unchecked(t.scores[cur]) < 0 || !seeGe(t.pos, m, 0)) {
            const b = unchecked(t.badEnd[ply]);
            unchecked(t.moves[b] = <u16>m);
            unchecked(t.badEnd[ply] = b + 1);
            continue;
          }
          return m;
        }
        if (unchecked(t.capturesOnly[ply]) != 0) {
          unchecked(t.stage[ply] = MP_DONE);
          return 0;
        }
        unchecked(t.stage[ply] = MP_KILLER1);
        break;
      }
      case MP_KILLER1: {
        unchecked(t.stage[ply] = MP_KILLER2);
        const k = <i32>unchecked(t.killer1[ply]);
        if (!skipQuiets && usableQuiet(t, ply, k)) return k;
        break;
      }
      case MP_KILLER2: {
        unchecked(t.stage[ply] = MP_COUNTER);
        const k = <i32>unchecked(t.killer2[ply]);
        if (!skipQuiets && k != <i32>unchecked(t.killer1[ply]) && usableQuiet(t, ply, k)) return k;
        break;
      }
      case MP_COUNTER: {
        unchecked(t.stage[ply] = MP_QUIET_INIT);
        const k = <i32>unchecked(t.counterMove[ply]);
        if (!skipQuiets && k != <i32>unchecked(t.killer1[ply]) && k != <i32>unchecked(t.killer2[ply]) && usableQuiet(t, ply, k)) return k;
        break;
      }
      case MP_QUIET_INIT: {
        const start = unchecked(t.end[ply]);
        const end = generateQuiets(t.pos, t.moves, start, unchecked(t.pins[ply]));
        if (!skipQuiets) scoreQuiets(t, ply, start, end);
        unchecked(t.cur[ply] = start);
        unchecked(t.end[ply] = end);
        unchecked(t.stage[ply] = MP_QUIET);
        break;
      }
      case MP_QUIET: {
        const end = unchecked(t.end[ply]);
        const moves = t.moves;
        const tt = <i32>unchecked(t.ttMove[ply]);
        const k1 = <i32>unchecked(t.killer1[ply]);
        const k2 = <i32>unchecked(t.killer2[ply]);
        const cm = <i32>unchecked(t.counterMove[ply]);
        let cur = unchecked(t.cur[ply]);
        while (cur < end) {
          // Once quiet moves are being skipped, only checks are still handed out (unsorted).
          const m = skipQuiets ? <i32>unchecked(moves[cur]) : pickBest(t, cur, end);
          cur++;
          if (m == tt || m == k1 || m == k2 || m == cm) continue;
          if (skipQuiets && !givesCheck(t.pos, m, t.checkInfo, ply * CHECK_INFO_SIZE)) continue;
          unchecked(t.cur[ply] = cur);
          return m;
        }
        unchecked(t.stage[ply] = MP_BAD_CAPTURE);
        unchecked(t.cur[ply] = ply * MAX_MOVES);
        break;
      }
      case MP_BAD_CAPTURE: {
        const cur = unchecked(t.cur[ply]);
        if (cur < unchecked(t.badEnd[ply])) {
          unchecked(t.cur[ply] = cur + 1);
          return <i32>unchecked(t.moves[cur]);
        }
        unchecked(t.stage[ply] = MP_DONE);
        return 0;
      }
      case EV_INIT: {
        const base = ply * MAX_MOVES;
        const end = generateLegal(t.pos, t.moves, base);
        scoreEvasions(t, ply, base, end);
        unchecked(t.cur[ply] = base);
        unchecked(t.end[ply] = end);
        unchecked(t.stage[ply] = EV_MOVES);
        break;
      }
      case EV_MOVES: {
        const cur = unchecked(t.cur[ply]);
        if (cur >= unchecked(t.end[ply])) return 0;
        unchecked(t.cur[ply] = cur + 1);
        return pickBest(t, cur, unchecked(t.end[ply]));
      }
      case QS_TT:
        unchecked(t.stage[ply] = QS_INIT);
        return <i32>unchecked(t.ttMove[ply]);
      case QS_INIT: {
        const base = ply * MAX_MOVES;
        const end = generateNoisy(t.pos, t.moves, base, unchecked(t.pins[ply]));
        scoreCaptures(t, base, end);
        unchecked(t.cur[ply] = base);
        unchecked(t.end[ply] = end);
        unchecked(t.stage[ply] = QS_CAPTURE);
        break;
      }
      case QS_CAPTURE: {
        const end = unchecked(t.end[ply]);
        const tt = <i32>unchecked(t.ttMove[ply]);
        while (unchecked(t.cur[ply]) < end) {
          const cur = unchecked(t.cur[ply]);
          const m = pickBest(t, cur, end);
          unchecked(t.cur[ply] = cur + 1);
          if (m != tt) return m;
        }
        if (unchecked(t.qsChecks[ply]) == 0) return 0;
        const start = unchecked(t.end[ply]);
        unchecked(t.end[ply] = generateQuiets(t.pos, t.moves, start, unchecked(t.pins[ply])));
        unchecked(t.cur[ply] = start);
        unchecked(t.stage[ply] = QS_CHECKS);
        break;
      }
      case QS_CHECKS: {
        const end = unchecked(t.end[ply]);
        const ci = ply * CHECK_INFO_SIZE;
        while (unchecked(t.cur[ply]) < end) {
          const cur = unchecked(t.cur[ply]);
          unchecked(t.cur[ply] = cur + 1);
          const m = <i32>unchecked(t.moves[cur]);
          if (givesCheck(t.pos, m, t.checkInfo, ci)) return m;
        }
        return 0;
      }
      default:
        return 0;
    }
  }
  return 0;
}

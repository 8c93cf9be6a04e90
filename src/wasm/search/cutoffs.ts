/**
 * The quiet move that refuted a node becomes a killer and
 * the counter-move of the previous move, and gains butterfly and continuation history while the
 * quiets tried before it lose some; captures likewise in the capture history.
 */
import { historyBonus, pawnHistoryRow, updateEntry } from './history';
import { contHistPly4, pawnHistory, priorQuietBonus } from './params';
import { STACK_OFFSET, SearchThread } from './thread';

/** Rewards the quiet move that caused a cutoff and punishes the quiets tried before it. */
export function updateQuietStats(t: SearchThread, ply: i32, best: i32, depth: i32, nQuiets: i32): void {
  const h = t.hist;
  const pos = t.pos;
  const bonus = historyBonus(depth);
  const side = pos.turn << 12;
  const c1 = unchecked(t.pieceTo[ply + STACK_OFFSET - 1]);
  const c2 = unchecked(t.pieceTo[ply + STACK_OFFSET - 2]);
  const c4 = contHistPly4 != 0 ? unchecked(t.pieceTo[ply + STACK_OFFSET - 4]) : 0;
  const killers = h.killers;
  if (<i32>unchecked(killers[ply * 2]) != best) {
    unchecked(killers[ply * 2 + 1] = unchecked(killers[ply * 2]));
    unchecked(killers[ply * 2] = <u16>best);
  }
  if (c1 != 0) unchecked(h.counter[c1] = <u16>best);
  const base = ply * 64;
  const board = pos.board;
  const bf = h.butterfly;
  const cont = h.continuation;
  const pawnRow = pawnHistory != 0 ? pawnHistoryRow(pos) : -1;
  for (let i = 0; i < nQuiets; i++) {
    const m = <i32>unchecked(t.quietsTried[base + i]);
    const b = m == best ? bonus : -bonus;
    const pt = (<i32>unchecked(board[(m >>> 6) & 63]) << 6) | (m & 63);
    updateEntry(bf, side | (m & 4095), b);
    if (c1 != 0) updateEntry(cont, (c1 << 10) | pt, b);
    if (c2 != 0) updateEntry(cont, (c2 << 10) | pt, b);
    if (c4 != 0) updateEntry(cont, (c4 << 10) | pt, b);
    if (pawnRow >= 0) updateEntry(h.pawn, pawnRow | pt, b);
  }
}

/**
 * Rewards one quiet move at `ply` (a hash move that cut off, unsearched) in the butterfly and
 * continuation histories, as updateQuietStats rewards a searched cutoff (no maluses: no other
 * move was tried).
 */
export function rewardQuiet(t: SearchThread, ply: i32, m: i32, depth: i32): void {
  const h = t.hist;
  const pos = t.pos;
  const bonus = historyBonus(depth);
  const pt = (<i32>unchecked(pos.board[(m >>> 6) & 63]) << 6) | (m & 63);
  const c1 = unchecked(t.pieceTo[ply + STACK_OFFSET - 1]);
  const c2 = unchecked(t.pieceTo[ply + STACK_OFFSET - 2]);
  const c4 = contHistPly4 != 0 ? unchecked(t.pieceTo[ply + STACK_OFFSET - 4]) : 0;
  updateEntry(h.butterfly, (pos.turn << 12) | (m & 4095), bonus);
  if (c1 != 0) updateEntry(h.continuation, (c1 << 10) | pt, bonus);
  if (c2 != 0) updateEntry(h.continuation, (c2 << 10) | pt, bonus);
  if (c4 != 0) updateEntry(h.continuation, (c4 << 10) | pt, bonus);
  if (pawnHistory != 0) updateEntry(h.pawn, pawnHistoryRow(pos) | pt, bonus);
}

/**
 * A node at `ply` failed low: the opponent's quiet move into it (from the ply before) refuted
 * every reply, so it gains priorQuietBonus percent of the cutoff bonus, as its own node's cutoff
 * move would (params.ts). Its piece and square come from the move stack, so nothing is read
 * from the board (the move's piece already stands on its target square).
 */
export function rewardPriorQuiet(t: SearchThread, ply: i32, depth: i32): void {
  const S = ply + STACK_OFFSET;
  const pt = unchecked(t.pieceTo[S - 1]);
  if (pt == 0 || !t.pos.lastMoveQuiet()) return;
  const h = t.hist;
  const bonus = (historyBonus(depth) * priorQuietBonus) / 100;
  const m = <i32>unchecked(t.movePlayed[S - 1]);
  updateEntry(h.butterfly, ((t.pos.turn ^ 1) << 12) | (m & 4095), bonus);
  const c1 = unchecked(t.pieceTo[S - 2]);
  const c2 = unchecked(t.pieceTo[S - 3]);
  const c4 = contHistPly4 != 0 ? unchecked(t.pieceTo[S - 5]) : 0;
  if (c1 != 0) updateEntry(h.continuation, (c1 << 10) | pt, bonus);
  if (c2 != 0) updateEntry(h.continuation, (c2 << 10) | pt, bonus);
  if (c4 != 0) updateEntry(h.continuation, (c4 << 10) | pt, bonus);
}

export function updateCaptureStats(t: SearchThread, ply: i32, best: i32, depth: i32, nCaptures: i32): void {
  const pos = t.pos;
  const bonus = historyBonus(depth);
  const base = ply * 32;
  const board = pos.board;
  const cap = t.hist.capture;
  for (let i = 0; i < nCaptures; i++) {
    const m = <i32>unchecked(t.capturesTried[base + i]);
    const to = m & 63;
    const victim = <i32>unchecked(board[to]) & 7;
    updateEntry(cap, (((<i32>unchecked(board[(m >>> 6) & 63]) << 6) | to) << 3) | victim, m == best ? bonus : -bonus);
  }
}

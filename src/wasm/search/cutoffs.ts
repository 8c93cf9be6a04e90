/**
 * The quiet move that refuted a node becomes a killer and
 * the counter-move of the previous move, and gains butterfly and continuation history while the
 * quiets tried before it lose some; captures likewise in the capture history.
 */
import { historyBonus, updateEntry } from './history';
import { contHistPly4 } from './params';
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
  for (let i = 0; i < nQuiets; i++) {
    const m = <i32>unchecked(t.quietsTried[base + i]);
    const b = m == best ? bonus : -bonus;
    const pt = (<i32>unchecked(board[(m >>> 6) & 63]) << 6) | (m & 63);
    updateEntry(bf, side | (m & 4095), b);
    if (c1 != 0) updateEntry(cont, (c1 << 10) | pt, b);
    if (c2 != 0) updateEntry(cont, (c2 << 10) | pt, b);
    if (c4 != 0) updateEntry(cont, (c4 << 10) | pt, b);
  }
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

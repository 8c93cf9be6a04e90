/**
 * What a cutoff teaches the move ordering: the quiet move that refuted the node becomes a
 * killer and the counter-move of the previous move, and gains butterfly and continuation
 * history while the quiet moves tried before it lose some; captures likewise in the capture
 * history.
 */
import { historyBonus as historyBonus_, updateEntry as updateEntry_ } from './history.js';
import { STACK_OFFSET as STACK_OFFSET_, type SearchThread } from './thread.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const historyBonus = historyBonus_;
const updateEntry = updateEntry_;
const STACK_OFFSET = STACK_OFFSET_;

/** Rewards the quiet move that caused a cutoff and punishes the quiets tried before it. */
export function updateQuietStats(t: SearchThread, ply: number, best: number, depth: number, nQuiets: number): void {
  const h = t.hist;
  const pos = t.pos;
  const bonus = historyBonus(depth);
  const side = pos.turn << 12;
  const c1 = t.pieceTo[ply + STACK_OFFSET - 1]!;
  const c2 = t.pieceTo[ply + STACK_OFFSET - 2]!;
  if (h.killers[ply * 2] !== best) {
    h.killers[ply * 2 + 1] = h.killers[ply * 2]!;
    h.killers[ply * 2] = best;
  }
  if (c1 !== 0) h.counter[c1] = best;
  const base = ply * 64;
  for (let i = 0; i < nQuiets; i++) {
    const m = t.quietsTried[base + i]!;
    const b = m === best ? bonus : -bonus;
    const pt = (pos.board[(m >>> 6) & 63]! << 6) | (m & 63);
    updateEntry(h.butterfly, side | (m & 4095), b);
    if (c1 !== 0) updateEntry(h.continuation, (c1 << 10) | pt, b);
    if (c2 !== 0) updateEntry(h.continuation, (c2 << 10) | pt, b);
  }
}

export function updateCaptureStats(t: SearchThread, ply: number, best: number, depth: number, nCaptures: number): void {
  const pos = t.pos;
  const bonus = historyBonus(depth);
  const base = ply * 32;
  for (let i = 0; i < nCaptures; i++) {
    const m = t.capturesTried[base + i]!;
    const to = m & 63;
    const victim = pos.board[to]! & 7;
    updateEntry(t.hist.capture, (((pos.board[(m >>> 6) & 63]! << 6) | to) << 3) | victim, m === best ? bonus : -bonus);
  }
}


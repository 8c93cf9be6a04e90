/**
 * Time management: from the clock (`wtime/btime/winc/binc/movestogo`) or a fixed `movetime`,
 * a soft limit (an iteration is not started past a share of it, scaled by how stable the best
 * move is: src/wasm/search/iterate.ts) and a hard limit (the search is aborted there, whatever it is doing).
 *
 * The budget assumes `movestogo` moves remain (25 in sudden death, as Ethereal plans; 35 lost
 * to it in self-play at 5 s + 0.05 s, docs/strength.md §6) and that every future move
 * brings its increment; each move also loses Move Overhead to the GUI and the operating system,
 * so it is subtracted once per remaining move (Stockfish's formula and its default of 10 ms: at
 * 50 ms the engine kept 1.35 s of its clock unused, docs/strength.md §6). The hard limit never exceeds a fraction of the
 * clock, which is what keeps the engine from losing on time when a search explodes.
 */
import type { GoLimits } from './limits.js';

export interface TimePlan {
  softMs: number;
  hardMs: number;
}

/** Time limits for side `us` (0 White, 1 Black); Infinity when the search is not timed. */
export function planTime(limits: GoLimits, us: number, moveOverhead: number): TimePlan {
  if (limits.infinite) return { softMs: Infinity, hardMs: Infinity };
  if (limits.movetime !== undefined && limits.movetime > 0) {
    const t = Math.max(1, limits.movetime - moveOverhead);
    return { softMs: t, hardMs: t };
  }
  const time = us === 0 ? limits.wtime : limits.btime;
  if (time === undefined) return { softMs: Infinity, hardMs: Infinity };
  const inc = Math.max(0, (us === 0 ? limits.winc : limits.binc) ?? 0);
  const left = Math.max(1, time);
  const mtg = limits.movestogo !== undefined && limits.movestogo > 0 ? Math.min(limits.movestogo, 50) : 25;
  const budget = Math.max(1, left + inc * (mtg - 1) - moveOverhead * (2 + mtg));
  let soft = budget / mtg;
  // The last move before a time control may use most of what is left; otherwise at most half
  // of it, so that one long search (or a stall of the machine) cannot empty the clock.
  const maxShare = mtg === 1 ? 0.8 : 0.5;
  let hard = Math.min(soft * (mtg === 1 ? 1 : 5), (left - moveOverhead) * maxShare);
  hard = Math.max(1, Math.floor(hard));
  soft = Math.max(1, Math.floor(Math.min(soft, hard)));
  return { softMs: soft, hardMs: hard };
}

/**
 * How each side used its clock: thinking time per move and how low its clock fell. An engine
 * that scores well while running its clock down to a few hundredths of a second is one stall
 * of the machine away from losing on time, and W/D/L alone does not show it; these figures do.
 *
 * A game's figures come from its move records (`clockMs`: the mover's time left right after the
 * move, before the increment); a match keeps, per player, the sums and every game's low, so the
 * report can give the lowest and the median of the games' lows.
 */
import type { GameRecord } from './game.js';

/** One side of one game. `lowestMs` is undefined when that side's clock was not timed. */
export interface GameTimeUse {
  moves: number;
  thinkMs: number;
  lowestMs?: number;
}

/** A player over a match. */
export interface TimeTotals {
  moves: number;
  thinkMs: number;
  /** Each timed game's lowest clock, ms, in finishing order. */
  gameLows: number[];
}

export const emptyTimeTotals = (): TimeTotals => ({ moves: 0, thinkMs: 0, gameLows: [] });

/** White's and Black's time use in a finished game (book moves do not count). */
export function gameTimeUse(rec: Pick<GameRecord, 'fen' | 'moves'>): [GameTimeUse, GameTimeUse] {
  const use: [GameTimeUse, GameTimeUse] = [
    { moves: 0, thinkMs: 0 },
    { moves: 0, thinkMs: 0 },
  ];
  let side = rec.fen.split(' ')[1] === 'b' ? 1 : 0;
  for (const m of rec.moves) {
    const u = use[side]!;
    side ^= 1;
    if (m.book || m.timeMs === undefined) continue;
    u.moves++;
    u.thinkMs += m.timeMs;
    if (m.clockMs !== undefined && (u.lowestMs === undefined || m.clockMs < u.lowestMs)) u.lowestMs = m.clockMs;
  }
  return use;
}

export function addTimeUse(t: TimeTotals, g: GameTimeUse): void {
  t.moves += g.moves;
  t.thinkMs += g.thinkMs;
  if (g.lowestMs !== undefined) t.gameLows.push(g.lowestMs);
}

export interface TimeSummary {
  moves: number;
  /** Mean thinking time of a move, ms. */
  avgMoveMs: number | null;
  /** The lowest clock of the match, and the median of the games' lowest clocks, ms. */
  lowestClockMs: number | null;
  medianGameLowMs: number | null;
}

export function summarizeTime(t: TimeTotals): TimeSummary {
  const lows = [...t.gameLows].sort((a, b) => a - b);
  const n = lows.length;
  const median = n === 0 ? null : n % 2 === 1 ? lows[(n - 1) / 2]! : (lows[n / 2 - 1]! + lows[n / 2]!) / 2;
  return {
    moves: t.moves,
    avgMoveMs: t.moves > 0 ? t.thinkMs / t.moves : null,
    lowestClockMs: n > 0 ? lows[0]! : null,
    medianGameLowMs: median,
  };
}

/** `0.188 s a move (1,234 moves), lowest clock 1.72 s, median game low 3.24 s` */
export function timeUseText(s: TimeSummary): string {
  const sec = (ms: number): string => `${(ms / 1000).toFixed(ms < 10000 ? 3 : 1)} s`;
  let text = s.avgMoveMs === null ? 'no timed moves' : `${sec(s.avgMoveMs)} a move (${s.moves.toLocaleString('en-US')} ${s.moves === 1 ? 'move' : 'moves'})`;
  if (s.lowestClockMs !== null && s.medianGameLowMs !== null) text += `, lowest clock ${sec(s.lowestClockMs)}, median game low ${sec(s.medianGameLowMs)}`;
  return text;
}

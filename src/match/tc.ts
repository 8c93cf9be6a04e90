/**
 * Time controls as cutechess-cli and fastchess write them (match-runner.md §1.1, §6):
 * `tc=[moves/]time[+inc]` with time in seconds or `min:sec` (`40/60+0.6`, `10+0.1`, `2:30`,
 * `inf`), `st=` seconds per move, plus `nodes=`, `depth=` and `timemargin=` (ms). Parsed to
 * integer milliseconds; errors name the text and what is wrong.
 */
import type { GameLimits } from '../protocol/engineClient.js';
import { err, ok, ParseError, type Result } from '../core/result.js';

export class TimeControlError extends ParseError {}

/** A side's limits for a game; `GameLimits` plus the runner's tolerance. */
export interface TimeControl extends GameLimits {
  /** Milliseconds an engine may exceed its time before it forfeits. */
  marginMs: number;
}

export const INFINITE_TC: TimeControl = { moves: 0, baseMs: 0, incMs: 0, movetimeMs: 0, depth: 0, nodes: 0, infinite: true, marginMs: 0 };

function secondsToMs(text: string, what: string): Result<number, TimeControlError> {
  const m = /^(?:(\d+):)?(\d+(?:\.\d*)?|\.\d+)$/.exec(text);
  if (!m) return err(new TimeControlError('ERR_TC_TIME', `${what} "${text}" is not seconds or min:sec`));
  if (m[1] !== undefined && parseFloat(m[2]!) >= 60) return err(new TimeControlError('ERR_TC_TIME', `${what} "${text}": the seconds of min:sec must be below 60`));
  const ms = Math.round((parseInt(m[1] ?? '0', 10) * 60 + parseFloat(m[2]!)) * 1000);
  return ok(ms);
}

/** Parses a `tc=` value: `[moves/]time[+inc]`, `inf` or `infinite`. */
export function parseTc(text: string): Result<Omit<TimeControl, 'depth' | 'nodes' | 'marginMs' | 'movetimeMs'>, TimeControlError> {
  const s = text.trim();
  if (s === 'inf' || s === 'infinite') return ok({ moves: 0, baseMs: 0, incMs: 0, infinite: true });
  const m = /^(?:(\d+|inf)\/)?([^+/]+)(?:\+([^+/]+))?$/.exec(s);
  if (!m) return err(new TimeControlError('ERR_TC_SYNTAX', `time control "${text}" is not [moves/]time[+increment]`));
  const moves = m[1] === undefined || m[1] === 'inf' ? 0 : parseInt(m[1], 10);
  const base = secondsToMs(m[2]!, `time control "${text}": time`);
  if (!base.ok) return base;
  let incMs = 0;
  if (m[3] !== undefined) {
    const inc = secondsToMs(m[3], `time control "${text}": increment`);
    if (!inc.ok) return inc;
    incMs = inc.value;
  }
  if (base.value <= 0 && incMs <= 0) return err(new TimeControlError('ERR_TC_ZERO', `time control "${text}" gives no time`));
  return ok({ moves, baseMs: base.value, incMs, infinite: false });
}

/** Builds a side's time control from the engine keys `tc`, `st`, `nodes`, `depth`, `timemargin`. */
export function timeControlFrom(keys: { tc?: string; st?: string; nodes?: string; depth?: string; timemargin?: string }): Result<TimeControl, TimeControlError> {
  const out: TimeControl = { ...INFINITE_TC };
  if (keys.tc !== undefined && keys.st !== undefined) return err(new TimeControlError('ERR_TC_BOTH', `tc=${keys.tc} and st=${keys.st} cannot be combined`));
  if (keys.tc !== undefined) {
    const t = parseTc(keys.tc);
    if (!t.ok) return t;
    Object.assign(out, t.value);
  }
  if (keys.st !== undefined) {
    const t = secondsToMs(keys.st.trim(), 'st');
    if (!t.ok) return t;
    if (t.value <= 0) return err(new TimeControlError('ERR_TC_ZERO', `st=${keys.st} gives no time`));
    out.movetimeMs = t.value;
    out.infinite = false;
  }
  const int = (v: string | undefined, key: string): Result<number, TimeControlError> => {
    if (v === undefined) return ok(0);
    if (!/^\d+$/.test(v.trim())) return err(new TimeControlError('ERR_TC_INT', `${key}=${v} is not a non-negative integer`));
    return ok(parseInt(v, 10));
  };
  const nodes = int(keys.nodes, 'nodes');
  if (!nodes.ok) return nodes;
  const depth = int(keys.depth, 'depth');
  if (!depth.ok) return depth;
  const margin = int(keys.timemargin, 'timemargin');
  if (!margin.ok) return margin;
  out.nodes = nodes.value;
  out.depth = depth.value;
  out.marginMs = margin.value;
  return ok(out);
}

/** True when the runner checks time (a clock or a fixed time per move). */
export function isTimed(tc: TimeControl): boolean {
  return !tc.infinite && (tc.movetimeMs > 0 || tc.baseMs > 0 || tc.incMs > 0);
}

function secs(ms: number): string {
  return String(ms / 1000);
}

/** The time control as cutechess writes it in `[TimeControl]` and in reports: `40/60+0.6`, `10+0.1`, `0.5/move`, `inf`. */
export function formatTc(tc: TimeControl): string {
  let s: string;
  if (tc.movetimeMs > 0) s = `${secs(tc.movetimeMs)}/move`;
  else if (tc.infinite) s = 'inf';
  else s = `${tc.moves > 0 ? `${tc.moves}/` : ''}${secs(tc.baseMs)}${tc.incMs > 0 ? `+${secs(tc.incMs)}` : ''}`;
  const limits: string[] = [];
  if (tc.depth > 0) limits.push(`depth=${tc.depth}`);
  if (tc.nodes > 0) limits.push(`nodes=${tc.nodes}`);
  return limits.length > 0 && tc.infinite ? limits.join(' ') : s;
}

/**
 * The whole limit of an engine's searches, for the match's header line: the clock and the
 * depth and node limits beside it (`1+0.01 nodes=1000`). `formatTc` leaves the limits out when
 * there is a clock, as the PGN TimeControl tag has no place for them.
 */
export function describeTc(tc: TimeControl): string {
  const limits: string[] = [];
  if (tc.depth > 0) limits.push(`depth=${tc.depth}`);
  if (tc.nodes > 0) limits.push(`nodes=${tc.nodes}`);
  if (tc.infinite && tc.movetimeMs === 0) return formatTc(tc);
  return [formatTc(tc), ...limits].join(' ');
}

/**
 * Commands embedded in comments, as lichess, chess.com, ChessBase and the match runner write
 * them: `[%clk 1:02:03.4]`, `[%emt 0:00:05]`, `[%eval 0.34]`, `[%eval #-3]`, `[%eval 0.34,20]`.
 */

export interface CommentCommands {
  /** The comment without its commands, spaces collapsed. */
  text: string;
  /** Clock after the move, in seconds. */
  clock?: number;
  /** Time spent on the move, in seconds. */
  elapsed?: number;
  /** Evaluation from White's point of view: centipawns, or mate in n (negative: Black mates). */
  eval?: { cp: number; depth?: number } | { mate: number; depth?: number };
  /** Every command by name, raw (`{ clk: '1:02:03', csl: 'Ra4,Gb5' }`). */
  all: Record<string, string>;
}

// One blank after the name and no bracket in the value: the parts cannot overlap, so a comment
// full of unclosed "[%x " is read in linear time (`\s+([^\]]*)` backtracks quadratically).
const COMMAND = /\[%(\w+)\s([^[\]]*)\]/g;

/** Seconds of an `h:mm:ss(.f)` / `m:ss` / `s` time, or undefined. */
export function parseClock(s: string): number | undefined {
  const m = /^(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)$/.exec(s.trim());
  if (m === null) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3]);
}

/** Formats seconds as `h:mm:ss` (with tenths when not whole), the way lichess writes %clk. */
export function formatClock(seconds: number): string {
  const tenths = Math.round(Math.max(0, seconds) * 10);
  const whole = Math.floor(tenths / 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const frac = tenths % 10 === 0 ? '' : `.${tenths % 10}`;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${frac}`;
}

/** Splits a comment into its commands and its remaining text. */
export function parseCommentCommands(comment: string): CommentCommands {
  const all: Record<string, string> = {};
  const text = comment
    .replace(COMMAND, (_m, name: string, value: string) => {
      all[name] = value.trim();
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  const out: CommentCommands = { text, all };
  if (all.clk !== undefined) out.clock = parseClock(all.clk);
  if (all.emt !== undefined) out.elapsed = parseClock(all.emt);
  if (all.eval !== undefined) {
    const m = /^(#)?([+-]?\d+(?:\.\d+)?)(?:,(\d+))?$/.exec(all.eval);
    if (m !== null) {
      const depth = m[3] === undefined ? undefined : Number(m[3]);
      const v = Number(m[2]);
      out.eval = m[1] === '#' ? { mate: Math.trunc(v), depth } : { cp: Math.round(v * 100), depth };
      if (depth === undefined) delete out.eval.depth;
    }
  }
  return out;
}

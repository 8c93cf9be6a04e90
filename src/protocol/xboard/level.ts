/**
 * The xboard `level MPS BASE INC` command (CECP v2, "level"): MPS moves per time control (0:
 * the whole game), BASE the time of a control in minutes or `minutes:seconds` (what follows
 * is ignored), INC the increment in seconds (fractions accepted, as our own client sends them).
 */
import { numberProblem, readNumber, type NumberRule } from '../numberArg.js';

export interface Level {
  mps: number;
  baseMs: number;
  incMs: number;
}

const MOVES: NumberRule = { min: 0 };
const AMOUNT: NumberRule = { min: 0, fraction: true };

/** The time control of a `level` argument, or why it is not one. */
export function parseLevel(arg: string): Level | string {
  const words = arg === '' ? [] : arg.split(/\s+/);
  if (words.length !== 3) return `expected MPS BASE INC (3 values), got ${words.length}`;
  const [mpsText, baseText, incText] = words as [string, string, string];
  const mps = readNumber(mpsText, MOVES);
  if (mps === undefined) return `moves per control ${numberProblem(mpsText, MOVES, 'moves')}`;
  // CECP: engines should ignore what follows MIN or MIN:SEC (a later protocol may announce the
  // next period's time there, as in "level 40 25+5 0").
  const [minText, secText, extra] = /^[\d.:]*/.exec(baseText)![0].split(':');
  const min = readNumber(minText, AMOUNT);
  const sec = secText === undefined ? 0 : readNumber(secText, AMOUNT);
  if (min === undefined || sec === undefined || extra !== undefined) return `base time "${baseText}" is not minutes or minutes:seconds`;
  const inc = readNumber(incText, AMOUNT);
  if (inc === undefined) return `increment ${numberProblem(incText, AMOUNT, 'seconds')}`;
  return { mps, baseMs: Math.round((min * 60 + sec) * 1000), incMs: Math.round(inc * 1000) };
}

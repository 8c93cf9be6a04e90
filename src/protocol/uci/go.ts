/**
 * The words after UCI `go`, read into search limits. A limit with a bad value (`depth abc`,
 * `nodes -1`, `movetime x`) is an error and the server starts no search: searching without the
 * limit meant searching forever, which a script that asked for depth 5 never expects. Words
 * that are not parameters at all are reported and skipped, as the UCI specification asks
 * ("ignore it and try to parse the rest of the string").
 *
 * Clocks (`wtime`, `btime`) may be negative: cutechess-cli sends what is left after a move that
 * overstepped the clock within its time margin (cutechess issue 809), and an engine that then
 * refused to move would lose a game it still has. They are searched as the least time.
 */
import type { Position } from '../../core/position.js';
import { parseUci } from '../../notation/uci.js';
import type { WireLimits } from '../../engine/host.js';
import { numberProblem, readNumber, type NumberRule } from '../numberArg.js';

type NumericParameter = 'wtime' | 'btime' | 'winc' | 'binc' | 'movestogo' | 'movetime' | 'depth' | 'nodes' | 'mate';

const CLOCK: NumberRule = { min: -Number.MAX_SAFE_INTEGER };
const AT_LEAST_0: NumberRule = { min: 0 };
const AT_LEAST_1: NumberRule = { min: 1 };

/** Each numeric parameter: what it accepts, and its unit in messages. */
const NUMERIC: Readonly<Record<NumericParameter, readonly [NumberRule, string]>> = {
  wtime: [CLOCK, 'milliseconds'],
  btime: [CLOCK, 'milliseconds'],
  winc: [AT_LEAST_0, 'milliseconds'],
  binc: [AT_LEAST_0, 'milliseconds'],
  movestogo: [AT_LEAST_0, 'moves'],
  movetime: [AT_LEAST_1, 'milliseconds'],
  depth: [AT_LEAST_1, 'plies'],
  nodes: [AT_LEAST_1, 'nodes'],
  mate: [AT_LEAST_1, 'moves'],
};

const isNumeric = (w: string): w is NumericParameter => Object.hasOwn(NUMERIC, w);
const isParameter = (w: string): boolean => isNumeric(w) || w === 'infinite' || w === 'ponder' || w === 'searchmoves';

export interface ParsedGo {
  limits: WireLimits;
  /** Bad values: no search may start. */
  errors: string[];
  /** Words that are not parameters, skipped. */
  ignored: string[];
}

/**
 * Reads the words after `go`. With the position, `searchmoves` are checked against it (a
 * move that is not legal there is an error); without it they are taken as written.
 */
export function parseGo(words: readonly string[], pos?: Position): ParsedGo {
  const limits: WireLimits = {};
  const errors: string[] = [];
  const ignored: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (isNumeric(w)) {
      const [rule, unit] = NUMERIC[w];
      // The next word is the value unless it is the next parameter (then the value is missing).
      const next = words[i + 1];
      const token = next === undefined || isParameter(next) ? undefined : next;
      if (token !== undefined) i++;
      const v = readNumber(token, rule);
      if (v === undefined) errors.push(`go ${w}: ${numberProblem(token, rule, unit)}`);
      else limits[w] = v;
    } else if (w === 'infinite') limits.infinite = true;
    else if (w === 'ponder') limits.ponder = true;
    else if (w === 'searchmoves') {
      const moves: string[] = [];
      while (i + 1 < words.length && !isParameter(words[i + 1]!)) moves.push(words[++i]!);
      if (moves.length === 0) errors.push('go searchmoves: expected at least one move');
      for (const [k, m] of moves.entries()) {
        const r = pos ? parseUci(pos, m) : undefined;
        if (r && !r.ok) errors.push(`go searchmoves: move ${k + 1}, ${r.error.message}`);
      }
      limits.searchmoves = moves;
    } else ignored.push(w);
  }
  return { limits, errors, ignored };
}

/**
 * Would a search with these limits run until `stop`? `go infinite`, `go ponder` (until
 * ponderhit), and a `go` with no depth, nodes, movetime or clock for the side to move (`us`);
 * `go mate N` alone too, since a position may have no mate to find.
 */
export function isUnbounded(l: WireLimits, us: number): boolean {
  if (l.infinite || l.ponder) return true;
  const clock = us === 0 ? l.wtime : l.btime;
  return l.depth === undefined && l.nodes === undefined && l.movetime === undefined && clock === undefined;
}

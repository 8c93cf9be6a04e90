/**
 * The book moves of a position as a person reads them: each move with its games and results,
 * the engine's own (learned) results, the user value, and the chance the book policy gives it.
 * It answers xboard's `bk` command (the "Book" button of XBoard/WinBoard), which GNU Chess
 * answers with lines like `Nf6(58/81/39/149)` (seed 000).
 */
import type { Position } from '../core/position.js';
import { explainPolicy, type BookPolicyConfig } from '../book/select/index.js';
import { makeSan } from '../notation/san.js';
import { BookProbe, type BookSource } from './bookProbe.js';

export interface BookReportRow {
  move: number;
  san: string;
  /** Games with the move (fixed statistics), and the mover's score in them (0..1; NaN without games). */
  games: number;
  wins: number;
  draws: number;
  losses: number;
  score: number;
  /** The engine's own games with the move (book learning). */
  dynGames: number;
  dynScore: number;
  /** -1 unset, else 0..100. */
  userValue: number;
  /** Polyglot-style weight when the book has no game counts (a `.bin` book). */
  weight: number | undefined;
  /** Probability the policy plays the move (0..1). */
  probability: number;
  /** Marked forbidden (book audit, or by hand): never played. */
  forbidden: boolean;
  /** A PostBook record (the engine's own move after the book), with its evaluation in centipawns (0: unknown). */
  postBook: boolean;
  evalCp: number;
}

/** Book moves of `pos`, most likely first (then most played). */
export function bookReport(source: BookSource, policy: BookPolicyConfig, pos: Position): BookReportRow[] {
  const probe = new BookProbe(source, { policy });
  const moves = probe.moves(pos);
  const rows = explainPolicy(policy, moves, probe.unplayableWeight(pos));
  const out: BookReportRow[] = moves.map((m, i) => {
    const games = m.wins + m.draws + m.losses;
    const dynGames = m.dynWins + m.dynDraws + m.dynLosses;
    return {
      move: m.move,
      san: makeSan(pos, m.move),
      games,
      wins: m.wins,
      draws: m.draws,
      losses: m.losses,
      score: games > 0 ? (m.wins + m.draws / 2) / games : NaN,
      dynGames,
      dynScore: dynGames > 0 ? (m.dynWins + m.dynDraws / 2) / dynGames : NaN,
      userValue: m.userValue,
      weight: games === 0 && dynGames === 0 ? m.weight : undefined,
      probability: rows[i]!.probability,
      forbidden: m.forbidden === true,
      postBook: m.postBook,
      evalCp: m.evalCp,
    };
  });
  return out.sort((a, b) => b.probability - a.probability || b.games - a.games || (b.weight ?? 0) - (a.weight ?? 0));
}

const games = (n: number): string => `${n} game${n === 1 ? '' : 's'}`;
const pct = (x: number): string => `${(x * 100).toFixed(x >= 0.995 || x === 0 ? 0 : 1)}%`;

/**
 * One line per move, e.g. `Nf6  play  41.2%  149 games, 58.4% (+58 =58 -33)  own 3 games 66.7%  value 75`;
 * a forbidden move ends with `forbidden`, a PostBook record with `PostBook` and its evaluation.
 */
export function formatBookReport(rows: readonly BookReportRow[]): string[] {
  const w = Math.max(0, ...rows.map((r) => r.san.length));
  return rows.map((r) => {
    const parts = [`${r.san.padEnd(w)}  play ${pct(r.probability).padStart(6)}`];
    if (r.games > 0) parts.push(`${games(r.games)}, ${pct(r.score)} (+${r.wins} =${r.draws} -${r.losses})`);
    else if (r.weight !== undefined) parts.push(`weight ${r.weight}`);
    if (r.dynGames > 0) parts.push(`own ${games(r.dynGames)} ${pct(r.dynScore)}`);
    if (r.userValue >= 0) parts.push(`value ${r.userValue}`);
    if (r.postBook) parts.push(r.evalCp === 0 ? 'PostBook' : `PostBook ${r.evalCp > 0 ? '+' : ''}${(r.evalCp / 100).toFixed(2)}`);
    if (r.forbidden) parts.push('forbidden');
    return parts.join('  ');
  });
}

/**
 * Match reports in cutechess-cli's exact shapes (match-runner.md §1.8), so scripts written for
 * cutechess parse ours unchanged, plus the pentanomial block fastchess prints and the --json
 * summary.
 *
 *     Score of A vs B: 60 - 40 - 100  [0.550] 200
 *     Elo difference: 34.9 +/- 34.1, LOS: 97.7 %, DrawRatio: 50.0 %
 *     SPRT: llr 0.54 (18.3%), lbound -2.94, ubound 2.94
 */
import { losCutechess, pentanomialElo, trinomialElo, type Wdl } from '../stats/elo.js';
import { fixed, general } from '../stats/format.js';
import { shownLlr, type SprtConfig, type SprtStatus } from '../stats/sprt.js';
import type { EncounterStats, PlayerStats, Scoreboard } from './scoreboard.js';
import { summarizeTime, timeUseText } from './timeUse.js';

/** `1 game`, `2 games`: a count with its noun in the number it takes. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function total(w: Wdl): number {
  return w.wins + w.draws + w.losses;
}

function score(w: Wdl): number {
  const n = total(w);
  return n === 0 ? 0 : (w.wins + w.draws / 2) / n;
}

/** `W - L - D  [0.550] N` */
export function wldText(w: Wdl): string {
  return `${w.wins} - ${w.losses} - ${w.draws}  [${score(w).toFixed(3)}] ${total(w)}`;
}

export function scoreLine(a: string, b: string, w: Wdl): string {
  return `Score of ${a} vs ${b}: ${wldText(w)}`;
}

/** cutechess's Elo line: its approximate z and its draw-free LOS. */
export function cutechessEloLine(w: Wdl): string {
  const e = trinomialElo(w, 'cutechess');
  return `Elo difference: ${fixed(e.elo, 1)} +/- ${fixed(e.error, 1)}, LOS: ${fixed(losCutechess(w.wins, w.losses), 1)} %, DrawRatio: ${fixed(e.drawRatio, 1)} %`;
}

/** cutechess's SPRT line; the percent is llr/ubound, negative below zero, as cutechess prints it. */
export function cutechessSprtLine(s: SprtStatus): string {
  const llr = shownLlr(s.llr);
  const pct = (100 * llr) / s.upper;
  const end = s.decision ? ` - ${s.decision} was accepted` : '';
  return `SPRT: llr ${general(llr, 3)} (${fixed(pct, 1)}%), lbound ${general(s.lower, 3)}, ubound ${general(s.upper, 3)}${end}`;
}

/** The block cutechess prints for a two-engine match. */
export function encounterBlock(e: EncounterStats, names: readonly string[], sprt?: SprtStatus): string[] {
  const a = names[e.first]!;
  const b = names[e.second]!;
  const lines = [
    scoreLine(a, b, e.wdl),
    `...      ${a} playing White: ${wldText(e.asWhite)}`,
    `...      ${a} playing Black: ${wldText(e.asBlack)}`,
    `...      White vs Black: ${wldText(e.whiteBlack)}`,
    cutechessEloLine(e.wdl),
  ];
  if (sprt) lines.push(cutechessSprtLine(sprt));
  return lines;
}

/** fastchess's pentanomial lines, printed after the cutechess block when pairs are played. */
export function pentanomialLines(e: EncounterStats): string[] {
  const p = pentanomialElo(e.penta);
  const pairs = e.penta.reduce((x, y) => x + y, 0);
  if (pairs === 0) return [];
  return [
    `Ptnml(0-2): [${e.penta.join(', ')}], WL/DD Ratio: ${fixed(e.wl / e.dd, 2)}`,
    `Pentanomial Elo: ${fixed(p.elo, 2)} +/- ${fixed(p.error, 2)}, nElo: ${fixed(p.nElo, 2)} +/- ${fixed(p.nEloError, 2)}, LOS: ${fixed(p.los, 2)} %, PairsRatio: ${fixed((e.penta[3] + e.penta[4]) / (e.penta[0] + e.penta[1]), 2)}`,
  ];
}

function pad(s: string, n: number): string {
  return n < 0 ? s.padEnd(-n) : s.padStart(n);
}

/** cutechess's ranking table for more than two engines. */
export function rankingTable(players: readonly PlayerStats[]): string[] {
  const rows = players
    .map((p) => ({ p, e: trinomialElo(p, 'cutechess') }))
    .sort((x, y) => (Number.isNaN(y.e.score) ? -1 : y.e.score) - (Number.isNaN(x.e.score) ? -1 : x.e.score));
  const out = [`${pad('Rank', 4)} ${pad('Name', -25)} ${pad('Elo', 7)} ${pad('+/-', 7)} ${pad('Games', 7)} ${pad('Score', 7)} ${pad('Draw', 7)}`];
  rows.forEach(({ p, e }, i) => {
    const n = total(p);
    out.push(
      `${pad(String(i + 1), 4)} ${pad(p.name, -25)} ${pad(fixed(e.elo, 0), 7)} ${pad(fixed(e.error, 0), 7)} ${pad(String(n), 7)} ${pad(n ? `${fixed(100 * e.score, 1)}%` : '-', 7)} ${pad(n ? `${fixed(e.drawRatio, 1)}%` : '-', 7)}`,
    );
  });
  return out;
}

/** Per-player fault counters, cutechess's `-resultformat` columns in words. */
export function faultLines(players: readonly PlayerStats[]): string[] {
  return players
    .filter((p) => Object.values(p.faults).some((n) => n > 0))
    .map((p) => `${p.name}: time losses ${p.faults.time}, disconnects ${p.faults.disconnect}, stalls ${p.faults.stall}, illegal moves ${p.faults.illegal}, invalid claims ${p.faults.claim}`);
}

/** Per-player time use: thinking time a move, and how low the clock fell (when there was one). */
export function timeLines(players: readonly PlayerStats[]): string[] {
  return players.filter((p) => p.time.moves > 0).map((p) => `Time use of ${p.name}: ${timeUseText(summarizeTime(p.time))}`);
}

/** The full report: the encounter block for two engines, a ranking table for more. */
export function reportLines(board: Scoreboard, sprt?: SprtStatus): string[] {
  const names = board.players.map((p) => p.name);
  const lines: string[] = [];
  if (board.players.length === 2) {
    const e = board.encounter(0, 1);
    lines.push(...encounterBlock(e, names, sprt), ...pentanomialLines(e));
  } else {
    lines.push(...rankingTable(board.players));
  }
  return lines;
}

export type StopReason = 'completed' | 'sprt' | 'interrupted' | 'fault' | 'error';

/** Numbers as JSON can hold them: NaN and infinities become null. */
function num(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** The `--json` summary. For two engines `elo`, `error`, `los` and `llr` are also at the top level. */
export function jsonSummary(board: Scoreboard, opts: { sprt?: { config: SprtConfig; status: SprtStatus }; stopped: StopReason; pgn?: string; durationMs: number; message?: string }): object {
  const encounters = board.allEncounters().map((e) => {
    const t = trinomialElo(e.wdl);
    const p = pentanomialElo(e.penta);
    const pairs = e.penta.reduce((x, y) => x + y, 0);
    return {
      first: board.players[e.first]!.name,
      second: board.players[e.second]!.name,
      games: total(e.wdl),
      wins: e.wdl.wins,
      draws: e.wdl.draws,
      losses: e.wdl.losses,
      score: num(t.score),
      elo: num(t.elo),
      error: num(t.error),
      los: num(t.los),
      // The printed Elo line's own numbers (cutechess's z and draw-free LOS), beside the exact ones.
      errorCutechess: num(trinomialElo(e.wdl, 'cutechess').error),
      losCutechess: num(losCutechess(e.wdl.wins, e.wdl.losses)),
      drawRatio: num(t.drawRatio),
      nElo: num(t.nElo),
      nEloError: num(t.nEloError),
      asWhite: e.asWhite,
      asBlack: e.asBlack,
      whiteBlack: e.whiteBlack,
      ...(pairs > 0
        ? { penta: e.penta, pairs, pentaElo: num(p.elo), pentaError: num(p.error), pentaLos: num(p.los), pentaNElo: num(p.nElo), pentaNEloError: num(p.nEloError) }
        : {}),
    };
  });
  const top = board.players.length === 2 && encounters[0] ? { elo: encounters[0].elo, error: encounters[0].error, los: encounters[0].los, wins: encounters[0].wins, draws: encounters[0].draws, losses: encounters[0].losses } : {};
  return {
    games: board.games,
    stopped: opts.stopped,
    ...(opts.message ? { message: opts.message } : {}),
    durationMs: Math.round(opts.durationMs),
    ...(opts.pgn ? { pgn: opts.pgn } : {}),
    ...top,
    ...(opts.sprt
      ? {
          llr: num(opts.sprt.status.llr),
          // The hypotheses are about the first engine's Elo against the second's (as in cutechess-cli).
          sprt: {
            ...opts.sprt.config,
            engine: board.players[0]?.name ?? null,
            against: board.players[1]?.name ?? null,
            llr: num(opts.sprt.status.llr),
            lower: opts.sprt.status.lower,
            upper: opts.sprt.status.upper,
            decision: opts.sprt.status.decision ?? null,
            ...(opts.sprt.status.note === undefined ? {} : { llrNote: opts.sprt.status.note }),
          },
        }
      : {}),
    players: board.players.map((p) => {
      const t = trinomialElo(p);
      return { name: p.name, games: total(p), wins: p.wins, draws: p.draws, losses: p.losses, points: p.wins + p.draws / 2, elo: num(t.elo), error: num(t.error), faults: p.faults, time: summarizeTime(p.time) };
    }),
    encounters,
  };
}

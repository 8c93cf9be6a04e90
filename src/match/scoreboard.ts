/**
 * Running totals of a match: W/D/L per encounter from its first engine's point of view (also
 * split by colour), per-player totals for rankings, game pairs for pentanomial statistics, and
 * per-player fault counters (match-runner.md §2.4, §7).
 *
 * Games count in W/D/L as soon as they finish, so the totals always equal the PGN's results.
 * A pair counts in the pentanomial bins once both of its games are in; a lone game of a pair
 * stays out of them (fastchess's rule).
 */
import type { Penta, Wdl } from '../stats/elo.js';
import type { GameResult } from './adjudicate.js';
import type { FaultKind } from './game.js';
import type { ScheduledGame } from './schedule.js';
import { addTimeUse, emptyTimeTotals, type GameTimeUse, type TimeTotals } from './timeUse.js';

export interface EncounterStats {
  first: number;
  second: number;
  /** From `first`'s point of view. */
  wdl: Wdl;
  /** `first` with White / with Black. */
  asWhite: Wdl;
  asBlack: Wdl;
  /** From White's point of view. */
  whiteBlack: Wdl;
  /** Pair bins [LL, LD, WL+DD, WD, WW] from `first`'s point of view. */
  penta: [number, number, number, number, number];
  /** WL and DD kept apart inside bin 2 (for WL/DD). */
  wl: number;
  dd: number;
}

export interface PlayerStats extends Wdl {
  name: string;
  faults: Record<FaultKind, number>;
  time: TimeTotals;
}

const emptyWdl = (): Wdl => ({ wins: 0, draws: 0, losses: 0 });

function add(w: Wdl, score: number): void {
  if (score === 1) w.wins++;
  else if (score === 0) w.losses++;
  else w.draws++;
}

/** Points of White for a decisive or drawn result; undefined for `*`. */
export function whiteScore(result: GameResult): number | undefined {
  return result === '1-0' ? 1 : result === '0-1' ? 0 : result === '1/2-1/2' ? 0.5 : undefined;
}

export class Scoreboard {
  readonly players: PlayerStats[];
  private readonly encounters = new Map<string, EncounterStats>();
  /** First game of each open pair: its score for the encounter's first engine. */
  private readonly pendingPairs = new Map<number, { score: number; result: GameResult }>();
  games = 0;

  constructor(
    names: readonly string[],
    /** Games per opening; pentanomial counts need 2. */
    readonly repeat: number,
  ) {
    this.players = names.map((name) => ({ name, ...emptyWdl(), faults: { time: 0, disconnect: 0, stall: 0, illegal: 0, claim: 0 }, time: emptyTimeTotals() }));
  }

  encounter(first: number, second: number): EncounterStats {
    const key = `${first}:${second}`;
    let e = this.encounters.get(key);
    if (!e) {
      e = { first, second, wdl: emptyWdl(), asWhite: emptyWdl(), asBlack: emptyWdl(), whiteBlack: emptyWdl(), penta: [0, 0, 0, 0, 0], wl: 0, dd: 0 };
      this.encounters.set(key, e);
    }
    return e;
  }

  allEncounters(): EncounterStats[] {
    return [...this.encounters.values()];
  }

  /** Books a finished game with its fault and time use (White's, Black's). `*` results are not counted in W/D/L. */
  add(g: ScheduledGame, result: GameResult, fault?: { color: number; kind: FaultKind }, time?: readonly [GameTimeUse, GameTimeUse]): void {
    const ws = whiteScore(result);
    if (fault) this.players[fault.color === 0 ? g.white : g.black]!.faults[fault.kind]++;
    if (time) {
      addTimeUse(this.players[g.white]!.time, time[0]);
      addTimeUse(this.players[g.black]!.time, time[1]);
    }
    if (ws === undefined) return;
    this.games++;
    const e = this.encounter(g.first, g.second);
    const firstIsWhite = g.white === g.first;
    const s = firstIsWhite ? ws : 1 - ws;
    add(e.wdl, s);
    add(firstIsWhite ? e.asWhite : e.asBlack, s);
    add(e.whiteBlack, ws);
    add(this.players[g.white]!, ws);
    add(this.players[g.black]!, 1 - ws);
    if (this.repeat !== 2) return;
    const open = this.pendingPairs.get(g.group);
    if (!open) {
      this.pendingPairs.set(g.group, { score: s, result });
      return;
    }
    this.pendingPairs.delete(g.group);
    const points = open.score + s;
    e.penta[Math.round(points * 2)]!++;
    if (points === 1) {
      if (open.score === 0.5) e.dd++;
      else e.wl++;
    }
  }

  /** Pairs with one game in. */
  get openPairs(): number {
    return this.pendingPairs.size;
  }
}

/** Pentanomial counts as a readonly tuple. */
export function pentaOf(e: EncounterStats): Penta {
  return [e.penta[0], e.penta[1], e.penta[2], e.penta[3], e.penta[4]];
}

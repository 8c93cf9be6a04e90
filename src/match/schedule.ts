/**
 * The list of games of a match (match-runner.md §1.2, §3 item 5): encounters (every pair of
 * engines in a round-robin; the first `seeds` engines against each other one in a gauntlet),
 * `games` games per encounter in each of `rounds` rounds. Colours alternate between consecutive
 * games of an encounter unless `noswap`; each opening is played `repeat` times in a row, so with
 * repeat 2 a pair is the same opening twice with colours swapped. Openings are numbered once per
 * repeat group across the whole schedule, so no two encounters share one by accident.
 *
 * Group and opening numbers coincide (one opening per group). The schedule is a pure function of the configuration: `--resume` rebuilds it and skips the
 * games the journal lists.
 */

export type TournamentKind = 'round-robin' | 'gauntlet';

export interface ScheduleConfig {
  players: number;
  tournament: TournamentKind;
  /** Games per encounter per round. */
  games: number;
  rounds: number;
  /** Games played on each opening (2 = pairs). */
  repeat: number;
  noswap: boolean;
  /** Gauntlet: how many leading engines play everyone else. */
  seeds: number;
}

export interface ScheduledGame {
  /** 1-based game number. */
  number: number;
  round: number;
  /** Engine indices, `first` being the reference side of the encounter's statistics. */
  first: number;
  second: number;
  white: number;
  black: number;
  /** Index of the opening to play. */
  opening: number;
  /** Games that share an opening form a group (a pair when repeat is 2); `slot` is the game's place in it. */
  group: number;
  slot: number;
}

/** The engine pairs that meet, in order. */
export function encounters(cfg: Pick<ScheduleConfig, 'players' | 'tournament' | 'seeds'>): [number, number][] {
  const out: [number, number][] = [];
  if (cfg.tournament === 'gauntlet') {
    const seeds = Math.max(1, Math.min(cfg.seeds, cfg.players - 1));
    for (let s = 0; s < seeds; s++) for (let o = seeds; o < cfg.players; o++) out.push([s, o]);
  } else {
    for (let i = 0; i < cfg.players; i++) for (let j = i + 1; j < cfg.players; j++) out.push([i, j]);
  }
  return out;
}

export function buildSchedule(cfg: ScheduleConfig): ScheduledGame[] {
  const pairs = encounters(cfg);
  const repeat = Math.max(1, cfg.repeat);
  const out: ScheduledGame[] = [];
  const played = new Array<number>(pairs.length).fill(0);
  const currentOpening = new Array<number>(pairs.length).fill(0);
  let nextOpening = 0;
  for (let round = 1; round <= cfg.rounds; round++) {
    for (let e = 0; e < pairs.length; e++) {
      const [first, second] = pairs[e]!;
      for (let g = 0; g < cfg.games; g++) {
        // Repeat groups follow each encounter's own sequence, so `--games 1 --rounds N --repeat`
        // still pairs consecutive games of an encounter, as cutechess does.
        const slot = played[e]! % repeat;
        if (slot === 0) currentOpening[e] = nextOpening++;
        const swapped = !cfg.noswap && played[e]! % 2 === 1;
        played[e]!++;
        out.push({
          number: out.length + 1,
          round,
          first,
          second,
          white: swapped ? second : first,
          black: swapped ? first : second,
          opening: currentOpening[e]!,
          group: currentOpening[e]!,
          slot,
        });
      }
    }
  }
  return out;
}

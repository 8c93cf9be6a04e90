/**
 * Terra's book move selection, step by step as seed 001 describes it ("How Terra selects a
 * move from books" and its worked example):
 *
 *   1. A move set to 100 is always played; among several, one at random.
 *   2. The user-set group (values 1..99; 0 means never: the avoid list) and the statistics group
 *      (everything else) are separated. When both have moves, a die decides: Random(0,100) < P·100
 *      takes the user-set group, with P = 1 − Π(100 − v)/100 (or a fixed UserGroupPercent).
 *   3. In the user-set group the roulette wheel picks by value.
 *   4. In the statistics group each move is valued by the engine's own Win% when it has at least
 *      MinTerraGames games (a Win% not above TerraLimit puts it in the avoid list), otherwise by
 *      its fixed statistics: at least MinBookGames games and a fixed Win% of at least BookLimit,
 *      valued by Win% or (RandomType 1 and 3) by frequency 100·f/FSum, FSum summing the games of
 *      every move of the group valued by fixed statistics; a value below 1 counts as 1. RandomType
 *      0 and 3 take the best value, 1 and 2 spin the roulette wheel.
 *   5. When the book has nothing to play, the PostBook move with the best history (the engine's
 *      own Win% above TerraLimit over at least MinTerraGames games) is played; no randomness.
 *
 * Win% is the score (wins + draws/2) / games, as GNU Chess shows it. A move imported from a
 * Polyglot book has a weight and no games: the weight stands in for its frequency. Seed 001's example writes
 * P = 75·(100−15)/100 = 63.75 where its own formula gives 78.75; the formula is what is
 * implemented (a UserGroupPercent of 63.75 reproduces the example's arithmetic), see the tests.
 */
import type { RichMove } from '../rich/types.js';
import type { BookPolicyConfig } from './config.js';
import { firstMax, spinRoulette, uniformIndex } from './wheel.js';

/** What Terra's procedure makes of a position's moves, before any die is rolled. */
export interface TerraPlan {
  /** Why each move is in or out (same order as the moves). */
  reasons: string[];
  /** Moves set to 100. */
  always: number[];
  /** The user-set group (values 1..99) and their values. */
  user: number[];
  userValues: number[];
  /** The statistics group's playable moves and their values. */
  stats: number[];
  statValues: number[];
  /** RandomType 0 or 3: the best value instead of the roulette wheel. */
  best: boolean;
  /** Chance of the user-set group (1 when only it has moves, 0 when it has none). */
  pUser: number;
  /** The PostBook move played when the book has nothing, or -1. */
  post: number;
  /** The avoid list: moves set to 0 and moves whose own Win% is not above TerraLimit. */
  avoid: number[];
}

const pct = (x: number): string => (Math.round(x * 100) / 100).toString();

/** Score percentage (wins + draws/2) / games · 100. */
export function winPercent(wins: number, draws: number, losses: number): number {
  const n = wins + draws + losses;
  return n === 0 ? 0 : (100 * (wins + draws / 2)) / n;
}

/** `explain` false: the reasons stay empty (the explorer and the engine only need the numbers). */
export function planTerra(c: BookPolicyConfig, moves: readonly RichMove[], explain = true): TerraPlan {
  const reasons: string[] = moves.map(() => '');
  const always: number[] = [];
  const user: number[] = [];
  const userValues: number[] = [];
  const stats: number[] = [];
  const statValues: number[] = [];
  const byFrequency = c.randomType === 1 || c.randomType === 3;
  const pending: { i: number; games: number; win: number; weightOnly: boolean }[] = [];
  const posts: number[] = [];
  const avoid: number[] = [];
  let fsum = 0;

  for (let i = 0; i < moves.length; i++) {
    const m = moves[i]!;
    if (m.postBook) {
      posts.push(i);
      continue;
    }
    const v = m.userValue;
    if (v >= 100) {
      always.push(i);
      if (explain) reasons[i] = 'user value 100: always played';
    } else if (v === 0) {
      if (explain) reasons[i] = 'user value 0: never played (avoid list)';
      avoid.push(i);
    } else if (v > 0) {
      user.push(i);
      userValues.push(v);
    } else {
      const tGames = m.dynWins + m.dynDraws + m.dynLosses;
      if (tGames >= c.minTerraGames) {
        const tw = winPercent(m.dynWins, m.dynDraws, m.dynLosses);
        if (tw > c.terraLimit) {
          stats.push(i);
          statValues.push(Math.max(1, Math.round(tw)));
          if (explain) reasons[i] = `own Win% ${pct(tw)} over ${tGames} games (≥ MinTerraGames ${c.minTerraGames}), above TerraLimit ${c.terraLimit}`;
        } else {
          if (explain) reasons[i] = `avoid list: own Win% ${pct(tw)} over ${tGames} games is not above TerraLimit ${c.terraLimit}`;
          avoid.push(i);
        }
        continue;
      }
      const games = m.wins + m.draws + m.losses;
      if (games === 0 && (m.weight ?? 0) > 0) {
        // Imported from a Polyglot book: the weight is all there is. It stands in for the
        // frequency, its Win% is unknown (counted as even), and the game limits cannot apply.
        fsum += m.weight!;
        pending.push({ i, games: m.weight!, win: 50, weightOnly: true });
        if (explain) reasons[i] = `weight ${m.weight} only (no game statistics): `;
        continue;
      }
      fsum += games;
      const few = explain && tGames > 0 ? `only ${tGames} own game${tGames > 1 ? 's' : ''} (< MinTerraGames ${c.minTerraGames}), so fixed statistics: ` : '';
      const win = winPercent(m.wins, m.draws, m.losses);
      if (games < c.minBookGames) {
        if (explain) reasons[i] = `${few}${games} game${games === 1 ? '' : 's'} < MinBookGames ${c.minBookGames}`;
      } else if (win < c.bookLimit) {
        if (explain) reasons[i] = `${few}fixed Win% ${pct(win)} < BookLimit ${c.bookLimit}`;
      } else {
        pending.push({ i, games, win, weightOnly: false });
        if (explain) reasons[i] = few;
      }
    }
  }
  for (const p of pending) {
    stats.push(p.i);
    if (byFrequency) {
      const f = (100 * p.games) / fsum;
      statValues.push(Math.max(1, Math.round(f)));
      if (explain) reasons[p.i] += `frequency ${p.games}/${fsum} = ${pct(f)}%`;
      if (explain && !p.weightOnly) reasons[p.i] += `, fixed Win% ${pct(p.win)} ≥ BookLimit ${c.bookLimit}`;
    } else {
      statValues.push(Math.max(1, Math.round(p.win)));
      if (explain) reasons[p.i] += p.weightOnly ? 'Win% unknown, counted as 50' : `fixed Win% ${pct(p.win)} over ${p.games} games ≥ BookLimit ${c.bookLimit}`;
    }
  }
  // Stats rows were pushed in two passes (own-Win% moves first); restore book order so ties and
  // the roulette's starting order follow the book.
  const order = stats.map((_, k) => k).sort((a, b) => stats[a]! - stats[b]!);
  const sortedStats = order.map((k) => stats[k]!);
  const sortedValues = order.map((k) => statValues[k]!);

  const hasUser = user.length > 0;
  const hasStats = sortedStats.length > 0;
  let pUser = hasUser ? 1 : 0;
  if (hasUser && hasStats) {
    if (c.userGroupPercent >= 0) pUser = c.userGroupPercent / 100;
    else {
      let q = 1;
      for (const v of userValues) q *= (100 - v) / 100;
      pUser = 1 - q;
    }
  }

  let post = -1;
  for (const i of posts) {
    const m = moves[i]!;
    const tGames = m.dynWins + m.dynDraws + m.dynLosses;
    const tw = winPercent(m.dynWins, m.dynDraws, m.dynLosses);
    if (tGames < c.minTerraGames) {
      if (explain) reasons[i] = `PostBook: ignored, ${tGames} own games < MinTerraGames ${c.minTerraGames}`;
    } else if (tw <= c.terraLimit) {
      if (explain) reasons[i] = `PostBook: avoid list, own Win% ${pct(tw)} is not above TerraLimit ${c.terraLimit}`;
      avoid.push(i);
    } else if (!c.postBook) {
      if (explain) reasons[i] = 'PostBook is off';
    } else if (always.length > 0 || hasUser || hasStats) {
      if (explain) reasons[i] = 'PostBook: used only when the book has nothing to play';
    } else {
      if (explain) reasons[i] = `PostBook: own Win% ${pct(tw)} over ${tGames} games`;
      if (post < 0 || postBetter(m, moves[post]!)) post = i;
    }
  }
  return { reasons, always, user, userValues, stats: sortedStats, statValues: sortedValues, best: c.randomType === 0 || c.randomType === 3, pUser, post, avoid };
}

/** PostBook order: own Win%, then more games, then the better stored evaluation. */
function postBetter(a: RichMove, b: RichMove): boolean {
  const wa = winPercent(a.dynWins, a.dynDraws, a.dynLosses);
  const wb = winPercent(b.dynWins, b.dynDraws, b.dynLosses);
  if (wa !== wb) return wa > wb;
  const ga = a.dynWins + a.dynDraws + a.dynLosses;
  const gb = b.dynWins + b.dynDraws + b.dynLosses;
  if (ga !== gb) return ga > gb;
  return a.evalCp > b.evalCp;
}

/** The probability of each move under the plan, with the reasons completed. */
export function explainTerra(plan: TerraPlan, n: number, explain = true): { probability: number[]; reasons: string[] } {
  const probability: number[] = new Array<number>(n).fill(0);
  const reasons = plan.reasons.slice();
  if (plan.always.length > 0) {
    for (const i of plan.always) probability[i] = 1 / plan.always.length;
    if (explain) for (const i of [...plan.user, ...plan.stats]) reasons[i] = `not considered: a move is set to 100 (always); would be: ${reasons[i] || `user value`}`;
    return { probability, reasons };
  }
  const pu = plan.pUser;
  let userSum = 0;
  for (const v of plan.userValues) userSum += v;
  plan.user.forEach((i, k) => {
    const v = plan.userValues[k]!;
    probability[i] = (pu * v) / userSum;
    if (explain) reasons[i] = `user value ${v}: roulette ${v}/${userSum} in the user-set group` + (plan.stats.length > 0 ? ` (chosen with P = ${pct(pu * 100)}%)` : '');
  });
  const ps = 1 - pu;
  // The group's chance is worth saying only when a die chooses between two groups.
  const statsChance = explain && plan.user.length > 0 ? ` (chosen with P = ${pct(ps * 100)}%)` : '';
  if (plan.best) {
    const b = firstMax(plan.statValues);
    plan.stats.forEach((i, k) => {
      const v = plan.statValues[k]!;
      if (k === b) {
        probability[i] = ps;
        if (explain) reasons[i] = `best value ${v} in the statistics group${statsChance}: ${reasons[i]}`;
      } else {
        // A tie goes to the first in the book's order (make-book's first-seen order), as Terra's
        // select best takes the first maximum; "50 < 50" would not say why.
        const best = plan.statValues[b]!;
        if (explain) reasons[i] = `${v < best ? `not the best value (${v} < ${best})` : `ties with the best value ${best}, which goes to the first in book order`}: ${reasons[i]}`;
      }
    });
  } else {
    let sum = 0;
    for (const v of plan.statValues) sum += v;
    plan.stats.forEach((i, k) => {
      const v = plan.statValues[k]!;
      probability[i] = (ps * v) / sum;
      if (explain) reasons[i] = `value ${v}: roulette ${v}/${sum} in the statistics group${statsChance}: ${reasons[i]}`;
    });
  }
  if (plan.post >= 0) probability[plan.post] = 1;
  return { probability, reasons };
}

/** Terra's procedure with its dice: returns an index into the moves, or -1. */
export function chooseTerra(plan: TerraPlan, random: () => number): number {
  if (plan.always.length > 0) return plan.always[uniformIndex(plan.always.length, random)]!;
  const hasUser = plan.user.length > 0;
  const hasStats = plan.stats.length > 0;
  if (hasUser || hasStats) {
    const useUser = hasUser && (!hasStats || random() * 100 < plan.pUser * 100);
    if (useUser) return plan.user[spinRoulette(plan.userValues, random)]!;
    if (plan.best) return plan.stats[firstMax(plan.statValues)]!;
    return plan.stats[spinRoulette(plan.statValues, random)]!;
  }
  return plan.post;
}

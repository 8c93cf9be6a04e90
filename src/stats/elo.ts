/**
 * Elo from match results, as cutechess, fastchess and fishtest compute it (match-runner.md
 * §2.1–2.5): logistic Elo of the mean score, an error bar that is half the width of the
 * Elo-transformed 95 % interval, the likelihood of superiority, and normalized Elo.
 *
 *     trinomialElo({ wins: 60, draws: 100, losses: 40 }).elo          // 34.86
 *     pentanomialElo([10, 60, 250, 80, 20]).nElo                      // 29.96
 *
 * Degenerate inputs never throw: a 100 % score gives Elo +Infinity and error NaN, zero variance
 * gives NaN for nElo and LOS, no games gives NaN everywhere (null in JSON).
 */
import { Z95, erf, normalCdf, normalQuantileCutechess } from './normal.js';

/** Game counts from the first player's point of view. */
export interface Wdl {
  wins: number;
  draws: number;
  losses: number;
}

/**
 * Game-pair counts `[LL, LD, WL+DD, WD, WW]`: pairs by the first player's total over the two
 * games (0, ½, 1, 1½, 2 points), in fishtest's and fastchess's `Ptnml(0-2)` order.
 */
export type Penta = readonly [number, number, number, number, number];

/** How the 95 % z is obtained: exactly (fastchess, fishtest) or by cutechess's approximation. */
export type CiMethod = 'exact' | 'cutechess';

export interface EloEstimate {
  /** Samples: games for trinomial, pairs for pentanomial. */
  samples: number;
  games: number;
  /** Mean score per game, 0..1. */
  score: number;
  /** Variance of one sample (per game or per pair), population form. */
  variance: number;
  /** Standard error of the mean score. */
  stderr: number;
  elo: number;
  /** Half-width of the 95 % interval in Elo. */
  error: number;
  /** Likelihood of superiority in percent (normal approximation, draws included). */
  los: number;
  nElo: number;
  nEloError: number;
  /** Trinomial: drawn games in percent. Pentanomial: pairs scoring exactly 1 point, in percent. */
  drawRatio: number;
}

/** 800 / ln 10: the slope that turns a t-value into normalized Elo. */
export const NELO_SCALE = 800 / Math.LN10;

/** Logistic Elo of an expected score: −400·log10(1/s − 1). */
export function eloFromScore(score: number): number {
  // `+ 0` turns the −0 of an even score into 0, so it never prints as "-0.0".
  return -400 * Math.log10(1 / score - 1) + 0;
}

/** Expected score of an Elo difference: 1/(1 + 10^(−E/400)). */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

/** The 95 % z of a method. */
export function z95(method: CiMethod = 'exact'): number {
  return method === 'cutechess' ? normalQuantileCutechess(0.975) : Z95;
}

/** Half the width of [E(μ − z·se), E(μ + z·se)]. */
export function eloError(mu: number, se: number, z: number): number {
  return (eloFromScore(mu + z * se) - eloFromScore(mu - z * se)) / 2;
}

/** cutechess's LOS, which ignores draws: 100·(½ + ½·erf((W − L)/√(2(W + L)))). NaN when W + L = 0. */
export function losCutechess(wins: number, losses: number): number {
  if (wins + losses === 0) return NaN;
  return 100 * (0.5 + 0.5 * erf((wins - losses) / Math.sqrt(2 * (wins + losses))));
}

function estimate(samples: number, games: number, mu: number, variance: number, gameVariance: number, drawRatio: number, z: number): EloEstimate {
  if (samples === 0) {
    return { samples, games, score: NaN, variance: NaN, stderr: NaN, elo: NaN, error: NaN, los: NaN, nElo: NaN, nEloError: NaN, drawRatio: NaN };
  }
  const se = Math.sqrt(variance / samples);
  const sigma = Math.sqrt(gameVariance);
  const nElo = sigma > 0 ? ((mu - 0.5) / sigma) * NELO_SCALE : NaN;
  const nEloError = sigma > 0 ? ((z * se) / sigma) * NELO_SCALE : NaN;
  return {
    samples,
    games,
    score: mu,
    variance,
    stderr: se,
    elo: eloFromScore(mu),
    error: eloError(mu, se, z),
    los: se > 0 ? 100 * normalCdf((mu - 0.5) / se) : NaN,
    nElo,
    nEloError,
    drawRatio,
  };
}

/** Statistics of W/D/L counts (per-game samples). */
export function trinomialElo(wdl: Wdl, ci: CiMethod = 'exact'): EloEstimate {
  const n = wdl.wins + wdl.draws + wdl.losses;
  if (n === 0) return estimate(0, 0, NaN, NaN, NaN, NaN, z95(ci));
  const w = wdl.wins / n;
  const d = wdl.draws / n;
  const l = wdl.losses / n;
  const mu = w + d / 2;
  const variance = w * (1 - mu) ** 2 + l * mu ** 2 + d * (0.5 - mu) ** 2;
  return estimate(n, n, mu, variance, variance, 100 * d, z95(ci));
}

/** Statistics of game-pair counts (per-pair samples on the pair-score scale 0..1). */
export function pentanomialElo(penta: Penta, ci: CiMethod = 'exact'): EloEstimate {
  const pairs = penta[0] + penta[1] + penta[2] + penta[3] + penta[4];
  if (pairs === 0) return estimate(0, 0, NaN, NaN, NaN, NaN, z95(ci));
  let mu = 0;
  for (let i = 0; i < 5; i++) mu += (penta[i]! / pairs) * (i / 4);
  let variance = 0;
  for (let i = 0; i < 5; i++) variance += (penta[i]! / pairs) * (i / 4 - mu) ** 2;
  return estimate(pairs, 2 * pairs, mu, variance, 2 * variance, (100 * penta[2]) / pairs, z95(ci));
}

/** fastchess's six counters (LL, LD, WL, DD, WD, WW) as the five bins. */
export function pentaFromSix(ll: number, ld: number, wl: number, dd: number, wd: number, ww: number): Penta {
  return [ll, ld, wl + dd, wd, ww];
}

/** (WW + WD)/(LD + LL): how many winning pairs per losing pair. */
export function pairsRatio(penta: Penta): number {
  return (penta[4] + penta[3]) / (penta[1] + penta[0]);
}

/** The W/D/L totals contained in pentanomial counts, when WL and DD are known separately. */
export function wdlFromSix(ll: number, ld: number, wl: number, dd: number, wd: number, ww: number): Wdl {
  return { wins: wl + wd + 2 * ww, draws: ld + 2 * dd + wd, losses: 2 * ll + ld + wl };
}

/**
 * The sequential probability ratio test as fishtest computes it (GSPRT, match-runner.md §2.6–2.7;
 * fastchess gives the same numbers), plus cutechess's legacy BayesElo LLR so its `SPRT:` line
 * can be reproduced.
 *
 * Counts are a vector over equally spaced scores: 3 bins `[L, D, W]` (per game) or 5 bins
 * `[LL, LD, WL+DD, WD, WW]` (per pair). The log-likelihood ratio compares the maximum-likelihood
 * distributions constrained to the two hypotheses; it is recomputed from the totals each time
 * (two root solves, or twenty for the normalized model), which is cheap and never drifts.
 *
 *     sprt([40, 100, 60], { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'logistic' })
 *     // { llr: 0.5349, lower: -2.944, upper: 2.944, decision: undefined }
 */
import { NELO_SCALE, scoreFromElo, type Penta, type Wdl } from './elo.js';

/** `logistic`: bounds in logistic Elo. `normalized`: bounds in nElo (fishtest's and fastchess's default).
 * `bayesian`: bounds in BayesElo (trinomial only). `cutechess`: cutechess-cli's legacy LLR (trinomial only). */
export type SprtModel = 'logistic' | 'normalized' | 'bayesian' | 'cutechess';

export const SPRT_MODELS: readonly SprtModel[] = ['logistic', 'normalized', 'bayesian', 'cutechess'];

export interface SprtConfig {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  model: SprtModel;
}

export interface SprtStatus {
  llr: number;
  lower: number;
  upper: number;
  /** Set once a bound is crossed: 'H1' when llr ≥ upper, 'H0' when llr ≤ lower. */
  decision: 'H0' | 'H1' | undefined;
  /** Why `llr` is not a number (NaN or infinite) for these counts: no decision is taken on it. */
  note?: string;
}

/** The counts vector `[L, D, W]` of W/D/L totals. */
export function trinomialCounts(wdl: Wdl): [number, number, number] {
  return [wdl.losses, wdl.draws, wdl.wins];
}

/** Stopping bounds: lower = ln(β/(1−α)), upper = ln((1−β)/α). */
export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/**
 * The widest bounds the LLR can be computed for. fishtest's t-value search (`mleTValue`) starts
 * from the uniform distribution, and beyond t ≈ 0.94 (≈ 232 nElo on pairs, ≈ 340 on games) its
 * secular equation has no root; far beyond a few thousand Elo a bound's expected score rounds to
 * 1 in double precision and the logistic and BayesElo searches have none either. Tests of engine
 * changes use bounds of a few (n)Elo, so these limits only turn a crash into a message.
 */
export const SPRT_MAX_NELO = 200;
export const SPRT_MAX_ELO = 2000;

/** A reason the configuration is unusable, or undefined. */
export function sprtConfigError(cfg: SprtConfig): string | undefined {
  if (!Number.isFinite(cfg.elo0) || !Number.isFinite(cfg.elo1)) return 'elo0 and elo1 must be numbers';
  if (!(cfg.elo0 < cfg.elo1)) return `elo0 (${cfg.elo0}) must be smaller than elo1 (${cfg.elo1})`;
  if (!SPRT_MODELS.includes(cfg.model)) return `unknown model "${cfg.model}" (${SPRT_MODELS.join(', ')})`;
  const [max, unit] = cfg.model === 'normalized' ? [SPRT_MAX_NELO, 'nElo'] : [SPRT_MAX_ELO, cfg.model === 'bayesian' ? 'BayesElo' : 'Elo'];
  for (const [name, v] of [['elo0', cfg.elo0], ['elo1', cfg.elo1]] as const) {
    if (Math.abs(v) > max) {
      const hint = cfg.model === 'normalized' ? '; for bounds in ordinary Elo use the logistic model' : '';
      return `${name} (${v}) is outside -${max}..${max} ${unit}, the range the ${cfg.model} model can test (tests of engine changes use a few ${unit})${hint}`;
    }
  }
  if (!(cfg.alpha > 0 && cfg.alpha < 1)) return `alpha (${cfg.alpha}) must be between 0 and 1`;
  if (!(cfg.beta > 0 && cfg.beta < 1)) return `beta (${cfg.beta}) must be between 0 and 1`;
  if (!(cfg.alpha + cfg.beta < 1)) return `alpha + beta (${cfg.alpha + cfg.beta}) must be below 1`;
  return undefined;
}

/** Zero counts become 1e-3 so every ML distribution has full support (fishtest's regularization). */
function regularize(counts: readonly number[]): { pdf: Float64Array; n: number; a: Float64Array } {
  const k = counts.length;
  if (k !== 3 && k !== 5) throw new RangeError(`SPRT counts need 3 or 5 bins, got ${k}`);
  const pdf = new Float64Array(k);
  const a = new Float64Array(k);
  let n = 0;
  for (let i = 0; i < k; i++) {
    pdf[i] = counts[i] === 0 ? 1e-3 : counts[i]!;
    n += pdf[i]!;
    a[i] = i / (k - 1);
  }
  for (let i = 0; i < k; i++) pdf[i]! /= n;
  return { pdf, n, a };
}

/**
 * The root θ of Σ pᵢ·xᵢ/(1 + θ·xᵢ) = 0 on (−1/max x, −1/min x), where the left side falls
 * from +∞ to −∞. Bisection to the last representable step: about 60 halvings.
 */
export function secularRoot(x: ArrayLike<number>, p: ArrayLike<number>): number {
  let minX = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < x.length; i++) {
    minX = Math.min(minX, x[i]!);
    maxX = Math.max(maxX, x[i]!);
  }
  if (!(minX < 0 && maxX > 0)) throw new RangeError(`secular equation needs values on both sides of 0 (min ${minX}, max ${maxX})`);
  let lo = -1 / maxX;
  let hi = -1 / minX;
  for (let iter = 0; iter < 2000; iter++) {
    const mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    let g = 0;
    for (let i = 0; i < x.length; i++) g += (p[i]! * x[i]!) / (1 + mid * x[i]!);
    if (g > 0) lo = mid;
    else if (g < 0) hi = mid;
    else return mid;
  }
  return (lo + hi) / 2;
}

/**
 * Whether the secular equation of `x` and `p` has a root: every value finite, and `x` on both
 * sides of 0. Counts far beyond any match (10^16 games and more, where a regularized empty bin
 * is a probability of 10^-19 beside 1) make the searches' values degenerate in double precision:
 * the t-value search's σ rounds to 0 and its values come out NaN or all of one sign, and a
 * BayesElo draw-Elo becomes infinite. The maximum-likelihood distribution then has no value
 * (NaN), and so has the LLR, which sprt() reports as not computable.
 */
function hasRoot(x: ArrayLike<number>, p: ArrayLike<number>): boolean {
  let below = false;
  let above = false;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]!) || !Number.isFinite(p[i]!)) return false;
    if (x[i]! < 0) below = true;
    if (x[i]! > 0) above = true;
  }
  return below && above;
}

/** The ML distribution near `pdf` whose mean is `s`: pᵢ/(1 + θ(aᵢ − s)). */
export function mleExpectation(pdf: Float64Array, a: Float64Array, s: number): Float64Array {
  const x = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) x[i] = a[i]! - s;
  if (!hasRoot(x, pdf)) return new Float64Array(a.length).fill(NaN);
  const theta = secularRoot(x, pdf);
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = pdf[i]! / (1 + theta * x[i]!);
  return out;
}

/** The ML distribution near `pdf` whose t-value (μ − ½)/σ is `t` (fishtest's MLE_tvalue). */
export function mleTValue(pdf: Float64Array, a: Float64Array, t: number): Float64Array {
  const k = a.length;
  let p = new Float64Array(k).fill(1 / k);
  const phi = new Float64Array(k);
  for (let iter = 0; iter < 10; iter++) {
    let mu = 0;
    for (let i = 0; i < k; i++) mu += p[i]! * a[i]!;
    let v = 0;
    for (let i = 0; i < k; i++) v += p[i]! * (a[i]! - mu) ** 2;
    const sigma = Math.sqrt(v);
    for (let i = 0; i < k; i++) phi[i] = a[i]! - 0.5 - ((t * sigma) / 2) * (1 + ((a[i]! - mu) / sigma) ** 2);
    if (!hasRoot(phi, pdf)) return new Float64Array(k).fill(NaN);
    const theta = secularRoot(phi, pdf);
    const next = new Float64Array(k);
    let delta = 0;
    for (let i = 0; i < k; i++) {
      next[i] = pdf[i]! / (1 + theta * phi[i]!);
      delta = Math.max(delta, Math.abs(next[i]! - p[i]!));
    }
    p = next;
    if (delta < 1e-9) break;
  }
  return p;
}

function llrOf(n: number, pdf: Float64Array, p0: Float64Array, p1: Float64Array): number {
  let s = 0;
  for (let i = 0; i < pdf.length; i++) s += pdf[i]! * (Math.log(p1[i]!) - Math.log(p0[i]!));
  return n * s;
}

/** GSPRT LLR with bounds in logistic Elo. */
export function llrLogistic(counts: readonly number[], elo0: number, elo1: number): number {
  const { pdf, n, a } = regularize(counts);
  return llrOf(n, pdf, mleExpectation(pdf, a, scoreFromElo(elo0)), mleExpectation(pdf, a, scoreFromElo(elo1)));
}

/** GSPRT LLR with bounds in normalized Elo; for pair counts the t-values are taken on pair scores (×√2). */
export function llrNormalized(counts: readonly number[], nelo0: number, nelo1: number): number {
  const { pdf, n, a } = regularize(counts);
  const f = counts.length === 5 ? Math.SQRT2 : 1;
  return llrOf(n, pdf, mleTValue(pdf, a, (nelo0 / NELO_SCALE) * f), mleTValue(pdf, a, (nelo1 / NELO_SCALE) * f));
}

/** Expected score of a BayesElo difference at a given draw-Elo. */
function bayesEloScore(b: number, drawElo: number): number {
  const pw = 1 / (1 + Math.pow(10, (drawElo - b) / 400));
  const pl = 1 / (1 + Math.pow(10, (drawElo + b) / 400));
  return pw + (1 - pw - pl) / 2;
}

/** GSPRT LLR with bounds in BayesElo, the draw-Elo taken from the (regularized) sample. */
export function llrBayesian(counts: readonly number[], elo0: number, elo1: number): number {
  if (counts.length !== 3) throw new RangeError('the bayesian model takes W/D/L counts only');
  const { pdf, n, a } = regularize(counts);
  const pl = pdf[0]!;
  const pw = pdf[2]!;
  const drawElo = 200 * Math.log10(((1 - pl) / pl) * ((1 - pw) / pw));
  return llrOf(n, pdf, mleExpectation(pdf, a, bayesEloScore(elo0, drawElo)), mleExpectation(pdf, a, bayesEloScore(elo1, drawElo)));
}

/** ln(1 + eˣ) without overflow for large x or loss of precision for very negative x. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/**
 * cutechess-cli's LLR: W/D/L plus ½ each (a Jeffreys prior), a BayesElo draw model fitted to
 * them, and the logistic bounds scaled to BayesElo by 4x/(1+x)² with x = 10^(−drawElo/400).
 *
 * The probabilities are taken as logarithms, from the same formulas (cutechess's sprt.cpp). At
 * extreme draw ratios the scale is tiny, a bound becomes a BayesElo of thousands, and in plain
 * doubles (as cutechess computes) a win, loss or draw probability rounds to 0 or 1: the LLR came
 * out −inf (deciding on a rounding) or NaN (inf − inf, which never decides). In logs it stays the
 * finite value the formula has.
 */
export function llrCutechess(wdl: Wdl, elo0: number, elo1: number): number {
  const w = wdl.wins + 0.5;
  const l = wdl.losses + 0.5;
  const d = wdl.draws + 0.5;
  const n = w + l + d;
  const pw = w / n;
  const pl = l / n;
  const drawElo = 200 * Math.log10(((1 - pl) / pl) * ((1 - pw) / pw));
  const x = Math.pow(10, -drawElo / 400);
  const scale = (4 * x) / (1 + x) ** 2;
  const k = Math.LN10 / 400;
  // pW = 1/(1 + 10^((drawElo − b)/400)), pL = 1/(1 + 10^((drawElo + b)/400)), and pD = 1 − pW − pL
  // taken as (1 − pW) − pL when pW is the larger (b ≥ 0), else (1 − pL) − pW, so that two
  // probabilities near 1 are never subtracted.
  const logProbs = (elo: number): [number, number, number] => {
    const b = elo / scale;
    const logW = -softplus((drawElo - b) * k);
    const logL = -softplus((drawElo + b) * k);
    const [big, small] = b >= 0 ? [-softplus((b - drawElo) * k), logL] : [-softplus((-b - drawElo) * k), logW];
    const logD = big + Math.log1p(-Math.exp(small - big));
    return [logW, logL, logD];
  };
  const [w0, l0, d0] = logProbs(elo0);
  const [w1, l1, d1] = logProbs(elo1);
  return w * (w1 - w0) + l * (l1 - l0) + d * (d1 - d0);
}

/** fishtest's quadratic approximation N(s1 − s0)(2μ − s0 − s1)/(2σ²), for sanity checks and estimates. */
export function llrQuadratic(counts: readonly number[], elo0: number, elo1: number): number {
  const { pdf, n, a } = regularize(counts);
  let mu = 0;
  for (let i = 0; i < pdf.length; i++) mu += pdf[i]! * a[i]!;
  let v = 0;
  for (let i = 0; i < pdf.length; i++) v += pdf[i]! * (a[i]! - mu) ** 2;
  const s0 = scoreFromElo(elo0);
  const s1 = scoreFromElo(elo1);
  return (n * (s1 - s0) * (2 * mu - s0 - s1)) / (2 * v);
}

/** The LLR of a model. `counts` is `[L, D, W]` or the five pair bins. */
export function llr(model: SprtModel, counts: readonly number[], elo0: number, elo1: number): number {
  switch (model) {
    case 'logistic':
      return llrLogistic(counts, elo0, elo1);
    case 'normalized':
      return llrNormalized(counts, elo0, elo1);
    case 'bayesian':
      return llrBayesian(counts, elo0, elo1);
    case 'cutechess':
      if (counts.length !== 3) throw new RangeError('the cutechess model takes W/D/L counts only');
      return llrCutechess({ losses: counts[0]!, draws: counts[1]!, wins: counts[2]! }, elo0, elo1);
  }
}

/** LLR, bounds and decision for trinomial counts `[L, D, W]` or pentanomial bins. */
export function sprt(counts: readonly number[] | Penta, cfg: SprtConfig): SprtStatus {
  const { lower, upper } = sprtBounds(cfg.alpha, cfg.beta);
  let total = 0;
  for (const c of counts) total += c;
  const value = total === 0 ? 0 : llr(cfg.model, counts, cfg.elo0, cfg.elo1);
  if (!Number.isFinite(value)) {
    // NaN compares false with both bounds and never decides; an infinity would decide on a
    // rounding. Neither is a result: say so, and go on without a decision.
    const drawRatio = counts.length === 3 ? (100 * counts[1]!) / total : NaN;
    const drawn = Number.isNaN(drawRatio) ? '' : `, ${drawRatio < 0.05 && drawRatio > 0 ? drawRatio.toExponential(1) : drawRatio.toFixed(1)} % draws`;
    const note =
      `the ${cfg.model} model's LLR cannot be computed for these results (${Number.isFinite(total) ? total : 'more than 1.8e308'} ${counts.length === 3 ? 'games' : 'pairs'}${drawn}): ` +
      (cfg.model === 'cutechess' || cfg.model === 'bayesian' ? 'a win, draw or loss probability of its BayesElo draw model rounds to 0 or 1 in double precision' : 'its maximum-likelihood search has no solution in double precision') +
      '; the test takes no decision on it';
    return { llr: NaN, lower, upper, decision: undefined, note };
  }
  const decision = value >= upper ? 'H1' : value <= lower ? 'H0' : undefined;
  return { llr: value, lower, upper, decision };
}

/**
 * The LLR as text shows it: 0 for a value below what the percent of a bound (one decimal) can
 * show, so a test with symmetric bounds and results shows "0", not floating-point noise such as
 * 3.91e-18 or -0.00.
 */
export function shownLlr(llr: number): number {
  return Math.abs(llr) < 5e-4 ? 0 : llr;
}

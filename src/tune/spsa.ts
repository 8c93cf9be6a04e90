/**
 * Simultaneous perturbation stochastic approximation (SPSA; Spall, "Multivariate stochastic
 * approximation using a simultaneous perturbation gradient approximation", IEEE Trans. Automatic
 * Control 37(3), 1992) for an engine's search parameters, as engine testing frameworks apply it
 * (OpenBench, Fishtest): each step plays one game pair, on one opening with colours swapped,
 * between the engine at θ + c·δ and at θ − c·δ, δ a random ±1 per parameter, and moves θ by
 * a·(result of the pair)/(c·δ). The gains fall with the step k as Spall recommends:
 *
 *     c_k = c / k^γ          a_k = a / (A + k)^α          γ = 0.101, α = 0.602
 *
 * and are set, as OpenBench sets them, from what a user can judge: `cEnd`, the perturbation of
 * the last step (in the parameter's own units; a change the engine's strength can feel), and
 * `rEnd`, the last step's learning rate (θ moves by rEnd·cEnd for each point of the pair's
 * result), with A a tenth of the steps. Then a_N / c_N = rEnd·cEnd.
 *
 * Pure: the driver (spsaRun.ts) plays the games.
 */
import { createRng, type Rng } from '../match/rng.js';

export interface SpsaParam {
  /** The engine's option name. */
  name: string;
  start: number;
  min: number;
  max: number;
  /** The perturbation at the last step, in the parameter's units. */
  cEnd: number;
  /** The learning rate at the last step. */
  rEnd: number;
}

export interface SpsaSchedule {
  /** Game pairs (steps) the run plans; the gains reach cEnd and rEnd at the last. */
  pairs: number;
  alpha: number;
  gamma: number;
  /** A as a share of `pairs` (OpenBench: 0.1). */
  aRatio: number;
}

export const DEFAULT_SCHEDULE: Omit<SpsaSchedule, 'pairs'> = { alpha: 0.602, gamma: 0.101, aRatio: 0.1 };

/** Default rEnd (OpenBench's suggestion). */
export const DEFAULT_R_END = 0.002;
/** Default cEnd as a share of the parameter's range. */
export const DEFAULT_C_SHARE = 1 / 20;

/** One step's two parameter vectors, as sent to the engines (whole numbers within the ranges), and what it needs to update θ. */
export interface SpsaStep {
  k: number;
  delta: number[];
  /** The perturbation c_k of each parameter. */
  c: number[];
  plus: number[];
  minus: number[];
}

/** Why a parameter cannot be tuned, or undefined. */
export function paramProblem(p: SpsaParam): string | undefined {
  if (!Number.isFinite(p.min) || !Number.isFinite(p.max) || p.min >= p.max) return `${p.name}: min ${p.min} is not below max ${p.max}`;
  if (!Number.isFinite(p.start) || p.start < p.min || p.start > p.max) return `${p.name}: start ${p.start} is outside ${p.min}..${p.max}`;
  if (!(p.cEnd > 0) || p.cEnd > p.max - p.min) return `${p.name}: c ${p.cEnd} is not above 0 and at most the range ${p.max - p.min}`;
  if (!(p.rEnd > 0) || !Number.isFinite(p.rEnd)) return `${p.name}: r ${p.rEnd} is not above 0`;
  return undefined;
}

const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

export class Spsa {
  /** The current estimate (not rounded). */
  readonly theta: number[];
  private readonly bigA: number;
  private readonly a: number[];
  private readonly c: number[];

  constructor(
    readonly params: readonly SpsaParam[],
    readonly schedule: SpsaSchedule,
    theta?: readonly number[],
  ) {
    for (const p of params) {
      const bad = paramProblem(p);
      if (bad !== undefined) throw new RangeError(bad);
    }
    if (!(schedule.pairs >= 1)) throw new RangeError(`pairs ${schedule.pairs} is not at least 1`);
    const n = schedule.pairs;
    this.bigA = schedule.aRatio * n;
    this.c = params.map((p) => p.cEnd * n ** schedule.gamma);
    this.a = params.map((p) => p.rEnd * p.cEnd * p.cEnd * (this.bigA + n) ** schedule.alpha);
    this.theta = theta ? [...theta] : params.map((p) => p.start);
    if (this.theta.length !== params.length) throw new RangeError(`theta has ${this.theta.length} values for ${params.length} parameters`);
  }

  /** c_k and a_k of parameter i at step k (1-based). */
  gains(i: number, k: number): { c: number; a: number } {
    return { c: this.c[i]! / k ** this.schedule.gamma, a: this.a[i]! / (this.bigA + k) ** this.schedule.alpha };
  }

  /** Step k's perturbation drawn from `rng`, around the current θ. */
  step(k: number, rng: Rng): SpsaStep {
    const delta: number[] = [];
    const c: number[] = [];
    const plus: number[] = [];
    const minus: number[] = [];
    this.params.forEach((p, i) => {
      const d = rng.int(2) === 0 ? -1 : 1;
      const ck = this.gains(i, k).c;
      delta.push(d);
      c.push(ck);
      // Engines take whole numbers: round each side, within the range.
      plus.push(clamp(Math.round(this.theta[i]! + ck * d), p.min, p.max));
      minus.push(clamp(Math.round(this.theta[i]! - ck * d), p.min, p.max));
    });
    return { k, delta, c, plus, minus };
  }

  /**
   * Moves θ by the result of step `s`'s pair: `result` is the θ+ side's points minus the θ−
   * side's over its two games (−2..2). θ stays within each range.
   */
  update(s: SpsaStep, result: number): void {
    this.params.forEach((p, i) => {
      const { a } = this.gains(i, s.k);
      this.theta[i] = clamp(this.theta[i]! + (a * result) / (s.c[i]! * s.delta[i]!), p.min, p.max);
    });
  }

  /** θ rounded as the engine would be given it. */
  rounded(): number[] {
    return this.theta.map((t, i) => clamp(Math.round(t), this.params[i]!.min, this.params[i]!.max));
  }
}

/** The perturbations of step k: a generator seeded by the run's seed and k, so a resumed run draws what a straight one would. */
export function stepRng(seed: number, k: number): Rng {
  return createRng((Math.imul(seed >>> 0, 0x9e3779b1) ^ k) >>> 0);
}

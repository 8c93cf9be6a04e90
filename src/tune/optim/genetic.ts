/**
 * A genetic algorithm (seed 002): a population of weight vectors, each generation keeps the
 * best few unchanged (elitism) and fills the rest with children of parents picked by
 * tournament, mixing the parents pair by pair (uniform crossover, a pair's mg and eg travel
 * together) and mutating a few values by a Gaussian step. Fitness is the training loss over
 * all positions (on the worker threads). It needs far more loss evaluations than a gradient
 * method for the same gain, as Stanback found with Zarkov; it is here to compare, and for
 * evaluations that are not linear in their weights.
 */
import { gaussian, type FitContext } from './context.js';

export interface GeneticOptions {
  population?: number;
  /** Mutation step in centipawns (standard deviation). */
  sigma?: number;
  /** Chance that a tuned value mutates in a child. */
  mutation?: number;
  elite?: number;
}

export async function genetic(ctx: FitContext, opts: GeneticOptions = {}): Promise<void> {
  const { w, space, rng } = ctx;
  const size = Math.max(4, opts.population ?? 16);
  const sigma = opts.sigma ?? 3;
  const rate = opts.mutation ?? 0.05;
  const elite = Math.max(1, Math.min(size - 1, opts.elite ?? 2));
  const free = space.free;
  const mutate = (x: Float64Array, chance: number): void => {
    for (let k = 0; k < free.length; k++) {
      if (rng.next() >= chance) continue;
      const i = free[k]!;
      x[i] = Math.round(x[i]! + sigma * gaussian(rng));
    }
    space.clamp(x);
  };
  let pop: { x: Float64Array; loss: number }[] = [];
  const start = w.map((v) => Math.round(v));
  space.clamp(start);
  pop.push({ x: start, loss: await ctx.obj.loss(start, ctx.K) });
  for (let p = 1; p < size; p++) {
    const x = Float64Array.from(start);
    mutate(x, rate * 2);
    pop.push({ x, loss: await ctx.obj.loss(x, ctx.K) });
  }
  pop.sort((a, b) => a.loss - b.loss);
  const tournament = (): Float64Array => {
    let best = pop[rng.int(pop.length)]!;
    for (let t = 0; t < 2; t++) {
      const c = pop[rng.int(pop.length)]!;
      if (c.loss < best.loss) best = c;
    }
    return best.x;
  };
  let epoch = 0;
  if ((await ctx.onEpoch(epoch, pop[0]!.loss, pop[0]!.x)) !== false) {
    while (epoch < ctx.epochs && Date.now() < ctx.deadline) {
      const next = pop.slice(0, elite);
      while (next.length < size) {
        const a = tournament();
        const b = tournament();
        const child = Float64Array.from(a);
        for (let k = 0; k < free.length; k++) {
          const i = free[k]!;
          // Pairs travel whole: decide on the mg index, apply to both halves.
          if ((i & 1) === 0 && rng.next() < 0.5) {
            child[i] = b[i]!;
            child[i + 1] = b[i + 1]!;
          } else if ((i & 1) === 1 && (i === 0 || free[k - 1] !== i - 1) && rng.next() < 0.5) child[i] = b[i]!;
        }
        mutate(child, rate);
        next.push({ x: child, loss: await ctx.obj.loss(child, ctx.K) });
      }
      pop = next.sort((x, y) => x.loss - y.loss);
      epoch++;
      if ((await ctx.onEpoch(epoch, pop[0]!.loss, pop[0]!.x)) === false) break;
    }
  }
  w.set(pop[0]!.x);
}

/**
 * `npm run bench -- tune [--positions N] [--runs R]`: speed of the tuner's loss, in positions
 * per second, on real labelled positions (the first N of
 * ../shared/data/tuning/pgnmentor_quiet_labeled.epd.gz, resolved by quiescence search):
 *
 * - the loss over the linearised evaluation (trace store), on the calling thread and on two
 *   worker threads, and the loss with its gradient likewise;
 * - the anchor, measured in the same run: the same loss computed by calling the engine's own
 *   `evaluate()` (in the WebAssembly core, as the search does) on the same (already resolved)
 *   positions, which is what a tuner without traces has to do for every candidate weight set.
 *
 * Best of R runs each; the ratio is linear / evaluate().
 */
import { Position } from '../src/core/position.js';
import { WEIGHTS } from '../src/engine/evalParams.js';
import { positionFromFen } from '../src/notation/fen.js';
import { parseLabeled } from '../src/tune/labels.js';
import { sigmoid } from '../src/tune/linear.js';
import { LocalObjective, PoolObjective } from '../src/tune/objective.js';
import { QuietResolver, RESOLVED } from '../src/tune/resolve.js';
import { sharedLines } from '../src/tune/testData.js';
import { TRACED, TraceBuilder } from '../src/tune/traceStore.js';
import { benchArgs } from './args.js';

async function best(runs: number, f: () => Promise<unknown> | unknown): Promise<number> {
  let t = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    await f();
    t = Math.min(t, (performance.now() - t0) / 1000);
  }
  return t;
}

export async function main(args: string[]): Promise<void> {
  const { positions: n, runs } = benchArgs('tune', args, {
    usage: '[--positions N] [--runs R]',
    options: {
      positions: { kind: 'int', default: 100_000, min: 1, help: 'the first N labelled positions' },
      runs: { kind: 'int', default: 5, min: 1, arg: 'R', help: 'runs of each figure; the best is kept' },
    },
  }).values;
  const K = 1.07;
  const lines = sharedLines(n);
  const builder = new TraceBuilder();
  const resolver = new QuietResolver();
  const positions: Position[] = [];
  const results: number[] = [];
  for (const line of lines) {
    const lab = parseLabeled(line);
    if (!lab.ok) continue;
    const pos = new Position();
    if (!positionFromFen(lab.value.fen, pos).ok || resolver.resolve(pos) !== RESOLVED) continue;
    if (builder.add(pos, lab.value.result) !== TRACED) continue;
    positions.push(pos);
    results.push(lab.value.result / 2);
  }
  const store = builder.finish();
  const w = Float64Array.from(WEIGHTS);
  const grad = new Float64Array(w.length);
  const local = new LocalObjective(store);
  const pool = await PoolObjective.create(store, 2, w.length);
  let check = 0;
  try {
    const anchor = await best(runs, () => {
      let sum = 0;
      for (let i = 0; i < positions.length; i++) {
        const p = positions[i]!;
        const e = resolver.evaluate(p);
        const d = results[i]! - sigmoid(p.turn === 0 ? e : 0 - e, K);
        sum += d * d;
      }
      check = sum / positions.length;
    });
    const lossLocal = await best(runs, () => local.loss(w, K));
    const lossPool = await best(runs, () => pool.loss(w, K));
    const gradLocal = await best(runs, () => local.lossGrad(w, K, grad));
    const gradPool = await best(runs, () => pool.lossGrad(w, K, grad));
    const linear = await local.loss(w, K);
    const rate = (t: number): string => `${(store.n / t / 1e6).toFixed(2)} M pos/s`;
    const rows: [string, number][] = [
      ['loss, linear, 1 thread', lossLocal],
      ['loss, linear, 2 workers', lossPool],
      ['loss + gradient, linear, 1 thread', gradLocal],
      ['loss + gradient, linear, 2 workers', gradPool],
      ['anchor: loss by evaluate(), 1 thread', anchor],
    ];
    process.stdout.write(`${store.n} positions (${(store.entries / store.n).toFixed(1)} coefficients each), best of ${runs}\n`);
    for (const [name, t] of rows) process.stdout.write(`${name.padEnd(38)} ${rate(t).padStart(14)}   ${(anchor / t).toFixed(1).padStart(6)}x evaluate()\n`);
    // The two losses differ only by evaluate()'s rounding to whole centipawns.
    process.stdout.write(`loss: linear ${linear.toFixed(6)}, by evaluate() ${check.toFixed(6)}\n`);
  } finally {
    await pool.close();
  }
}

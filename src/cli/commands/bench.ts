/**
 * `tabiya bench`: the fixed search benchmark (engine/bench.ts). The total node count is a
 * signature of the search; nodes per second measure speed on one thread, of the search the
 * engine plays with (the WebAssembly core's).
 */
import { BENCH_DEPTH, BENCH_POSITIONS, BENCH_SIGNATURE, runBench } from '../../engine/bench.js';
import { startProgress } from '../../node/progress.js';
import { intOption } from '../errors.js';
import { report } from '../output.js';
import { configureV8ForSearch } from '../../node/v8flags.js';
import { wasmCoreModule } from '../../node/wasmCore.js';

export interface BenchOptions {
  depth?: string;
  /** false with --no-warmup. */
  warmup?: boolean;
  json?: boolean;
  quiet?: boolean;
}

export function benchCommand(opts: BenchOptions): void {
  configureV8ForSearch();
  const depth = intOption('--depth', opts.depth ?? String(BENCH_DEPTH), 1, 64)!;
  const progress = startProgress({ label: 'bench', total: BENCH_POSITIONS.length, unit: 'positions', quiet: opts.quiet });
  const r = runBench(wasmCoreModule(), depth, (i) => progress.update(i + 1), opts.warmup !== false);
  progress.stop();
  // At the recorded depth the node count is compared with the recorded signature.
  const signature = depth === BENCH_DEPTH ? (r.nodes === BENCH_SIGNATURE ? 'as recorded' : `differs from the recorded ${BENCH_SIGNATURE}`) : undefined;
  report(
    opts.json,
    { nodes: r.nodes, nps: r.nps, time: Math.round(r.time), depth, positions: BENCH_POSITIONS.length, warmup: opts.warmup !== false, ...(signature ? { signature } : {}) },
    () =>
      [
        `positions ${BENCH_POSITIONS.length}, depth ${depth}`,
        `time ${(r.time / 1000).toFixed(3)} s`,
        `nodes ${r.nodes}${signature ? ` (signature ${signature}${r.nodes === BENCH_SIGNATURE ? '' : '; src/engine/bench.ts BENCH_SIGNATURE, docs/engine.md'})` : ''}`,
        `nps ${r.nps}`,
      ].join('\n'),
  );
}

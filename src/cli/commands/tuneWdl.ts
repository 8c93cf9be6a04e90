/**
 * `tabiya tune wdl`: fits the win/draw/loss model the engine prints with UCI_ShowWDL to labelled
 * positions, and shows how well its chances match the results, range by range.
 */
import { DEFAULT_WDL, type WdlModel } from '../../engine/wdl.js';
import { calibration, fitWdl, wdlCells, wdlNll } from '../../tune/wdl.js';
import { intOption } from '../errors.js';
import { report } from '../output.js';
import { describeCounts, loadData, startWeights, threadsOption } from './tuneCommon.js';

export interface TuneWdlOptions {
  params?: string;
  limit?: string;
  seed?: string;
  threads?: string;
  resolve?: boolean;
  quiet?: boolean;
  json?: boolean;
}

const EDGES = [-2000, -600, -400, -300, -200, -150, -100, -50, -25, 25, 50, 100, 150, 200, 300, 400, 600, 2001];

/** Fewer positions than this give a model that is mostly noise. */
const MIN_POSITIONS = 1000;

const pct = (x: number): string => (100 * x).toFixed(1).padStart(5);
const model = (m: WdlModel): string => `a = ${m.a0.toFixed(1)} + ${m.a1.toFixed(1)}·phase/24, b = ${m.b0.toFixed(1)} + ${m.b1.toFixed(1)}·phase/24`;

export async function tuneWdlCommand(file: string, opts: TuneWdlOptions): Promise<void> {
  const threads = threadsOption(opts.threads);
  const seed = intOption('--seed', opts.seed, 0, 2 ** 32 - 1) ?? 1;
  const limit = intOption('--limit', opts.limit, 1);
  // Evaluated with a params file's weights through the linear model, else as traced.
  const weights = opts.params === undefined ? undefined : startWeights(opts.params);
  const data = await loadData(file, { threads, resolve: opts.resolve !== false, limit, seed, quiet: opts.quiet });
  const cells = wdlCells(data.store, weights);
  const fit = fitWdl(cells);
  // Four parameters from a handful of games fit noise (a draw width b that goes negative): say so.
  if (!opts.quiet && !opts.json && cells.positions < MIN_POSITIONS) {
    process.stderr.write(`warning: ${cells.positions} positions is too few to fit the model (${MIN_POSITIONS} or more, from many games): read what follows with care\n`);
  }
  const rows = calibration(fit.model, cells, EDGES);
  const current = wdlNll(DEFAULT_WDL, cells);
  const round = (x: number): number => Math.round(x * 10) / 10;
  const fitted = { a0: round(fit.model.a0), a1: round(fit.model.a1), b0: round(fit.model.b0), b1: round(fit.model.b1) };
  report(
    opts.json,
    { model: fitted, nll: fit.nll, baseline: fit.baseline, builtIn: { model: DEFAULT_WDL, nll: current }, iterations: fit.iterations, positions: cells.positions, calibration: rows, counts: data.counts },
    () =>
      [
        `fitted    ${model(fit.model)}`,
        `          { a0: ${fitted.a0}, a1: ${fitted.a1}, b0: ${fitted.b0}, b1: ${fitted.b1} }  (src/engine/wdl.ts DEFAULT_WDL)`,
        `log loss  ${fit.nll.toFixed(5)} a position (built-in model ${current.toFixed(5)}; without the evaluation ${fit.baseline.toFixed(5)})`,
        `positions ${cells.positions}; ${describeCounts(data.counts)}`,
        '',
        'evaluation (White)    positions   observed W / D / L %    predicted W / D / L %',
        ...rows.map(
          (r) =>
            `${`${r.from}..${r.to === 2001 ? 2000 : r.to}`.padEnd(20)} ${String(r.positions).padStart(10)}   ${pct(r.observed[0])} ${pct(r.observed[1])} ${pct(r.observed[2])}      ${pct(r.predicted[0])} ${pct(r.predicted[1])} ${pct(r.predicted[2])}`,
        ),
      ].join('\n'),
  );
}

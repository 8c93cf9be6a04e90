/**
 * What the `tabiya tune` commands share: loading labelled positions into traces with a
 * progress bar, reporting skipped lines, start weights from a params file, the thread count.
 */
import { availableParallelism } from 'node:os';
import { resetWeights, weightsFromJson } from '../../engine/evalParams.js';
import { startProgress } from '../../node/progress.js';
import type { BuildCounts } from '../../tune/build.js';
import { loadLabeled, type LoadedData } from '../../tune/dataset.js';
import { blendTargets, countLabelled, fitLabelScale } from '../../tune/evalLabels.js';
import { readParamsFile } from '../../tune/paramsFile.js';
import { currentWeights } from '../../tune/space.js';
import { CliError, intOption, numberOption } from '../errors.js';

export function threadsOption(value: string | undefined): number {
  if (value === undefined || value === 'auto') return Math.max(1, Math.min(availableParallelism(), 8));
  return intOption('--threads', value, 1, 64)!;
}

export async function loadData(
  file: string,
  opts: { threads: number; resolve: boolean; limit?: number; seed: number; quiet?: boolean },
): Promise<LoadedData> {
  const bar = startProgress({ label: `reading ${file}`, total: 0, unit: 'positions', quiet: opts.quiet });
  let data: LoadedData;
  try {
    data = await loadLabeled(file, { threads: opts.threads, resolve: opts.resolve, limit: opts.limit, seed: opts.seed, onProgress: (d) => bar.update(d) });
  } catch (e) {
    throw new CliError((e as Error).message, 1);
  } finally {
    bar.stop();
  }
  if (!opts.quiet) {
    for (const e of data.errors.slice(0, 10)) process.stderr.write(`warning: ${e} (skipped)\n`);
    if (data.counts.bad > 10) process.stderr.write(`warning: ${file}: ${data.counts.bad} unreadable lines skipped in all\n`);
  }
  if (data.store.n === 0) throw new CliError(`${file}: no usable labelled position (${describeCounts(data.counts)})`, 1);
  return data;
}

export function describeCounts(c: BuildCounts): string {
  return `${c.lines} lines, ${c.traced} positions used, ${c.resolved} resolved by quiescence search, skipped: ${c.bad} unreadable, ${c.inCheck} in check, ${c.mate} mate scores, ${c.special} special endgames`;
}

/** The engine's defaults, or the defaults overlaid with a params file. */
export function startWeights(file: string | undefined): Float64Array {
  resetWeights();
  if (file === undefined) return currentWeights();
  try {
    weightsFromJson(readParamsFile(file));
    return currentWeights();
  } catch (e) {
    throw new CliError((e as Error).message, 1);
  } finally {
    resetWeights();
  }
}

export interface LabelBlend {
  /** Weight of the labelling engine's evaluation in the target (0: the results alone). */
  lambda: number;
  /** Positions with a `ce` evaluation. */
  labelled: number;
  /** The fitted scale of the labelling evaluations, and their loss against the results. */
  labelK?: number;
  labelLoss?: number;
}

/** `--lambda`, read before the data is (a mistake is refused before the long part). */
export function lambdaOption(value: string | undefined): number {
  return numberOption('--lambda', value, 0, 1) ?? 0;
}

/**
 * `--lambda`: blends the positions' `ce` evaluations into the targets (evalLabels.ts) before
 * the data is split, after fitting their scale to the results. Refuses a lambda above 0 when no
 * position carries an evaluation: the fit would silently be the results' alone.
 */
export function applyLambda(file: string, data: LoadedData, lambda: number, quiet?: boolean): LabelBlend {
  const labelled = countLabelled(data.store);
  if (lambda === 0) return { lambda, labelled };
  if (labelled === 0) throw new CliError(`${file}: --lambda ${lambda} needs positions with another engine's evaluation (an EPD "ce" operation); none of the ${data.store.n} positions has one`, 1);
  const fit = fitLabelScale(data.store);
  blendTargets(data.store, lambda, fit.K);
  if (!quiet) {
    process.stderr.write(
      `targets: ${lambda} x the ce evaluation (${labelled} of ${data.store.n} positions; its scale K ${fit.K.toFixed(4)}, loss against the results ${fit.loss.toFixed(6)}) + ${(1 - lambda).toFixed(2)} x the result\n`,
    );
  }
  return { lambda, labelled, labelK: fit.K, labelLoss: fit.loss };
}

/**
 * What the `tabiya tune` commands share: loading labelled positions into traces with a
 * progress bar, reporting skipped lines, start weights from a params file, the thread count.
 */
import { availableParallelism } from 'node:os';
import { resetWeights, weightsFromJson } from '../../engine/evalParams.js';
import { startProgress } from '../../node/progress.js';
import type { BuildCounts } from '../../tune/build.js';
import { loadLabeled, type LoadedData } from '../../tune/dataset.js';
import { readParamsFile } from '../../tune/paramsFile.js';
import { currentWeights } from '../../tune/space.js';
import { CliError, intOption } from '../errors.js';

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

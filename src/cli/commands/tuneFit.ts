/**
 * `tabiya tune fit`: fits the evaluation's weights to labelled positions (Texel's method) and
 * writes them as a params file; `tabiya tune loss`: the loss of a params file on positions.
 * See docs/tuning.md.
 */
import { writeFileAtomic } from '../../book/node/atomicWrite.js';
import { checkOutputs } from '../../node/outputs.js';
import { startProgress } from '../../node/progress.js';
import { exitAfterSignal, onStopSignals, sayOnStderr, signalExitCode, type StopSignal } from '../../node/stopSignals.js';
import { splitStore } from '../../tune/dataset.js';
import { fitK } from '../../tune/kfit.js';
import { runFit, type CurvePoint, type FitResult } from '../../tune/fit.js';
import { makeObjective } from '../../tune/objective.js';
import { METHODS, type Method } from '../../tune/optim/context.js';
import { formatParams } from '../../tune/paramsFile.js';
import { lossCurveSvg } from '../../tune/plot.js';
import { ParamSpace, weightsTable } from '../../tune/space.js';
import { CliError, intOption, numberOption } from '../errors.js';
import { report } from '../output.js';
import { applyLambda, describeCounts, lambdaOption, loadData, startWeights, threadsOption } from './tuneCommon.js';

export interface TuneFitOptions {
  output?: string;
  params?: string;
  group?: string[];
  method?: string;
  maxSeconds?: string;
  epochs?: string;
  validation?: string;
  seed?: string;
  plot?: string;
  threads?: string;
  limit?: string;
  rate?: string;
  k?: string;
  patience?: string;
  l2?: string;
  lambda?: string;
  resolve?: boolean;
  quiet?: boolean;
  json?: boolean;
  force?: boolean;
}

/** An option that must be above 0 when given (0 would make the command do nothing and report success). */
function positive(name: string, x: number | undefined): number | undefined {
  if (x === 0) throw new CliError(`option ${name}: must be above 0`, 2);
  return x;
}

const DEFAULT_EPOCHS: Record<Method, number> = { adam: 400, adagrad: 400, local: 30, anneal: 60, genetic: 150 };

const f6 = (x: number | undefined): string => (x === undefined ? '-' : x.toFixed(6));

export async function tuneFitCommand(file: string, opts: TuneFitOptions): Promise<void> {
  if (!opts.output) throw new CliError('tune fit: -o/--output FILE is required', 2);
  checkOutputs(
    [{ path: opts.output, kind: 'text', option: '-o' }, ...(opts.plot ? [{ path: opts.plot, kind: 'text' as const, option: '--plot' }] : [])],
    [file, ...(opts.params ? [opts.params] : [])],
    { force: opts.force },
  );
  const method = (opts.method ?? 'adam') as Method;
  if (!METHODS.includes(method)) throw new CliError(`tune fit: --method ${opts.method} is not one of ${METHODS.join(', ')}`, 2);
  const seed = intOption('--seed', opts.seed, 0, 2 ** 32 - 1) ?? 1;
  const fraction = numberOption('--validation', opts.validation, 0, 0.9) ?? 0.1;
  const epochs = intOption('--epochs', opts.epochs, 1) ?? DEFAULT_EPOCHS[method];
  const maxSeconds = positive('--max-seconds', numberOption('--max-seconds', opts.maxSeconds, 0)) ?? 600;
  const threads = threadsOption(opts.threads);
  const limit = intOption('--limit', opts.limit, 1);
  const rate = positive('--rate', numberOption('--rate', opts.rate, 0));
  const fixedK = numberOption('--k', opts.k, 0.001, 100);
  const patience = intOption('--patience', opts.patience, 0) ?? 0;
  const l2 = numberOption('--l2', opts.l2, 0) ?? 0;
  // Early stopping watches the held-out loss: without a held-out part it was ignored in silence.
  if (patience > 0 && fraction === 0) throw new CliError('tune fit: --patience needs a held-out part to watch (--validation above 0)', 2);
  let space: ParamSpace;
  try {
    space = new ParamSpace(opts.group);
  } catch (e) {
    throw new CliError(`tune fit: ${(e as Error).message}`, 2);
  }
  const start = startWeights(opts.params);
  const lambda = lambdaOption(opts.lambda);
  const data = await loadData(file, { threads, resolve: opts.resolve !== false, limit, seed, quiet: opts.quiet });
  const blend = applyLambda(file, data, lambda, opts.quiet);
  const { train, validation } = fraction > 0 ? splitStore(data.store, fraction, seed, threads > 1) : { train: data.store, validation: null };
  const trainObj = await makeObjective(train, threads, start.length);
  if (patience > 0 && validation?.n === 0) {
    await trainObj.close();
    throw new CliError(`tune fit: --patience: the validation part of ${file} holds no position (${data.store.n} in all): give a larger --validation share`, 1);
  }
  const valObj = validation && validation.n > 0 ? await makeObjective(validation, Math.min(threads, 2), start.length) : null;
  let result: FitResult;
  // Ctrl-C (or SIGTERM, SIGHUP) ends the fit after the epoch in progress and writes the best
  // weights so far, as a finished fit would: an hour of fitting is not lost to a key press. A
  // second one ends the process at once, with nothing written.
  let stoppedBy: StopSignal | undefined;
  const onSignal = (sig: StopSignal): void => {
    if (stoppedBy === undefined) {
      stoppedBy = sig;
      sayOnStderr('\nInterrupting the fit: the best weights so far are written after this epoch (press Ctrl-C again to end now, writing nothing)\n');
      return;
    }
    // Not by raising the signal again: a listener that removes temporary files may be there
    // too, and the signal then came back only after the weights had been written.
    exitAfterSignal(sig);
  };
  const offSignals = onStopSignals(onSignal);
  // Said before the bar starts: written under it, the lines were glued to its text.
  if (!opts.quiet) process.stderr.write(`${describeCounts(data.counts)}\ntraining ${train.n} positions, validation ${validation?.n ?? 0}; ${space.free.length} values tuned\n`);
  const bar = startProgress({ label: `tune fit (${method})`, total: epochs, unit: 'epochs', quiet: opts.quiet });
  const lines: string[] = [];
  try {
    result = await runFit(trainObj, valObj, space, start, {
      method,
      epochs,
      maxSeconds,
      seed,
      K: fixedK,
      rate,
      patience,
      l2,
      stop: () => stoppedBy !== undefined,
      onEpoch: (p: CurvePoint) => {
        lines.push(curveLine(p));
        bar.update(p.epoch, `train ${f6(p.train)} validation ${f6(p.validation)}`);
      },
    });
  } finally {
    offSignals();
    bar.stop();
    await trainObj.close();
    await valObj?.close();
  }
  await writeFileAtomic(opts.output, formatParams(weightsTable(result.weights)));
  if (opts.plot) await writeFileAtomic(opts.plot, lossCurveSvg(result.curve, `tabiya tune fit: ${method}, ${train.n} positions, K = ${result.K.toFixed(3)}`));
  const summary = {
    file,
    output: opts.output,
    ...(opts.plot ? { plot: opts.plot } : {}),
    method,
    k: result.K,
    positions: { ...data.counts, train: train.n, validation: validation?.n ?? 0 },
    tuned: space.free.length,
    groups: space.groups.map((g) => g.name),
    epochs: result.epochs,
    bestEpoch: result.bestEpoch,
    interrupted: stoppedBy !== undefined,
    seconds: Math.round(result.seconds * 10) / 10,
    threads,
    seed,
    l2,
    labels: blend,
    start: result.start,
    end: result.end,
    curve: result.curve,
  };
  report(opts.json, summary, () => {
    const step = Math.max(1, Math.ceil(lines.length / 25));
    const shown = lines.filter((_, i) => i % step === 0 || i === lines.length - 1);
    const gain = (a?: number, b?: number): string => (a === undefined || b === undefined ? '' : ` (${(((b - a) / a) * 100).toFixed(2)}%)`);
    return [
      result.start.validation === undefined ? 'epoch   seconds  train' : 'epoch   seconds  train      validation',
      ...shown,
      '',
      `K                ${result.K.toFixed(4)}`,
      // The skipped counts, also under --quiet, which hides the lines printed while reading.
      `positions        ${train.n} training, ${validation?.n ?? 0} validation (${describeCounts(data.counts)})`,
      ...(blend.lambda > 0 ? [`targets          ${blend.lambda} x evaluation (${blend.labelled} positions, scale K ${blend.labelK!.toFixed(4)}) + ${(1 - blend.lambda).toFixed(2)} x result`] : []),
      `method           ${method}, ${result.epochs} epochs in ${result.seconds.toFixed(1)} s on ${threads} thread(s), best epoch ${result.bestEpoch}${stoppedBy ? ` (interrupted by ${stoppedBy})` : ''}`,
      `training loss    ${f6(result.start.train)} -> ${f6(result.end.train)}${gain(result.start.train, result.end.train)}`,
      // With nothing held out (--validation 0) there is no validation loss to show.
      ...(result.start.validation === undefined ? [] : [`validation loss  ${f6(result.start.validation)} -> ${f6(result.end.validation)}${gain(result.start.validation, result.end.validation)}`]),
      `written          ${opts.output}${opts.plot ? `, ${opts.plot}` : ''}`,
    ].join('\n');
  }, opts.output);
  // Written, but not the fit that was asked for: the status says which signal ended it.
  if (stoppedBy !== undefined) process.exitCode = signalExitCode(stoppedBy);
}

function curveLine(p: CurvePoint): string {
  return `${String(p.epoch).padStart(5)}  ${p.seconds.toFixed(1).padStart(8)}  ${f6(p.train)}${p.validation === undefined ? '' : `   ${f6(p.validation)}`}`;
}

export interface TuneLossOptions {
  params?: string;
  part?: string;
  validation?: string;
  threads?: string;
  limit?: string;
  seed?: string;
  k?: string;
  lambda?: string;
  resolve?: boolean;
  quiet?: boolean;
  json?: boolean;
}

export async function tuneLossCommand(file: string, opts: TuneLossOptions): Promise<void> {
  const threads = threadsOption(opts.threads);
  const seed = intOption('--seed', opts.seed, 0, 2 ** 32 - 1) ?? 1;
  const limit = intOption('--limit', opts.limit, 1);
  const fixedK = numberOption('--k', opts.k, 0.001, 100);
  const w = startWeights(opts.params);
  const part = opts.part ?? 'all';
  if (part !== 'all' && part !== 'train' && part !== 'validation') throw new CliError(`tune loss: --part ${part} is not all, train or validation`, 2);
  const fraction = numberOption('--validation', opts.validation, 0, 0.9) ?? 0.1;
  if (part === 'validation' && fraction === 0) throw new CliError('tune loss: --part validation needs a --validation share above 0', 2);
  const lambda = lambdaOption(opts.lambda);
  const data = await loadData(file, { threads, resolve: opts.resolve !== false, limit, seed, quiet: opts.quiet });
  const blend = applyLambda(file, data, lambda, opts.quiet);
  // The same split as `tune fit` with the same --seed, --limit and --validation.
  const store = part === 'all' ? data.store : splitStore(data.store, fraction, seed)[part];
  if (store.n === 0) throw new CliError(`tune loss: the ${part} part of ${file} holds no position (${data.store.n} in all)`, 1);
  const obj = await makeObjective(store, threads, w.length);
  try {
    // K is fitted on the smooth loss; the loss shown is that of the engine's integer arithmetic.
    const K = fixedK ?? (await fitK(obj, w)).K;
    const fit = { K, loss: await obj.exactLoss(w, K) };
    report(opts.json, { k: fit.K, loss: fit.loss, positions: store.n, part, params: opts.params ?? null, counts: data.counts, labels: blend }, () =>
      [
        `K         ${fit.K.toFixed(4)}${fixedK === undefined ? ' (fitted)' : ''}`,
        `loss      ${fit.loss.toFixed(6)}`,
        `positions ${store.n}${part === 'all' ? '' : ` (${part} part)`}; ${describeCounts(data.counts)}`,
      ].join('\n'),
    );
  } finally {
    await obj.close();
  }
}

/**
 * The evaluation tuner as a library (Node): labelled positions to traces, the linearised
 * evaluation and Texel's loss, K fit, optimisers, params files.
 *
 *     const data = await loadLabeled('positions.epd.gz', { threads: 2 });
 *     const { train, validation } = splitStore(data.store, 0.1, 1, true);
 *     const obj = await makeObjective(train, 2, currentWeights().length);
 *     const r = await runFit(obj, new LocalObjective(validation), new ParamSpace(), currentWeights(),
 *       { method: 'adam', epochs: 200, maxSeconds: 120, seed: 1 });
 *     formatParams(weightsTable(r.weights));
 */
export { parseLabeled, formatLabeled, type Labeled } from './labels.js';
export { QuietResolver } from './resolve.js';
export { TraceStore, TraceBuilder } from './traceStore.js';
export { buildTraces, type BuildCounts } from './build.js';
export { loadLabeled, splitStore, type LoadedData, type LoadOptions } from './dataset.js';
export { linearEval, exactEval, sigmoid, lossRange, lossGradRange } from './linear.js';
export { fitK, type KFit } from './kfit.js';
export { LocalObjective, PoolObjective, makeObjective, type Objective } from './objective.js';
export { L2Penalty, PenalisedObjective } from './penalty.js';
export { ParamSpace, currentWeights, weightsTable, weightsFromTable } from './space.js';
export { runFit, type FitOptions, type FitResult, type CurvePoint } from './fit.js';
export { METHODS, type Method } from './optim/context.js';
export { formatParams, readParamsFile, checkParams, type ParamsTable } from './paramsFile.js';
export { lossCurveSvg } from './plot.js';
export { PositionSampler, type SampleOptions, type SampleCounts } from './sample.js';

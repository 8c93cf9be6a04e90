/**
 * The search constants a tuner may set (SPSA through `tabiya uci --tunable`): name, default and
 * range of each, in the index order of the WebAssembly core (src/wasm/search/params.ts, where
 * they are described), and the values in use. The core's copy is pushed into each core before
 * it searches (WasmSearcher.sync), as the evaluation weights are; with several threads each
 * sets its own (EngineConfigurator.apply, `searchParams`).
 *
 * Ranges run from about half to about double the default; depth thresholds from 1 to 16 (or
 * more when the default is near that); divisors never reach 0. Defaults must equal the core's
 * built-in values, and the names and order its own list: test/search-params.test.ts checks both.
 */

export interface SearchParam {
  readonly name: string;
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

const p = (name: string, def: number, min: number, max: number): SearchParam => ({ name, default: def, min, max });

/** The settable search constants, in the core's index order. */
export const SEARCH_PARAMS: readonly SearchParam[] = [
  p('aspirationDelta', 14, 5, 40),
  p('aspirationDepth', 4, 1, 16),
  p('rfpDepth', 8, 1, 16),
  p('rfpMargin', 75, 30, 150),
  p('razorDepth', 3, 1, 16),
  p('razorBase', 450, 200, 900),
  p('razorMargin', 280, 120, 560),
  p('nmpMinDepth', 2, 1, 16),
  p('nmpBase', 3, 1, 8),
  p('nmpDepthDiv', 3, 1, 8),
  p('nmpEvalDiv', 200, 80, 400),
  p('nmpVerifyDepth', 12, 1, 32),
  p('lmpBase', 3, 0, 12),
  p('futilityDepth', 8, 1, 16),
  p('futilityBase', 90, 30, 180),
  p('futilityMul', 110, 50, 220),
  p('seePruneDepth', 8, 1, 16),
  p('seeQuietMul', 28, 10, 60),
  p('seeCaptureMul', 95, 40, 190),
  p('historyPruneDepth', 4, 1, 16),
  p('historyPruneMul', 3500, 1500, 7000),
  p('lmrBase', 80, 30, 160),
  p('lmrDiv', 260, 120, 520),
  p('lmrHistoryDiv', 9000, 4000, 18000),
  p('iirDepth', 4, 1, 16),
  p('singularDepth', 7, 1, 16),
  p('singularMargin', 2, 1, 6),
  p('probcutMargin', 190, 80, 380),
  p('probcutDepth', 5, 1, 16),
  p('qsFutility', 140, 60, 280),
  p('lazyMargin', 450, 200, 900),
  p('nmpEvalDepthMul', 20, 5, 60),
  p('nmpEvalBase', 150, 0, 400),
  p('doubleExtMargin', 20, 0, 80),
  p('historyBonusMul', 170, 60, 400),
  p('historyBonusBase', 120, 0, 400),
  p('historyBonusMax', 2400, 800, 8000),
  p('cutoffBonusMargin', 80, 20, 240),
  p('timeNodeBase', 100, 0, 200),
  p('timeNodeMul', 0, 0, 4000),
  p('ttPvReduction', 0, 0, 3),
  p('contHistPly4', 1, 0, 1),
  p('lmrDeeperMargin', 0, 0, 200),
  p('priorQuietBonus', 0, 0, 300),
  p('ttCutHistory', 0, 0, 1),
  p('lmrCutoffCount', 3, 0, 12),
  p('corrHistory', 0, 0, 1),
  p('failHighBlend', 0, 0, 1),
  p('aspFailHighReduce', 0, 0, 1),
  p('threatOrder', 2000, 0, 20000),
  p('pawnHistory', 0, 0, 4),
  p('pawnEndingExt', 0, 0, 4),
];

const INDEX: ReadonlyMap<string, number> = new Map(SEARCH_PARAMS.map((s, i) => [s.name, i]));

/** The values in use, by index. Write through setSearchParam (which checks and counts changes). */
export const SEARCH_PARAM_VALUES: Int32Array = Int32Array.from(SEARCH_PARAMS, (s) => s.default);

/**
 * Bumped by every change: a core's copy is stale when the version it was taken at differs.
 * Version 0 is the defaults, which every core starts with.
 */
export let searchParamsVersion = 0;

/** The parameter of a name (exact spelling), or undefined. */
export function findSearchParam(name: string): SearchParam | undefined {
  const i = INDEX.get(name);
  return i === undefined ? undefined : SEARCH_PARAMS[i];
}

/** Why `value` cannot be given to the parameter `name`, or undefined when it can. */
export function searchParamProblem(name: string, value: number): string | undefined {
  const s = findSearchParam(name);
  if (!s) return `unknown search parameter "${name}"`;
  if (!Number.isInteger(value) || value < s.min || value > s.max) return `${name}: ${value} is not a whole number from ${s.min} to ${s.max}`;
  return undefined;
}

/** Sets one parameter for the searches that follow; throws a RangeError for an unknown name or a value out of range. */
export function setSearchParam(name: string, value: number): void {
  const problem = searchParamProblem(name, value);
  if (problem !== undefined) throw new RangeError(problem);
  const i = INDEX.get(name)!;
  if (SEARCH_PARAM_VALUES[i] === value) return;
  SEARCH_PARAM_VALUES[i] = value;
  searchParamsVersion++;
}

/** Restores every default. */
export function resetSearchParams(): void {
  SEARCH_PARAMS.forEach((s, i) => {
    if (SEARCH_PARAM_VALUES[i] !== s.default) {
      SEARCH_PARAM_VALUES[i] = s.default;
      searchParamsVersion++;
    }
  });
}

/** The values in use as `{ name: value }`. */
export function searchParamsToJson(): Record<string, number> {
  return Object.fromEntries(SEARCH_PARAMS.map((s, i) => [s.name, SEARCH_PARAM_VALUES[i]!]));
}

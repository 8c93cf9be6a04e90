/**
 * Port of src/engine/search/params.ts: the search constants (same names, same values) and the
 * late-move reduction table derived from them. The values are globals so that a tuner on the
 * TypeScript side can push its own (setSearchParam in index.ts, then rebuildSearchTables).
 * Changes from the TS: one global per constant instead of the SP object; the TS LMR table is
 * built with V8's Math.log, which WasmCore.setSearchParams pushes in as well, so the table is
 * the TypeScript one even if a logarithm were to round differently here.
 */
export let aspirationDelta = 14;
export let aspirationDepth = 4;
export let rfpDepth = 8;
export let rfpMargin = 75;
export let razorDepth = 3;
export let razorBase = 450;
export let razorMargin = 280;
export let nmpMinDepth = 2;
export let nmpBase = 3;
export let nmpDepthDiv = 3;
export let nmpEvalDiv = 200;
export let nmpVerifyDepth = 12;
export let lmpBase = 3;
export let futilityDepth = 8;
export let futilityBase = 90;
export let futilityMul = 110;
export let seePruneDepth = 8;
export let seeQuietMul = 28;
export let seeCaptureMul = 95;
export let historyPruneDepth = 4;
export let historyPruneMul = 3500;
export let lmrBase = 80;
export let lmrDiv = 260;
export let lmrHistoryDiv = 9000;
export let iirDepth = 4;
export let singularDepth = 7;
export let singularMargin = 2;
export let probcutMargin = 190;
export let probcutDepth = 5;
export let qsFutility = 140;
export let lazyMargin = 450;

/** Parameter names in the order setSearchParam numbers them (the order of the TS SP object). */
export const PARAM_COUNT = 31;

/** Sets parameter i (in PARAM_COUNT order); false if i is out of range. */
export function setSearchParam(i: i32, v: i32): bool {
  switch (i) {
    case 0: aspirationDelta = v; break;
    case 1: aspirationDepth = v; break;
    case 2: rfpDepth = v; break;
    case 3: rfpMargin = v; break;
    case 4: razorDepth = v; break;
    case 5: razorBase = v; break;
    case 6: razorMargin = v; break;
    case 7: nmpMinDepth = v; break;
    case 8: nmpBase = v; break;
    case 9: nmpDepthDiv = v; break;
    case 10: nmpEvalDiv = v; break;
    case 11: nmpVerifyDepth = v; break;
    case 12: lmpBase = v; break;
    case 13: futilityDepth = v; break;
    case 14: futilityBase = v; break;
    case 15: futilityMul = v; break;
    case 16: seePruneDepth = v; break;
    case 17: seeQuietMul = v; break;
    case 18: seeCaptureMul = v; break;
    case 19: historyPruneDepth = v; break;
    case 20: historyPruneMul = v; break;
    case 21: lmrBase = v; break;
    case 22: lmrDiv = v; break;
    case 23: lmrHistoryDiv = v; break;
    case 24: iirDepth = v; break;
    case 25: singularDepth = v; break;
    case 26: singularMargin = v; break;
    case 27: probcutMargin = v; break;
    case 28: probcutDepth = v; break;
    case 29: qsFutility = v; break;
    case 30: lazyMargin = v; break;
    default: return false;
  }
  return true;
}

/** Late-move reductions by depth (0..63) and move number (0..63), at depth * 64 + moveNumber. */
export const LMR = new StaticArray<u8>(64 * 64);

export function rebuildSearchTables(): void {
  for (let d = 1; d < 64; d++) {
    for (let m = 1; m < 64; m++) {
      const r = <f64>lmrBase / 100 + (Math.log(<f64>d) * Math.log(<f64>m)) / (<f64>lmrDiv / 100);
      LMR[d * 64 + m] = <u8>max<i32>(0, <i32>Math.floor(r));
    }
  }
}
rebuildSearchTables();

/**
 * The search constants, named, and the late-move reduction table derived from them. The values
 * were set by hand from the usual published values (Stockfish, Ethereal) and checked with WAC
 * solve counts and short matches (docs/engine.md); a change shows in the bench signature.
 */
export const aspirationDelta = 14;
export const aspirationDepth = 4;
export const rfpDepth = 8;
export const rfpMargin = 75;
export const razorDepth = 3;
export const razorBase = 450;
export const razorMargin = 280;
export const nmpMinDepth = 2;
export const nmpBase = 3;
export const nmpDepthDiv = 3;
export const nmpEvalDiv = 200;
export const nmpVerifyDepth = 12;
export const lmpBase = 3;
export const futilityDepth = 8;
export const futilityBase = 90;
export const futilityMul = 110;
export const seePruneDepth = 8;
export const seeQuietMul = 28;
export const seeCaptureMul = 95;
export const historyPruneDepth = 4;
export const historyPruneMul = 3500;
export const lmrBase = 80;
export const lmrDiv = 260;
export const lmrHistoryDiv = 9000;
export const iirDepth = 4;
export const singularDepth = 7;
export const singularMargin = 2;
export const probcutMargin = 190;
export const probcutDepth = 5;
export const qsFutility = 140;
export const lazyMargin = 450;

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

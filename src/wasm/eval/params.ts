/**
 * Every evaluation weight in one flat table.
 * WEIGHTS ([mg0, eg0, mg1, eg1, ...], i32) is exported to JS by address (weightsPtr in
 * index.ts): the host writes it from the one table of src/engine/evalParams.ts (which does the
 * rounding and clamping to the group ranges) and calls applyWeights(). Group offsets and the
 * default table are generated into defaults.ts from that table (scripts/gen-wasm-tables.ts).
 */
import { DEFAULT_WEIGHTS, NPAIRS, P_MATERIAL, P_PST } from './defaults';
export * from './defaults';

/** Weights: [mg0, eg0, mg1, eg1, ...]. Write here, then call applyWeights(). */
export const WEIGHTS = new StaticArray<i32>(2 * NPAIRS);
/** mg and eg of each pair packed into one i32 (eg << 16) + mg, as the evaluation reads them. */
export const PACKED = new StaticArray<i32>(NPAIRS);
/** Material + piece-square value of a piece code on a square, packed, White positive. */
export const PSQ = new StaticArray<i32>(16 * 64);

// @ts-ignore: decorator
@inline export function pack(mg: i32, eg: i32): i32 { return (eg << 16) + mg; }
// @ts-ignore: decorator
@inline export function unpackMg(s: i32): i32 { return (s << 16) >> 16; }
// @ts-ignore: decorator
@inline export function unpackEg(s: i32): i32 { return (s + 0x8000) >> 16; }

/** Refreshes PACKED and PSQ from WEIGHTS (call after changing WEIGHTS). */
export function applyWeights(): void {
  for (let i = 0; i < NPAIRS; i++) PACKED[i] = pack(WEIGHTS[2 * i], WEIGHTS[2 * i + 1]);
  for (let c = 0; c < 2; c++) {
    for (let t = 1; t <= 6; t++) {
      const mat = t == 6 ? 0 : PACKED[P_MATERIAL + t - 1];
      for (let sq = 0; sq < 64; sq++) {
        const v = mat + PACKED[P_PST + ((t - 1) << 6) + (c == 0 ? sq : sq ^ 56)];
        PSQ[(((c << 3) | t) << 6) | sq] = c == 0 ? v : -v;
      }
    }
  }
}

/** Restores the default weights (the table generated from src/engine/evalDefaults.ts). */
export function resetWeights(): void {
  for (let i = 0; i < 2 * NPAIRS; i++) WEIGHTS[i] = DEFAULT_WEIGHTS[i];
  applyWeights();
}

resetWeights();

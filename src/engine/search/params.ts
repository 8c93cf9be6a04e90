/**
 * Every tuned search constant, named, with the range a tuner (SPSA over matches) may explore.
 * The values were set by hand from the usual published values (Stockfish, Ethereal) and checked
 * with WAC solve counts and short matches; see docs/engine.md. Change a value, then call
 * `rebuildSearchTables()` so the derived tables (late-move reductions) follow.
 */
export const SP = {
  /** Half-width of the first aspiration window (cp); it grows by half on each failure. */
  aspirationDelta: 14,
  /** Aspiration windows are used from this depth on. */
  aspirationDepth: 4,
  /** Reverse futility: prune when eval − margin·depth ≥ beta, up to this depth. */
  rfpDepth: 8,
  rfpMargin: 75,
  /** Razoring: drop to quiescence when eval < alpha − base − margin·depth². */
  razorDepth: 3,
  razorBase: 450,
  razorMargin: 280,
  /** Null move: R = base + depth / depthDiv + min(3, (eval − beta) / evalDiv). */
  nmpMinDepth: 2,
  nmpBase: 3,
  nmpDepthDiv: 3,
  nmpEvalDiv: 200,
  /** Null-move results at or above this depth are verified by a normal search. */
  nmpVerifyDepth: 12,
  /** Late move pruning: quiet moves after (base + depth²) / (2 − improving) are skipped. */
  lmpBase: 3,
  /** Futility pruning of quiet moves at lmrDepth < depth: eval + base + mul·lmrDepth ≤ alpha. */
  futilityDepth: 8,
  futilityBase: 90,
  futilityMul: 110,
  /** SEE pruning thresholds: quiets −quietMul·lmrDepth², captures −captureMul·depth. */
  seePruneDepth: 8,
  seeQuietMul: 28,
  seeCaptureMul: 95,
  /** Quiet moves with continuation history below −mul·depth are pruned at low depth. */
  historyPruneDepth: 4,
  historyPruneMul: 3500,
  /** LMR: r = (base + ln(depth)·ln(moveNumber) / div), in hundredths. */
  lmrBase: 80,
  lmrDiv: 260,
  /** History score that shifts the reduction by one ply. */
  lmrHistoryDiv: 9000,
  /** Internal iterative reduction when there is no hash move, from this depth. */
  iirDepth: 4,
  /** Singular extension: from this depth, margin per depth in cp. */
  singularDepth: 7,
  singularMargin: 2,
  /** ProbCut: beta margin and minimum depth. */
  probcutMargin: 190,
  probcutDepth: 5,
  /** Quiescence futility: stand-pat + margin + victim must reach alpha. */
  qsFutility: 140,
  /** Lazy evaluation: material/PST this far above beta is a stand-pat cutoff without the full eval. */
  lazyMargin: 450,
};

export type SearchParamName = keyof typeof SP;

/** Ranges a tuner may explore, per parameter. */
export const SP_RANGES: Readonly<Record<SearchParamName, readonly [number, number]>> = {
  aspirationDelta: [5, 60],
  aspirationDepth: [2, 8],
  rfpDepth: [3, 12],
  rfpMargin: [30, 200],
  razorDepth: [0, 6],
  razorBase: [100, 1000],
  razorMargin: [50, 600],
  nmpMinDepth: [1, 5],
  nmpBase: [2, 5],
  nmpDepthDiv: [2, 8],
  nmpEvalDiv: [80, 400],
  nmpVerifyDepth: [6, 30],
  lmpBase: [1, 8],
  futilityDepth: [3, 12],
  futilityBase: [20, 250],
  futilityMul: [40, 250],
  seePruneDepth: [3, 12],
  seeQuietMul: [5, 80],
  seeCaptureMul: [30, 200],
  historyPruneDepth: [1, 8],
  historyPruneMul: [500, 8000],
  lmrBase: [0, 200],
  lmrDiv: [100, 400],
  lmrHistoryDiv: [2000, 30000],
  iirDepth: [2, 10],
  singularDepth: [4, 12],
  singularMargin: [1, 5],
  probcutMargin: [80, 400],
  probcutDepth: [3, 10],
  qsFutility: [50, 400],
  lazyMargin: [150, 1500],
};

/** Late-move reductions by depth (0..63) and move number (0..63), at depth * 64 + moveNumber. */
export const LMR = new Uint8Array(64 * 64);

export function rebuildSearchTables(): void {
  for (let d = 1; d < 64; d++) {
    for (let m = 1; m < 64; m++) {
      const r = SP.lmrBase / 100 + (Math.log(d) * Math.log(m)) / (SP.lmrDiv / 100);
      LMR[d * 64 + m] = Math.max(0, Math.floor(r));
    }
  }
}
rebuildSearchTables();

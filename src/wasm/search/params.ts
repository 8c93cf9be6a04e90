/**
 * The search constants, named, and the late-move reduction table derived from them. The values
 * were set by hand from the usual published values (Stockfish, Ethereal) and checked with WAC
 * solve counts and short matches (docs/engine.md); a change shows in the bench signature.
 *
 * They are mutable globals, not constants, so that a tuner can set them at run time (`tabiya uci
 * --tunable`; src/engine/searchParams.ts holds the same list with ranges): each read is one
 * `global.get`, and the bench measured no slower than with constants (docs/engine.md). Each
 * instance (each thread) has its own. By index, in the order declared here: NAMES, searchParam,
 * setSearchParam; test/search-params.test.ts checks them against the TypeScript table.
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
// 250 searched the bench in 9% fewer nodes at 3 to 8% more nodes a second, and played even
// at 5 s + 0.05 s (−3.9 ± 13.6 Elo over 979 games, docs/strength.md §6): no gain, so 450.
export let lazyMargin = 450;
export let nmpEvalDepthMul = 20;
export let nmpEvalBase = 150;
export let doubleExtMargin = 20;
export let historyBonusMul = 170;
export let historyBonusBase = 120;
export let historyBonusMax = 2400;
export let cutoffBonusMargin = 80;
/**
 * Time: the share of the search's nodes spent under moves other than the best scales the time
 * target by (timeNodeBase + timeNodeMul * share) / 100, within 0.5 and 2.5 (Ethereal's "nodes
 * factor": a best move that took nearly all the effort is clear, one that did not needs more).
 * The defaults, 100 and 0, leave the target alone. Ethereal 12 uses 40 and 200, but tabiya's
 * root spends more on its best move: 2 to 5% of the nodes go elsewhere (median 2.7%, at most 12%,
 * 60 positions of its games at 8 s + 0.1 s), so 40 and 2000 give 1.0 at the median. At those
 * values it lost at 5 s + 0.05 s (docs/strength.md §6): it thought 11% longer a move and ended its
 * games on the increment, so the defaults stay.
 */
export let timeNodeBase = 100;
export let timeNodeMul = 0;

/**
 * Late-move reductions a ply smaller per ttPvReduction in nodes that are or have been on the
 * principal variation: a PV node, a node whose hash entry a PV node stored, or a node that
 * failed low under such a parent above depth 3 (Stockfish's ttPv, search.cpp since Stockfish
 * 11: those nodes are the likeliest to become the PV again). The hash table keeps the flag
 * either way; at 0 it is not read and the search is unchanged. At 1 it lost at 30,000 nodes a
 * move (−32 ± 28 Elo over 409 games, docs/strength.md §6): a fixed depth cost up to 80% more
 * nodes. It stays, off, for variants (Stockfish pairs it with larger reductions elsewhere).
 */
export let ttPvReduction = 0;

/**
 * At 1 (the default), quiet moves are also ordered, reduced and rewarded by their continuation
 * history after the side's own move two moves back (four plies), beside the one and two plies
 * back (Stockfish since version 10 reads contHist[3]; Ethereal 12 keeps one and two). At 0 it
 * is not read or written (the search before 2026-12-02). Accepted by an SPRT at 30,000 nodes a
 * move against 0 (docs/strength.md §6).
 */
export let contHistPly4 = 1;
/**
 * Above 0, a late move whose reduced search beat alpha is re-searched a ply deeper when it beat
 * the best score so far by more than lmrDeeperMargin + 10 per ply of reduction, and a ply
 * shallower when it fell short of the best score plus the new depth (Stockfish 15's
 * doDeeperSearch and doShallowerSearch, search.cpp: how far the reduced search overshot says
 * how much the full one needs). At 0 the re-search keeps its depth, as before.
 */
export let lmrDeeperMargin = 0;
/**
 * Above 0, a node that fails low gives the opponent's quiet move that led to it a history
 * bonus of priorQuietBonus percent of the cutoff bonus at this depth, in the butterfly table and
 * the continuation histories after the two moves before it: the move refuted every reply, as a
 * cutoff move would have (Stockfish's "bonus for prior countermove that caused the fail low",
 * search.cpp since version 12). At 0 nothing is updated on a fail low, as before.
 */
export let priorQuietBonus = 0;
/**
 * At 1, a hash cutoff by a quiet hash move also rewards that move in the butterfly and
 * continuation histories with the cutoff bonus of the stored depth, as a searched cutoff does
 * (Stockfish's update_quiet_stats on a TT cutoff; Ethereal 12 updates only the killers, as
 * tabiya does at 0).
 */
export let ttCutHistory = 0;
/**
 * Above 0, a late move is reduced a ply more when the children of this node and of its earlier
 * siblings have failed high more than lmrCutoffCount times (counted 2 for a cutoff in a node
 * without a hash move, 1 with one): replies that keep refuting say this node will fail low
 * (Stockfish 16's cutoffCnt, search.cpp, at 3). At 0 the count is not read (the search before
 * 2026-12-02). 3 by default since an SPRT at 30,000 nodes a move accepted it against 0
 * (docs/strength.md §6).
 */
export let lmrCutoffCount = 3;
/**
 * At 1, static evaluations are corrected by the correction history of their pawn structure
 * (correction.ts, Stockfish 16.1's rules), in the search and the quiescence search, and every
 * node whose best score the static evaluation could have given updates it. At 0 (the default)
 * it is neither read nor written. An earlier version (a moving average weighted by depth, at
 * most 32 cp) lost −20 ± 20 Elo over 761 games on 2026-11-27 (docs/strength.md §6); this one
 * was even at 30,000 nodes (−1.7 ± 21.3 over 618 games) and at 5 s + 0.05 s (+2.2 ± 14.6 over 780).
 */
export let corrHistory = 0;
/**
 * At 1, a score that fails high is pulled toward beta before it is stored and returned: in the
 * main search to (score · depth + beta) / (depth + 1), so that a shallow node's lucky margin
 * counts for less, and at the quiescence search's stand pat of a non-PV node halfway to beta
 * (Stockfish 16, search.cpp: a fail-high score is only a bound, and an inflated one makes the
 * parents' pruning margins too eager). Mate scores are left alone. At 0, scores are unchanged.
 */
export let failHighBlend = 0;
/**
 * At 1, each time the root's aspiration window fails high the re-search is a ply shallower (at
 * least depth − 3 and 1), and a fail low restores the full depth (Stockfish's failedHighCnt,
 * Ethereal 12's aspiration loop: a fail high usually confirms the best move, and the deeper
 * re-search is better spent on the next iteration). At 0 the re-search keeps its depth.
 */
export let aspFailHighReduce = 0;
/**
 * Above 0, quiet moves are also ordered by the threats of lesser enemy pieces: a piece moved out
 * of one gains, a piece moved into one loses (movepick.ts, scoreThreats; Stockfish 16's
 * threatenedPieces, whose bonus for a minor piece escaping a pawn is 15,000 on its history scale,
 * about four times tabiya's). At 0 quiet moves are ordered by history alone (the search before
 * 2026-12-05). 2000 by default since an SPRT at 30,000 nodes a move accepted it against 0
 * (docs/strength.md §6).
 */
export let threatOrder = 2000;
/**
 * Above 0, quiet moves are also ordered and history-pruned by a pawn-structure history: the
 * same cutoff bonuses and maluses as the butterfly history, kept per moved piece and target
 * square under a hash of both sides' pawns (history.ts; Stockfish 16.1's pawnHistory: a plan
 * such as a knight's route to an outpost is good in a structure, not after any previous move).
 * The value weighs the entry in the quiet move's ordering score. At 0 there is no such table.
 */
export let pawnHistory = 0;
/**
 * Above 0, a capture that leaves a pure pawn ending (the captured piece was the last piece but
 * kings and pawns on the board) is searched pawnEndingExt plies deeper: whether a pawn ending is
 * won is a matter of counted tempi far beyond the horizon that decided to trade into it, and its
 * tree is narrow (Glaurung's and Stockfish 1.x to 2.x's PawnEndgameExtension, 3 plies; search.cpp,
 * extension()). At 0 such a capture is searched like any other.
 */
export let pawnEndingExt = 0;

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

/** The names of the settable values, by index. */
const NAMES: StaticArray<string> = [
  'aspirationDelta',
  'aspirationDepth',
  'rfpDepth',
  'rfpMargin',
  'razorDepth',
  'razorBase',
  'razorMargin',
  'nmpMinDepth',
  'nmpBase',
  'nmpDepthDiv',
  'nmpEvalDiv',
  'nmpVerifyDepth',
  'lmpBase',
  'futilityDepth',
  'futilityBase',
  'futilityMul',
  'seePruneDepth',
  'seeQuietMul',
  'seeCaptureMul',
  'historyPruneDepth',
  'historyPruneMul',
  'lmrBase',
  'lmrDiv',
  'lmrHistoryDiv',
  'iirDepth',
  'singularDepth',
  'singularMargin',
  'probcutMargin',
  'probcutDepth',
  'qsFutility',
  'lazyMargin',
  'nmpEvalDepthMul',
  'nmpEvalBase',
  'doubleExtMargin',
  'historyBonusMul',
  'historyBonusBase',
  'historyBonusMax',
  'cutoffBonusMargin',
  'timeNodeBase',
  'timeNodeMul',
  'ttPvReduction',
  'contHistPly4',
  'lmrDeeperMargin',
  'priorQuietBonus',
  'ttCutHistory',
  'lmrCutoffCount',
  'corrHistory',
  'failHighBlend',
  'aspFailHighReduce',
  'threatOrder',
  'pawnHistory',
  'pawnEndingExt',
];

/** How many values searchParam and setSearchParam know. */
export function searchParamCount(): i32 {
  return NAMES.length;
}

/** The name of value `i` (for the test that keeps the TypeScript table in step). */
export function searchParamName(i: i32): string {
  return NAMES[i];
}

/** The value at index `i` (0 for an index out of range). */
export function searchParam(i: i32): i32 {
  switch (i) {
    case 0: return aspirationDelta;
    case 1: return aspirationDepth;
    case 2: return rfpDepth;
    case 3: return rfpMargin;
    case 4: return razorDepth;
    case 5: return razorBase;
    case 6: return razorMargin;
    case 7: return nmpMinDepth;
    case 8: return nmpBase;
    case 9: return nmpDepthDiv;
    case 10: return nmpEvalDiv;
    case 11: return nmpVerifyDepth;
    case 12: return lmpBase;
    case 13: return futilityDepth;
    case 14: return futilityBase;
    case 15: return futilityMul;
    case 16: return seePruneDepth;
    case 17: return seeQuietMul;
    case 18: return seeCaptureMul;
    case 19: return historyPruneDepth;
    case 20: return historyPruneMul;
    case 21: return lmrBase;
    case 22: return lmrDiv;
    case 23: return lmrHistoryDiv;
    case 24: return iirDepth;
    case 25: return singularDepth;
    case 26: return singularMargin;
    case 27: return probcutMargin;
    case 28: return probcutDepth;
    case 29: return qsFutility;
    case 30: return lazyMargin;
    case 31: return nmpEvalDepthMul;
    case 32: return nmpEvalBase;
    case 33: return doubleExtMargin;
    case 34: return historyBonusMul;
    case 35: return historyBonusBase;
    case 36: return historyBonusMax;
    case 37: return cutoffBonusMargin;
    case 38: return timeNodeBase;
    case 39: return timeNodeMul;
    case 40: return ttPvReduction;
    case 41: return contHistPly4;
    case 42: return lmrDeeperMargin;
    case 43: return priorQuietBonus;
    case 44: return ttCutHistory;
    case 45: return lmrCutoffCount;
    case 46: return corrHistory;
    case 47: return failHighBlend;
    case 48: return aspFailHighReduce;
    case 49: return threatOrder;
    case 50: return pawnHistory;
    case 51: return pawnEndingExt;
  }
  return 0;
}

/**
 * Sets the value at index `i` (an index out of range is ignored). The caller keeps values in
 * range (divisors at least 1): src/engine/searchParams.ts checks them. A change of lmrBase or
 * lmrDiv rebuilds the reduction table.
 */
export function setSearchParam(i: i32, v: i32): void {
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
    case 21: lmrBase = v; rebuildSearchTables(); break;
    case 22: lmrDiv = v; rebuildSearchTables(); break;
    case 23: lmrHistoryDiv = v; break;
    case 24: iirDepth = v; break;
    case 25: singularDepth = v; break;
    case 26: singularMargin = v; break;
    case 27: probcutMargin = v; break;
    case 28: probcutDepth = v; break;
    case 29: qsFutility = v; break;
    case 30: lazyMargin = v; break;
    case 31: nmpEvalDepthMul = v; break;
    case 32: nmpEvalBase = v; break;
    case 33: doubleExtMargin = v; break;
    case 34: historyBonusMul = v; break;
    case 35: historyBonusBase = v; break;
    case 36: historyBonusMax = v; break;
    case 37: cutoffBonusMargin = v; break;
    case 38: timeNodeBase = v; break;
    case 39: timeNodeMul = v; break;
    case 40: ttPvReduction = v; break;
    case 41: contHistPly4 = v; break;
    case 42: lmrDeeperMargin = v; break;
    case 43: priorQuietBonus = v; break;
    case 44: ttCutHistory = v; break;
    case 45: lmrCutoffCount = v; break;
    case 46: corrHistory = v; break;
    case 47: failHighBlend = v; break;
    case 48: aspFailHighReduce = v; break;
    case 49: threatOrder = v; break;
    case 50: pawnHistory = v; break;
    case 51: pawnEndingExt = v; break;
  }
}

/**
 * The state of a search, per-ply stacks allocated once
 * (move lists and their scores, picker stage, pins, static evals, moves played, principal
 * variations) and the counters the limits are checked against. Nothing is allocated during
 * a search.
 * Pins are one u64 per ply, check info 7 u64 words per ply; the controller's signals arrive
 * through limits.ts (env.poll and the stop word). Helpers of a parallel search are other
 * instances over the same memory (src/engine/wasm/smp.ts).
 */
import { CHECK_INFO_SIZE } from '../givesCheck';
import { Position } from '../position';
import { MAX_MOVES } from '../types';
import { EVAL_CACHE_WORDS } from './evalCache';
import { History } from './history';
import { MAX_PLY } from './score';
import { TranspositionTable } from './tt';

/** Offset of ply 0 in the per-ply stacks that are read at ply − 1 and ply − 2. */
export const STACK_OFFSET = 4;
export const PLIES = MAX_PLY + 8;

export class SearchThread {
  hist: History = new History();

  moves: StaticArray<u16> = new StaticArray<u16>(PLIES * MAX_MOVES);
  scores: StaticArray<i32> = new StaticArray<i32>(PLIES * MAX_MOVES);
  /** Move picker per ply: stage, next index, end of the current list, end of bad captures. */
  stage: StaticArray<u8> = new StaticArray<u8>(PLIES);
  cur: StaticArray<i32> = new StaticArray<i32>(PLIES);
  end: StaticArray<i32> = new StaticArray<i32>(PLIES);
  badEnd: StaticArray<i32> = new StaticArray<i32>(PLIES);
  ttMove: StaticArray<u16> = new StaticArray<u16>(PLIES);
  killer1: StaticArray<u16> = new StaticArray<u16>(PLIES);
  killer2: StaticArray<u16> = new StaticArray<u16>(PLIES);
  counterMove: StaticArray<u16> = new StaticArray<u16>(PLIES);
  pins: StaticArray<u64> = new StaticArray<u64>(PLIES);
  /** Main picker at this ply stops after the good captures (ProbCut). */
  capturesOnly: StaticArray<u8> = new StaticArray<u8>(PLIES);
  /** Quiescence picker at this ply also hands out quiet checks. */
  qsChecks: StaticArray<u8> = new StaticArray<u8>(PLIES);
  /** Check squares and discoverers per ply (see givesCheck.ts). */
  checkInfo: StaticArray<u64> = new StaticArray<u64>(PLIES * CHECK_INFO_SIZE);

  /** Quiet and capture moves tried at each ply (for history maluses). */
  quietsTried: StaticArray<u16> = new StaticArray<u16>(PLIES * 64);
  capturesTried: StaticArray<u16> = new StaticArray<u16>(PLIES * 32);

  /** Material + PST sum (packed, White's view) of the position at each ply, kept incrementally. */
  psqt: StaticArray<i32> = new StaticArray<i32>(PLIES);
  /** Static evaluations by position key (evalCache.ts), emptied at the start of every search. */
  evalCache: StaticArray<i32> = new StaticArray<i32>(EVAL_CACHE_WORDS);
  /** Static evaluation at ply + STACK_OFFSET (NONE_SCORE when in check). */
  staticEval: StaticArray<i32> = new StaticArray<i32>(PLIES + STACK_OFFSET);
  /** piece * 64 + to of the move played at ply + STACK_OFFSET (0 for none or a null move). */
  pieceTo: StaticArray<i32> = new StaticArray<i32>(PLIES + STACK_OFFSET);
  movePlayed: StaticArray<u16> = new StaticArray<u16>(PLIES + STACK_OFFSET);
  /** The node at a ply is or has been on the PV (pvs.ts, params.ts ttPvReduction); ply 0 is the root. */
  ttPv: StaticArray<u8> = new StaticArray<u8>(PLIES);
  /** Fail highs at a ply since its parent started (pvs.ts, params.ts lmrCutoffCount). */
  cutoffCount: StaticArray<i32> = new StaticArray<i32>(PLIES + 2);
  /** Move excluded at a ply (singular extension search). */
  excluded: StaticArray<u16> = new StaticArray<u16>(PLIES);
  /** Ply from which null moves are not allowed (null-move verification). */
  nmpMinPly: i32 = 0;
  /** Position ply of the last null move on the current line (-1: none); repetitions stop there. */
  /** Position ply of the search's root: repetitions of positions before it need a third occurrence (draw.ts). */
  rootPly: i32 = 0;
  nullAt: i32 = -1;
  /** Depth of the current iteration. */
  rootDepth: i32 = 1;
  /** Times the best root move changed in the current iteration. */
  bestMoveChanges: i32 = 0;

  /** Triangular PV table: the PV from ply p is at p * PLIES, of length pvLen[p] - p. */
  pv: StaticArray<u16> = new StaticArray<u16>(PLIES * PLIES);
  pvLen: StaticArray<u8> = new StaticArray<u8>(PLIES);

  nodes: i64 = 0;
  /** The node count at which the search next checks its limits (limits.ts). */
  nextCheck: i64 = 0;
  seldepth: i32 = 0;
  stopped: bool = false;
  /** When the clock started (ms, from the imported clock). */
  clockStart: f64 = 0;
  /** Hard time limit from clockStart (ms); the search is aborted beyond it. */
  hardMs: f64 = Infinity;
  /** Soft time limit from clockStart (ms): no new iteration starts beyond it (scaled by stability). */
  softMs: f64 = Infinity;
  nodeLimit: f64 = Infinity;
  /** Pondering: no time or node limit until the host's ponder signal clears (ponderhit). */
  pondering: bool = false;

  constructor(public pos: Position, public tt: TranspositionTable) {}
}

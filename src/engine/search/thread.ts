/**
 * The state of one search thread: the position being searched, per-ply stacks in typed arrays
 * (move lists and their scores, picker stage, pins, static evals, moves played, principal
 * variations) and the counters the limits are checked against. One object per thread,
 * allocated once; nothing in it is allocated during the search.
 */
import { CHECK_INFO_SIZE } from '../../core/givesCheck.js';
import type { Position } from '../../core/position.js';
import { MAX_MOVES } from '../../core/types.js';
import { MAX_PLY } from '../score.js';
import type { TranspositionTable } from '../tt.js';
import { EVAL_CACHE_WORDS } from './evalCache.js';
import { History } from './history.js';

/** Offset of ply 0 in the per-ply stacks that are read at ply − 1 and ply − 2. */
export const STACK_OFFSET = 4;
const PLIES = MAX_PLY + 8;

/** Signal slots in the shared Int32Array a controller uses to talk to a running search. */
export const SIG_STOP = 0;
/** 1 while the search ponders; the controller sets it to 0 on ponderhit. */
export const SIG_PONDER = 1;
/** Search generation: the controller bumps it for every `go`; a thread still busy with an older one stops. */
export const SIG_GEN = 2;
/** Nodes searched by thread i, in units of NODE_UNIT, at SIG_NODES + i (for the total in info lines). */
export const SIG_NODES = 8;
export const NODE_UNIT = 512;
/** Threads a signal array has room for. */
export const MAX_THREADS = 56;
export const SIG_SIZE = SIG_NODES + MAX_THREADS;

export class SearchThread {
  readonly hist = new History();

  readonly moves = new Uint16Array(PLIES * MAX_MOVES);
  readonly scores = new Int32Array(PLIES * MAX_MOVES);
  /** Move picker per ply: stage, next index, end of the current list, end of bad captures. */
  readonly stage = new Uint8Array(PLIES);
  readonly cur = new Int32Array(PLIES);
  readonly end = new Int32Array(PLIES);
  readonly badEnd = new Int32Array(PLIES);
  readonly ttMove = new Uint16Array(PLIES);
  readonly killer1 = new Uint16Array(PLIES);
  readonly killer2 = new Uint16Array(PLIES);
  readonly counterMove = new Uint16Array(PLIES);
  readonly pinLo = new Int32Array(PLIES);
  readonly pinHi = new Int32Array(PLIES);
  readonly inCheck = new Uint8Array(PLIES);
  /** Main picker at this ply stops after the good captures (ProbCut). */
  readonly capturesOnly = new Uint8Array(PLIES);
  /** Quiescence picker at this ply also hands out quiet checks. */
  readonly qsChecks = new Uint8Array(PLIES);
  /** Check squares and discoverers per ply (see core/givesCheck.ts). */
  readonly checkInfo = new Int32Array(PLIES * CHECK_INFO_SIZE);

  /** Quiet and capture moves tried at each ply (for history maluses). */
  readonly quietsTried = new Uint16Array(PLIES * 64);
  readonly capturesTried = new Uint16Array(PLIES * 32);

  /** Material + PST sum (packed, White's view) of the position at each ply, kept incrementally. */
  readonly psqt = new Int32Array(PLIES);
  /** Static evaluations by position key (evalCache.ts), emptied at the start of every search. */
  readonly evalCache = new Int32Array(EVAL_CACHE_WORDS);
  /** Static evaluation at ply + STACK_OFFSET (NONE_SCORE when in check). */
  readonly staticEval = new Int32Array(PLIES + STACK_OFFSET);
  /** piece * 64 + to of the move played at ply + STACK_OFFSET (0 for none or a null move). */
  readonly pieceTo = new Int32Array(PLIES + STACK_OFFSET);
  readonly movePlayed = new Uint16Array(PLIES + STACK_OFFSET);
  /** Move excluded at a ply (singular extension search). */
  readonly excluded = new Uint16Array(PLIES);
  /** Ply from which null moves are not allowed (null-move verification). */
  nmpMinPly = 0;
  /** Position ply of the last null move on the current line (-1: none); repetitions stop there. */
  nullAt = -1;
  /** Depth of the current iteration. */
  rootDepth = 1;
  /** Times the best root move changed in the current iteration. */
  bestMoveChanges = 0;

  /** Triangular PV table: the PV from ply p is at p * PLIES, of length pvLen[p] - p. */
  readonly pv = new Uint16Array(PLIES * PLIES);
  readonly pvLen = new Uint8Array(PLIES);

  nodes = 0;
  seldepth = 0;
  stopped = false;
  /** When the clock started (search start, or ponderhit when pondering), in ms. */
  clockStart = 0;
  /** Hard time limit from clockStart (ms); the search is aborted beyond it. */
  hardMs = Infinity;
  /** Soft time limit from clockStart (ms): no new iteration starts beyond it (scaled by stability). */
  softMs = Infinity;
  nodeLimit = Infinity;
  pondering = false;
  /** Root move list, reused from search to search (owned by iterate.ts). */
  rootMoves: object | null = null;
  /** Stop and ponder flags shared with the controller (SIG_*). */
  readonly signals: Int32Array;
  /** 0 for the main thread; helpers of a parallel search are 1, 2, ... */
  index = 0;
  /** Number of threads searching this position (main thread: for the node total). */
  threadCount = 1;
  /** The generation (SIG_GEN) this search belongs to. */
  gen = 0;

  constructor(
    public pos: Position,
    public tt: TranspositionTable,
    signals?: Int32Array,
  ) {
    this.signals = signals ?? new Int32Array(SIG_SIZE);
  }

  static readonly PLIES = PLIES;
}

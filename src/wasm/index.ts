/**
 * The engine core in WebAssembly: what JavaScript calls. Only numbers cross the boundary (no
 * strings, no allocation): a position is set up square by square from the TypeScript
 * Position, so FEN parsing and its error messages stay in one place (src/notation/fen.ts).
 *
 * Why WebAssembly: bitboards are 64-bit words here, with popcnt/ctz instructions, where the
 * TypeScript core needs two int32 halves; the same move generator runs perft about 2.5 times
 * faster (`npm run bench -- perft`). The gain needs the whole hot loop on this side of the
 * boundary: a search that recurses in JavaScript and calls in here per node is no faster.
 */
import './heapSlot';
import { Position } from './position';
import { computePins as computePins_, generateLegal, generateNoisy as generateNoisy_, generateQuiets as generateQuiets_ } from './movegen';
import { KING, MAX_MOVES } from './types';
import * as E from './eval/evaluate';
import * as P from './eval/params';
import * as Q from './eval/psqt';
import * as S from './search/params';
import { clearPawnHash as clearPawns } from './eval/terms/pawns';
import {
  addRootFilter,
  clearRootFilter,
  iterate,
  resultDepth,
  resultHooked,
  resultMove,
  resultScore,
  resultSeldepth,
  rm,
  helperIndex,
  rootScore,
  setHelperIndex,
  setRootBonus as setBonus,
} from './search/iterate';
import { STOP, scheduleCheck } from './search/limits';
import { PLIES, STACK_OFFSET, SearchThread } from './search/thread';
import { qsearch } from './search/qsearch';
import { INFINITE } from './search/score';
import { TRACE_COEF, isTraceBuild } from './eval/trace';
import { endgameScale } from './eval/terms/endgame';
import { TranspositionTable } from './search/tt';
import { isLegalNotInCheck as isLegalNotInCheck_ } from './legality';
import { CHECK_INFO_SIZE, givesCheck as givesCheck_, prepareCheckInfo as prepareCheckInfo_ } from './givesCheck';
import { seeGe as seeGe_ } from './see';
import { hasNonPawnMaterial as hasNonPawnMaterial_, isDraw as isDraw_ } from './draw';

const MAX_DEPTH = 64;
const moves = new StaticArray<u16>(MAX_MOVES * MAX_DEPTH);
const pos = new Position();

/** Starts a set-up: an empty board, White to move, no rights. */
export function setupClear(): void {
  pos.clear();
}

/** Puts `piece` (color * 8 + type) on an empty square. */
export function setupPiece(sq: i32, piece: i32): void {
  if ((piece & 7) == KING) pos.kingSq[piece >> 3] = <i8>sq;
  pos.putPiece(piece, sq);
}

/**
 * Ends a set-up. `rooks` packs the rook square of castling right i (0 White king side, 1 White
 * queen side, 2 and 3 Black's) in byte i, for the rights set in `castling`; `ep` is the
 * en-passant square or -1 (already filtered by the Polyglot rule, as Position keeps it).
 */
export function setupFinish(turn: i32, castling: i32, rooks: i32, ep: i32, halfmoves: i32, chess960: bool): void {
  pos.turn = turn;
  pos.startTurn = turn;
  for (let i = 0; i < 4; i++) if (castling & (1 << i)) pos.addCastlingRight(i, (rooks >>> (8 * i)) & 255);
  if (chess960) pos.chess960 = true;
  pos.epSquare = ep;
  pos.halfmoves = halfmoves;
  pos.finishSetup();
}

/**
 * After setupFinish: appends one ply of the game before the set-up position, oldest first, as
 * the TypeScript Position's stack holds it (state word, halfmove clock, key before the move as
 * lo, hi). The core's ply then counts those plies, repetitions of them are seen, and undo can
 * take them back.
 */
export function setupHistory(word: i32, halfmoves: i32, keyLo: i32, keyHi: i32): void {
  pos.pushHistory(word, halfmoves, (<u64><u32>keyLo) | ((<u64><u32>keyHi) << 32));
}

/** The Polyglot key of the position in the core, low and high halves. */
export function keyLo(): i32 {
  return <i32>pos.key;
}
export function keyHi(): i32 {
  return <i32>(pos.key >>> 32);
}

function perftBulk(depth: i32, base: i32): u64 {
  const end = generateLegal(pos, moves, base);
  if (depth == 1) return <u64>(end - base);
  let nodes: u64 = 0;
  for (let i = base; i < end; i++) {
    pos.play(<i32>unchecked(moves[i]));
    nodes += perftBulk(depth - 1, end);
    pos.undo();
  }
  return nodes;
}

function perftFull(depth: i32, base: i32): u64 {
  const end = generateLegal(pos, moves, base);
  if (depth == 1) {
    // Leaves are still played and taken back: full perft measures make/unmake.
    for (let i = base; i < end; i++) {
      pos.play(<i32>unchecked(moves[i]));
      pos.undo();
    }
    return <u64>(end - base);
  }
  let nodes: u64 = 0;
  for (let i = base; i < end; i++) {
    pos.play(<i32>unchecked(moves[i]));
    nodes += perftFull(depth - 1, end);
    pos.undo();
  }
  return nodes;
}

/** Perft of the set-up position (as f64: JavaScript gets a plain number, exact below 2^53); -1 past the depth limit. */
export function perft(depth: i32, bulk: bool): f64 {
  if (depth <= 0) return 1;
  if (depth > MAX_DEPTH) return -1;
  return <f64>(bulk ? perftBulk(depth, 0) : perftFull(depth, 0));
}

let keyErrors = 0;
let leafKeys: u64 = 0;

function perftKeys(depth: i32, base: i32): u64 {
  if (pos.key != pos.computeKey()) keyErrors++;
  if (depth == 0) {
    leafKeys ^= pos.key;
    return 1;
  }
  const end = generateLegal(pos, moves, base);
  let nodes: u64 = 0;
  for (let i = base; i < end; i++) {
    const before = pos.key;
    pos.play(<i32>moves[i]);
    nodes += perftKeys(depth - 1, end);
    pos.undo();
    if (pos.key != before) keyErrors++;
  }
  return nodes;
}

/**
 * A checking perft for tests: at every node the incremental key must equal one computed from
 * scratch and be restored by undo; the leaves' keys are XORed together (compare with the same
 * sum from the TypeScript core). Returns the leaf count; see keyErrorCount and leafKeysLo/Hi.
 */
export function perftCheckKeys(depth: i32): f64 {
  keyErrors = 0;
  leafKeys = 0;
  return <f64>perftKeys(depth, 0);
}
export function keyErrorCount(): i32 {
  return keyErrors;
}
export function leafKeysLo(): i32 {
  return <i32>leafKeys;
}
export function leafKeysHi(): i32 {
  return <i32>(leafKeys >>> 32);
}

// ----- the evaluation of the set-up position (src/wasm/eval) -----

export function evaluate(): i32 {
  return E.evaluate(pos);
}
/** The evaluation given the material + piece-square sum the search keeps incrementally. */
export function evaluateWith(psqt: i32): i32 {
  return E.evaluateWith(pos, psqt);
}
export function lazyEval(psqt: i32): i32 {
  return E.lazyEval(pos, psqt);
}
/**
 * Evaluates the set-up position `times` times as the search does (the material + piece-square
 * sum given) and returns the sum of the values: the evaluation's speed without the calls from
 * JavaScript (npm run bench -- wasm-ab).
 */
export function evaluateRepeat(times: i32): i32 {
  const psqt = Q.psqtFromScratch(pos);
  let sum = 0;
  for (let i = 0; i < times; i++) sum += E.evaluateWith(pos, psqt);
  return sum;
}
export function materialPhase(): i32 {
  return E.materialPhase(pos);
}
export function psqtFromScratch(): i32 {
  return Q.psqtFromScratch(pos);
}
/** The change of the material + piece-square sum by move `m` (legal here, not yet played). */
export function psqtDelta(m: i32): i32 {
  return Q.psqtDelta(pos, m);
}
export function clearPawnHash(): void {
  clearPawns();
}

// ----- the tuner's view: the evaluation's trace, and quiet leaves by quiescence search -----

/**
 * Evaluates the set-up position with its trace (eval/trace.ts): returns the value from White's
 * point of view; traceCoefPtr() holds each pair's coefficient (NPAIRS i32s), tracePhase,
 * traceScale and traceSpecial the rest (src/tune/traceStore.ts reads them).
 */
export function evaluateTrace(): i32 {
  return E.evaluateTrace(pos);
}
/** Does this build trace (core-trace.wasm)? The others evaluate without the trace's tests. */
export function traceBuild(): bool {
  return isTraceBuild();
}
export function traceCoefPtr(): usize {
  return changetype<usize>(TRACE_COEF);
}
export function tracePhase(): i32 {
  return E.tracePhase;
}
export function traceScale(): i32 {
  return E.traceScale;
}
export function traceSpecial(): bool {
  return E.traceSpecial;
}
/** The endgame scale for the endgame half favouring White (sign 1) or Black (-1), after evaluateTrace. */
export function endgameScaleFor(sign: i32): i32 {
  return endgameScale(pos, sign);
}

// The quiescence search of the tuner: its own small table, emptied for every position, so that
// a position's leaf does not depend on the positions resolved before it.
let resolveTT: TranspositionTable | null = null;
let resolveThread: SearchThread | null = null;

/**
 * Runs the engine's quiescence search on the set-up position with a full window (not in
 * check): returns its score (side to move's view); pvLength()/pvMove() give the captures it
 * expects, whose end is the quiet leaf the tuner traces (src/tune/resolve.ts).
 */
export function resolveQuiet(): i32 {
  if (resolveThread == null) {
    const small = new TranspositionTable();
    small.resizeBytes(1 << 16);
    resolveTT = small;
    resolveThread = new SearchThread(pos, small);
  }
  const t = resolveThread!;
  resolveTT!.clear();
  t.nodes = 0;
  t.seldepth = 0;
  t.stopped = false;
  t.nodeLimit = Infinity;
  t.hardMs = Infinity;
  t.pondering = false;
  scheduleCheck(t);
  unchecked(t.pvLen[0] = 0);
  unchecked(t.psqt[0] = Q.psqtFromScratch(pos));
  for (let i = 0; i < STACK_OFFSET; i++) {
    unchecked(t.pieceTo[i] = 0);
    unchecked(t.movePlayed[i] = 0);
  }
  resolvedPv = t;
  return qsearch(t, -INFINITE, INFINITE, 0, false);
}
let resolvedPv: SearchThread | null = null;
/** Length and moves of the last resolveQuiet's principal variation. */
export function resolvedLength(): i32 {
  return resolvedPv == null ? 0 : <i32>unchecked(resolvedPv!.pvLen[0]);
}
export function resolvedMove(i: i32): i32 {
  return <i32>unchecked(resolvedPv!.pv[i]);
}

// ----- the weights: one i32 table [mg0, eg0, mg1, eg1, ...] that JavaScript fills -----

/** Address of the weight table in memory (2 * weightPairs() i32s). */
export function weightsPtr(): usize {
  return changetype<usize>(P.WEIGHTS);
}
export function weightPairs(): i32 {
  return P.NPAIRS;
}
/** Derives the packed and piece-square tables after the weight table was written. */
export function applyWeights(): void {
  P.applyWeights();
  clearPawns();
}

// ----- the search parameters (search/params.ts), by index; JavaScript sets them (searchParams.ts) -----

export function searchParamCount(): i32 {
  return S.searchParamCount();
}
/** The name of parameter i (as in params.ts). */
export function searchParamName(i: i32): string {
  return S.searchParamName(i);
}
export function searchParam(i: i32): i32 {
  return S.searchParam(i);
}
/** Sets parameter i for the searches that follow (this instance only: each thread sets its own). */
export function setSearchParam(i: i32, v: i32): void {
  S.setSearchParam(i, v);
}

// ----- the search (src/wasm/search) -----

const tt = new TranspositionTable();
// A build over shared memory gets its table from attachTable (one table for every thread).
if (!ASC_FEATURE_THREADS) tt.resize(16);
const thread = new SearchThread(pos, tt);

// ----- threads: instances of the shared-memory build (core-shared.wasm) over one memory -----
//
// Each instance has its own heap slot (heapSlot.ts) and its own globals; the hash table is
// the one thing they use together (src/engine/wasm/smp.ts has the layout).

/** The first free address after the static data (the same in every instance). */
export function heapBase(): usize {
  return __heap_base;
}
/** The end of what this instance has allocated (the host checks that it stays in its slot). */
export function heapTop(): usize {
  return heap.alloc(0);
}
/** Searches with the hash table at `ptr` (`megabytes`, a power of two) shared with the other threads. */
export function attachTable(ptr: usize, megabytes: i32): void {
  tt.attach(ptr, megabytes);
}
/** Empties the hash table (the shared one: one thread does it, between searches). */
export function clearTable(): void {
  tt.clear();
}
/** This instance's thread: 0 the main search, 1, 2, ... Lazy SMP helpers (see iterate.ts). */
export function setThreadIndex(i: i32): void {
  setHelperIndex(i);
}

/** Replaces the hash table by an empty one of `megabytes` (rounded down to a power of two, at most 512). */
export function setHashSize(megabytes: i32): void {
  tt.resize(megabytes);
}

/** Forgets everything learned: hash table, histories, pawn hash (as Engine.newGame). */
export function newGame(): void {
  // The shared table is emptied by the main thread alone.
  if (!ASC_FEATURE_THREADS || helperIndex == 0) tt.clear();
  thread.hist.clear();
  clearPawns();
}

/**
 * Searches the set-up position (iterative deepening, as Engine.go): to `depth` (0: no limit),
 * at most about `nodes` nodes, with soft and hard time limits in ms (Infinity for none;
 * `timed` enables the soft one). Returns the best move (0 if there is no legal move); the
 * score, depth and node count are read with the functions below. The search stops early when
 * the host writes a non-zero word at stopFlagPtr() (cleared here first).
 */
export function search(depth: i32, nodes: f64, softMs: f64, hardMs: f64, timed: bool, multiPV: i32): i32 {
  clearRootFilter();
  return searchWith(depth, nodes, softMs, hardMs, timed, multiPV, 0, false, 0);
}

/**
 * search() as the engine runs it: the clock from `startMs` (0: now), pondering (no limits
 * until env.poll() reports ponderhit), `flags` (1: info lines through env.report, 2: ask
 * env.iterationDone after each iteration), the root moves limited to those added with
 * addSearchMove since clearSearchMoves (none: all).
 */
export function searchWith(depth: i32, nodes: f64, softMs: f64, hardMs: f64, timed: bool, multiPV: i32, startMs: f64, ponder: bool, flags: i32): i32 {
  unchecked(STOP[0] = 0);
  thread.nodeLimit = nodes > 0 ? nodes : Infinity;
  thread.softMs = softMs;
  thread.hardMs = hardMs;
  thread.pondering = ponder;
  iterate(thread, depth, multiPV, timed, startMs, flags);
  return resultMove;
}

export function clearSearchMoves(): void {
  clearRootFilter();
}
export function addSearchMove(m: i32): void {
  addRootFilter(m);
}
/**
 * Root move `m` is chosen when it scores within `cp` centipawns of the best (0: no bonus), until
 * set again; reported scores leave the bonus out (search/iterate.ts, rootBonusMove).
 */
export function setRootBonus(m: i32, cp: i32): void {
  setBonus(m, cp);
}
/** Was the last search stopped (signal or limit inside an iteration)? */
export function searchStopped(): bool {
  return thread.stopped;
}
/** Did env.iterationDone end the last search? */
export function searchHooked(): bool {
  return resultHooked;
}
/** PV of root line i (MultiPV order) of the running or last search, for env.report. */
export function linePvLength(i: i32): i32 {
  return <i32>rm.pvLen[i];
}
export function linePvMove(i: i32, k: i32): i32 {
  return <i32>rm.pv[i * PLIES + k];
}
/** Root moves of the last search (after searchmoves), MultiPV order; their scores (-32001: none). */
export function rootMoveCount(): i32 {
  return rm.n;
}
export function lineMove(i: i32): i32 {
  return <i32>rm.moves[i];
}
export function lineScore(i: i32): i32 {
  return rootScore(i, rm.score[i]);
}
export function linePrevScore(i: i32): i32 {
  return rootScore(i, rm.prevScore[i]);
}
/** The hash table's move for a position key (lo, hi halves), or 0. */
export function ttMove(keyLo: i32, keyHi: i32): i32 {
  const key = (<u64>(<u32>keyHi) << 32) | <u64>(<u32>keyLo);
  return tt.probe(key, 0) ? tt.move : 0;
}

// ----- the hash table itself, for its tests (test/core-tt.test.ts) -----

function keyOf(keyLo: i32, keyHi: i32): u64 {
  return (<u64>(<u32>keyHi) << 32) | <u64>(<u32>keyLo);
}
/** Stores an entry as the search does (score as seen `ply` plies from the root). */
export function ttStore(keyLo: i32, keyHi: i32, ply: i32, move: i32, score: i32, evalScore: i32, depth: i32, bound: i32, pv: bool): void {
  tt.store(keyOf(keyLo, keyHi), ply, move, score, evalScore, depth, bound, pv);
}
/** Probes as the search does; on a hit the entry's fields are read with ttField. */
export function ttProbe(keyLo: i32, keyHi: i32, ply: i32): bool {
  return tt.probe(keyOf(keyLo, keyHi), ply);
}
/** Field of the last hit: 0 move, 1 score, 2 static evaluation, 3 depth, 4 bound, 5 stored by a PV node. */
export function ttField(i: i32): i32 {
  return i == 0 ? tt.move : i == 1 ? tt.score : i == 2 ? tt.eval : i == 3 ? tt.depth : i == 4 ? tt.bound : tt.pv ? 1 : 0;
}
/** A new search: entries of earlier ones age. */
export function ttNewSearch(): void {
  tt.newSearch();
}
/** Address of the key's bucket (two entries of four i32 words), to damage it in a test. */
export function ttBucketPtr(keyLo: i32): usize {
  return changetype<usize>(tt.data) + ((<usize>(keyLo & tt.mask)) << 5);
}

/** Searches the set-up position to `depth` with a fresh hash, histories and pawn hash (the bench). */
export function searchFresh(depth: i32): i32 {
  newGame();
  return search(depth, 0, Infinity, Infinity, false, 1);
}

export function searchScore(): i32 {
  return resultScore;
}
export function searchDepth(): i32 {
  return resultDepth;
}
export function searchSeldepth(): i32 {
  return resultSeldepth;
}
/** Nodes of the last search (as f64: exact below 2^53). */
export function searchNodes(): f64 {
  return <f64>thread.nodes;
}
/** Length and moves of the principal variation of the best root move. */
export function pvLength(): i32 {
  return <i32>rm.pvLen[0];
}
export function pvMove(i: i32): i32 {
  return <i32>rm.pv[i];
}
/** Address of the stop word (i32). */
export function stopFlagPtr(): usize {
  return changetype<usize>(STOP);
}
export function hashfull(): i32 {
  return tt.hashfull();
}

// ----- the position's state and make/unmake, for tests of the pieces below -----

export function pieceAt(sq: i32): i32 {
  return <i32>pos.board[sq];
}
export function turn(): i32 {
  return pos.turn;
}
export function castling(): i32 {
  return pos.castling;
}
export function epSquare(): i32 {
  return pos.epSquare;
}
export function halfmoves(): i32 {
  return pos.halfmoves;
}
export function ply(): i32 {
  return pos.ply;
}
/** Plays a legal move. */
export function play(m: i32): void {
  pos.play(m);
}
/** Passes the move (not when in check). */
export function playNull(): void {
  pos.playNull();
}
/** Takes back the last move or null move. */
export function undo(): void {
  pos.undo();
}
export function inCheck(): bool {
  return pos.inCheck();
}
export function isInsufficientMaterial(): bool {
  return pos.isInsufficientMaterial();
}
export function hasInsufficientMaterial(color: i32): bool {
  return pos.hasInsufficientMaterial(color);
}
export function repetitions(limit: i32): i32 {
  return pos.repetitions(limit);
}
/**
 * The search's draw test (draw.ts); `nullAt` is the ply of the last null move on the line, or
 * -1; `rootPly` the search's root (-1: every earlier position counts as the search's own).
 */
export function isDraw(nullAt: i32, rootPly: i32): bool {
  return isDraw_(pos, nullAt, rootPly);
}
export function hasNonPawnMaterial(): bool {
  return hasNonPawnMaterial_(pos);
}

// ----- move lists: written to the move stack from 0, read back with moveAt -----

/** The i-th move of the last list generated. */
export function moveAt(i: i32): i32 {
  return <i32>moves[i];
}
/** All legal moves; returns their count. */
export function legalMoves(): i32 {
  return generateLegal(pos, moves, 0);
}

let pins: u64 = 0;

/** Computes the pinned pieces of the side to move, used by the calls below until the next one. */
export function computePins(): void {
  pins = computePins_(pos);
}
export function pinsLo(): i32 {
  return <i32>pins;
}
export function pinsHi(): i32 {
  return <i32>(pins >>> 32);
}
/** Legality of any 16-bit move (not in check; pins from computePins). */
export function isLegalNotInCheck(m: i32): bool {
  return isLegalNotInCheck_(pos, m, pins);
}
/** Noisy moves (not in check; pins from computePins); returns their count. */
export function noisyMoves(): i32 {
  return generateNoisy_(pos, moves, 0, pins);
}
/** Quiet moves (not in check; pins from computePins); returns their count. */
export function quietMoves(): i32 {
  return generateQuiets_(pos, moves, 0, pins);
}

const checkInfo = new StaticArray<u64>(CHECK_INFO_SIZE);

/** Prepares the check information givesCheck uses, for the position as it is now. */
export function prepareCheckInfo(): void {
  prepareCheckInfo_(pos, checkInfo, 0);
}
/** Does legal move m give check (after prepareCheckInfo)? */
export function givesCheck(m: i32): bool {
  return givesCheck_(pos, m, checkInfo, 0);
}
/** Does legal move m win at least `threshold` in a static exchange? */
export function seeGe(m: i32, threshold: i32): bool {
  return seeGe_(pos, m, threshold);
}

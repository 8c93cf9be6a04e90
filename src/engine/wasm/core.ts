/**
 * The WebAssembly engine core (src/wasm, built to dist/wasm/core.wasm) seen from TypeScript.
 * Browser-safe: the caller compiles the module from bytes it fetched or read
 * (src/node/wasmCore.ts reads the built file in Node).
 */
import type { Position } from '../../core/position.js';
import { MAX_THREADS } from '../signals.js';
import { MAX_SHARED_HASH_MB, SLOT_BYTES, TABLE_PTR } from './smp.js';

interface CoreExports {
  memory: WebAssembly.Memory;
  setupClear(): void;
  setupPiece(sq: number, piece: number): void;
  setupFinish(turn: number, castling: number, rooks: number, ep: number, halfmoves: number, chess960: number): void;
  setupHistory(word: number, halfmoves: number, keyLo: number, keyHi: number): void;
  keyLo(): number;
  keyHi(): number;
  pieceAt(sq: number): number;
  turn(): number;
  castling(): number;
  epSquare(): number;
  halfmoves(): number;
  ply(): number;
  play(m: number): void;
  playNull(): void;
  undo(): void;
  inCheck(): number;
  isInsufficientMaterial(): number;
  hasInsufficientMaterial(color: number): number;
  repetitions(limit: number): number;
  isDraw(nullAt: number, rootPly: number): number;
  hasNonPawnMaterial(): number;
  moveAt(i: number): number;
  legalMoves(): number;
  computePins(): void;
  pinsLo(): number;
  pinsHi(): number;
  isLegalNotInCheck(m: number): number;
  noisyMoves(): number;
  quietMoves(): number;
  prepareCheckInfo(): void;
  givesCheck(m: number): number;
  seeGe(m: number, threshold: number): number;
  perft(depth: number, bulk: number): number;
  perftCheckKeys(depth: number): number;
  keyErrorCount(): number;
  leafKeysLo(): number;
  leafKeysHi(): number;
  evaluate(): number;
  evaluateWith(psqt: number): number;
  /** Absent in builds older than it (bench wasm-ab compares with those). */
  evaluateRepeat?(times: number): number;
  lazyEval(psqt: number): number;
  materialPhase(): number;
  psqtFromScratch(): number;
  psqtDelta(move: number): number;
  clearPawnHash(): void;
  weightsPtr(): number;
  weightPairs(): number;
  applyWeights(): void;
  /** The search parameters (src/wasm/search/params.ts); absent in builds older than them (bench wasm-ab). */
  searchParamCount?(): number;
  searchParamName?(i: number): number;
  searchParam?(i: number): number;
  setSearchParam?(i: number, value: number): void;
  setHashSize(megabytes: number): void;
  newGame(): void;
  search(depth: number, nodes: number, softMs: number, hardMs: number, timed: number, multiPV: number): number;
  searchWith(depth: number, nodes: number, softMs: number, hardMs: number, timed: number, multiPV: number, startMs: number, ponder: number, flags: number): number;
  clearSearchMoves(): void;
  addSearchMove(m: number): void;
  setRootBonus(m: number, cp: number): void;
  searchStopped(): number;
  searchHooked(): number;
  linePvLength(i: number): number;
  linePvMove(i: number, k: number): number;
  ttMove(keyLo: number, keyHi: number): number;
  ttStore(keyLo: number, keyHi: number, ply: number, move: number, score: number, evalScore: number, depth: number, bound: number, pv: number): void;
  ttProbe(keyLo: number, keyHi: number, ply: number): number;
  ttField(i: number): number;
  ttNewSearch(): void;
  ttBucketPtr(keyLo: number): number;
  rootMoveCount(): number;
  lineMove(i: number): number;
  lineScore(i: number): number;
  linePrevScore(i: number): number;
  searchFresh(depth: number): number;
  searchScore(): number;
  searchDepth(): number;
  searchSeldepth(): number;
  searchNodes(): number;
  pvLength(): number;
  pvMove(i: number): number;
  stopFlagPtr(): number;
  hashfull(): number;
  heapBase(): number;
  evaluateTrace(): number;
  traceBuild(): number;
  traceCoefPtr(): number;
  tracePhase(): number;
  traceScale(): number;
  traceSpecial(): number;
  endgameScaleFor(sign: number): number;
  resolveQuiet(): number;
  resolvedLength(): number;
  resolvedMove(i: number): number;
  heapTop(): number;
  attachTable(ptr: number, megabytes: number): void;
  clearTable(): void;
  setThreadIndex(i: number): void;
}

/** An instance of the shared build (core-shared.wasm) as thread `slot` of a parallel search. */
export interface SharedCoreSlot {
  memory: WebAssembly.Memory;
  /** 0 for the main search, 1, 2, ... for helpers (at most MAX_THREADS - 1). */
  slot: number;
}

/** What a search in the core found (the fields of SearchResult the core has). */
export interface WasmSearchResult {
  /** 0 when the side to move has no legal move. */
  bestMove: number;
  score: number;
  depth: number;
  seldepth: number;
  nodes: number;
  pv: number[];
  /** A signal or a limit ended the search inside an iteration. */
  stopped: boolean;
  /** `iterationDone` ended the search. */
  hooked: boolean;
  /** Root moves searched (legal moves, or those of searchmoves). */
  rootMoves: number;
}

/** What env.poll returns: bits. */
/** The evaluation's sums a trace holds coefficients for (src/wasm/eval/trace.ts TRACE_SUMS). */
export const TRACE_SUMS = 4;

export const POLL_STOP = 1;
export const POLL_PONDER = 2;
/** The threads of a parallel search have searched the node limit between them (src/wasm/search/limits.ts). */
export const POLL_NODES = 4;

/** Calls a search in the core makes to its host (on the searching thread). */
export interface WasmSearchHooks {
  /** Every 512 nodes: POLL_STOP to stop, POLL_PONDER while still pondering, POLL_NODES once all threads together reached the node limit. */
  poll?: () => number;
  /**
   * An info line (iterate.ts `report`): MultiPV line (0-based), depth, bound (0 exact, 1
   * upper, 2 lower), score, the line's seldepth, nodes; its PV is `linePv(line)` meanwhile.
   */
  report?: (line: number, depth: number, bound: number, score: number, seldepth: number, nodes: number) => void;
  /** After each completed iteration (depth, best score): true ends the search. */
  iterationDone?: (depth: number, score: number) => boolean;
}

/** Limits of a search in the core (times in ms). */
export interface WasmSearchLimits {
  depth?: number;
  nodes?: number;
  /** No iteration starts past (a share of) this, scaled by stability. */
  softMs?: number;
  /** The search is aborted past this. */
  hardMs?: number;
  multiPV?: number;
  /** The soft limit may end the search between iterations (default: when there is one). */
  timed?: boolean;
  /** When the clock started (Date.now() ms; default: now). */
  startMs?: number;
  /** Pondering: no limits until poll stops reporting POLL_PONDER. */
  ponder?: boolean;
  /** Only these root moves (none or empty: all). */
  searchmoves?: readonly number[];
  /** This root move is chosen when it scores within `cp` centipawns of the best (BookReturn). */
  rootBonus?: { move: number; cp: number };
}

/** Reads an AssemblyScript string (UTF-16, byte length in the word before it) from memory. */
function readString(memory: WebAssembly.Memory, ptr: number): string {
  if (ptr === 0) return '';
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0]!;
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, bytes >>> 1));
}

export class WasmCore {
  private readonly x: CoreExports;
  private hooks: WasmSearchHooks = {};
  /** The thread slot of an instance over shared memory (undefined: a memory of its own). */
  readonly slot: number | undefined;

  /**
   * One instance: one board of its own. Instances of the normal build share nothing; those of
   * the shared build (`shared`) share one memory and search with one hash table (smp.ts).
   */
  constructor(module: WebAssembly.Module, shared?: SharedCoreSlot) {
    // A failed bounds check (checked build) or assertion calls abort with its message.
    const abort = (msg: number, file: number, line: number, col: number): never => {
      const memory = this.x.memory;
      throw new Error(`wasm core: ${readString(memory, msg)} at ${readString(memory, file)}:${line}:${col}`);
    };
    // The search's clock (polled every 512 nodes): the wall clock, shared by all threads (limits.ts now).
    const now = (): number => Date.now();
    // The search's calls to its host (see WasmSearchHooks).
    const poll = (): number => (this.hooks.poll ? this.hooks.poll() : 0);
    const report = (line: number, depth: number, bound: number, score: number, seldepth: number, nodes: number): void =>
      this.hooks.report?.(line, depth, bound, score, seldepth, nodes);
    const iterationDone = (depth: number, score: number): number => (this.hooks.iterationDone?.(depth, score) ? 1 : 0);
    if (shared && !(Number.isInteger(shared.slot) && shared.slot >= 0 && shared.slot < MAX_THREADS)) {
      throw new RangeError(`wasm core: thread slot ${shared.slot} is not one of 0 to ${MAX_THREADS - 1}`);
    }
    // The bytes to skip before this instance's heap (src/wasm/heapSlot.ts).
    const heapReserve = (): number => (shared ? shared.slot * SLOT_BYTES : 0);
    const env = { abort, now, poll, report, iterationDone, heapReserve, ...(shared ? { memory: shared.memory } : {}) };
    const instance = new WebAssembly.Instance(module, { env });
    this.x = instance.exports as unknown as CoreExports;
    this.slot = shared?.slot;
    if (shared && (this.x.heapBase() >= SLOT_BYTES || this.x.heapTop() >= (shared.slot + 1) * SLOT_BYTES)) {
      throw new Error(`wasm core: thread ${shared.slot}'s heap does not fit its ${SLOT_BYTES >> 20} MB slot (src/engine/wasm/smp.ts)`);
    }
  }

  /**
   * Copies the position into the core: its current state and, unless `history` is false, the
   * plies played since it was set up (its state stack: the keys the repetition tests read,
   * and what undo needs to take those plies back).
   */
  setPosition(pos: Position, history = true): void {
    const x = this.x;
    x.setupClear();
    for (let sq = 0; sq < 64; sq++) if (pos.board[sq] !== 0) x.setupPiece(sq, pos.board[sq]!);
    let rooks = 0;
    for (let i = 0; i < 4; i++) if ((pos.castling & (1 << i)) !== 0) rooks |= (pos.castleRook[i]! & 255) << (8 * i);
    x.setupFinish(pos.turn, pos.castling, rooks, pos.epSquare, pos.halfmoves, pos.chess960 ? 1 : 0);
    if (!history) return;
    const st = pos.stack;
    for (let i = 0; i < pos.ply; i++) x.setupHistory(st[i << 2]!, st[(i << 2) + 1]!, st[(i << 2) + 2]!, st[(i << 2) + 3]!);
  }

  /** The position in the core: pieces by square and the scalar state, to compare with a Position. */
  state(): { board: number[]; turn: number; castling: number; epSquare: number; halfmoves: number; ply: number } {
    const x = this.x;
    const board: number[] = [];
    for (let sq = 0; sq < 64; sq++) board.push(x.pieceAt(sq));
    return { board, turn: x.turn(), castling: x.castling(), epSquare: x.epSquare(), halfmoves: x.halfmoves(), ply: x.ply() };
  }

  /** Plays a legal move. */
  play(m: number): void {
    this.x.play(m);
  }

  /** Passes the move (not when in check). */
  playNull(): void {
    this.x.playNull();
  }

  /** Takes back the last move or null move. */
  undo(): void {
    this.x.undo();
  }

  inCheck(): boolean {
    return this.x.inCheck() !== 0;
  }

  isInsufficientMaterial(): boolean {
    return this.x.isInsufficientMaterial() !== 0;
  }

  hasInsufficientMaterial(color: number): boolean {
    return this.x.hasInsufficientMaterial(color) !== 0;
  }

  /** Position.repetitions: earlier occurrences back to the last irreversible move, up to `limit`. */
  repetitions(limit = 2): number {
    return this.x.repetitions(limit);
  }

  /**
   * The search's draw test (src/wasm/draw.ts isDraw), `nullAt` the ply of the line's last null
   * move or -1, `rootPly` the search's root (-1: every earlier position is the search's own).
   */
  isDraw(nullAt = -1, rootPly = -1): boolean {
    return this.x.isDraw(nullAt, rootPly) !== 0;
  }

  hasNonPawnMaterial(): boolean {
    return this.x.hasNonPawnMaterial() !== 0;
  }

  private list(n: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(this.x.moveAt(i));
    return out;
  }

  /** The legal moves, in generation order. */
  legalMoves(): number[] {
    return this.list(this.x.legalMoves());
  }

  /** Computes the side to move's pinned pieces (lo, hi) for the staged calls below. */
  computePins(): [number, number] {
    this.x.computePins();
    return [this.x.pinsLo(), this.x.pinsHi()];
  }

  /** Legality of any 16-bit move; not in check, after computePins. */
  isLegalNotInCheck(m: number): boolean {
    return this.x.isLegalNotInCheck(m) !== 0;
  }

  /** Captures, en passant and promotions in generation order; not in check, after computePins. */
  noisyMoves(): number[] {
    return this.list(this.x.noisyMoves());
  }

  /** Quiet moves and castling in generation order; not in check, after computePins. */
  quietMoves(): number[] {
    return this.list(this.x.quietMoves());
  }

  /** Prepares givesCheck for the position as it is now. */
  prepareCheckInfo(): void {
    this.x.prepareCheckInfo();
  }

  /** Does legal move m give check? After prepareCheckInfo. */
  givesCheck(m: number): boolean {
    return this.x.givesCheck(m) !== 0;
  }

  /** Does legal move m win at least `threshold` in a static exchange? */
  seeGe(m: number, threshold: number): boolean {
    return this.x.seeGe(m, threshold) !== 0;
  }

  /** The Polyglot key of the position in the core, as (lo, hi) int32 halves like Position's. */
  key(): [number, number] {
    return [this.x.keyLo(), this.x.keyHi()];
  }

  /** Perft of the position in the core; `bulk` counts the last ply from the move list. */
  perft(depth: number, bulk = true): number {
    const n = this.x.perft(depth, bulk ? 1 : 0);
    if (n < 0) throw new RangeError(`perft depth ${depth} is too deep`);
    return n;
  }

  /** Static evaluation of the position in the core (side to move's view), as `evaluate`. */
  evaluate(): number {
    return this.x.evaluate();
  }

  /** The same given the material + piece-square sum, as `evaluateWith`. */
  evaluateWith(psqt: number): number {
    return this.x.evaluateWith(psqt);
  }

  /**
   * Evaluates the position `times` times inside the core and returns the sum of the values (a
   * benchmark of the evaluation alone; undefined in a build older than this export).
   */
  evaluateRepeat(times: number): number | undefined {
    return this.x.evaluateRepeat?.(times);
  }

  lazyEval(psqt: number): number {
    return this.x.lazyEval(psqt);
  }

  materialPhase(): number {
    return this.x.materialPhase();
  }

  psqtFromScratch(): number {
    return this.x.psqtFromScratch();
  }

  /** The change of the material + piece-square sum by a legal move of the position in the core. */
  psqtDelta(move: number): number {
    return this.x.psqtDelta(move);
  }

  clearPawnHash(): void {
    this.x.clearPawnHash();
  }

  /**
   * Replaces the evaluation weights: `weights` is [mg0, eg0, mg1, eg1, ...] as the table
   * `WEIGHTS` of src/engine/evalParams.ts (already rounded and clamped there).
   */
  setWeights(weights: Int32Array): void {
    const n = 2 * this.x.weightPairs();
    if (weights.length !== n) throw new RangeError(`expected ${n} weights, got ${weights.length}`);
    new Int32Array(this.x.memory.buffer, this.x.weightsPtr(), n).set(weights);
    this.x.applyWeights();
  }

  /**
   * The search parameters the core knows, by index (src/wasm/search/params.ts), with their
   * current values: an empty list from a build older than them.
   */
  searchParams(): { name: string; value: number }[] {
    const x = this.x;
    if (!x.searchParamCount || !x.searchParamName || !x.searchParam) return [];
    const out: { name: string; value: number }[] = [];
    for (let i = 0, n = x.searchParamCount(); i < n; i++) out.push({ name: readString(x.memory, x.searchParamName(i)), value: x.searchParam(i) });
    return out;
  }

  /**
   * Sets the search parameters: `values` by index, as the table of src/engine/searchParams.ts
   * (already checked against its ranges there). Only values that differ are set, so the
   * reduction table is rebuilt only when lmrBase or lmrDiv changes.
   */
  setSearchParams(values: Int32Array): void {
    const x = this.x;
    if (!x.setSearchParam || !x.searchParam || !x.searchParamCount) throw new Error('this build of the core has no settable search parameters');
    if (values.length !== x.searchParamCount()) throw new RangeError(`expected ${x.searchParamCount()} search parameters, got ${values.length}`);
    for (let i = 0; i < values.length; i++) if (x.searchParam(i) !== values[i]) x.setSearchParam(i, values[i]!);
  }

  /**
   * Perft that checks the incremental key against one computed from scratch at every node,
   * and that undo restores it: the leaf count, the number of bad keys, and the XOR of all
   * leaf keys (lo, hi).
   */
  perftCheckKeys(depth: number): { nodes: number; keyErrors: number; leafKeys: [number, number] } {
    const nodes = this.x.perftCheckKeys(depth);
    return { nodes, keyErrors: this.x.keyErrorCount(), leafKeys: [this.x.leafKeysLo(), this.x.leafKeysHi()] };
  }

  /**
   * Replaces the core's hash table by an empty one of `megabytes` (rounded down to a power of
   * two, at most 512: one array holds less than 1 GB). Memory is never given back: a smaller
   * table reuses the larger one's. Throws if the memory cannot grow; the table is then unchanged.
   */
  setHashSize(megabytes: number): void {
    if (this.slot === undefined) this.x.setHashSize(megabytes);
    else {
      // The shared table: thread 0 empties it.
      this.attachSharedTable(megabytes);
      if (this.slot === 0) this.x.clearTable();
    }
  }

  /**
   * Searches with the shared table of `megabytes` (at most MAX_SHARED_HASH_MB) as it is; the
   * host grew the memory for it first (smp.ts growForTable).
   */
  attachSharedTable(megabytes: number): void {
    if (this.slot === undefined) throw new Error('wasm core: not an instance of the shared build');
    this.x.attachTable(TABLE_PTR, Math.min(megabytes, MAX_SHARED_HASH_MB));
  }

  /** Forgets everything the core's search learned: hash table, histories, pawn hash (Engine.newGame). */
  newGame(): void {
    this.x.newGame();
  }

  /**
   * The evaluation of the position in the core with its trace (the tuner's data): each weight
   * pair's coefficient in each of the evaluation's TRACE_SUMS sums (pair k of sum s at
   * s · pairs + k: the linear sum with White's count minus Black's, White's and Black's king
   * danger, the complexity; src/engine/evalParams.ts; a view into the core's memory, valid
   * until the next call), the phase, the endgame scale, whether a special endgame rule decided (not
   * linear), the value from White's point of view, and the endgame scales for the endgame half
   * favouring White and Black.
   */
  evaluateTrace(): { coef: Int32Array; phase: number; scale: number; special: boolean; white: number; scaleW: number; scaleB: number } {
    const x = this.x;
    if (x.traceBuild() === 0) throw new Error('wasm core: only the trace build (core-trace.wasm) traces the evaluation');
    const white = x.evaluateTrace();
    return {
      coef: new Int32Array(x.memory.buffer, x.traceCoefPtr(), TRACE_SUMS * x.weightPairs()),
      phase: x.tracePhase(),
      scale: x.traceScale(),
      special: x.traceSpecial() !== 0,
      white,
      scaleW: x.endgameScaleFor(1),
      scaleB: x.endgameScaleFor(-1),
    };
  }

  /**
   * The engine's quiescence search on the position in the core (not in check), full window,
   * with a small table of its own emptied first: its score (side to move's view) and the
   * captures it expects (its principal variation).
   */
  resolveQuiet(): { score: number; pv: number[] } {
    const x = this.x;
    const score = x.resolveQuiet();
    const pv: number[] = [];
    for (let i = 0, n = x.resolvedLength(); i < n; i++) pv.push(x.resolvedMove(i));
    return { score, pv };
  }

  /** Makes this instance thread `index` of a parallel search (0: the main one; others skip iterations). */
  setThreadIndex(index: number): void {
    this.x.setThreadIndex(index);
  }

  /** Nodes of the running (or last) search, readable from a hook while it runs. */
  nodes(): number {
    return this.x.searchNodes();
  }

  /**
   * Searches the position in the core (iterative deepening, as Engine.go) within `limits`,
   * keeping the hash table and histories of earlier searches.
   */
  search(limits: WasmSearchLimits = {}, hooks: WasmSearchHooks = {}): WasmSearchResult {
    const x = this.x;
    const soft = limits.softMs ?? Infinity;
    const timed = limits.timed ?? soft !== Infinity;
    x.clearSearchMoves();
    for (const m of limits.searchmoves ?? []) x.addSearchMove(m);
    if (limits.rootBonus) x.setRootBonus(limits.rootBonus.move, limits.rootBonus.cp);
    const flags = (hooks.report ? 1 : 0) | (hooks.iterationDone ? 2 : 0);
    this.hooks = hooks;
    try {
      const bestMove = x.searchWith(
        limits.depth ?? 0,
        limits.nodes ?? 0,
        soft,
        limits.hardMs ?? Infinity,
        timed ? 1 : 0,
        limits.multiPV ?? 1,
        limits.startMs ?? 0,
        limits.ponder ? 1 : 0,
        flags,
      );
      return this.result(bestMove);
    } finally {
      this.hooks = {};
      x.clearSearchMoves();
      x.setRootBonus(0, 0);
    }
  }

  /** The PV of root line `line` (0-based, MultiPV order) of the running search (in a report). */
  linePv(line: number): number[] {
    const x = this.x;
    const pv: number[] = [];
    for (let k = 0, n = x.linePvLength(line); k < n; k++) pv.push(x.linePvMove(line, k));
    return pv;
  }

  /**
   * The first `count` lines of the last search (MultiPV order) that have a score: move, score
   * (this iteration's, else the last completed one's), PV.
   */
  lines(count: number): { move: number; score: number; pv: number[] }[] {
    const x = this.x;
    const out: { move: number; score: number; pv: number[] }[] = [];
    for (let i = 0; i < Math.min(count, x.rootMoveCount()); i++) {
      const s = x.lineScore(i) !== -32001 ? x.lineScore(i) : x.linePrevScore(i);
      if (s !== -32001) out.push({ move: x.lineMove(i), score: s, pv: this.linePv(i) });
    }
    return out;
  }

  /** The hash table's move for a position key (lo, hi as Position's keyLo, keyHi), or 0. */
  ttMove(keyLo: number, keyHi: number): number {
    return this.x.ttMove(keyLo, keyHi);
  }

  /**
   * The hash table itself, as the search uses it (for its tests): store an entry (score as seen
   * `ply` plies from the root; bound 1 upper, 2 lower, 3 exact), probe one (null on a miss),
   * start a new search (older entries age), and the bytes of a key's bucket (two 16-byte
   * entries) in the core's memory.
   */
  tableStore(keyLo: number, keyHi: number, ply: number, e: { move: number; score: number; eval: number; depth: number; bound: number; pv?: boolean }): void {
    this.x.ttStore(keyLo, keyHi, ply, e.move, e.score, e.eval, e.depth, e.bound, e.pv ? 1 : 0);
  }
  tableProbe(keyLo: number, keyHi: number, ply: number): { move: number; score: number; eval: number; depth: number; bound: number; pv: boolean } | null {
    const x = this.x;
    if (x.ttProbe(keyLo, keyHi, ply) === 0) return null;
    return { move: x.ttField(0), score: x.ttField(1), eval: x.ttField(2), depth: x.ttField(3), bound: x.ttField(4), pv: x.ttField(5) !== 0 };
  }
  tableNewSearch(): void {
    this.x.ttNewSearch();
  }
  tableBucket(keyLo: number): Int32Array {
    return new Int32Array(this.x.memory.buffer, this.x.ttBucketPtr(keyLo), 8);
  }

  /**
   * Searches the position in the core to `depth` with a fresh hash table, histories and pawn
   * hash: what runBench does for each position (Engine newGame, go).
   */
  searchFresh(depth: number): WasmSearchResult {
    return this.result(this.x.searchFresh(depth));
  }

  /**
   * Stops a running search. The core searches on the caller's thread, so this only reaches a
   * search running on another thread over shared memory; otherwise use limits.
   */
  stop(): void {
    new Int32Array(this.x.memory.buffer, this.x.stopFlagPtr(), 1)[0] = 1;
  }

  /** Permille of the hash table written by the last search (UCI hashfull). */
  hashfull(): number {
    return this.x.hashfull();
  }

  private result(bestMove: number): WasmSearchResult {
    const x = this.x;
    const pv: number[] = [];
    if (bestMove !== 0) for (let i = 0, n = x.pvLength(); i < n; i++) pv.push(x.pvMove(i));
    return {
      bestMove,
      score: x.searchScore(),
      depth: x.searchDepth(),
      seldepth: x.searchSeldepth(),
      nodes: x.searchNodes(),
      pv,
      stopped: x.searchStopped() !== 0,
      hooked: x.searchHooked() !== 0,
      rootMoves: x.rootMoveCount(),
    };
  }
}

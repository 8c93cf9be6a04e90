/**
 * The engine's search, which runs in the WebAssembly core (src/wasm/search): what Engine.go
 * runs. This side keeps the core's copies of the evaluation weights (the table of
 * evalParams.ts) and of the search parameters (searchParams.ts; the core's own list is
 * src/wasm/search/params.ts) current, passes the controller's signals (stop, ponderhit, a
 * newer search) through env.poll, and builds the info lines and the result, reading the PVs
 * from the core.
 *
 * Browser-safe: the caller compiles the module (src/node/wasmCore.ts in Node).
 */
import { isLegal } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { WEIGHTS, weightsVersion } from './evalParams.js';
import { SEARCH_PARAM_VALUES, searchParamsVersion } from './searchParams.js';
import { now, type GoLimits } from './limits.js';
import { MATE_IN_MAX, mateInMoves } from './score.js';
import type { SearchInfo, SearchResult } from './searchResult.js';
import { NODE_UNIT, SIG_GEN, SIG_NODES, SIG_NODES_GEN, SIG_PONDER, SIG_STOP, waitForStopSignal } from './signals.js';
import { POLL_NODES, POLL_PONDER, POLL_STOP, WasmCore } from './wasm/core.js';
import { MAX_SHARED_HASH_MB, WASM_MAX_HASH_MB } from './wasm/smp.js';

export interface WasmGoOptions {
  /** MultiPV lines (default 1). */
  multiPV?: number;
  /** Soft and hard time limits in ms (Infinity: none): no iteration starts past the soft one, the search ends at the hard one. */
  softMs: number;
  hardMs: number;
  onInfo?: (info: SearchInfo) => void;
  /** Book-aware search: true when the position (at the end of a PV prefix) is a good book position. */
  bookKnows?: () => boolean;
  bookMinDepth?: number;
  /** Threads of a parallel search (this one the main thread): their nodes count in info lines. */
  threads?: number;
  /** This root move is chosen when it scores within `cp` centipawns of the best (BookReturn). */
  rootBonus?: { move: number; cp: number };
}

export { WASM_MAX_HASH_MB };

export class WasmSearcher {
  readonly core: WasmCore;
  /** weightsVersion of the weights in the core (-1: never pushed). */
  private weightsAt = -1;
  /** searchParamsVersion of the search parameters in the core (a new core has the defaults: version 0). */
  private searchParamsAt = 0;

  /** A core of the shared build starts with the shared table as it is (not emptied: others may be using it). */
  constructor(core: WasmCore, hashMB: number) {
    this.core = core;
    if (core.slot === undefined) this.setHashSize(hashMB);
    else core.attachSharedTable(Math.min(hashMB, MAX_SHARED_HASH_MB));
  }

  /**
   * An empty hash table of `megabytes` in the core, at most 512 MB (a larger Hash gives the
   * core 512; a shared table, at most 1024); if the core's memory cannot grow that far, it
   * keeps the size it has (emptied).
   */
  setHashSize(megabytes: number): void {
    try {
      this.core.setHashSize(Math.min(megabytes, this.core.slot === undefined ? WASM_MAX_HASH_MB : MAX_SHARED_HASH_MB));
    } catch {
      this.core.newGame();
    }
  }

  /** Pushes the evaluation weights and the search parameters into the core if they changed since the last push. */
  sync(): void {
    if (this.weightsAt !== weightsVersion) {
      this.core.setWeights(WEIGHTS);
      this.weightsAt = weightsVersion;
    }
    if (this.searchParamsAt !== searchParamsVersion) {
      this.core.setSearchParams(SEARCH_PARAM_VALUES);
      this.searchParamsAt = searchParamsVersion;
    }
  }

  /** Static evaluation of `pos` (side to move's view) with the current weights. */
  evaluate(pos: Position): number {
    this.sync();
    this.core.setPosition(pos, false);
    return this.core.evaluate();
  }

  /**
   * Searches `pos` (with its history) as the main thread:
   * `signals` as the controller's (SIG_STOP, SIG_PONDER, SIG_GEN).
   */
  go(pos: Position, signals: Int32Array, limits: GoLimits, opts: WasmGoOptions): SearchResult {
    this.sync();
    const core = this.core;
    core.setPosition(pos, true);
    const t0 = now();
    const start = limits.startTime !== undefined && limits.startTime <= t0 ? limits.startTime : t0;
    const gen = Atomics.load(signals, SIG_GEN);
    // Helpers publish their nodes in the signal array (goHelper); the main thread adds up those
    // of this search (a helper still ending an older one may publish that one's count).
    const threads = opts.threads ?? 1;
    const helperNodes = (): number => {
      let n = 0;
      for (let i = 1; i < threads; i++) if (Atomics.load(signals, SIG_NODES_GEN + i) === gen) n += Atomics.load(signals, SIG_NODES + i) * NODE_UNIT;
      return n;
    };
    // `go nodes N` counts the nodes of all the threads, as Stockfish does: the main thread ends
    // the search once they have searched N between them (its own count alone would let each
    // helper add about as many again).
    const nodeLimit = threads > 1 && limits.nodes !== undefined && limits.nodes > 0 ? limits.nodes : 0;
    const poll = (): number =>
      (Atomics.load(signals, SIG_STOP) !== 0 || Atomics.load(signals, SIG_GEN) !== gen ? POLL_STOP : 0) |
      (Atomics.load(signals, SIG_PONDER) !== 0 ? POLL_PONDER : 0) |
      (nodeLimit > 0 && core.nodes() + helperNodes() >= nodeLimit ? POLL_NODES : 0);
    const onInfo = opts.onInfo;
    const report = onInfo
      ? (line: number, depth: number, bound: number, score: number, seldepth: number, ownNodes: number): void => {
          const nodes = ownNodes + helperNodes();
          const time = now() - start;
          const info: SearchInfo = {
            depth,
            seldepth: Math.max(seldepth, depth),
            multipv: line + 1,
            score,
            nodes,
            nps: Math.round((nodes * 1000) / Math.max(1, time)),
            time,
            hashfull: core.hashfull(),
            pv: core.linePv(line),
          };
          if (score >= MATE_IN_MAX || score <= -MATE_IN_MAX) info.mate = mateInMoves(score);
          if (bound !== 0) info.bound = bound === 1 ? 'upper' : 'lower';
          onInfo(info);
        }
      : undefined;

    const mate = limits.mate ?? 0;
    const bookKnows = opts.bookKnows;
    let bookPv = false;
    const iterationDone =
      mate > 0 || bookKnows
        ? (depth: number, score: number): boolean => {
            if (mate > 0 && score >= MATE_IN_MAX && mateInMoves(score) <= mate) return true;
            if (bookKnows && depth >= (opts.bookMinDepth ?? 4) && pvReachesBook(pos, core.linePv(0), bookKnows)) {
              bookPv = true;
              return true;
            }
            return false;
          }
        : undefined;

    const r = core.search(
      {
        depth: limits.depth !== undefined && limits.depth > 0 ? limits.depth : 0,
        nodes: limits.nodes !== undefined && limits.nodes > 0 ? limits.nodes : 0,
        softMs: opts.softMs,
        hardMs: opts.hardMs,
        // A fixed movetime is a promise to think that long.
        timed: opts.softMs !== Infinity && !(limits.movetime !== undefined && limits.movetime > 0),
        startMs: start,
        ponder: limits.ponder === true,
        searchmoves: limits.searchmoves,
        multiPV: opts.multiPV ?? 1,
        ...(opts.rootBonus ? { rootBonus: opts.rootBonus } : {}),
      },
      { poll, report, iterationDone },
    );
    if (!r.stopped) waitForStopSignal(signals, gen, limits);
    const result: SearchResult = { bestMove: 0, ponderMove: 0, score: r.score, depth: 0, seldepth: 0, nodes: 0, time: 0, pv: [] };
    if (r.bestMove === 0) return result;
    result.bestMove = r.bestMove;
    result.ponderMove = r.pv.length > 1 ? r.pv[1]! : 0;
    result.depth = r.depth;
    result.seldepth = r.seldepth;
    result.nodes = r.nodes + helperNodes();
    result.time = now() - start;
    result.pv = r.pv;
    if (bookPv) result.reason = 'book-pv';
    // All lines when more than one was searched (MultiPV clamped to the root moves).
    const lines = Math.min(opts.multiPV ?? 1, r.rootMoves);
    if (lines > 1) result.lines = core.lines(lines);
    return result;
  }

  /**
   * Searches `pos` as helper `index` of a parallel search (Lazy SMP): no limits, no output,
   * only the shared hash table filled, until the controller's stop (raised by the main thread
   * when it is done) or a newer search. Its nodes go to the signal array for the main
   * thread's totals (in NODE_UNITs, every 512 nodes).
   */
  goHelper(pos: Position, signals: Int32Array, index: number): void {
    this.sync();
    const core = this.core;
    core.setPosition(pos, true);
    const gen = Atomics.load(signals, SIG_GEN);
    const slot = SIG_NODES + index;
    // The slot counts this search from now: emptied before it is tagged with its generation, so
    // the main thread never reads an older search's count under this one's tag.
    Atomics.store(signals, slot, 0);
    Atomics.store(signals, SIG_NODES_GEN + index, gen);
    const poll = (): number => {
      Atomics.store(signals, slot, Math.floor(core.nodes() / NODE_UNIT));
      return Atomics.load(signals, SIG_STOP) !== 0 || Atomics.load(signals, SIG_GEN) !== gen ? POLL_STOP : 0;
    };
    core.search({ softMs: Infinity, hardMs: Infinity, timed: false }, { poll });
  }

  /** A legal reply to `move` from the core's hash table, or 0. */
  ponderFromHash(pos: Position, move: number): number {
    pos.play(move);
    const m = this.core.ttMove(pos.keyLo, pos.keyHi);
    const reply = m !== 0 && isLegal(pos, m) ? m : 0;
    pos.undo();
    return reply;
  }
}

/** Plays `pv` on `pos`, asking the book after each move; true if any position is known. */
function pvReachesBook(pos: Position, pv: readonly number[], bookKnows: () => boolean): boolean {
  let played = 0;
  let found = false;
  for (const m of pv) {
    pos.play(m);
    played++;
    if (bookKnows()) {
      found = true;
      break;
    }
  }
  while (played-- > 0) pos.undo();
  return found;
}

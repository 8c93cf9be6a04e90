/**
 * The engine facade: what protocols, commands and the web worker use. It owns the position,
 * the hash table and one search thread, and runs a search synchronously:
 *
 *     const engine = new Engine({ hashMB: 64 });
 *     engine.setPosition(STARTING_FEN, ['e2e4', 'e7e5']);
 *     const r = engine.go({ movetime: 1000 }, (info) => console.log(info.depth, info.pv));
 *     makeUci(r.bestMove);
 *
 * `go` blocks; a front end that must stay responsive (UCI `isready`, `stop`) runs the engine
 * in a worker and talks to it through `signals`, an Int32Array that may live in a
 * SharedArrayBuffer: SIG_STOP = 1 stops the search, SIG_PONDER = 0 is a ponderhit.
 *
 * Given the compiled WebAssembly core (`wasm`, src/node/wasmCore.ts wasmCoreModule() in Node),
 * `go` searches in the core (wasmSearch.ts, about three times as fast, node for node the same
 * search) on one thread (MultiPV, Skill Level, pondering and the rest included). Given the
 * shared build and a shared memory (`smp`), a parallel search (Lazy SMP) runs in the core too,
 * one instance per thread over one hash table (wasm/smp.ts); without them the main thread
 * searches alone in its core. Only an engine built without the core runs the TypeScript
 * search (Lazy SMP included). `lastCore` tells which ran.
 */
import { isLegal, legalMoves } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { positionFromFen, STARTING_FEN } from '../notation/fen.js';
import { makeSan } from '../notation/san.js';
import { parseUci } from '../notation/uci.js';
import { type BookProbe } from './bookProbe.js';
import { BookReturn, type ReturnPlan } from './bookReturn.js';
import { clearPawnHash } from './eval/terms/pawns.js';
import { evaluate } from './eval/evaluate.js';
import { initKpk } from './eval/terms/kpk.js';
import { iterate, type SearchInfo, type SearchResult } from './search/iterate.js';
import { type GoLimits } from './search/limits.js';
import { MATE_IN_MAX } from './score.js';
import { SIG_PONDER, SIG_SIZE, SIG_STOP, SearchThread } from './search/thread.js';
import { applySkill, type SkillSettings } from './skill.js';
import { planTime } from './timeman.js';
import { TranspositionTable } from './tt.js';
import { WasmCore } from './wasm/core.js';
import { WasmSearcher } from './wasmSearch.js';

export type { GoLimits, SearchInfo, SearchResult };

export interface EngineOptions {
  /** Hash table size in MB (default 16). */
  hashMB?: number;
  /** Signal array to share with a controller (default: a private one). */
  signals?: Int32Array;
  /** A hash table buffer (SharedArrayBuffer) shared with the other threads of a parallel search. */
  ttBuffer?: ArrayBufferLike;
  /** This engine's thread number in a parallel search (0: the main thread). */
  threadIndex?: number;
  /** The compiled WebAssembly core: searches run in it when they can (see Engine.go). */
  wasm?: WebAssembly.Module;
  /**
   * This thread's share of a parallel search in the WebAssembly core: the shared build
   * (core-shared.wasm) and the memory every thread instantiates it over (wasm/smp.ts).
   */
  smp?: { module: () => WebAssembly.Module; memory: WebAssembly.Memory };
}

export interface EngineSettings {
  multiPV: number;
  /** Subtracted from every move's time (ms). */
  moveOverhead: number;
  chess960: boolean;
  /** Play moves from the book when OwnBook is on and a book is loaded. */
  ownBook: boolean;
  /** Leave the book after this many plies of the game (0: never). */
  bookDepth: number;
  /** Book-aware search: stop deepening when the PV reaches a good book position. */
  bookAwareSearch: boolean;
  /** Out of book, play a move heading back into the book when it costs at most bookReturnMargin (bookReturn.ts). */
  bookReturn: boolean;
  /** Centipawns a return move may cost against the best move. */
  bookReturnMargin: number;
  /** Plies (both sides) within which a book position must be reachable. */
  bookReturnPlies: number;
  /** Strength limit; level 20 is full strength. */
  skill: SkillSettings;
}

export class Engine {
  readonly tt: TranspositionTable;
  readonly thread: SearchThread;
  readonly signals: Int32Array;
  readonly settings: EngineSettings = {
    multiPV: 1,
    moveOverhead: 50,
    chess960: false,
    ownBook: false,
    bookDepth: 0,
    bookAwareSearch: false,
    bookReturn: false,
    bookReturnMargin: 30,
    bookReturnPlies: 4,
    skill: { level: 20, elo: 0 },
  };
  book: BookProbe | null = null;
  /** The book's positions indexed for BookReturn (built at the first use for the current book). */
  bookReturn: BookReturn | null = null;
  /** Plies played in the game before the current position (for BookDepth). */
  gamePly = 0;

  /** The WebAssembly search (null: the TypeScript search always). */
  readonly wasm: WasmSearcher | null;
  /** Which search ran the last `go` ('none': a book move, or no search yet). */
  lastCore: 'wasm' | 'ts' | 'none' = 'none';
  /** The shared build and memory for Threads > 1, and this thread's core in it once made. */
  private readonly smpSetup: { module: () => WebAssembly.Module; memory: WebAssembly.Memory } | undefined;
  private smpSearcher: WasmSearcher | null = null;
  /** The size of the shared hash table (MB). */
  private smpHashMB: number;

  /** Signals belong to a controller that clears them itself before each search. */
  private readonly sharedSignals: boolean;
  /**
   * The TypeScript table holds entries: a search ran in TypeScript since it was last emptied.
   * With the core searching, the table stays untouched, and emptying it would commit every page
   * of it (a fresh ArrayBuffer costs no memory until written): Hash N would cost twice N.
   * The same holds the other way for the core's table when a parallel search runs in TypeScript.
   */
  private tsTableUsed = false;
  private coreUsed = false;

  constructor(opts: EngineOptions = {}) {
    this.sharedSignals = opts.signals !== undefined;
    const r = positionFromFen(STARTING_FEN);
    if (!r.ok) throw r.error;
    this.tt = new TranspositionTable(opts.hashMB ?? 16, opts.ttBuffer);
    this.signals = opts.signals ?? new Int32Array(SIG_SIZE);
    this.thread = new SearchThread(r.value, this.tt, this.signals);
    this.thread.index = opts.threadIndex ?? 0;
    const hashMB = opts.ttBuffer ? megabytesOf(opts.ttBuffer) : (opts.hashMB ?? 16);
    this.wasm = opts.wasm ? new WasmSearcher(new WasmCore(opts.wasm), hashMB) : null;
    this.smpSetup = opts.smp;
    this.smpHashMB = hashMB;
    // Build the KPK table before any search, so that no search pauses for it.
    initKpk();
  }

  /** The position searched (replaced by setPositionFrom, changed in place by setPosition). */
  get pos(): Position {
    return this.thread.pos;
  }

  /** Sets the position from a FEN and UCI moves; throws a ParseError naming the bad input. */
  setPosition(fen: string = STARTING_FEN, moves: readonly string[] = []): void {
    const r = positionFromFen(fen, this.pos);
    if (!r.ok) throw r.error;
    if (this.settings.chess960) this.pos.chess960 = true;
    for (const mv of moves) {
      const m = parseUci(this.pos, mv);
      if (!m.ok) throw m.error;
      this.pos.play(m.value);
    }
    this.gamePly = (this.pos.startFullmoves - 1) * 2 + this.pos.startTurn + this.pos.ply;
  }

  /** Copies another position (with its history, for repetitions) into the engine. */
  setPositionFrom(pos: Position): void {
    this.thread.pos = pos.clone();
    if (this.settings.chess960) this.thread.pos.chess960 = true;
    this.gamePly = (this.pos.startFullmoves - 1) * 2 + this.pos.startTurn + this.pos.ply;
  }

  /**
   * This thread's core of a parallel search (made on first use: an instance of the shared
   * build in its heap slot, over the shared table), or null without the shared build.
   */
  parallelCore(): WasmSearcher | null {
    const setup = this.smpSetup;
    if (!setup) return null;
    if (!this.smpSearcher) {
      const core = new WasmCore(setup.module(), { memory: setup.memory, slot: this.thread.index });
      core.setThreadIndex(this.thread.index);
      this.smpSearcher = new WasmSearcher(core, this.smpHashMB);
    }
    return this.smpSearcher;
  }

  /** Forgets everything learned: hash table, histories, pawn hash. */
  newGame(): void {
    this.smpSearcher?.core.newGame();
    // A table no TypeScript search wrote since it was emptied is still empty (and its pages, never
    // touched, cost no memory): a helper of a parallel search in the core never writes it.
    if (this.tsTableUsed) this.tt.clear();
    this.tsTableUsed = false;
    this.thread.hist.clear();
    clearPawnHash();
    if (this.coreUsed) this.wasm?.core.newGame();
    this.coreUsed = false;
  }

  resizeHash(megabytes: number): void {
    this.tt.attach(new ArrayBuffer(TranspositionTable.bytesFor(megabytes)));
    this.wasm?.setHashSize(megabytes);
  }

  /**
   * Uses `buffer` (e.g. a SharedArrayBuffer from the controller) as the hash table; the
   * WebAssembly core, which cannot share it, gets an empty table of its size.
   */
  attachHash(buffer: ArrayBufferLike): void {
    this.tt.attach(buffer);
    this.wasm?.setHashSize(megabytesOf(buffer));
    // The shared core's table has the same size (the controller grew the shared memory for it).
    this.smpHashMB = megabytesOf(buffer);
    this.smpSearcher?.setHashSize(this.smpHashMB);
  }

  /** Static evaluation of the current position (side to move's view). */
  evaluate(): number {
    return evaluate(this.pos);
  }

  /**
   * Searches the current position within `limits` and returns the best move. In book, with
   * OwnBook on and a timed or plain `go`, the book move is returned without searching.
   *
   * Parallel search (Lazy SMP): `threads` engines on different threads share one hash table
   * and one signal array. Each runs `go` on the same position: the main one (thread index 0,
   * told the thread count) as usual, the others as helpers. When the main search ends it
   * raises SIG_STOP, which ends the helpers.
   */
  go(limits: GoLimits, onInfo?: (info: SearchInfo) => void, parallel?: { threads: number; helper: boolean }): SearchResult {
    this.thread.threadCount = parallel?.threads ?? 1;
    // Given the shared build, every search runs in this thread's instance of it, whatever the
    // thread count (one table, one core; with one thread it searches as the normal build does).
    const smp = this.parallelCore();
    if (parallel?.helper && smp) {
      this.lastCore = 'wasm';
      smp.goHelper(this.pos, this.signals, this.thread.index);
      return { bestMove: 0, ponderMove: 0, score: 0, depth: 0, seldepth: 0, nodes: 0, time: 0, pv: [] };
    }
    // With the core but without the shared build (no shared memory), one thread searches:
    // a helper has nothing to do, and the main thread searches alone in its own core.
    if (!smp && this.wasm && this.thread.threadCount > 1) {
      if (parallel?.helper) {
        this.lastCore = 'none';
        return { bestMove: 0, ponderMove: 0, score: 0, depth: 0, seldepth: 0, nodes: 0, time: 0, pv: [] };
      }
      this.thread.threadCount = 1;
    }
    if (parallel?.helper) {
      this.lastCore = 'ts';
      this.tsTableUsed = true;
      return iterate(this.thread, { ...limits, depth: undefined, nodes: undefined, mate: undefined }, {
        multiPV: 1,
        softMs: Infinity,
        hardMs: Infinity,
        helper: true,
      });
    }
    if (!this.sharedSignals) {
      Atomics.store(this.signals, SIG_STOP, 0);
      Atomics.store(this.signals, SIG_PONDER, limits.ponder ? 1 : 0);
    }
    const s = this.settings;
    if (s.ownBook && this.book && !limits.infinite && !limits.ponder && (s.bookDepth === 0 || this.gamePly < s.bookDepth)) {
      const m = this.book.choose(this.pos, limits.searchmoves);
      if (m !== 0) {
        this.lastCore = 'none';
        if (this.thread.threadCount > 1) this.stop();
        return { bestMove: m, ponderMove: 0, score: 0, depth: 0, seldepth: 0, nodes: 0, time: 0, pv: [m], reason: 'book' };
      }
      // Terra's avoid list: moves set to "never" or with bad own results stay out of the search
      // too, unless nothing else is legal.
      const avoided = this.book.avoided(this.pos);
      if (avoided.length > 0) {
        const allowed = (limits.searchmoves && limits.searchmoves.length > 0 ? limits.searchmoves : legalMoves(this.pos)).filter((x) => !avoided.includes(x));
        if (allowed.length > 0) limits = { ...limits, searchmoves: allowed };
      }
    }
    const back = this.returnPlan(limits);
    const result = this.search(limits, onInfo);
    return back === undefined ? result : this.considerReturn(back, result, limits, onInfo);
  }

  /** The search proper: the WebAssembly core (its shared build when there is one), else the TypeScript search. */
  private search(limits: GoLimits, onInfo?: (info: SearchInfo) => void): SearchResult {
    const s = this.settings;
    const plan = planTime(limits, this.pos.turn, s.moveOverhead);
    const skilled = applySkill(s.skill, limits, plan);
    const book = this.book;
    const rootSide = this.pos.turn;
    const multiPV = Math.max(s.multiPV, skilled.multiPV);
    const bookKnows = s.bookAwareSearch && book ? (): boolean => book.knowsWell(this.pos, rootSide) : undefined;
    const wasm = this.wasm;
    const smp = this.parallelCore();
    if (wasm && !smp && this.thread.threadCount === 1) {
      this.lastCore = 'wasm';
      this.coreUsed = true;
      const result = wasm.go(this.pos, this.signals, skilled.limits, { multiPV, softMs: skilled.plan.softMs, hardMs: skilled.plan.hardMs, onInfo, bookKnows });
      if (skilled.pick) skilled.pick(result);
      if (result.bestMove !== 0 && result.ponderMove === 0) result.ponderMove = wasm.ponderFromHash(this.pos, result.bestMove);
      return result;
    }
    if (smp) {
      // The main thread of a search in the shared core; its end stops the helpers, if any.
      this.lastCore = 'wasm';
      const threads = this.thread.threadCount;
      const result = smp.go(this.pos, this.signals, skilled.limits, { multiPV, softMs: skilled.plan.softMs, hardMs: skilled.plan.hardMs, onInfo, bookKnows, threads });
      if (threads > 1) this.stop();
      if (skilled.pick) skilled.pick(result);
      if (result.bestMove !== 0 && result.ponderMove === 0) result.ponderMove = smp.ponderFromHash(this.pos, result.bestMove);
      return result;
    }
    this.lastCore = 'ts';
    this.tsTableUsed = true;
    const result = iterate(this.thread, skilled.limits, {
      multiPV,
      softMs: skilled.plan.softMs,
      hardMs: skilled.plan.hardMs,
      onInfo,
      bookKnows,
    });
    if (this.thread.threadCount > 1) this.stop();
    if (skilled.pick) skilled.pick(result);
    if (result.bestMove !== 0 && result.ponderMove === 0) result.ponderMove = this.ponderFromHash(result.bestMove);
    return result;
  }

  /**
   * BookReturn, before the search: out of book (the book has no move here) with a plain timed
   * or fixed search on one thread, the best return into the book within BookReturnPlies.
   */
  private returnPlan(limits: GoLimits): ReturnPlan | undefined {
    const s = this.settings;
    const book = this.book;
    if (!s.bookReturn || !book || book.failure !== undefined || limits.infinite || limits.ponder || limits.searchmoves || this.thread.threadCount > 1) return undefined;
    if (book.source.candidates(this.pos).length > 0) return undefined;
    try {
      if (this.bookReturn === null || this.bookReturn.source !== book.source) this.bookReturn = new BookReturn(book.source);
      return this.bookReturn.plan(this.pos, s.bookReturnPlies);
    } catch {
      // A book that fails while indexed (a damaged entry read on disk) plays no part in the search.
      return undefined;
    }
  }

  /**
   * BookReturn, after the search: the return move is played when the search, asked about it
   * alone at the depth the full search reached (and in no more time than that search took),
   * finds it at most BookReturnMargin centipawns worse than the best move.
   */
  private considerReturn(back: ReturnPlan, best: SearchResult, limits: GoLimits, onInfo?: (info: SearchInfo) => void): SearchResult {
    const san = this.lineSan(back.line);
    const where = `book in ${back.plies} ${back.plies === 1 ? 'ply' : 'plies'} (${san}; opponent ${(100 * back.cooperation).toFixed(0)}%, result ${back.result.toFixed(2)})`;
    if (best.bestMove === back.move) return { ...best, note: `BookReturn: the best move heads for ${where}` };
    if (best.bestMove === 0 || Math.abs(best.score) >= MATE_IN_MAX || Atomics.load(this.signals, SIG_STOP) !== 0) return best;
    const only: GoLimits = { searchmoves: [back.move], depth: Math.max(1, best.depth), movetime: Math.max(10, Math.ceil(best.time)) };
    if (limits.nodes !== undefined) only.nodes = limits.nodes;
    const alt = this.search(only, onInfo);
    if (alt.bestMove !== back.move) return best;
    const cost = best.score - alt.score;
    const margin = this.settings.bookReturnMargin;
    if (cost > margin) return { ...best, note: `BookReturn: ${san.split(' ')[0]} would head for ${where} but costs ${cost} cp (margin ${margin}); playing the best move` };
    return { ...alt, note: `BookReturn: playing ${san.split(' ')[0]} (costs ${cost} cp against the best move, margin ${margin}) toward ${where}` };
  }

  /** A line in SAN from the current position. */
  private lineSan(line: readonly number[]): string {
    const out: string[] = [];
    for (const m of line) {
      out.push(makeSan(this.pos, m));
      this.pos.play(m);
    }
    for (let i = 0; i < line.length; i++) this.pos.undo();
    return out.join(' ');
  }

  /** Stops a running search (only meaningful when `go` runs on another thread). */
  stop(): void {
    Atomics.store(this.signals, SIG_STOP, 1);
    Atomics.notify(this.signals, SIG_STOP);
  }

  /** A reply to expect after `move`, from the hash table, or 0. */
  private ponderFromHash(move: number): number {
    const pos = this.pos;
    pos.play(move);
    let reply = 0;
    if (this.tt.probe(pos.keyLo, pos.keyHi, 0) && this.tt.move !== 0) {
      if (isLegal(pos, this.tt.move)) reply = this.tt.move;
    }
    pos.undo();
    return reply;
  }
}

/** The hash size in MB of a table buffer (as TranspositionTable.bytesFor rounds it). */
function megabytesOf(buffer: ArrayBufferLike): number {
  return Math.max(1, Math.floor(buffer.byteLength / (1024 * 1024)));
}

/**
 * The engine facade: what protocols, commands and the web worker use. It owns the position
 * and the WebAssembly core that searches it (wasmSearch.ts over src/wasm), and runs a search
 * synchronously:
 *
 *     const engine = new Engine({ hashMB: 64, wasm: wasmCoreModule() });
 *     engine.setPosition(STARTING_FEN, ['e2e4', 'e7e5']);
 *     const r = engine.go({ movetime: 1000 }, (info) => console.log(info.depth, info.pv));
 *     makeUci(r.bestMove);
 *
 * `go` blocks; a front end that must stay responsive (UCI `isready`, `stop`) runs the engine
 * in a worker and talks to it through `signals`, an Int32Array that may live in a
 * SharedArrayBuffer: SIG_STOP = 1 stops the search, SIG_PONDER = 0 is a ponderhit.
 *
 * The core is required: `wasm` (src/node/wasmCore.ts wasmCoreModule() in Node; the page
 * compiles dist/wasm/core.wasm itself), or `smp`, the shared build and a shared memory, with
 * which every search runs in this thread's instance of the shared build and a parallel search
 * (Lazy SMP) runs one instance per thread over one hash table (wasm/smp.ts). Without the
 * shared build the main thread searches alone in its own core.
 */
import { legalMoves } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { positionFromFen, STARTING_FEN } from '../notation/fen.js';
import { makeSan } from '../notation/san.js';
import { parseUci } from '../notation/uci.js';
import { type BookProbe } from './bookProbe.js';
import { BookReturn, type ReturnPlan } from './bookReturn.js';
import { type GoLimits } from './limits.js';
import type { SearchInfo, SearchResult } from './searchResult.js';
import { SIG_GEN, SIG_PONDER, SIG_SIZE, SIG_STOP, waitForStopSignal } from './signals.js';
import { applySkill, type SkillSettings } from './skill.js';
import { planTime } from './timeman.js';
import { WasmCore } from './wasm/core.js';
import { WasmSearcher } from './wasmSearch.js';

export type { GoLimits, SearchInfo, SearchResult };

export interface EngineOptions {
  /** Hash table size in MB (default 16). */
  hashMB?: number;
  /** Signal array to share with a controller (default: a private one). */
  signals?: Int32Array;
  /** This engine's thread number in a parallel search (0: the main thread). */
  threadIndex?: number;
  /** The compiled WebAssembly core (dist/wasm/core.wasm): the search of a single thread. */
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
  readonly signals: Int32Array;
  readonly settings: EngineSettings = {
    multiPV: 1,
    moveOverhead: 10,
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
  /** This engine's thread number in a parallel search (0: the main thread). */
  readonly threadIndex: number;

  /** The core of a search on this thread alone (null when this engine searches in the shared build). */
  readonly wasm: WasmSearcher | null;
  /** Whether the last `go` searched ('none': a book move, a helper with nothing to do, or no search yet). */
  lastCore: 'wasm' | 'none' = 'none';
  /** The shared build and memory for Threads > 1, and this thread's core in it once made. */
  private readonly smpSetup: { module: () => WebAssembly.Module; memory: WebAssembly.Memory } | undefined;
  private smpSearcher: WasmSearcher | null = null;
  /** The size of the shared hash table (MB). */
  private smpHashMB: number;
  /** Threads of the current search (this one included). */
  private threadCount = 1;
  private position: Position;

  /** Signals belong to a controller that clears them itself before each search. */
  private readonly sharedSignals: boolean;
  /**
   * The single-thread core searched since its table was last emptied. A table nothing wrote
   * is still empty, and emptying it would commit every page of it (fresh memory costs nothing
   * until written): a helper of a parallel search never writes the main core's table.
   */
  private coreUsed = false;

  constructor(opts: EngineOptions = {}) {
    if (!opts.wasm && !opts.smp) {
      throw new Error('Engine: no WebAssembly core given (dist/wasm/core.wasm, built by `npm run build`; in Node, wasmCoreModule() of src/node/wasmCore.ts)');
    }
    this.sharedSignals = opts.signals !== undefined;
    const r = positionFromFen(STARTING_FEN);
    if (!r.ok) throw r.error;
    this.position = r.value;
    this.signals = opts.signals ?? new Int32Array(SIG_SIZE);
    this.threadIndex = opts.threadIndex ?? 0;
    const hashMB = opts.hashMB ?? 16;
    this.wasm = opts.wasm ? new WasmSearcher(new WasmCore(opts.wasm), hashMB) : null;
    this.smpSetup = opts.smp;
    this.smpHashMB = hashMB;
  }

  /** The position searched (replaced by setPositionFrom, changed in place by setPosition). */
  get pos(): Position {
    return this.position;
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
    this.position = pos.clone();
    if (this.settings.chess960) this.position.chess960 = true;
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
      const core = new WasmCore(setup.module(), { memory: setup.memory, slot: this.threadIndex });
      core.setThreadIndex(this.threadIndex);
      this.smpSearcher = new WasmSearcher(core, this.smpHashMB);
    }
    return this.smpSearcher;
  }

  /** The core this thread searches in: its instance of the shared build, else its own. */
  private searcher(): WasmSearcher {
    return this.parallelCore() ?? this.wasm!;
  }

  /** Forgets everything learned: hash table, histories, pawn hash. */
  newGame(): void {
    this.smpSearcher?.core.newGame();
    if (this.coreUsed) this.wasm?.core.newGame();
    this.coreUsed = false;
  }

  /**
   * An empty hash table of `megabytes`. In a parallel search the controller has grown the
   * shared memory for it (smp.ts growForTable) before telling each thread.
   */
  resizeHash(megabytes: number): void {
    this.wasm?.setHashSize(megabytes);
    this.smpHashMB = megabytes;
    this.smpSearcher?.setHashSize(megabytes);
  }

  /** Static evaluation of the current position (side to move's view). */
  evaluate(): number {
    return this.searcher().evaluate(this.pos);
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
    this.threadCount = parallel?.threads ?? 1;
    // Given the shared build, every search runs in this thread's instance of it, whatever the
    // thread count (one table, one core; with one thread it searches as the normal build does).
    // Without it (no shared memory) the main thread searches alone and a helper has nothing to do.
    const smp = this.parallelCore();
    if (parallel?.helper) {
      this.lastCore = smp ? 'wasm' : 'none';
      smp?.goHelper(this.pos, this.signals, this.threadIndex);
      return { bestMove: 0, ponderMove: 0, score: 0, depth: 0, seldepth: 0, nodes: 0, time: 0, pv: [] };
    }
    if (!smp) this.threadCount = 1;
    if (!this.sharedSignals) {
      Atomics.store(this.signals, SIG_STOP, 0);
      Atomics.store(this.signals, SIG_PONDER, limits.ponder ? 1 : 0);
    }
    const s = this.settings;
    if (s.ownBook && this.book && !limits.infinite && (s.bookDepth === 0 || this.gamePly < s.bookDepth)) {
      const m = this.book.choose(this.pos, limits.searchmoves);
      if (m !== 0) {
        // Pondering on a book position: the book move is the answer, at the ponderhit (or stop)
        // that UCI requires before it, not a search on the clock after it.
        if (limits.ponder) waitForStopSignal(this.signals, Atomics.load(this.signals, SIG_GEN), limits);
        this.lastCore = 'none';
        if (this.threadCount > 1) this.stop();
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
    if (back === undefined) return this.search(limits, onInfo);
    // One search decides: the return move is chosen when it scores at most the margin below the
    // best (a bonus of margin + 1, since a root move must beat the best score to replace it).
    const result = this.search(limits, onInfo, { move: back.move, cp: s.bookReturnMargin + 1 });
    return this.returnNote(back, result);
  }

  /**
   * The search proper, in this thread's core; as the main thread, its end stops the helpers, if
   * any. `rootBonus`: that root move is chosen when it scores within `cp` of the best.
   */
  private search(limits: GoLimits, onInfo?: (info: SearchInfo) => void, rootBonus?: { move: number; cp: number }): SearchResult {
    const s = this.settings;
    const plan = planTime(limits, this.pos.turn, s.moveOverhead);
    const skilled = applySkill(s.skill, limits, plan);
    const book = this.book;
    const rootSide = this.pos.turn;
    const multiPV = Math.max(s.multiPV, skilled.multiPV);
    const bookKnows = s.bookAwareSearch && book ? (): boolean => book.knowsWell(this.pos, rootSide) : undefined;
    const searcher = this.searcher();
    if (searcher === this.wasm) this.coreUsed = true;
    this.lastCore = 'wasm';
    const threads = this.threadCount;
    const result = searcher.go(this.pos, this.signals, skilled.limits, { multiPV, softMs: skilled.plan.softMs, hardMs: skilled.plan.hardMs, onInfo, bookKnows, threads, ...(rootBonus ? { rootBonus } : {}) });
    if (threads > 1) this.stop();
    if (skilled.pick) skilled.pick(result);
    if (result.bestMove !== 0 && result.ponderMove === 0) result.ponderMove = searcher.ponderFromHash(this.pos, result.bestMove);
    return result;
  }

  /**
   * BookReturn, before the search: out of book (the book has no move here) with a plain timed
   * or fixed search on one thread, the best return into the book within BookReturnPlies.
   */
  private returnPlan(limits: GoLimits): ReturnPlan | undefined {
    const s = this.settings;
    const book = this.book;
    if (!s.bookReturn || !book || book.failure !== undefined || limits.infinite || limits.ponder || limits.searchmoves || this.threadCount > 1) return undefined;
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
   * BookReturn, after the search: the info line says whether the return move was played. The
   * search gave it BookReturnMargin centipawns (WasmGoOptions.rootBonus), so it was chosen
   * exactly when it scored within the margin of the best move (a mate found elsewhere always
   * beats it).
   */
  private returnNote(back: ReturnPlan, best: SearchResult): SearchResult {
    if (best.bestMove === 0) return best;
    const san = this.lineSan(back.line);
    const first = san.split(' ')[0];
    const margin = this.settings.bookReturnMargin;
    const where = `book in ${back.plies} ${back.plies === 1 ? 'ply' : 'plies'} (${san}; opponent ${(100 * back.cooperation).toFixed(0)}%, result ${back.result.toFixed(2)})`;
    if (best.bestMove === back.move) return { ...best, note: `BookReturn: playing ${first} (within ${margin} cp of the best move) toward ${where}` };
    const played = this.lineSan([best.bestMove]);
    return { ...best, note: `BookReturn: ${first} would head for ${where} but scores more than ${margin} cp below ${played}; playing ${played}` };
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
}

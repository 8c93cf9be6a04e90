/**
 * What a protocol front end (UCI or xboard server) needs from an engine that may run on
 * another thread: configure, new game, go with callbacks, stop, ponderhit, learn. Messages are
 * plain data (moves as UCI strings), so the same interface works across a worker boundary.
 *
 * `LocalHost` runs the engine on the caller's thread: `go` returns only when the search is
 * done, so `stop` cannot interrupt it. Tests and embedders with fixed limits use it; an
 * interactive front end uses the worker host in src/node/.
 */
import { legalMoves } from '../core/movegen.js';
import { STARTING_FEN } from '../notation/fen.js';
import { makeUci, parseUci } from '../notation/uci.js';
import { defaultPolicy, type BookPolicyConfig } from '../book/select/index.js';
import { BookProbe, type BookSource, type LearnGame } from './bookProbe.js';
import { BookReturn, type BookIndexer } from './bookReturn.js';
import { Engine, type SearchInfo } from './engine.js';
import { resetWeights, weightsFromJson } from './evalParams.js';
import { SEARCH_PARAMS, searchParamProblem, setSearchParam } from './searchParams.js';
import { MATE, mateInMoves } from './score.js';
import type { GoLimits } from './limits.js';

export interface EngineConfig {
  hashMB: number;
  threads: number;
  multiPV: number;
  moveOverhead: number;
  chess960: boolean;
  ownBook: boolean;
  /** Path of the book file ('' for none). */
  bookFile: string;
  /** How book moves are chosen (src/book/select/): Terra's procedure by default. */
  bookPolicy: BookPolicyConfig;
  /** Leave the book after this many plies (0: never). */
  bookDepth: number;
  bookLearning: boolean;
  bookAwareSearch: boolean;
  /** Out of book, head back into it when that costs at most bookReturnMargin centipawns. */
  bookReturn: boolean;
  bookReturnMargin: number;
  bookReturnPlies: number;
  limitStrength: boolean;
  elo: number;
  skillLevel: number;
  /** Path of an evaluation params file (tune fit output; '' for the built-in weights). */
  evalParams: string;
  /**
   * Search parameters by name (searchParams.ts; `tabiya uci --tunable`): a change names only
   * those it sets and is merged into the ones set before; the others keep their defaults.
   */
  searchParams: Record<string, number>;
}

export const DEFAULT_CONFIG: EngineConfig = {
  hashMB: 16,
  threads: 1,
  multiPV: 1,
  moveOverhead: 10,
  chess960: false,
  ownBook: false,
  bookFile: '',
  bookPolicy: defaultPolicy(),
  bookDepth: 0,
  bookLearning: false,
  bookAwareSearch: false,
  bookReturn: false,
  bookReturnMargin: 30,
  bookReturnPlies: 4,
  limitStrength: false,
  elo: 2800,
  skillLevel: 20,
  evalParams: '',
  searchParams: {},
};

/** `go` limits with moves as UCI strings (what crosses a thread boundary). */
export type WireLimits = Omit<GoLimits, 'searchmoves'> & { searchmoves?: string[] };

export interface GoRequest {
  fen: string;
  moves: string[];
  limits: WireLimits;
}

/** One info line, ready to print: a SearchInfo with the score split into cp or mate and the line in UCI. */
export type WireInfo = Omit<SearchInfo, 'score' | 'pv'> & {
  /** Centipawns, when not a mate score. */
  cp?: number;
  pv: string[];
};

export interface WireBest {
  /** null when the side to move has no legal move. */
  best: string | null;
  ponder: string | null;
  /** Last score, for front ends that report it (xboard). */
  cp?: number;
  mate?: number;
  depth: number;
  nodes: number;
  /** Set when an error kept the search from running (bad position); best is then null. */
  error?: string;
  /** How the move was chosen, for an info string (BookReturn). */
  note?: string;
}

export interface EngineHost {
  configure(config: Partial<EngineConfig>): void;
  clearHash(): void;
  newGame(): void;
  go(req: GoRequest, onInfo: (i: WireInfo) => void, onBest: (b: WireBest) => void): void;
  stop(): void;
  ponderhit(): void;
  /** Hands a finished game to the book (when BookLearning is on and the book learns). */
  learn(game: LearnGame): void;
  close(): void;
  /** Calls `cb` once the engine can search (at once if it already can): for isready and ping. */
  whenReady?(cb: () => void): void;
}

/** Loads a book file into a source; throws an Error naming the file on failure. */
export type BookLoader = (path: string) => BookSource;

/** Reads an evaluation params file (`{ group: [[mg, eg], ...] }`); throws an Error naming the file. */
export type ParamsLoader = (path: string) => Readonly<Record<string, readonly (readonly [number, number])[]>>;

/** Applies configuration to an engine (loading a book through `loadBook` when the file changes). */
export class EngineConfigurator {
  readonly config: EngineConfig = { ...DEFAULT_CONFIG };
  private loadedBook = '';
  private loadedParams = '';
  /** Told when the loaded book fails during play (a damaged entry) and goes out of play. */
  onBookFailure?: (message: string) => void;

  constructor(
    private readonly engine: Engine,
    private readonly loadBook?: BookLoader,
    private readonly loadParams?: ParamsLoader,
    /** Builds BookReturn's index of the book file at a path (Node: cached between runs, src/book/node/reachCache.ts). */
    private readonly indexBook?: (path: string) => BookIndexer,
  ) {}

  /** Applies changes; returns error messages (a bad book file) without throwing. */
  apply(change: Partial<EngineConfig>): string[] {
    const errors: string[] = [];
    const searchParams = change.searchParams !== undefined ? { ...this.config.searchParams, ...change.searchParams } : undefined;
    const c = Object.assign(this.config, change);
    const e = this.engine;
    if (change.hashMB !== undefined) e.resizeHash(c.hashMB);
    const s = e.settings;
    s.multiPV = c.multiPV;
    s.moveOverhead = c.moveOverhead;
    s.chess960 = c.chess960;
    s.ownBook = c.ownBook;
    s.bookDepth = c.bookDepth;
    s.bookAwareSearch = c.bookAwareSearch;
    s.bookReturn = c.bookReturn;
    s.bookReturnMargin = c.bookReturnMargin;
    s.bookReturnPlies = c.bookReturnPlies;
    s.skill = { level: c.skillLevel, elo: c.limitStrength ? c.elo : 0 };
    if (c.bookFile !== this.loadedBook) {
      this.loadedBook = c.bookFile;
      // The book given before lets go of its file (a GUI switching books must not pile up open files).
      e.book?.source.close?.();
      e.book = null;
      if (c.bookFile !== '') {
        if (!this.loadBook) errors.push('books cannot be loaded here');
        else {
          try {
            e.book = new BookProbe(this.loadBook(c.bookFile), { policy: c.bookPolicy, onFailure: (m) => this.onBookFailure?.(m) });
          } catch (err) {
            errors.push((err as Error).message);
          }
        }
      }
    }
    if (e.book) e.book.policy = { ...c.bookPolicy };
    // Learning asked of a book that cannot learn would otherwise do nothing without a word.
    if ((change.bookLearning === true || change.bookFile !== undefined) && c.bookLearning && e.book && !e.book.canLearn) {
      errors.push(`BookLearning: ${c.bookFile} is a Polyglot book, which keeps no learning; only a .tbk book learns (make one from the games with tabiya book make -o NAME.tbk)`);
    }
    // The return move is found by a reach search before a search on one thread
    // (Engine.returnPlan): on several threads the option would do nothing without a word.
    if ((change.bookReturn === true || change.threads !== undefined) && c.bookReturn && c.threads > 1) {
      errors.push(`BookReturn: works with one search thread; with Threads ${c.threads} the engine does not steer back into the book (set Threads 1 for it)`);
    }
    // Index the book for BookReturn now rather than in the first move's time.
    if (c.bookReturn && e.book && e.bookReturn?.source !== e.book.source) {
      try {
        e.bookReturn = new BookReturn(e.book.source, this.indexBook?.(c.bookFile));
      } catch (err) {
        errors.push(`BookReturn: ${(err as Error).message}`);
      }
    }
    if (c.evalParams !== this.loadedParams) {
      this.loadedParams = c.evalParams;
      resetWeights();
      if (c.evalParams !== '') {
        try {
          if (!this.loadParams) throw new Error('evaluation parameters cannot be loaded here');
          weightsFromJson(this.loadParams(c.evalParams));
        } catch (err) {
          resetWeights();
          errors.push(`EvalParams: ${(err as Error).message}; the built-in weights stay`);
        }
      }
      // Pawn-structure and hash-table entries hold evaluations made with the old weights.
      e.newGame();
    }
    if (searchParams) {
      // Every parameter is set, to its given value or its default, so the values in use depend
      // on this configuration only. The hash table stays: its entries are still right.
      for (const [name, value] of Object.entries(searchParams)) {
        const problem = searchParamProblem(name, value);
        if (problem !== undefined) {
          errors.push(`${problem}; not changed`);
          delete searchParams[name];
        }
      }
      c.searchParams = searchParams;
      for (const s of SEARCH_PARAMS) setSearchParam(s.name, searchParams[s.name] ?? s.default);
    }
    return errors;
  }
}

/**
 * Runs one `go` on an engine: sets the position, converts moves, reports in wire form. In a
 * parallel search every thread runs it; `parallel` says how many there are and whether this
 * one is a helper.
 */
export function runGo(engine: Engine, req: GoRequest, onInfo: (i: WireInfo) => void, parallel?: { threads: number; helper: boolean }): WireBest {
  try {
    engine.setPosition(req.fen || STARTING_FEN, req.moves);
  } catch (err) {
    return { best: null, ponder: null, depth: 0, nodes: 0, error: (err as Error).message };
  }
  const pos = engine.pos;
  const c960 = engine.settings.chess960 || pos.chess960;
  const limits: GoLimits = { ...req.limits, searchmoves: undefined };
  if (req.limits.searchmoves && req.limits.searchmoves.length > 0) {
    limits.searchmoves = [];
    for (const s of req.limits.searchmoves) {
      const m = parseUci(pos, s);
      if (m.ok) limits.searchmoves.push(m.value);
    }
    if (limits.searchmoves.length === 0) limits.searchmoves = legalMoves(pos);
  }
  const toWire = (i: SearchInfo): WireInfo => {
    const pv = i.pv.map((m) => makeUci(m, c960));
    const w: WireInfo = { depth: i.depth, seldepth: i.seldepth, multipv: i.multipv, nodes: i.nodes, nps: i.nps, time: i.time, hashfull: i.hashfull, pv };
    if (i.mate !== undefined) w.mate = i.mate;
    else w.cp = i.score;
    if (i.bound) w.bound = i.bound;
    return w;
  };
  const r = engine.go(limits, (i) => onInfo(toWire(i)), parallel);
  const best: WireBest = { best: null, ponder: null, depth: r.depth, nodes: r.nodes };
  if (r.bestMove !== 0) {
    best.best = makeUci(r.bestMove, c960);
    if (r.ponderMove !== 0) best.ponder = makeUci(r.ponderMove, c960);
  }
  if (Math.abs(r.score) >= MATE - 1000) best.mate = mateInMoves(r.score);
  else best.cp = r.score;
  if (r.note !== undefined) best.note = r.note;
  return best;
}

/** An EngineHost on the caller's thread (searches block; stop has no effect). */
export class LocalHost implements EngineHost {
  readonly engine: Engine;
  private readonly configurator: EngineConfigurator;
  /** Errors from configuration (bad book file), reported by front ends as info strings. */
  onError?: (message: string) => void;

  constructor(engine: Engine, loadBook?: BookLoader) {
    this.engine = engine;
    this.configurator = new EngineConfigurator(engine, loadBook);
    this.configurator.onBookFailure = (m) => this.onError?.(m);
  }

  configure(config: Partial<EngineConfig>): void {
    for (const e of this.configurator.apply(config)) this.onError?.(e);
  }

  clearHash(): void {
    this.engine.newGame();
  }

  newGame(): void {
    this.engine.newGame();
  }

  go(req: GoRequest, onInfo: (i: WireInfo) => void, onBest: (b: WireBest) => void): void {
    onBest(runGo(this.engine, req, onInfo));
  }

  stop(): void {
    this.engine.stop();
  }

  ponderhit(): void {}

  learn(game: LearnGame): void {
    if (!this.configurator.config.bookLearning || !this.engine.book) return;
    const report = (e: unknown): void => this.onError?.(`book learning: ${(e as Error).message}`);
    try {
      void Promise.resolve(this.engine.book.learn(game)).catch(report);
    } catch (e) {
      report(e);
    }
  }

  close(): void {}
}

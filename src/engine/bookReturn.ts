/**
 * BookReturn: out of book, find the move that heads back into the book ("board
 * conversion"). The book's positions are indexed once (src/book/reach/reachIndex.ts, a walk
 * of the book from the initial position); at each move out of book the reach search lists
 * the stored positions reachable within `plies`, scores them (src/book/reach/score.ts: the
 * opponent's cooperation from the book or the engine's move likelihood, distance, result at
 * arrival) and offers the first move of the best line that arrives somewhere good: a result
 * of at least MIN_RESULT for us (a .bin has no results: any book position counts) reached
 * with a cooperation of at least MIN_COOPERATION. Whether the move is played is the search's
 * call (Engine.go): only when it costs at most BookReturnMargin against the best move.
 */
import type { Position } from '../core/position.js';
import { ReachSearch } from '../book/reach/reach.js';
import { RECOVER_BEFORE_PLY, ReachIndex, type MovesOf, type WalkOptions } from '../book/reach/reachIndex.js';
import { scoreHits } from '../book/reach/score.js';
import type { BookSource } from './bookProbe.js';
import { MoveLikelihood } from './moveLikelihood.js';

/** Builds the reach index of the book whose moves `movesOf` gives. */
export type BookIndexer = (movesOf: MovesOf, opts: WalkOptions) => ReachIndex;

/**
 * How a book's reach index is walked: a rich book keeps lines of single games, so only moves of
 * two games or more count as book there (docs/conversion.md); positions the walk from the start
 * misses come from the book's games where it keeps them, those reached before `recoverBeforePly`
 * (0: none).
 */
export function reachWalkOptions(source: BookSource, minGames = source.probe ? 2 : 1, recoverBeforePly = RECOVER_BEFORE_PLY): WalkOptions {
  const more = source.unreachedBoards?.bind(source);
  return { minGames, ...(more !== undefined && recoverBeforePly > 0 ? { moreRoots: (indexed) => more(indexed, minGames, recoverBeforePly) } : {}) };
}

export const MIN_RESULT = 0.5;
export const MIN_COOPERATION = 0.05;
/** Nodes the reach search may spend per move (a few tens of milliseconds at most). */
export const REACH_NODES = 200_000;

export interface ReturnPlan {
  /** Our move (the first of the line). */
  move: number;
  line: number[];
  plies: number;
  value: number;
  cooperation: number;
  result: number;
}

export class BookReturn {
  readonly index: ReachIndex;
  private readonly search: ReachSearch;
  private readonly likelihood = new MoveLikelihood();

  /** `indexer` builds the index (default: a walk of the book; in Node, the cached one of reachCache.ts). */
  constructor(
    readonly source: BookSource,
    indexer: BookIndexer = (movesOf, opts) => ReachIndex.build(movesOf, opts),
  ) {
    // A rich book keeps lines of single games; only moves of two games or more count as book here.
    this.index = indexer((p) => source.candidates(p), reachWalkOptions(source));
    this.search = new ReachSearch(this.index);
  }

  /** The best return within `plies`, or undefined when no good book position is reachable. */
  plan(pos: Position, plies: number): ReturnPlan | undefined {
    const r = this.search.run(pos, { plies, maxNodes: REACH_NODES });
    if (r.hits.length === 0) return undefined;
    const movesOf = (p: Position): ReturnType<BookSource['candidates']> => this.source.candidates(p);
    const scored = scoreHits(this.index, pos, r.hits, movesOf, (p, m) => this.likelihood.of(p, m));
    const best = scored.find((h) => h.result >= MIN_RESULT && h.cooperation >= MIN_COOPERATION);
    if (best === undefined) return undefined;
    return { move: best.moves[0]!, line: best.moves, plies: best.plies, value: best.value, cooperation: best.cooperation, result: best.result };
  }
}

/**
 * How much a reachable book position is worth from here (a near position, or a farther one
 * with more wins?), answered by one number,
 *
 *   value = cooperation × DISTANCE^plies × result
 *
 * - cooperation: the probability that the opponent plays its moves of the line. Where the
 *   opponent's position is in the book, the book's view: the move's share of the position's
 *   weight (a move the book does not hold there gets OFF_BOOK times the engine's view). Out of
 *   book, the engine's view through `likelihood` (moveLikelihood.ts: a softmax over quiescence
 *   scores), or uniform over the legal moves when none is given. Our own moves count 1.
 * - DISTANCE per ply: every ply further is one more chance for the game to go elsewhere that
 *   the cooperation estimate misses (our own later change of mind, a search that disagrees).
 * - result: the expected score of our side at arrival, (wins + draws / 2 + 1) / (games + 2)
 *   (Laplace's rule, so that a position of two games does not count as certain); a Polyglot
 *   book has weights but no game counts, so its positions all count 0.5 and the value ranks
 *   them by how likely and how near they are.
 */
import { legalMoves } from '../../core/movegen.js';
import type { Position } from '../../core/position.js';
import type { MovesOf } from './reachIndex.js';
import type { ReachIndex } from './reachIndex.js';
import type { ReachHit } from './reach.js';

export const DISTANCE = 0.9;
export const OFF_BOOK = 0.1;

/** The probability that the side to move in `pos` plays `move`. */
export type Likelihood = (pos: Position, move: number) => number;

/** Book statistics of a stored position, from the side to move there. */
export interface ArrivalStats {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  weight: number;
}

export function arrivalStats(index: ReachIndex, i: number): ArrivalStats {
  return { games: index.wins[i]! + index.draws[i]! + index.losses[i]!, wins: index.wins[i]!, draws: index.draws[i]!, losses: index.losses[i]!, weight: index.weight[i]! };
}

/** Expected score of `side` at stored position `i` (0.5 when the book counts no games). */
export function resultFor(index: ReachIndex, i: number, side: number): number {
  if (!index.hasCounts) return 0.5;
  const s = arrivalStats(index, i);
  const mine = (s.wins + s.draws / 2 + 1) / (s.games + 2);
  return index.turnOf(i) === side ? mine : 1 - mine;
}

/** Probability that the opponent plays the opponent moves of `line` from `pos` (restored after). */
export function cooperation(pos: Position, line: readonly number[], movesOf: MovesOf, likelihood?: Likelihood): number {
  const us = pos.turn;
  let p = 1;
  let played = 0;
  for (const m of line) {
    if (pos.turn !== us) p *= opponentChance(pos, m, movesOf, likelihood);
    pos.play(m);
    played++;
    if (p === 0) break;
  }
  for (let k = 0; k < played; k++) pos.undo();
  return p;
}

function opponentChance(pos: Position, move: number, movesOf: MovesOf, likelihood?: Likelihood): number {
  const engine = (): number => (likelihood ? likelihood(pos, move) : 1 / Math.max(1, legalMoves(pos).length));
  const book = movesOf(pos);
  if (book.length === 0) return engine();
  let total = 0;
  let mine = 0;
  for (const b of book) {
    total += b.weight;
    if (b.move === move) mine += b.weight;
  }
  if (mine > 0) return mine / total;
  // A move the book holds with weight 0 is still a book move: a small share, as for a move it lacks.
  return OFF_BOOK * engine();
}

export interface ScoredHit extends ReachHit {
  cooperation: number;
  result: number;
  value: number;
}

/** Scores every hit and sorts them best first (value, then fewer plies, then more games). */
export function scoreHits(index: ReachIndex, pos: Position, hits: readonly ReachHit[], movesOf: MovesOf, likelihood?: Likelihood): ScoredHit[] {
  const us = pos.turn;
  const out = hits.map((h) => {
    const coop = cooperation(pos, h.moves, movesOf, likelihood);
    const result = resultFor(index, h.target, us);
    return { ...h, cooperation: coop, result, value: coop * DISTANCE ** h.plies * result };
  });
  const games = (i: number): number => index.wins[i]! + index.draws[i]! + index.losses[i]! + index.weight[i]!;
  return out.sort((a, b) => b.value - a.value || a.plies - b.plies || games(b.target) - games(a.target) || a.target - b.target);
}

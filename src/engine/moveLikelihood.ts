/**
 * The engine's cheap guess at what a player will play where the book knows nothing: each legal
 * move is scored by the quiescence search of the position after it (the engine's own, through
 * tune/resolve.ts's QuietResolver: captures resolved, no tree), and the scores become
 * probabilities by a softmax, p(m) ∝ exp((score(m) − best) / TEMPERATURE). A temperature of
 * 100 centipawns gives a move a pawn worse about a third of the best move's chance, so the
 * estimate spreads over the sensible moves and leaves blunders near zero, the shape of move
 * choice in human games (Lichess's Maia work and the "probability of a move by its evaluation
 * loss" models all fall off exponentially with the loss).
 *
 * Distributions are kept per position key, so the reach scoring, which asks about the same
 * opponent positions along many lines, pays once for each.
 */
import { generateLegal } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { MAX_MOVES } from '../core/types.js';
import { QuietResolver, RESOLVE_MATE, RESOLVED } from '../tune/resolve.js';

export const TEMPERATURE = 100;
const MATE_SCORE = 3000;

export class MoveLikelihood {
  private readonly resolver = new QuietResolver();
  private readonly cache = new Map<string, Map<number, number>>();
  private readonly buf = new Uint16Array(MAX_MOVES);
  private readonly replies = new Uint16Array(MAX_MOVES);

  /** Probability that the side to move in `pos` plays `move` (0 if it is not legal). */
  of(pos: Position, move: number): number {
    return this.distribution(pos).get(move) ?? 0;
  }

  /** Every legal move's probability. */
  distribution(pos: Position): Map<number, number> {
    const key = `${pos.keyHi}:${pos.keyLo}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const n = generateLegal(pos, this.buf, 0);
    const scores: number[] = [];
    for (let i = 0; i < n; i++) {
      pos.play(this.buf[i]!);
      scores.push(-this.quiet(pos));
      pos.undo();
    }
    const best = Math.max(...scores);
    let sum = 0;
    const exp = scores.map((s) => {
      const e = Math.exp((s - best) / TEMPERATURE);
      sum += e;
      return e;
    });
    const out = new Map<number, number>();
    for (let i = 0; i < n; i++) out.set(this.buf[i]!, exp[i]! / sum);
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(key, out);
    return out;
  }

  /** Quiescence score of `pos` for its side to move (static evaluation when in check). */
  private quiet(pos: Position): number {
    if (generateLegal(pos, this.replies, 0) === 0) return pos.inCheck() ? -MATE_SCORE : 0;
    const r = this.resolver.resolve(pos);
    const plies = this.resolver.plies;
    for (let k = 0; k < plies; k++) pos.undo();
    // A line of captures that ends in check still has its quiescence score.
    if (r === RESOLVED || plies > 0) return this.resolver.score;
    if (r === RESOLVE_MATE) return Math.sign(this.resolver.score) * MATE_SCORE;
    return this.resolver.evaluate(pos);
  }
}

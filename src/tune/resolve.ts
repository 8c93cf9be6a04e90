/**
 * Makes a labelled position quiet before it is traced: the engine's own quiescence search is
 * run on it with a full window, and the position at the end of its principal variation (the
 * captures it expects to be played) replaces it. The static evaluation of that leaf is what the
 * quiescence search returned, so tuning the static evaluation on leaves tunes what the search
 * actually uses (Ethereal's "resolved" positions).
 *
 * The search runs in the WebAssembly core (tunerCore), with a private small hash table
 * cleared for every position: the result does not depend on the order positions come in, so
 * any split over worker threads gives the same data.
 */
import type { Position } from '../core/position.js';
import { MATE_IN_MAX } from '../engine/score.js';
import { tunerCore } from './core.js';

/** Why a position could not be resolved. */
export const RESOLVED = 0;
export const RESOLVE_IN_CHECK = 1;
export const RESOLVE_MATE = 2;

export class QuietResolver {
  /** Plies of the last resolution (moves played on the position). */
  plies = 0;
  /** Quiescence score of the last resolution, side to move's view. */
  score = 0;

  /**
   * Plays the quiescence PV on `pos` (the caller may undo `plies` moves afterwards). Returns
   * RESOLVED, or why the position is unusable: the side to move is in check (no quiet leaf:
   * every evasion must be searched) or the quiescence search sees a mate.
   */
  resolve(pos: Position): number {
    this.plies = 0;
    if (pos.inCheck()) return RESOLVE_IN_CHECK;
    const core = tunerCore();
    core.setPosition(pos, false);
    const r = core.resolveQuiet();
    this.score = r.score;
    if (this.score >= MATE_IN_MAX || this.score <= -MATE_IN_MAX) return RESOLVE_MATE;
    for (const m of r.pv) pos.play(m);
    this.plies = r.pv.length;
    if (r.pv.length > 0 && pos.inCheck()) return RESOLVE_IN_CHECK;
    return RESOLVED;
  }

  /** The static evaluation of `pos` (side to move's view) by the same core. */
  evaluate(pos: Position): number {
    const core = tunerCore();
    core.setPosition(pos, false);
    return core.evaluate();
  }
}

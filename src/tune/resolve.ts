/**
 * Makes a labelled position quiet before it is traced: the engine's own quiescence search is
 * run on it with a full window, and the position at the end of its principal variation (the
 * captures it expects to be played) replaces it. The static evaluation of that leaf is what the
 * quiescence search returned, so tuning the static evaluation on leaves tunes what the search
 * actually uses (Ethereal's "resolved" positions).
 *
 * A private small hash table, cleared for every position, keeps the result independent of
 * the order positions come in, so that any split over worker threads gives the same data.
 */
import type { Position } from '../core/position.js';
import { psqtFromScratch } from '../engine/eval/psqt.js';
import { MATE_IN_MAX, INFINITE } from '../engine/score.js';
import { qsearch } from '../engine/search/qsearch.js';
import { SearchThread, STACK_OFFSET } from '../engine/search/thread.js';
import { TranspositionTable } from '../engine/tt.js';

/** Why a position could not be resolved. */
export const RESOLVED = 0;
export const RESOLVE_IN_CHECK = 1;
export const RESOLVE_MATE = 2;

export class QuietResolver {
  private readonly tt = new TranspositionTable(0, new ArrayBuffer(1 << 16));
  private thread: SearchThread | null = null;
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
    let t = this.thread;
    if (t === null || t.pos !== pos) t = this.thread = new SearchThread(pos, this.tt);
    this.tt.clear();
    t.nodes = 0;
    t.seldepth = 0;
    t.stopped = false;
    t.pvLen[0] = 0;
    t.psqt[0] = psqtFromScratch(pos);
    for (let i = 0; i < STACK_OFFSET; i++) {
      t.pieceTo[i] = 0;
      t.movePlayed[i] = 0;
    }
    this.score = qsearch(t, -INFINITE, INFINITE, 0, false);
    if (this.score >= MATE_IN_MAX || this.score <= -MATE_IN_MAX) return RESOLVE_MATE;
    const len = t.pvLen[0]!;
    for (let i = 0; i < len; i++) pos.play(t.pv[i]!);
    this.plies = len;
    if (len > 0 && pos.inCheck()) return RESOLVE_IN_CHECK;
    return RESOLVED;
  }
}

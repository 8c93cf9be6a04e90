/**
 * The runner's own clock for one side (match-runner.md §6). Pure: it is given elapsed times and
 * answers whether the move was in time, so every rule is unit-tested without timers.
 *
 * - The increment is credited before move 1: a game starts with base + inc.
 * - A move forfeits when elapsed > timeLeft + margin (fixed time per move included).
 * - Otherwise timeLeft = max(0, timeLeft − elapsed) + inc (clamped, as fastchess does, so an
 *   engine is never sent a negative time), and the moves period rolls over by adding base.
 */
import { isTimed, type TimeControl } from './tc.js';

export class Clock {
  /** Remaining time in ms (for `st`: the time per move). */
  timeLeft: number;
  /** Moves left in the current period (0 when the control is not periodic). */
  movesLeft: number;
  /** Elapsed time of the last move, ms. */
  lastMs = 0;

  constructor(readonly tc: TimeControl) {
    this.timeLeft = tc.movetimeMs > 0 ? tc.movetimeMs : tc.baseMs + tc.incMs;
    this.movesLeft = tc.moves;
  }

  /** Whether the runner checks this side's time at all. */
  get timed(): boolean {
    return isTimed(this.tc);
  }

  /** Time the engine may use for this move before it forfeits, ms. */
  allowance(): number {
    return this.timeLeft + this.tc.marginMs;
  }

  /**
   * Books an opening move: untimed, but one of the period's moves, as cutechess counts it
   * (ChessPlayer::makeBookMove: TimeControl::update without the increment). An xboard engine
   * counts the game's moves for `level`, so a period that left them out would not match its own.
   */
  bookMove(): void {
    if (this.tc.moves <= 0 || this.tc.movetimeMs > 0) return;
    this.movesLeft--;
    if (this.movesLeft <= 0) {
      this.movesLeft = this.tc.moves;
      this.timeLeft += this.tc.baseMs;
    }
  }

  /** Books a move that took `elapsed` ms; false when it overstepped the time (a forfeit). */
  spend(elapsed: number): boolean {
    this.lastMs = elapsed;
    if (!this.timed) return true;
    if (elapsed > this.timeLeft + this.tc.marginMs) {
      this.timeLeft -= elapsed;
      return false;
    }
    if (this.tc.movetimeMs > 0) {
      this.timeLeft = this.tc.movetimeMs;
      return true;
    }
    this.timeLeft = Math.max(0, this.timeLeft - elapsed) + this.tc.incMs;
    if (this.tc.moves > 0) {
      this.movesLeft--;
      if (this.movesLeft <= 0) {
        this.movesLeft = this.tc.moves;
        this.timeLeft += this.tc.baseMs;
      }
    }
    return true;
  }
}

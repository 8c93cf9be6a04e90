/**
 * Clock readings for `[%clk h:mm:ss]` comments: what each player has left after each move, as
 * Lichess records it (whole seconds, the increment included). Each player spends a share of the
 * budget (base + increment × moves) spread over their moves, little in the opening and at
 * random after; a player who loses on time uses it all, so their clock runs down to the end.
 */
import type { Rng } from '../../src/match/rng.js';

/** Moves a player makes before thinking in earnest (book moves). */
const QUICK_MOVES = 6;

export class ClockRun {
  private readonly left = new Float64Array(2);
  private readonly perMove = new Float64Array(2);
  private readonly moves = new Int32Array(2);
  private increment = 0;

  /**
   * A game of `plies` plies at base + increment seconds; `flagged` is the side (0 White,
   * 1 Black) that loses on time at the end, or -1.
   */
  start(base: number, increment: number, plies: number, flagged: number, rng: Rng): void {
    this.increment = increment;
    for (let side = 0; side < 2; side++) {
      const own = (plies + 1 - side) >> 1;
      const share = side === flagged ? 1 : 0.25 + 0.6 * rng.next();
      this.left[side] = base;
      this.moves[side] = 0;
      this.perMove[side] = own > 0 ? ((base + increment * own) * share) / Math.max(1, own - QUICK_MOVES / 2) : 0;
    }
  }

  /** The clock of `side` after its next move, in whole seconds. */
  next(side: number, rng: Rng): number {
    const k = this.moves[side]++;
    let left = this.left[side]!;
    // Lichess starts the clocks after each side's first move.
    if (k > 0) {
      const spend = this.perMove[side]! * (k < QUICK_MOVES ? 0.15 : -Math.log(1 - rng.next()));
      left = Math.max(left - spend, Math.min(left, 0.5 + rng.next())) + this.increment;
    }
    this.left[side] = left;
    return Math.floor(left);
  }
}

/** Writes h:mm:ss of `seconds` into `out` at `at`; returns the end. */
export function writeClock(out: Uint8Array, at: number, seconds: number): number {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds / 60) % 60;
  const s = seconds % 60;
  if (h >= 10) out[at++] = 48 + Math.floor(h / 10) % 10;
  out[at++] = 48 + (h % 10);
  out[at++] = 58;
  out[at++] = 48 + Math.floor(m / 10);
  out[at++] = 48 + (m % 10);
  out[at++] = 58;
  out[at++] = 48 + Math.floor(s / 10);
  out[at++] = 48 + (s % 10);
  return at;
}

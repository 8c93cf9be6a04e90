/**
 * Move-ordering memory learned during search: killers (two quiet moves per ply that caused a
 * cutoff), counter-moves (the quiet reply that refuted a given previous move), a butterfly
 * history by side and from/to, continuation histories (a quiet move's success after a given
 * previous move, one and two plies back) and a capture history by piece, target square and
 * victim.
 *
 * Every history entry moves toward ±HISTORY_MAX by the same "gravity" update
 * (h += bonus − h·|bonus| / HISTORY_MAX), so scores stay bounded without periodic aging and
 * recent results weigh more.
 */
import { MAX_PLY as MAX_PLY_ } from '../score.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const MAX_PLY = MAX_PLY_;

export const HISTORY_MAX = 16384;

export class History {
  /** Butterfly history: side * 4096 + from * 64 + to. */
  readonly butterfly = new Int16Array(2 * 4096);
  /** Continuation history: (prevPiece * 64 + prevTo) * 1024 + piece * 64 + to. */
  readonly continuation = new Int16Array(1024 * 1024);
  /** Capture history: (piece * 64 + to) * 8 + victim type. */
  readonly capture = new Int16Array(1024 * 8);
  /** Counter-move: the reply to the move (piece * 64 + to). */
  readonly counter = new Uint16Array(1024);
  /** Killers: ply * 2 + slot. */
  readonly killers = new Uint16Array((MAX_PLY + 2) * 2);

  clear(): void {
    this.butterfly.fill(0);
    this.continuation.fill(0);
    this.capture.fill(0);
    this.counter.fill(0);
    this.killers.fill(0);
  }

  /** Killers are per search; a new search starts with none. */
  clearKillers(): void {
    this.killers.fill(0);
  }
}

/** Applies a gravity-bounded bonus (negative for a malus) to entry i of table t. */
export function updateEntry(t: Int16Array, i: number, bonus: number): void {
  const h = t[i]!;
  t[i] = h + bonus - ((h * (bonus < 0 ? -bonus : bonus)) / HISTORY_MAX | 0);
}

/** History bonus for a cutoff at `depth`. */
export function historyBonus(depth: number): number {
  const b = 170 * depth - 120;
  return b > 2400 ? 2400 : b;
}

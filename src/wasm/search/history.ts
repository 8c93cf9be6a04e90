/**
 * Killers, counter-moves, butterfly, continuation, pawn-structure and
 * capture histories, all updated by the same gravity formula (h += bonus − h·|bonus| / MAX).
 */
import { CORRECTION_ENTRIES } from './correction';
import { historyBonusBase, historyBonusMax, historyBonusMul } from './params';
import { MAX_PLY } from './score';
import { PAWN } from '../types';
import { Position } from '../position';

export const HISTORY_MAX = 16384;

/** Pawn structures are told apart by 9 bits of a hash of both sides' pawns (Stockfish: 512). */
const PAWN_HIST_BITS = 9;

/**
 * The pawn history's row for this position's pawns, shifted to take a piece * 64 + to index:
 * a multiplicative hash of the two pawn bitboards, as correction.ts (no incremental pawn key).
 */
// @ts-ignore: decorator
@inline export function pawnHistoryRow(pos: Position): i32 {
  const h = (unchecked(pos.bb[PAWN]) * 0x9e3779b97f4a7c15) ^ (unchecked(pos.bb[8 | PAWN]) * 0xc2b2ae3d27d4eb4f);
  return <i32>(h >>> (64 - PAWN_HIST_BITS)) << 10;
}

export class History {
  /** Butterfly history: side * 4096 + from * 64 + to. */
  butterfly: StaticArray<i16> = new StaticArray<i16>(2 * 4096);
  /** Continuation history: (prevPiece * 64 + prevTo) * 1024 + piece * 64 + to. */
  continuation: StaticArray<i16> = new StaticArray<i16>(1024 * 1024);
  /** Pawn-structure history: pawnHistoryRow + piece * 64 + to (params.ts, pawnHistory). */
  pawn: StaticArray<i16> = new StaticArray<i16>(1024 << PAWN_HIST_BITS);
  /** Capture history: (piece * 64 + to) * 8 + victim type. */
  capture: StaticArray<i16> = new StaticArray<i16>(1024 * 8);
  /** Counter-move: the reply to the move (piece * 64 + to). */
  counter: StaticArray<u16> = new StaticArray<u16>(1024);
  /** Killers: ply * 2 + slot. */
  killers: StaticArray<u16> = new StaticArray<u16>((MAX_PLY + 2) * 2);
  /** Static evaluation corrections by side and pawn structure (correction.ts). */
  correction: StaticArray<i16> = new StaticArray<i16>(CORRECTION_ENTRIES);

  clear(): void {
    fill16(changetype<usize>(this.butterfly), this.butterfly.length);
    fill16(changetype<usize>(this.continuation), this.continuation.length);
    fill16(changetype<usize>(this.pawn), this.pawn.length);
    fill16(changetype<usize>(this.capture), this.capture.length);
    fill16(changetype<usize>(this.counter), this.counter.length);
    fill16(changetype<usize>(this.correction), this.correction.length);
    this.clearKillers();
  }

  /** Killers are per search; a new search starts with none. */
  clearKillers(): void {
    fill16(changetype<usize>(this.killers), this.killers.length);
  }
}

// @ts-ignore: decorator
@inline function fill16(ptr: usize, n: i32): void {
  memory.fill(ptr, 0, <usize>n << 1);
}

/** Applies a gravity-bounded bonus (negative for a malus) to entry i of table t. */
// @ts-ignore: decorator
@inline export function updateEntry(t: StaticArray<i16>, i: i32, bonus: i32): void {
  const h = <i32>unchecked(t[i]);
  unchecked(t[i] = <i16>(h + bonus - (h * (bonus < 0 ? -bonus : bonus)) / HISTORY_MAX));
}

/** History bonus for a cutoff at `depth`. */
// @ts-ignore: decorator
@inline export function historyBonus(depth: i32): i32 {
  const b = historyBonusMul * depth - historyBonusBase;
  return b > historyBonusMax ? historyBonusMax : b;
}

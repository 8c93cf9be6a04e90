/**
 * Static-evaluation correction history: how far the searched score of positions with the same
 * pawn structure (and side to move) has landed from their static evaluation, kept per
 * structure and added to later static evaluations. Pawn structures the evaluation misjudges
 * (a blocked centre, a weak pawn it has no term for) are corrected by what the search found
 * there. The rules are Stockfish 16.1's (src/search.cpp, correctionHistory): an entry moves by
 * the gravity formula toward (score − evaluation) × depth, within ±CORRECTION_LIMIT, and
 * corrects by entry·|entry| / CORRECTION_SCALE, so that small, noisy entries count little.
 *
 * Entries are i16, indexed by side to move and 14 bits of a hash of the two pawn bitboards (a
 * multiplicative hash: no incremental pawn key is needed).
 */
import { PAWN } from '../types';
import { Position } from '../position';

const BITS = 14;
const SIZE = 1 << BITS;
export const CORRECTION_LIMIT = 1024;
/** The largest entry corrects by CORRECTION_LIMIT² / CORRECTION_SCALE = 32 centipawns. */
const CORRECTION_SCALE = 32768;

export const CORRECTION_ENTRIES = 2 * SIZE;

// @ts-ignore: decorator
@inline function slot(pos: Position): i32 {
  const h = (unchecked(pos.bb[PAWN]) * 0x9e3779b97f4a7c15) ^ (unchecked(pos.bb[8 | PAWN]) * 0xc2b2ae3d27d4eb4f);
  return (pos.turn << BITS) | <i32>(h >>> (64 - BITS));
}

/** The static evaluation `raw` corrected by the history of this pawn structure. */
// @ts-ignore: decorator
@inline export function corrected(table: StaticArray<i16>, pos: Position, raw: i32): i32 {
  const c = <i32>unchecked(table[slot(pos)]);
  return raw + (c * (c < 0 ? -c : c)) / CORRECTION_SCALE;
}

/** Moves this structure's entry toward `diff` (searched score minus corrected evaluation) weighted by depth. */
export function updateCorrection(table: StaticArray<i16>, pos: Position, depth: i32, diff: i32): void {
  const i = slot(pos);
  let bonus = (diff * depth) >> 2;
  const cap = CORRECTION_LIMIT >> 2;
  bonus = bonus > cap ? cap : bonus < -cap ? -cap : bonus;
  const h = <i32>unchecked(table[i]);
  unchecked(table[i] = <i16>(h + bonus - (h * (bonus < 0 ? -bonus : bonus)) / CORRECTION_LIMIT));
}

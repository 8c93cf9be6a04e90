/**
 * Static-evaluation correction history: how far the searched score of positions with the same
 * pawn structure (and side to move) has landed from their static evaluation, kept as a moving
 * average and added to later static evaluations. Pawn structures the evaluation misjudges
 * (a blocked centre, a weak pawn it has no term for) are corrected by what the search found
 * there. The technique is the "correction history" of Stockfish 16 (src/search.cpp) and of many
 * engines since; this one is an exponential moving average weighted by depth.
 *
 * Entries are i16 in units of 1/GRAIN centipawn, indexed by side to move and 14 bits of a hash
 * of the two pawn bitboards (a multiplicative hash: no incremental pawn key is needed).
 */
import { PAWN } from '../types';
import { Position } from '../position';

const BITS = 14;
const SIZE = 1 << BITS;
/** Fixed-point scale of an entry. */
const GRAIN = 256;
/** Weights are out of WEIGHT_SCALE. */
const WEIGHT_SCALE = 1024;
/** At most 32 centipawns of correction. */
const LIMIT = 32 * GRAIN;

export const CORRECTION_ENTRIES = 2 * SIZE;

// @ts-ignore: decorator
@inline function slot(pos: Position): i32 {
  const h = unchecked(pos.bb[PAWN]) * 0x9e3779b97f4a7c15 ^ unchecked(pos.bb[8 | PAWN]) * 0xc2b2ae3d27d4eb4f;
  return (pos.turn << BITS) | <i32>(h >>> (64 - BITS));
}

/** The static evaluation `raw` corrected by the history of this pawn structure. */
// @ts-ignore: decorator
@inline export function corrected(table: StaticArray<i16>, pos: Position, raw: i32): i32 {
  return raw + <i32>unchecked(table[slot(pos)]) / GRAIN;
}

/** Moves this structure's entry toward `diff` (searched score minus corrected evaluation). */
export function updateCorrection(table: StaticArray<i16>, pos: Position, depth: i32, diff: i32): void {
  const i = slot(pos);
  const w0 = depth * depth + 2 * depth + 1;
  const w = w0 < 128 ? w0 : 128;
  const old = <i32>unchecked(table[i]);
  let v = (old * (WEIGHT_SCALE - w) + diff * GRAIN * w) / WEIGHT_SCALE;
  v = v > LIMIT ? LIMIT : v < -LIMIT ? -LIMIT : v;
  unchecked(table[i] = <i16>v);
}

/**
 * The stored positions most like the current one, for when none can be reached: their book
 * moves are hints (plans that worked in a similar structure), not moves to play blindly.
 *
 * Distance is compared as a tuple, first element first, so that material and pawn structure,
 * which no number of moves restores once changed, decide before piece placement:
 *
 *   1. material: the sum over both colours and the five piece types of |count difference|;
 *   2. pawn structure: squares where the pawn placement differs (either colour);
 *   3. pieces: squares where the placement of knights, bishops, rooks, queens and kings differs;
 *   4. castling rights that differ, plus 1 when the side to move differs.
 *
 * A full scan of the index (every stored position), cheap next to the reach search.
 */
import { popcount32 } from '../../core/bitboard.js';
import type { Position } from '../../core/position.js';
import type { ReachIndex } from './reachIndex.js';
import { BOARD_WORDS, countIn, materialKey, wordOf, writeBoard } from './signature.js';

export interface NearHit {
  target: number;
  material: number;
  pawns: number;
  pieces: number;
  other: number;
}

const HERE = new Int32Array(BOARD_WORDS);

const compare = (a: NearHit, b: NearHit): number => a.material - b.material || a.pawns - b.pawns || a.pieces - b.pieces || a.other - b.other || a.target - b.target;

/** The `k` stored positions nearest to `pos` (the position itself excluded), nearest first. */
export function nearestPositions(index: ReachIndex, pos: Position, k: number): NearHit[] {
  writeBoard(pos, HERE, 0);
  const mat = materialKey(HERE, 0);
  const flags = (pos.castling & 15) | (pos.turn << 4);
  const best: NearHit[] = [];
  const matCache = new Map<number, number>();
  for (let i = 0; i < index.size; i++) {
    if (index.keyHi[i] === pos.keyHi && index.keyLo[i] === pos.keyLo) continue;
    const m = index.material[i]!;
    let material = matCache.get(m);
    if (material === undefined) {
      material = 0;
      for (let c = 0; c < 2; c++) for (let t = 1; t <= 5; t++) material += Math.abs(countIn(m, c, t) - countIn(mat, c, t));
      matCache.set(m, material);
    }
    const o = i * BOARD_WORDS;
    let pawns = 0;
    let pieces = 0;
    for (let c = 0; c < 2; c++) {
      for (let t = 1; t <= 6; t++) {
        const w = wordOf(c, t);
        const d = popcount32(HERE[w]! ^ index.boards[o + w]!) + popcount32(HERE[w + 1]! ^ index.boards[o + w + 1]!);
        if (t === 1) pawns += d;
        else pieces += d;
      }
    }
    const f = index.flags[i]!;
    const other = popcount32((f ^ flags) & 15) + ((f ^ flags) >> 4);
    const hit = { target: i, material, pawns, pieces, other };
    if (best.length === k && compare(hit, best[k - 1]!) >= 0) continue;
    let j = best.length < k ? best.length : k - 1;
    best[j] = hit;
    while (j > 0 && compare(best[j]!, best[j - 1]!) < 0) {
      [best[j], best[j - 1]] = [best[j - 1]!, best[j]!];
      j--;
    }
  }
  return best;
}

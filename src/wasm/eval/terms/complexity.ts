/**
 * How hard the position is to convert, from counts that do not depend on which side is ahead:
 * pawns and passed pawns on the board, pawns on both flanks, a pure pawn ending, and kings that
 * outflank each other (file distance more than rank distance). The evaluation adds the sum to
 * the endgame half's size (evaluate.ts withComplexity): Stockfish's "initiative" (Stockfish
 * 11, evaluate.cpp) and Ethereal's evaluateComplexity. Endgame values only.
 */
import { Position } from '../../position';
import { PAWN } from '../../types';
import { FILE_A, popcnt64 } from '../masks';
import {
  P_COMPLEXITY_BASE, P_COMPLEXITY_FLANKS, P_COMPLEXITY_OUTFLANKING, P_COMPLEXITY_PASSED, P_COMPLEXITY_PAWN_ENDING,
  P_COMPLEXITY_PAWNS, PACKED, unpackEg,
} from '../params';
import { traceComplexity } from '../trace';
import { NPM } from './endgame';
import { PI_PASSED } from './pawns';

const QUEEN_SIDE: u64 = FILE_A * 0x0f;
const KING_SIDE: u64 = FILE_A * 0xf0;

// @ts-ignore: decorator
@inline function add(k: i32, n: i32): i32 {
  if (n == 0) return 0;
  traceComplexity(k, n);
  return unpackEg(unchecked(PACKED[k])) * n;
}

/** The complexity sum (centipawns of the endgame half). NPM and the pawn info must be set. */
export function complexity(pos: Position): i32 {
  const bb = pos.bb;
  const pawns = unchecked(bb[PAWN]) | unchecked(bb[8 | PAWN]);
  const wk = <i32>unchecked(pos.kingSq[0]);
  const bk = <i32>unchecked(pos.kingSq[1]);
  const files = (wk & 7) - (bk & 7);
  const ranks = (wk >> 3) - (bk >> 3);
  let cx = add(P_COMPLEXITY_PAWNS, popcnt64(pawns));
  cx += add(P_COMPLEXITY_PASSED, popcnt64(unchecked(PI_PASSED[0]) | unchecked(PI_PASSED[1])));
  cx += add(P_COMPLEXITY_FLANKS, (pawns & QUEEN_SIDE) != 0 && (pawns & KING_SIDE) != 0 ? 1 : 0);
  cx += add(P_COMPLEXITY_PAWN_ENDING, unchecked(NPM[0]) + unchecked(NPM[1]) == 0 ? 1 : 0);
  cx += add(P_COMPLEXITY_OUTFLANKING, (files < 0 ? -files : files) - (ranks < 0 ? -ranks : ranks));
  cx += add(P_COMPLEXITY_BASE, 1);
  return cx;
}

/**
 * Material plus piece-square values, as one packed (mg, eg) number from White's point of view.
 * The search keeps it incrementally (one `psqtDelta` per move, a few table reads) instead of
 * summing 32 pieces at every evaluation, and a cheap first guess of the evaluation (`lazy`) can
 * be had from it alone.
 */
import {
  CASTLING as CASTLING_,
  EN_PASSANT as EN_PASSANT_,
  KIND_MASK as KIND_MASK_,
  PROMOTION as PROMOTION_,
} from '../../core/move.js';
import type { Position } from '../../core/position.js';
import { KING as KING_, KNIGHT as KNIGHT_ } from '../../core/types.js';
import { TRACE as TRACE_ } from './masks.js';
import { P_MATERIAL as P_MATERIAL_, P_PST as P_PST_, PSQ as PSQ_ } from './params.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const CASTLING = CASTLING_;
const EN_PASSANT = EN_PASSANT_;
const KIND_MASK = KIND_MASK_;
const PROMOTION = PROMOTION_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const TRACE = TRACE_;
const P_MATERIAL = P_MATERIAL_;
const P_PST = P_PST_;
const PSQ = PSQ_;

/** Material + PST of the whole position (and, when tracing, their coefficients). */
export function psqtFromScratch(pos: Position): number {
  const tr = TRACE.on ? TRACE.coef : null;
  let s = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq]!;
    if (p === 0) continue;
    s += PSQ[(p << 6) | sq]!;
    if (tr) {
      const c = p >> 3;
      const t = p & 7;
      const sign = c === 0 ? 1 : -1;
      if (t !== KING) tr[P_MATERIAL + t - 1]! += sign;
      tr[P_PST + ((t - 1) << 6) + (c === 0 ? sq : sq ^ 56)]! += sign;
    }
  }
  return s;
}

/** Change of psqtFromScratch caused by move m (legal in pos, not yet played). */
export function psqtDelta(pos: Position, m: number): number {
  const board = pos.board;
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const piece = board[from]!;
  const kind = m & KIND_MASK;
  if (kind === CASTLING) {
    const rook = board[to]!;
    const base = from & 56;
    const kTo = base + (to > from ? 6 : 2);
    const rTo = base + (to > from ? 5 : 3);
    return PSQ[(piece << 6) | kTo]! - PSQ[(piece << 6) | from]! + PSQ[(rook << 6) | rTo]! - PSQ[(rook << 6) | to]!;
  }
  let d = -PSQ[(piece << 6) | from]!;
  if (kind === PROMOTION) d += PSQ[(((piece & 8) | (((m >>> 12) & 3) + KNIGHT)) << 6) | to]!;
  else d += PSQ[(piece << 6) | to]!;
  if (kind === EN_PASSANT) {
    const cap = to ^ 8;
    d -= PSQ[(board[cap]! << 6) | cap]!;
  } else {
    const captured = board[to]!;
    if (captured !== 0) d -= PSQ[(captured << 6) | to]!;
  }
  return d;
}

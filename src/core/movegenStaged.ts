/**
 * Move generation in stages for search: noisy moves (captures, en passant, promotions) and
 * quiet moves separately, so a node that cuts off on a capture never generates its quiets,
 * and quiescence search never generates them at all. Also a cheap legality test for a single
 * move (hash moves, killers, counter-moves), so those can be tried before anything is
 * generated.
 *
 * Everything here assumes the side to move is NOT in check (evasions come from
 * `generateLegal`) and takes the node's pinned pieces as arguments (from `computePins` in
 * legality.ts, copied by the caller: deeper nodes overwrite PINS). The moves are legal; the
 * union of both stages equals `generateLegal` (tested against it on many positions).
 */
import {
  KING_HI as KING_HI_,
  KING_LO as KING_LO_,
  KNIGHT_HI as KNIGHT_HI_,
  KNIGHT_LO as KNIGHT_LO_,
  LINE_HI as LINE_HI_,
  LINE_LO as LINE_LO_,
  OUT as OUT_,
  PAWN_HI as PAWN_HI_,
  PAWN_LO as PAWN_LO_,
  bishopAttacks as bishopAttacks_,
  rookAttacks as rookAttacks_,
} from './attacks.js';
import {
  CASTLING as CASTLING_,
  EN_PASSANT as EN_PASSANT_,
  PROMOTION as PROMOTION_,
} from './move.js';
import type { Position } from './position.js';
import { castlingLegal as castlingLegal_, epLegal as epLegal_ } from './legality.js';
import {
  BISHOP as BISHOP_,
  KING as KING_,
  KNIGHT as KNIGHT_,
  NO_SQUARE as NO_SQUARE_,
  PAWN as PAWN_,
  QUEEN as QUEEN_,
  ROOK as ROOK_,
} from './types.js';
// Module-local copies of the imports used in hot code: why, and the measurement, in docs/core.md
// ("Imports copied into module-local constants", `npm run bench -- aliases`).
const castlingLegal = castlingLegal_;
const epLegal = epLegal_;
const KING_HI = KING_HI_;
const KING_LO = KING_LO_;
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const LINE_HI = LINE_HI_;
const LINE_LO = LINE_LO_;
const OUT = OUT_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const bishopAttacks = bishopAttacks_;
const rookAttacks = rookAttacks_;
const CASTLING = CASTLING_;
const EN_PASSANT = EN_PASSANT_;
const PROMOTION = PROMOTION_;
const BISHOP = BISHOP_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const NO_SQUARE = NO_SQUARE_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;

function emit(buf: Uint16Array, n: number, from: number, tLo: number, tHi: number): number {
  const f = from << 6;
  while (tLo !== 0) {
    buf[n++] = f | (31 - Math.clz32(tLo & -tLo));
    tLo &= tLo - 1;
  }
  while (tHi !== 0) {
    buf[n++] = f | (63 - Math.clz32(tHi & -tHi));
    tHi &= tHi - 1;
  }
  return n;
}

function emitPromotions(buf: Uint16Array, n: number, from: number, to: number): number {
  const base = PROMOTION | (from << 6) | to;
  buf[n++] = base | (3 << 12);
  buf[n++] = base | (2 << 12);
  buf[n++] = base | (1 << 12);
  buf[n++] = base;
  return n;
}

/** Piece moves (knights, sliders, king) of the side to move onto (tLo, tHi). */
function pieceMoves(pos: Position, buf: Uint16Array, n: number, targetLo: number, targetHi: number, pinLo: number, pinHi: number): number {
  const us = pos.turn;
  const them = us ^ 1;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const o = us << 3;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  const ksq = pos.kingSq[us]!;
  const kb = ksq << 6;

  let bLo = lo[o | KNIGHT]! & ~pinLo;
  let bHi = hi[o | KNIGHT]! & ~pinHi;
  while (bLo !== 0) {
    const s = 31 - Math.clz32(bLo & -bLo);
    bLo &= bLo - 1;
    n = emit(buf, n, s, KNIGHT_LO[s]! & targetLo, KNIGHT_HI[s]! & targetHi);
  }
  while (bHi !== 0) {
    const s = 63 - Math.clz32(bHi & -bHi);
    bHi &= bHi - 1;
    n = emit(buf, n, s, KNIGHT_LO[s]! & targetLo, KNIGHT_HI[s]! & targetHi);
  }

  bLo = lo[o | BISHOP]! | lo[o | QUEEN]!;
  bHi = hi[o | BISHOP]! | hi[o | QUEEN]!;
  while (bLo !== 0) {
    const s = 31 - Math.clz32(bLo & -bLo);
    bLo &= bLo - 1;
    bishopAttacks(s, occLo, occHi);
    let tLo = OUT[0]! & targetLo;
    let tHi = OUT[1]! & targetHi;
    if (pinLo & (1 << s)) {
      tLo &= LINE_LO[kb | s]!;
      tHi &= LINE_HI[kb | s]!;
    }
    n = emit(buf, n, s, tLo, tHi);
  }
  while (bHi !== 0) {
    const s = 63 - Math.clz32(bHi & -bHi);
    bHi &= bHi - 1;
    bishopAttacks(s, occLo, occHi);
    let tLo = OUT[0]! & targetLo;
    let tHi = OUT[1]! & targetHi;
    if (pinHi & (1 << (s - 32))) {
      tLo &= LINE_LO[kb | s]!;
      tHi &= LINE_HI[kb | s]!;
    }
    n = emit(buf, n, s, tLo, tHi);
  }

  bLo = lo[o | ROOK]! | lo[o | QUEEN]!;
  bHi = hi[o | ROOK]! | hi[o | QUEEN]!;
  while (bLo !== 0) {
    const s = 31 - Math.clz32(bLo & -bLo);
    bLo &= bLo - 1;
    rookAttacks(s, occLo, occHi);
    let tLo = OUT[0]! & targetLo;
    let tHi = OUT[1]! & targetHi;
    if (pinLo & (1 << s)) {
      tLo &= LINE_LO[kb | s]!;
      tHi &= LINE_HI[kb | s]!;
    }
    n = emit(buf, n, s, tLo, tHi);
  }
  while (bHi !== 0) {
    const s = 63 - Math.clz32(bHi & -bHi);
    bHi &= bHi - 1;
    rookAttacks(s, occLo, occHi);
    let tLo = OUT[0]! & targetLo;
    let tHi = OUT[1]! & targetHi;
    if (pinHi & (1 << (s - 32))) {
      tLo &= LINE_LO[kb | s]!;
      tHi &= LINE_HI[kb | s]!;
    }
    n = emit(buf, n, s, tLo, tHi);
  }

  // King: each target tested with the king lifted off the board.
  const kLo = ksq < 32 ? occLo ^ (1 << ksq) : occLo;
  const kHi = ksq >= 32 ? occHi ^ (1 << (ksq - 32)) : occHi;
  let tLo = KING_LO[ksq]! & targetLo;
  let tHi = KING_HI[ksq]! & targetHi;
  while (tLo !== 0) {
    const to = 31 - Math.clz32(tLo & -tLo);
    tLo &= tLo - 1;
    if (!pos.isAttacked(to, them, kLo, kHi)) buf[n++] = kb | to;
  }
  while (tHi !== 0) {
    const to = 63 - Math.clz32(tHi & -tHi);
    tHi &= tHi - 1;
    if (!pos.isAttacked(to, them, kLo, kHi)) buf[n++] = kb | to;
  }
  return n;
}

/**
 * Legal captures, en-passant captures and promotions (all four pieces, capturing or not) of a
 * side to move that is not in check. Returns the new end of buf.
 */
export function generateNoisy(pos: Position, buf: Uint16Array, start: number, pinLo: number, pinHi: number): number {
  const us = pos.turn;
  const them = us ^ 1;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const enemyLo = lo[them << 3]! & ~lo[(them << 3) | KING]!;
  const enemyHi = hi[them << 3]! & ~hi[(them << 3) | KING]!;
  let n = pieceMoves(pos, buf, start, enemyLo, enemyHi, pinLo, pinHi);

  const ksq = pos.kingSq[us]!;
  const kb = ksq << 6;
  const up = us === 0 ? 8 : -8;
  const o = us << 3;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? lo[o | PAWN]! : hi[o | PAWN]!;
    const pinned = half === 0 ? pinLo : pinHi;
    while (b !== 0) {
      const low = b & -b;
      b &= b - 1;
      const s = (half << 5) + 31 - Math.clz32(low);
      let allowLo = -1;
      let allowHi = -1;
      if (pinned & low) {
        allowLo = LINE_LO[kb | s]!;
        allowHi = LINE_HI[kb | s]!;
      }
      const pa = (us << 6) | s;
      let tLo = PAWN_LO[pa]! & enemyLo & allowLo;
      let tHi = PAWN_HI[pa]! & enemyHi & allowHi;
      const promo = us === 0 ? s >= 48 : s < 16;
      while (tLo !== 0) {
        const to = 31 - Math.clz32(tLo & -tLo);
        tLo &= tLo - 1;
        if (promo) n = emitPromotions(buf, n, s, to);
        else buf[n++] = (s << 6) | to;
      }
      while (tHi !== 0) {
        const to = 63 - Math.clz32(tHi & -tHi);
        tHi &= tHi - 1;
        if (promo) n = emitPromotions(buf, n, s, to);
        else buf[n++] = (s << 6) | to;
      }
      if (promo) {
        const one = s + up;
        if (pos.board[one] === 0 && ((one < 32 ? allowLo >>> one : allowHi >>> (one - 32)) & 1) !== 0) n = emitPromotions(buf, n, s, one);
      }
    }
  }

  const ep = pos.epSquare;
  if (ep !== NO_SQUARE) {
    const pa = (them << 6) | ep;
    for (let half = 0; half < 2; half++) {
      let b = half === 0 ? PAWN_LO[pa]! & lo[o | PAWN]! : PAWN_HI[pa]! & hi[o | PAWN]!;
      while (b !== 0) {
        const s = (half << 5) + 31 - Math.clz32(b & -b);
        b &= b - 1;
        if (epLegal(pos, s, ep)) buf[n++] = EN_PASSANT | (s << 6) | ep;
      }
    }
  }
  return n;
}

/**
 * Legal quiet moves (no capture, no promotion; castling included) of a side to move that is
 * not in check. Returns the new end of buf.
 */
export function generateQuiets(pos: Position, buf: Uint16Array, start: number, pinLo: number, pinHi: number): number {
  const us = pos.turn;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const emptyLo = ~(lo[0]! | lo[8]!);
  const emptyHi = ~(hi[0]! | hi[8]!);
  let n = pieceMoves(pos, buf, start, emptyLo, emptyHi, pinLo, pinHi);

  const ksq = pos.kingSq[us]!;
  const kb = ksq << 6;
  const up = us === 0 ? 8 : -8;
  const startRank = us === 0 ? 1 : 6;
  const o = us << 3;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? lo[o | PAWN]! : hi[o | PAWN]!;
    const pinned = half === 0 ? pinLo : pinHi;
    while (b !== 0) {
      const low = b & -b;
      b &= b - 1;
      const s = (half << 5) + 31 - Math.clz32(low);
      if (us === 0 ? s >= 48 : s < 16) continue;
      const one = s + up;
      if (pos.board[one] !== 0) continue;
      // A pinned pawn may only advance along a pin on its own file.
      if ((pinned & low) !== 0 && ((s ^ ksq) & 7) !== 0) continue;
      buf[n++] = (s << 6) | one;
      if (s >> 3 === startRank && pos.board[one + up] === 0) buf[n++] = (s << 6) | (one + up);
    }
  }

  if (pos.castling !== 0) {
    for (let side = 0; side < 2; side++) {
      const i = (us << 1) | side;
      if ((pos.castling & (1 << i)) !== 0 && castlingLegal(pos, i, pinLo, pinHi)) buf[n++] = CASTLING | kb | pos.castleRook[i]!;
    }
  }
  return n;
}


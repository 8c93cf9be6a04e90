/**
 * Legality of single moves and the pins they depend on, for moves that were not generated
 * in the current position: the hash move, killers and counter-moves are remembered from other
 * positions and are tried before anything is generated, so each must be checked here. Also
 * the castling and en-passant tests the staged generator shares.
 *
 * The side to move must not be in check (evasions are generated in full instead).
 */
import {
  BETWEEN_HI as BETWEEN_HI_,
  BETWEEN_LO as BETWEEN_LO_,
  BISHOP_EMPTY_HI as BISHOP_EMPTY_HI_,
  BISHOP_EMPTY_LO as BISHOP_EMPTY_LO_,
  KING_HI as KING_HI_,
  KING_LO as KING_LO_,
  KNIGHT_HI as KNIGHT_HI_,
  KNIGHT_LO as KNIGHT_LO_,
  LINE_HI as LINE_HI_,
  LINE_LO as LINE_LO_,
  OUT as OUT_,
  PAWN_HI as PAWN_HI_,
  PAWN_LO as PAWN_LO_,
  ROOK_EMPTY_HI as ROOK_EMPTY_HI_,
  ROOK_EMPTY_LO as ROOK_EMPTY_LO_,
  bishopAttacks as bishopAttacks_,
  rookAttacks as rookAttacks_,
} from './attacks.js';
import {
  CASTLING as CASTLING_,
  EN_PASSANT as EN_PASSANT_,
  KIND_MASK as KIND_MASK_,
  NORMAL as NORMAL_,
  PROMOTION as PROMOTION_,
} from './move.js';
import type { Position } from './position.js';
import {
  BISHOP as BISHOP_,
  KING as KING_,
  KNIGHT as KNIGHT_,
  PAWN as PAWN_,
  QUEEN as QUEEN_,
  ROOK as ROOK_,
} from './types.js';
// Module-local copies of the imports used in hot code: why, and the measurement, in docs/core.md
// ("Imports copied into module-local constants", `npm run bench -- aliases`).
const BETWEEN_HI = BETWEEN_HI_;
const BETWEEN_LO = BETWEEN_LO_;
const BISHOP_EMPTY_HI = BISHOP_EMPTY_HI_;
const BISHOP_EMPTY_LO = BISHOP_EMPTY_LO_;
const KING_HI = KING_HI_;
const KING_LO = KING_LO_;
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const LINE_HI = LINE_HI_;
const LINE_LO = LINE_LO_;
const OUT = OUT_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const ROOK_EMPTY_HI = ROOK_EMPTY_HI_;
const ROOK_EMPTY_LO = ROOK_EMPTY_LO_;
const bishopAttacks = bishopAttacks_;
const rookAttacks = rookAttacks_;
const CASTLING = CASTLING_;
const EN_PASSANT = EN_PASSANT_;
const KIND_MASK = KIND_MASK_;
const NORMAL = NORMAL_;
const PROMOTION = PROMOTION_;
const BISHOP = BISHOP_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;

/** Pinned pieces of the side to move (lo, hi), written by `computePins`. */
export const PINS = new Int32Array(2);

/** Own pieces pinned to the own king by enemy sliders → PINS. */
export function computePins(pos: Position): void {
  const us = pos.turn;
  const t = (us ^ 1) << 3;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  const ownLo = lo[us << 3]!;
  const ownHi = hi[us << 3]!;
  const ksq = pos.kingSq[us]!;
  const kb = ksq << 6;
  const sLo = (ROOK_EMPTY_LO[ksq]! & (lo[t | ROOK]! | lo[t | QUEEN]!)) | (BISHOP_EMPTY_LO[ksq]! & (lo[t | BISHOP]! | lo[t | QUEEN]!));
  const sHi = (ROOK_EMPTY_HI[ksq]! & (hi[t | ROOK]! | hi[t | QUEEN]!)) | (BISHOP_EMPTY_HI[ksq]! & (hi[t | BISHOP]! | hi[t | QUEEN]!));
  let pLo = 0;
  let pHi = 0;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? sLo : sHi;
    while (b !== 0) {
      const s = (half << 5) + 31 - Math.clz32(b & -b);
      b &= b - 1;
      const bLo = BETWEEN_LO[kb | s]! & occLo;
      const bHi = BETWEEN_HI[kb | s]! & occHi;
      // Exactly one piece between king and slider, and it is ours.
      if (bLo !== 0 ? bHi === 0 && (bLo & (bLo - 1)) === 0 : bHi !== 0 && (bHi & (bHi - 1)) === 0) {
        pLo |= bLo & ownLo;
        pHi |= bHi & ownHi;
      }
    }
  }
  PINS[0] = pLo;
  PINS[1] = pHi;
}

export function castlingLegal(pos: Position, i: number, pinLo: number, pinHi: number): boolean {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  if ((occLo & pos.castlePathLo[i]!) | (occHi & pos.castlePathHi[i]!)) return false;
  const rookSq = pos.castleRook[i]!;
  if ((rookSq < 32 ? (pinLo >>> rookSq) & 1 : (pinHi >>> (rookSq - 32)) & 1) !== 0) return false;
  const us = pos.turn;
  const ksq = pos.kingSq[us]!;
  let xLo = occLo;
  let xHi = occHi;
  if (ksq < 32) xLo ^= 1 << ksq;
  else xHi ^= 1 << (ksq - 32);
  if (rookSq < 32) xLo ^= 1 << rookSq;
  else xHi ^= 1 << (rookSq - 32);
  let pLo = pos.castleKingPathLo[i]!;
  let pHi = pos.castleKingPathHi[i]!;
  while (pLo !== 0) {
    const sq = 31 - Math.clz32(pLo & -pLo);
    pLo &= pLo - 1;
    if (pos.isAttacked(sq, us ^ 1, xLo, xHi)) return false;
  }
  while (pHi !== 0) {
    const sq = 63 - Math.clz32(pHi & -pHi);
    pHi &= pHi - 1;
    if (pos.isAttacked(sq, us ^ 1, xLo, xHi)) return false;
  }
  return true;
}

/** En passant from `from` does not expose the own king (both pawns lifted off the board). */
export function epLegal(pos: Position, from: number, ep: number): boolean {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  let xLo = lo[0]! | lo[8]!;
  let xHi = hi[0]! | hi[8]!;
  const capSq = ep ^ 8;
  if (from < 32) xLo ^= 1 << from;
  else xHi ^= 1 << (from - 32);
  if (capSq < 32) xLo ^= 1 << capSq;
  else xHi ^= 1 << (capSq - 32);
  if (ep < 32) xLo |= 1 << ep;
  else xHi |= 1 << (ep - 32);
  const us = pos.turn;
  const t = (us ^ 1) << 3;
  const ksq = pos.kingSq[us]!;
  bishopAttacks(ksq, xLo, xHi);
  if ((OUT[0]! & (lo[t | BISHOP]! | lo[t | QUEEN]!)) | (OUT[1]! & (hi[t | BISHOP]! | hi[t | QUEEN]!))) return false;
  rookAttacks(ksq, xLo, xHi);
  if ((OUT[0]! & (lo[t | ROOK]! | lo[t | QUEEN]!)) | (OUT[1]! & (hi[t | ROOK]! | hi[t | QUEEN]!))) return false;
  return true;
}

/**
 * Is `m` a legal move here? For moves remembered from other positions (hash move, killers,
 * counter-moves): any 16-bit value is accepted as input. The side to move must not be in
 * check; (pinLo, pinHi) are the node's pinned pieces.
 */
export function isLegalNotInCheck(pos: Position, m: number, pinLo: number, pinHi: number): boolean {
  const from = (m >>> 6) & 63;
  const to = m & 63;
  if (from === to) return false;
  const us = pos.turn;
  const piece = pos.board[from]!;
  if (piece === 0 || piece >> 3 !== us) return false;
  const type = piece & 7;
  const kind = m & KIND_MASK;
  if (kind !== PROMOTION && (m & 0x3000) !== 0) return false;
  const ksq = pos.kingSq[us]!;
  if (kind === CASTLING) {
    if (type !== KING || pos.castling === 0) return false;
    for (let side = 0; side < 2; side++) {
      const i = (us << 1) | side;
      if ((pos.castling & (1 << i)) !== 0 && pos.castleRook[i] === to) return castlingLegal(pos, i, pinLo, pinHi);
    }
    return false;
  }
  const target = pos.board[to]!;
  if (target !== 0 && (target >> 3 === us || (target & 7) === KING)) return false;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  if (type === PAWN) {
    const last = us === 0 ? to >= 56 : to < 8;
    if (kind === EN_PASSANT) return to === pos.epSquare && pawnAttacks(us, from, to) && epLegal(pos, from, to);
    if ((kind === PROMOTION) !== last) return false;
    const up = us === 0 ? 8 : -8;
    if (target === 0) {
      if (to === from + up) {
        // single push: board[to] is empty
      } else if (to === from + 2 * up && (from >> 3) === (us === 0 ? 1 : 6) && pos.board[from + up] === 0) {
        // double push
      } else return false;
    } else if (!pawnAttacks(us, from, to)) return false;
  } else {
    if (kind !== NORMAL) return false;
    let aLo: number;
    let aHi: number;
    if (type === KNIGHT) {
      aLo = KNIGHT_LO[from]!;
      aHi = KNIGHT_HI[from]!;
    } else if (type === KING) {
      aLo = KING_LO[from]!;
      aHi = KING_HI[from]!;
    } else {
      if (type === BISHOP) bishopAttacks(from, occLo, occHi);
      else if (type === ROOK) rookAttacks(from, occLo, occHi);
      else {
        bishopAttacks(from, occLo, occHi);
        const l = OUT[0]!;
        const h = OUT[1]!;
        rookAttacks(from, occLo, occHi);
        OUT[0] = OUT[0]! | l;
        OUT[1] = OUT[1]! | h;
      }
      aLo = OUT[0]!;
      aHi = OUT[1]!;
    }
    if (((to < 32 ? aLo >>> to : aHi >>> (to - 32)) & 1) === 0) return false;
    if (type === KING) {
      const kLo = ksq < 32 ? occLo ^ (1 << ksq) : occLo;
      const kHi = ksq >= 32 ? occHi ^ (1 << (ksq - 32)) : occHi;
      return !pos.isAttacked(to, us ^ 1, kLo, kHi);
    }
  }
  if (((from < 32 ? pinLo >>> from : pinHi >>> (from - 32)) & 1) !== 0) {
    const l = (ksq << 6) | from;
    return ((to < 32 ? LINE_LO[l]! >>> to : LINE_HI[l]! >>> (to - 32)) & 1) !== 0;
  }
  return true;
}

function pawnAttacks(us: number, from: number, to: number): boolean {
  const pa = (us << 6) | from;
  return ((to < 32 ? PAWN_LO[pa]! >>> to : PAWN_HI[pa]! >>> (to - 32)) & 1) !== 0;
}

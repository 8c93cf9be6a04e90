/**
 * Legal move generation. Checkers and pinned pieces are computed once per node; each piece's
 * targets are then masked (evasion targets when in check, the pin line when pinned), so no
 * move is ever made and taken back to test legality. Only king moves and en passant need an
 * attack query per move.
 *
 * Moves are written into a caller-owned Uint16Array from `start`; the new end is returned.
 * Nothing allocates: scratch values live in module-level typed arrays.
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
import { CASTLING as CASTLING_, EN_PASSANT as EN_PASSANT_, KIND_MASK as KIND_MASK_, PROMOTION as PROMOTION_ } from './move.js';
import type { Position } from './position.js';
import { BISHOP as BISHOP_, KING as KING_, KNIGHT as KNIGHT_, MAX_MOVES, NO_SQUARE as NO_SQUARE_, PAWN as PAWN_, QUEEN as QUEEN_, ROOK as ROOK_ } from './types.js';

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
const PROMOTION = PROMOTION_;
const KIND = KIND_MASK_;
/** The promotion piece's bits, zero in every other kind of move. */
const PROMOTION_TYPE = 3 << 12;
const BISHOP = BISHOP_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const NO_SQUARE = NO_SQUARE_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;

/** Per-node context shared by the generator and legality queries. */
export const CTX: Int32Array = new Int32Array(8);
const C_CHECK_LO = 0;
const C_CHECK_HI = 1;
const C_PIN_LO = 2;
const C_PIN_HI = 3;

/** Computes checkers and pinned pieces of the side to move into CTX. */
export function computeContext(pos: Position): void {
  const us = pos.turn;
  const them = us ^ 1;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  const ksq = pos.kingSq[us]!;
  pos.attackersTo(ksq, them, occLo, occHi);
  CTX[C_CHECK_LO] = OUT[0]!;
  CTX[C_CHECK_HI] = OUT[1]!;
  const t = them << 3;
  const sLo = (ROOK_EMPTY_LO[ksq]! & (lo[t | ROOK]! | lo[t | QUEEN]!)) | (BISHOP_EMPTY_LO[ksq]! & (lo[t | BISHOP]! | lo[t | QUEEN]!));
  const sHi = (ROOK_EMPTY_HI[ksq]! & (hi[t | ROOK]! | hi[t | QUEEN]!)) | (BISHOP_EMPTY_HI[ksq]! & (hi[t | BISHOP]! | hi[t | QUEEN]!));
  let pLo = 0;
  let pHi = 0;
  const ownLo = lo[us << 3]!;
  const ownHi = hi[us << 3]!;
  const kb = ksq << 6;
  // The enemy sliders on a line from the king, low half then high half.
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? sLo : sHi;
    while (b !== 0) {
      const s = (half << 5) + 31 - Math.clz32(b & -b);
      b &= b - 1;
      const bLo = BETWEEN_LO[kb | s]! & occLo;
      const bHi = BETWEEN_HI[kb | s]! & occHi;
      // Exactly one piece between king and slider: ours is pinned.
      if (bLo !== 0 ? bHi === 0 && (bLo & (bLo - 1)) === 0 : bHi !== 0 && (bHi & (bHi - 1)) === 0) {
        pLo |= bLo & ownLo;
        pHi |= bHi & ownHi;
      }
    }
  }
  CTX[C_PIN_LO] = pLo;
  CTX[C_PIN_HI] = pHi;
}

/** Writes moves from `from` to every square of (tLo, tHi). */
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

function emitPawn(buf: Uint16Array, n: number, from: number, to: number): number {
  if (to >= 56 || to < 8) {
    const base = PROMOTION | (from << 6) | to;
    buf[n++] = base | (3 << 12);
    buf[n++] = base | (2 << 12);
    buf[n++] = base | (1 << 12);
    buf[n++] = base;
  } else {
    buf[n++] = (from << 6) | to;
  }
  return n;
}

/**
 * Generates all legal moves of the side to move into buf[start..]; returns the new end.
 * Also leaves the node's checkers and pins in CTX.
 */
export function generateLegal(pos: Position, buf: Uint16Array, start: number): number {
  computeContext(pos);
  const us = pos.turn;
  const them = us ^ 1;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const o = us << 3;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  const ownLo = lo[o]!;
  const ownHi = hi[o]!;
  const ksq = pos.kingSq[us]!;
  const cLo = CTX[C_CHECK_LO]!;
  const cHi = CTX[C_CHECK_HI]!;
  const pinLo = CTX[C_PIN_LO]!;
  const pinHi = CTX[C_PIN_HI]!;
  let n = start;

  // King moves: test each target with the king lifted off the board (so it cannot hide
  // behind itself from a slider).
  {
    const kLo = ksq < 32 ? occLo ^ (1 << ksq) : occLo;
    const kHi = ksq >= 32 ? occHi ^ (1 << (ksq - 32)) : occHi;
    let tLo = KING_LO[ksq]! & ~ownLo;
    let tHi = KING_HI[ksq]! & ~ownHi;
    const f = ksq << 6;
    while (tLo !== 0) {
      const to = 31 - Math.clz32(tLo & -tLo);
      tLo &= tLo - 1;
      if (!pos.isAttacked(to, them, kLo, kHi)) buf[n++] = f | to;
    }
    while (tHi !== 0) {
      const to = 63 - Math.clz32(tHi & -tHi);
      tHi &= tHi - 1;
      if (!pos.isAttacked(to, them, kLo, kHi)) buf[n++] = f | to;
    }
  }

  let targetLo: number;
  let targetHi: number;
  const inCheck = (cLo | cHi) !== 0;
  if (inCheck) {
    if ((cLo !== 0 && cHi !== 0) || (cLo & (cLo - 1)) !== 0 || (cHi & (cHi - 1)) !== 0) return n; // double check
    const c = cLo !== 0 ? 31 - Math.clz32(cLo) : 63 - Math.clz32(cHi);
    targetLo = BETWEEN_LO[(ksq << 6) | c]! | cLo;
    targetHi = BETWEEN_HI[(ksq << 6) | c]! | cHi;
  } else {
    targetLo = ~ownLo;
    targetHi = ~ownHi;
  }
  const kb = ksq << 6;

  // Knights: a pinned knight can never move.
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

  // Sliders: diagonal (bishops and queens), then orthogonal (rooks and queens); each set's
  // low half, then its high half.
  for (let orthogonal = 0; orthogonal < 2; orthogonal++) {
    const type = orthogonal === 0 ? BISHOP : ROOK;
    for (let half = 0; half < 2; half++) {
      let b = half === 0 ? lo[o | type]! | lo[o | QUEEN]! : hi[o | type]! | hi[o | QUEEN]!;
      const pinned = half === 0 ? pinLo : pinHi;
      while (b !== 0) {
        const low = b & -b;
        b &= b - 1;
        const s = (half << 5) + 31 - Math.clz32(low);
        if (orthogonal === 0) bishopAttacks(s, occLo, occHi);
        else rookAttacks(s, occLo, occHi);
        let tLo = OUT[0]! & targetLo;
        let tHi = OUT[1]! & targetHi;
        if (pinned & low) {
          tLo &= LINE_LO[kb | s]!;
          tHi &= LINE_HI[kb | s]!;
        }
        n = emit(buf, n, s, tLo, tHi);
      }
    }
  }

  // Pawns, one at a time: pushes, captures, promotions.
  const enemyLo = lo[them << 3]!;
  const enemyHi = hi[them << 3]!;
  const up = us === 0 ? 8 : -8;
  const startRank = us === 0 ? 1 : 6;
  bLo = lo[o | PAWN]!;
  bHi = hi[o | PAWN]!;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? bLo : bHi;
    const pinned = half === 0 ? pinLo : pinHi;
    while (b !== 0) {
      const low = b & -b;
      b &= b - 1;
      const s = (half << 5) + 31 - Math.clz32(low);
      let allowLo = targetLo;
      let allowHi = targetHi;
      if (pinned & low) {
        allowLo &= LINE_LO[kb | s]!;
        allowHi &= LINE_HI[kb | s]!;
      }
      // Captures.
      const pa = (us << 6) | s;
      let tLo = PAWN_LO[pa]! & enemyLo & allowLo;
      let tHi = PAWN_HI[pa]! & enemyHi & allowHi;
      while (tLo !== 0) {
        const to = 31 - Math.clz32(tLo & -tLo);
        tLo &= tLo - 1;
        n = emitPawn(buf, n, s, to);
      }
      while (tHi !== 0) {
        const to = 63 - Math.clz32(tHi & -tHi);
        tHi &= tHi - 1;
        n = emitPawn(buf, n, s, to);
      }
      // Pushes.
      const one = s + up;
      if (pos.board[one] === 0) {
        if ((one < 32 ? allowLo >>> one : allowHi >>> (one - 32)) & 1) n = emitPawn(buf, n, s, one);
        if (s >> 3 === startRank) {
          const two = one + up;
          if (pos.board[two] === 0 && (two < 32 ? allowLo >>> two : allowHi >>> (two - 32)) & 1) buf[n++] = (s << 6) | two;
        }
      }
    }
  }

  // En passant: rare, so test it the simple exact way, by lifting both pawns off the board.
  const ep = pos.epSquare;
  if (ep !== NO_SQUARE) {
    const capSq = ep ^ 8;
    // If in check, the capture must remove the checker or block the check.
    const evades = !inCheck || (capSq < 32 ? (cLo >>> capSq) & 1 : (cHi >>> (capSq - 32)) & 1) !== 0 ||
      ((ep < 32 ? targetLo >>> ep : targetHi >>> (ep - 32)) & 1) !== 0;
    if (evades) {
      const pa = (them << 6) | ep;
      const cands = PAWN_LO[pa]! & lo[o | PAWN]!;
      const candsHi = PAWN_HI[pa]! & hi[o | PAWN]!;
      for (let half = 0; half < 2; half++) {
        let b = half === 0 ? cands : candsHi;
        while (b !== 0) {
          const s = (half << 5) + 31 - Math.clz32(b & -b);
          b &= b - 1;
          if (epIsLegal(pos, s, ep, capSq, occLo, occHi)) buf[n++] = EN_PASSANT | (s << 6) | ep;
        }
      }
    }
  }

  // Castling: never out of check; the path must be empty and the king's path unattacked
  // (tested with king and rook lifted off, which also covers Chess960 rook shields).
  if (!inCheck && pos.castling !== 0) {
    for (let side = 0; side < 2; side++) {
      const i = (us << 1) | side;
      if ((pos.castling & (1 << i)) === 0) continue;
      const rookSq = pos.castleRook[i]!;
      if ((occLo & pos.castlePathLo[i]!) | (occHi & pos.castlePathHi[i]!)) continue;
      // A pinned castling rook (Chess960: rook between king and an enemy slider) cannot castle.
      if ((rookSq < 32 ? (pinLo >>> rookSq) & 1 : (pinHi >>> (rookSq - 32)) & 1) !== 0) continue;
      let xLo = occLo;
      let xHi = occHi;
      if (ksq < 32) xLo ^= 1 << ksq;
      else xHi ^= 1 << (ksq - 32);
      if (rookSq < 32) xLo ^= 1 << rookSq;
      else xHi ^= 1 << (rookSq - 32);
      let pLo = pos.castleKingPathLo[i]!;
      let pHi = pos.castleKingPathHi[i]!;
      let safe = true;
      while (safe && pLo !== 0) {
        const sq = 31 - Math.clz32(pLo & -pLo);
        pLo &= pLo - 1;
        if (pos.isAttacked(sq, them, xLo, xHi)) safe = false;
      }
      while (safe && pHi !== 0) {
        const sq = 63 - Math.clz32(pHi & -pHi);
        pHi &= pHi - 1;
        if (pos.isAttacked(sq, them, xLo, xHi)) safe = false;
      }
      if (safe) buf[n++] = CASTLING | (ksq << 6) | rookSq;
    }
  }
  return n;
}

function epIsLegal(pos: Position, from: number, ep: number, capSq: number, occLo: number, occHi: number): boolean {
  let xLo = occLo;
  let xHi = occHi;
  if (from < 32) xLo ^= 1 << from;
  else xHi ^= 1 << (from - 32);
  if (capSq < 32) xLo ^= 1 << capSq;
  else xHi ^= 1 << (capSq - 32);
  if (ep < 32) xLo |= 1 << ep;
  else xHi |= 1 << (ep - 32);
  const us = pos.turn;
  const t = (us ^ 1) << 3;
  const ksq = pos.kingSq[us]!;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  bishopAttacks(ksq, xLo, xHi);
  if ((OUT[0]! & (lo[t | BISHOP]! | lo[t | QUEEN]!)) | (OUT[1]! & (hi[t | BISHOP]! | hi[t | QUEEN]!))) return false;
  rookAttacks(ksq, xLo, xHi);
  if ((OUT[0]! & (lo[t | ROOK]! | lo[t | QUEEN]!)) | (OUT[1]! & (hi[t | ROOK]! | hi[t | QUEEN]!))) return false;
  return true;
}

/** Scratch buffer for cold-path helpers below. */
const SCRATCH = new Uint16Array(MAX_MOVES);

/** Number of legal moves (cold path helper; perft has its own bulk counting). */
export function countLegal(pos: Position): number {
  return generateLegal(pos, SCRATCH, 0);
}

/** Is `m` one of the moves generateLegal writes (the slow, exact way)? */
function isGenerated(pos: Position, m: number): boolean {
  const n = generateLegal(pos, SCRATCH, 0);
  for (let i = 0; i < n; i++) if (SCRATCH[i] === m) return true;
  return false;
}

/**
 * Is `m` (any 16-bit value) one of the legal moves of the position, encoded as generateLegal
 * encodes it? Tests this move alone, without generating the others: the piece and its path,
 * then whether the own king is attacked once the move is made, with the occupancy updated
 * (so a pinned piece leaving its line, a king stepping into check and a check left unanswered
 * all fail). Replays of stored games check every move with it (its cost against a generation:
 * `npm run bench -- replay`).
 * Castling, once a game, goes through the generator.
 */
export function isLegal(pos: Position, m: number): boolean {
  if ((m & 0xffff) !== m) return false;
  const kind = m & KIND;
  if (kind === CASTLING) return isGenerated(pos, m);
  if (kind !== PROMOTION && (m & PROMOTION_TYPE) !== 0) return false;
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const us = pos.turn;
  const them = us ^ 1;
  const piece = pos.board[from]!;
  if (piece === 0 || piece >> 3 !== us) return false;
  const target = pos.board[to]!;
  if (target !== 0 && target >> 3 === us) return false;
  const type = piece & 7;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  let occLo = lo[0]! | lo[8]!;
  let occHi = hi[0]! | hi[8]!;
  const toLo = to < 32 ? 1 << to : 0;
  const toHi = to < 32 ? 0 : 1 << (to - 32);
  // The captured piece's square (en passant: behind the target square), or none.
  let capLo = target !== 0 ? toLo : 0;
  let capHi = target !== 0 ? toHi : 0;
  if (type === PAWN) {
    if ((kind === PROMOTION) !== (to >= 56 || to < 8)) return false;
    const up = us === 0 ? 8 : -8;
    const attacks = ((to < 32 ? PAWN_LO[(us << 6) | from]! & toLo : PAWN_HI[(us << 6) | from]! & toHi) !== 0);
    if (kind === EN_PASSANT) {
      const capSq = to ^ 8;
      if (to !== pos.epSquare || !attacks || pos.board[capSq] !== ((them << 3) | PAWN)) return false;
      capLo = capSq < 32 ? 1 << capSq : 0;
      capHi = capSq < 32 ? 0 : 1 << (capSq - 32);
    } else if (target !== 0) {
      if (!attacks) return false;
    } else if (to !== from + up && (to !== from + 2 * up || from >> 3 !== (us === 0 ? 1 : 6) || pos.board[from + up] !== 0)) return false;
  } else {
    if (kind !== 0) return false;
    if (type === KNIGHT) {
      if (((KNIGHT_LO[from]! & toLo) | (KNIGHT_HI[from]! & toHi)) === 0) return false;
    } else if (type === KING) {
      if (((KING_LO[from]! & toLo) | (KING_HI[from]! & toHi)) === 0) return false;
    } else {
      // A slider: on a line with the target, the right kind of line, nothing in between.
      const ft = (from << 6) | to;
      if ((LINE_LO[ft]! | LINE_HI[ft]!) === 0) return false;
      const straight = (from & 7) === (to & 7) || from >> 3 === to >> 3;
      if ((type === BISHOP && straight) || (type === ROOK && !straight)) return false;
      if (((BETWEEN_LO[ft]! & occLo) | (BETWEEN_HI[ft]! & occHi)) !== 0) return false;
    }
  }
  // The board after the move: `from` empty, `to` occupied, the captured piece gone.
  if (from < 32) occLo ^= 1 << from;
  else occHi ^= 1 << (from - 32);
  occLo = (occLo & ~capLo) | toLo;
  occHi = (occHi & ~capHi) | toHi;
  const ksq = type === KING ? to : pos.kingSq[us]!;
  const t = them << 3;
  const p = (us << 6) | ksq;
  // Attackers of the king square after the move, the captured piece excluded: the leapers by
  // table, then each enemy slider on a line from the king (few) with nothing in between.
  if ((((PAWN_LO[p]! & lo[t | PAWN]!) | (KNIGHT_LO[ksq]! & lo[t | KNIGHT]!) | (KING_LO[ksq]! & lo[t | KING]!)) & ~capLo) !== 0) return false;
  if ((((PAWN_HI[p]! & hi[t | PAWN]!) | (KNIGHT_HI[ksq]! & hi[t | KNIGHT]!) | (KING_HI[ksq]! & hi[t | KING]!)) & ~capHi) !== 0) return false;
  let sLo = ((BISHOP_EMPTY_LO[ksq]! & (lo[t | BISHOP]! | lo[t | QUEEN]!)) | (ROOK_EMPTY_LO[ksq]! & (lo[t | ROOK]! | lo[t | QUEEN]!))) & ~capLo;
  let sHi = ((BISHOP_EMPTY_HI[ksq]! & (hi[t | BISHOP]! | hi[t | QUEEN]!)) | (ROOK_EMPTY_HI[ksq]! & (hi[t | ROOK]! | hi[t | QUEEN]!))) & ~capHi;
  const kb = ksq << 6;
  while (sLo !== 0) {
    const s = kb | (31 - Math.clz32(sLo & -sLo));
    sLo &= sLo - 1;
    if (((BETWEEN_LO[s]! & occLo) | (BETWEEN_HI[s]! & occHi)) === 0) return false;
  }
  while (sHi !== 0) {
    const s = kb | (63 - Math.clz32(sHi & -sHi));
    sHi &= sHi - 1;
    if (((BETWEEN_LO[s]! & occLo) | (BETWEEN_HI[s]! & occHi)) === 0) return false;
  }
  return true;
}

/** Legal moves as a fresh array (cold path: API, notation). */
export function legalMoves(pos: Position): number[] {
  const n = generateLegal(pos, SCRATCH, 0);
  return Array.from(SCRATCH.subarray(0, n));
}


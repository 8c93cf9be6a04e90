/**
 * Legal move generation (the design of src/core/movegen.ts) with checkers and pins computed
 * once per node, targets masked by the evasion mask and pin lines; only king moves, en passant
 * and castling query attacks. Moves go into a caller-owned StaticArray<u16> from `start`.
 * u64 sets, so each piece set is one ctz loop; checkers and pins live in two u64 globals.
 * The primitives below (emit, emitPromotions, knightAndSliderMoves) are also the staged
 * generator's (movegenStaged.ts), so the two generate knight and slider moves the same way.
 */
import {
  BETWEEN, BISHOP_EMPTY, KING_ATT, KNIGHT_ATT, LINE, PAWN_ATT, ROOK_EMPTY, bishopAttacks, rookAttacks,
} from './attacks';
import { Position, bit } from './position';
import { BISHOP, CASTLING, EN_PASSANT, KNIGHT, NO_SQUARE, PAWN, PROMOTION, QUEEN, ROOK } from './types';

/** Per-node context: checkers and pinned pieces of the side to move. */
export let CHECKERS: u64 = 0;
export let PINS: u64 = 0;

export function computeContext(pos: Position): void {
  const us = pos.turn;
  const them = us ^ 1;
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const ksq = <i32>unchecked(pos.kingSq[us]);
  CHECKERS = pos.attackersTo(ksq, them, occ);
  const t = them << 3;
  let s = (unchecked(ROOK_EMPTY[ksq]) & (unchecked(bb[t | ROOK]) | unchecked(bb[t | QUEEN]))) |
    (unchecked(BISHOP_EMPTY[ksq]) & (unchecked(bb[t | BISHOP]) | unchecked(bb[t | QUEEN])));
  let pins: u64 = 0;
  const own = unchecked(bb[us << 3]);
  const kb = ksq << 6;
  while (s != 0) {
    const sq = <i32>ctz(s);
    s &= s - 1;
    const b = unchecked(BETWEEN[kb | sq]) & occ;
    // Exactly one piece between king and slider, and it is ours.
    if (b != 0 && (b & (b - 1)) == 0) pins |= b & own;
  }
  PINS = pins;
}

/** Moves from `from` to every square of `t`, in ascending order. */
// @ts-ignore: decorator
@inline export function emit(buf: StaticArray<u16>, n: i32, from: i32, t: u64): i32 {
  const f = from << 6;
  while (t != 0) {
    unchecked(buf[n++] = <u16>(f | <i32>ctz(t)));
    t &= t - 1;
  }
  return n;
}

/** The four promotions of a pawn move, queen first. */
// @ts-ignore: decorator
@inline export function emitPromotions(buf: StaticArray<u16>, n: i32, from: i32, to: i32): i32 {
  const base = PROMOTION | (from << 6) | to;
  unchecked(buf[n++] = <u16>(base | (3 << 12)));
  unchecked(buf[n++] = <u16>(base | (2 << 12)));
  unchecked(buf[n++] = <u16>(base | (1 << 12)));
  unchecked(buf[n++] = <u16>base);
  return n;
}

// @ts-ignore: decorator
@inline function emitPawn(buf: StaticArray<u16>, n: i32, from: i32, to: i32): i32 {
  if (to >= 56 || to < 8) return emitPromotions(buf, n, from, to);
  unchecked(buf[n++] = <u16>((from << 6) | to));
  return n;
}

/**
 * Knight, bishop, rook and queen moves of the side to move onto `target`, pinned pieces kept
 * on their pin line (a pinned knight never moves): knights, then diagonal, then orthogonal
 * sliders, squares ascending.
 */
// @ts-ignore: decorator
@inline export function knightAndSliderMoves(pos: Position, buf: StaticArray<u16>, n: i32, target: u64, pins: u64): i32 {
  const bb = pos.bb;
  const o = pos.turn << 3;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const kb = <i32>unchecked(pos.kingSq[pos.turn]) << 6;

  let b = unchecked(bb[o | KNIGHT]) & ~pins;
  while (b != 0) {
    const s = <i32>ctz(b);
    b &= b - 1;
    n = emit(buf, n, s, unchecked(KNIGHT_ATT[s]) & target);
  }

  b = unchecked(bb[o | BISHOP]) | unchecked(bb[o | QUEEN]);
  while (b != 0) {
    const s = <i32>ctz(b);
    b &= b - 1;
    let t = bishopAttacks(s, occ) & target;
    if (pins & bit(s)) t &= unchecked(LINE[kb | s]);
    n = emit(buf, n, s, t);
  }

  b = unchecked(bb[o | ROOK]) | unchecked(bb[o | QUEEN]);
  while (b != 0) {
    const s = <i32>ctz(b);
    b &= b - 1;
    let t = rookAttacks(s, occ) & target;
    if (pins & bit(s)) t &= unchecked(LINE[kb | s]);
    n = emit(buf, n, s, t);
  }
  return n;
}

/** All legal moves of the side to move into buf[start..]; returns the new end. */
export function generateLegal(pos: Position, buf: StaticArray<u16>, start: i32): i32 {
  computeContext(pos);
  const us = pos.turn;
  const them = us ^ 1;
  const bb = pos.bb;
  const o = us << 3;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  const own = unchecked(bb[o]);
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const checkers = CHECKERS;
  const pins = PINS;
  let n = start;

  // King moves, tested with the king lifted off the board.
  {
    const kocc = occ ^ bit(ksq);
    let t = unchecked(KING_ATT[ksq]) & ~own;
    const f = ksq << 6;
    while (t != 0) {
      const to = <i32>ctz(t);
      t &= t - 1;
      if (!pos.isAttacked(to, them, kocc)) unchecked(buf[n++] = <u16>(f | to));
    }
  }

  let target: u64;
  const inCheck = checkers != 0;
  if (inCheck) {
    if ((checkers & (checkers - 1)) != 0) return n; // double check
    const c = <i32>ctz(checkers);
    target = unchecked(BETWEEN[(ksq << 6) | c]) | checkers;
  } else {
    target = ~own;
  }
  const kb = ksq << 6;

  n = knightAndSliderMoves(pos, buf, n, target, pins);

  // Pawns, one at a time.
  const enemy = unchecked(bb[them << 3]);
  const up = us == 0 ? 8 : -8;
  const startRank = us == 0 ? 1 : 6;
  const board = pos.board;
  let b = unchecked(bb[o | PAWN]);
  while (b != 0) {
    const s = <i32>ctz(b);
    const low = b & (~b + 1);
    b &= b - 1;
    let allow = target;
    if (pins & low) allow &= unchecked(LINE[kb | s]);
    // Captures.
    let t = unchecked(PAWN_ATT[(us << 6) | s]) & enemy & allow;
    while (t != 0) {
      const to = <i32>ctz(t);
      t &= t - 1;
      n = emitPawn(buf, n, s, to);
    }
    // Pushes.
    const one = s + up;
    if (unchecked(board[one]) == 0) {
      if ((allow >> <u64>one) & 1) n = emitPawn(buf, n, s, one);
      if (s >> 3 == startRank) {
        const two = one + up;
        if (unchecked(board[two]) == 0 && ((allow >> <u64>two) & 1)) unchecked(buf[n++] = <u16>((s << 6) | two));
      }
    }
  }

  // En passant: rare, tested exactly by lifting both pawns off the board.
  const ep = pos.epSquare;
  if (ep != NO_SQUARE) {
    const capSq = ep ^ 8;
    const evades = !inCheck || ((checkers >> <u64>capSq) & 1) != 0 || ((target >> <u64>ep) & 1) != 0;
    if (evades) {
      let c = unchecked(PAWN_ATT[(them << 6) | ep]) & unchecked(bb[o | PAWN]);
      while (c != 0) {
        const s = <i32>ctz(c);
        c &= c - 1;
        if (epIsLegal(pos, s, ep, capSq, occ)) unchecked(buf[n++] = <u16>(EN_PASSANT | (s << 6) | ep));
      }
    }
  }

  // Castling: never out of check; path empty, king's path unattacked with king and rook lifted.
  if (!inCheck && pos.castling != 0) {
    for (let side = 0; side < 2; side++) {
      const i = (us << 1) | side;
      if ((pos.castling & (1 << i)) == 0) continue;
      const rookSq = <i32>unchecked(pos.castleRook[i]);
      if (occ & unchecked(pos.castlePath[i])) continue;
      if ((pins >> <u64>rookSq) & 1) continue;
      const x = occ ^ bit(ksq) ^ bit(rookSq);
      let p = unchecked(pos.castleKingPath[i]);
      let safe = true;
      while (safe && p != 0) {
        const sq = <i32>ctz(p);
        p &= p - 1;
        if (pos.isAttacked(sq, them, x)) safe = false;
      }
      if (safe) unchecked(buf[n++] = <u16>(CASTLING | (ksq << 6) | rookSq));
    }
  }
  return n;
}

function epIsLegal(pos: Position, from: i32, ep: i32, capSq: i32, occ: u64): bool {
  const x = (occ ^ bit(from) ^ bit(capSq)) | bit(ep);
  const us = pos.turn;
  const t = (us ^ 1) << 3;
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const bb = pos.bb;
  if (bishopAttacks(ksq, x) & (unchecked(bb[t | BISHOP]) | unchecked(bb[t | QUEEN]))) return false;
  if (rookAttacks(ksq, x) & (unchecked(bb[t | ROOK]) | unchecked(bb[t | QUEEN]))) return false;
  return true;
}

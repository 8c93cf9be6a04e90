/**
 * The move generator of the WebAssembly core (the design of src/core/movegen.ts): legal moves
 * only, with pins computed once per node and each piece's targets masked by the stage's target
 * set and its pin line, so only king moves, en passant and castling query attacks. Moves go
 * into a caller-owned StaticArray<u16> from `start`; each stage returns the new end.
 *
 * Three stages, all built from the same primitives (one per way a piece moves, plus the en
 * passant and castling tests), so a change to how a piece moves is made once:
 * - generateLegal: every legal move, evasions when in check (perft, the root, the picker's
 *   evasion stage);
 * - generateNoisy: captures, en passant and promotions, not in check;
 * - generateQuiets: the other moves (castling included), not in check.
 * Noisy and quiet moves together are exactly generateLegal's moves; a node that cuts off on a
 * capture never generates its quiets, and quiescence never does.
 *
 * The order of the moves within each stage is part of the search's behaviour (ties in move
 * ordering keep it), and so of the bench signature: generateLegal writes king, knight, diagonal
 * and orthogonal slider, pawn, en-passant and castling moves in that order; the two stages
 * write knight and slider moves first, then the king's.
 *
 * The primitives are @inline, and so are the pin computation (Position.sliderBlockers) and
 * the castling test: as calls they cost 5 to 10% of the processor time of start-position bulk
 * perft, and a pawn's pushes computed as a set and then split another 7% (old and new builds
 * alternated in one process, 2026-11-27; docs/engine.md). `npm run bench -- perft` (the wasm
 * column) and `npm run bench -- engine` measure it.
 */
import { BETWEEN, KING_ATT, KNIGHT_ATT, LINE, PAWN_ATT, bishopAttacks, rookAttacks } from './attacks';
import { Position, bit } from './position';
import { BISHOP, CASTLING, EN_PASSANT, KING, KNIGHT, NO_SQUARE, PAWN, PROMOTION, QUEEN, ROOK } from './types';

/** The squares a pawn of each color promotes on (white: rank 8, black: rank 1). */
const PROMOTION_RANK: u64 = 0xff000000000000ff;

/** Own pieces pinned to the own king by enemy sliders. */
// @ts-ignore: decorator
@inline export function computePins(pos: Position): u64 {
  const us = pos.turn;
  return pos.sliderBlockers(<i32>unchecked(pos.kingSq[us]), us ^ 1) & unchecked(pos.bb[us << 3]);
}

/** Moves from `from` to every square of `t`, in ascending order. */
// @ts-ignore: decorator
@inline function emit(buf: StaticArray<u16>, n: i32, from: i32, t: u64): i32 {
  const f = from << 6;
  while (t != 0) {
    unchecked(buf[n++] = <u16>(f | <i32>ctz(t)));
    t &= t - 1;
  }
  return n;
}

/** A pawn move; on the last rank its four promotions, queen first. */
// @ts-ignore: decorator
@inline function emitPawn(buf: StaticArray<u16>, n: i32, from: i32, to: i32): i32 {
  if (to >= 56 || to < 8) {
    const base = PROMOTION | (from << 6) | to;
    unchecked(buf[n++] = <u16>(base | (3 << 12)));
    unchecked(buf[n++] = <u16>(base | (2 << 12)));
    unchecked(buf[n++] = <u16>(base | (1 << 12)));
    unchecked(buf[n++] = <u16>base);
    return n;
  }
  unchecked(buf[n++] = <u16>((from << 6) | to));
  return n;
}

/**
 * Knight, bishop, rook and queen moves of the side to move onto `target`, pinned pieces kept
 * on their pin line (a pinned knight never moves): knights, then diagonal, then orthogonal
 * sliders, squares ascending.
 */
// @ts-ignore: decorator
@inline function pieceMoves(pos: Position, buf: StaticArray<u16>, n: i32, target: u64, pins: u64): i32 {
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

/** King moves onto `target`, each tested with the king lifted off the board (so it cannot hide behind itself). */
// @ts-ignore: decorator
@inline function kingMoves(pos: Position, buf: StaticArray<u16>, n: i32, target: u64): i32 {
  const us = pos.turn;
  const bb = pos.bb;
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const kocc = (unchecked(bb[0]) | unchecked(bb[8])) ^ bit(ksq);
  const f = ksq << 6;
  let t = unchecked(KING_ATT[ksq]) & target;
  while (t != 0) {
    const to = <i32>ctz(t);
    t &= t - 1;
    if (!pos.isAttacked(to, us ^ 1, kocc)) unchecked(buf[n++] = <u16>(f | to));
  }
  return n;
}

/**
 * Pawn moves, one pawn at a time (ascending), each pawn's captures onto `captures` and then
 * its pushes onto `pushes`, a pinned pawn kept on its pin line. En passant is apart
 * (enPassantMoves).
 */
// @ts-ignore: decorator
@inline function pawnMoves(pos: Position, buf: StaticArray<u16>, n: i32, captures: u64, pushes: u64, pins: u64): i32 {
  const us = pos.turn;
  const kb = <i32>unchecked(pos.kingSq[us]) << 6;
  const up = us == 0 ? 8 : -8;
  const startRank = us == 0 ? 1 : 6;
  const board = pos.board;
  let b = unchecked(pos.bb[(us << 3) | PAWN]);
  while (b != 0) {
    const s = <i32>ctz(b);
    const low = b & (~b + 1);
    b &= b - 1;
    let line: u64 = <u64>-1;
    if (pins & low) line = unchecked(LINE[kb | s]);
    let t = unchecked(PAWN_ATT[(us << 6) | s]) & captures & line;
    while (t != 0) {
      const to = <i32>ctz(t);
      t &= t - 1;
      n = emitPawn(buf, n, s, to);
    }
    const one = s + up;
    if (unchecked(board[one]) == 0) {
      const p = pushes & line;
      if ((p >> <u64>one) & 1) n = emitPawn(buf, n, s, one);
      if (s >> 3 == startRank) {
        const two = one + up;
        if (unchecked(board[two]) == 0 && ((p >> <u64>two) & 1)) unchecked(buf[n++] = <u16>((s << 6) | two));
      }
    }
  }
  return n;
}

/** En passant from `from` to `ep` does not expose the own king (both pawns lifted off the board). */
export function epLegal(pos: Position, from: i32, ep: i32): bool {
  const bb = pos.bb;
  const x = ((unchecked(bb[0]) | unchecked(bb[8])) ^ bit(from) ^ bit(ep ^ 8)) | bit(ep);
  const us = pos.turn;
  return !pos.sliderAttacks(<i32>unchecked(pos.kingSq[us]), us ^ 1, x);
}

/** The legal en-passant captures of the side to move (the en-passant square is set). */
// @ts-ignore: decorator
@inline function enPassantMoves(pos: Position, buf: StaticArray<u16>, n: i32, ep: i32): i32 {
  const us = pos.turn;
  let c = unchecked(PAWN_ATT[((us ^ 1) << 6) | ep]) & unchecked(pos.bb[(us << 3) | PAWN]);
  while (c != 0) {
    const s = <i32>ctz(c);
    c &= c - 1;
    if (epLegal(pos, s, ep)) unchecked(buf[n++] = <u16>(EN_PASSANT | (s << 6) | ep));
  }
  return n;
}

/**
 * May the side to move, not in check, castle with right `i`? The squares king and rook cross
 * must be empty, the castling rook not pinned (Chess960: a rook between king and an enemy
 * slider), and the king's path unattacked, tested with king and rook lifted off the board.
 */
// @ts-ignore: decorator
@inline export function castlingLegal(pos: Position, i: i32, pins: u64): bool {
  const bb = pos.bb;
  const occ = unchecked(bb[0]) | unchecked(bb[8]);
  if (occ & unchecked(pos.castlePath[i])) return false;
  const rookSq = <i32>unchecked(pos.castleRook[i]);
  if ((pins >> <u64>rookSq) & 1) return false;
  const us = pos.turn;
  const x = occ ^ bit(<i32>unchecked(pos.kingSq[us])) ^ bit(rookSq);
  let p = unchecked(pos.castleKingPath[i]);
  while (p != 0) {
    const sq = <i32>ctz(p);
    p &= p - 1;
    if (pos.isAttacked(sq, us ^ 1, x)) return false;
  }
  return true;
}

/** The legal castling moves of a side to move that is not in check, king side first. */
// @ts-ignore: decorator
@inline function castlingMoves(pos: Position, buf: StaticArray<u16>, n: i32, pins: u64): i32 {
  const castling = pos.castling;
  if (castling == 0) return n;
  const us = pos.turn;
  const kb = <i32>unchecked(pos.kingSq[us]) << 6;
  for (let side = 0; side < 2; side++) {
    const i = (us << 1) | side;
    if ((castling & (1 << i)) != 0 && castlingLegal(pos, i, pins)) {
      unchecked(buf[n++] = <u16>(CASTLING | kb | <i32>unchecked(pos.castleRook[i])));
    }
  }
  return n;
}

/** All legal moves of the side to move into buf[start..]; returns the new end. */
export function generateLegal(pos: Position, buf: StaticArray<u16>, start: i32): i32 {
  const us = pos.turn;
  const them = us ^ 1;
  const bb = pos.bb;
  const own = unchecked(bb[us << 3]);
  const ksq = <i32>unchecked(pos.kingSq[us]);
  const checkers = pos.attackersTo(ksq, them, unchecked(bb[0]) | unchecked(bb[8]));
  let n = kingMoves(pos, buf, start, ~own);

  // In check, the other pieces may only capture the checker or block it; in double check, only the king moves.
  let target = ~own;
  if (checkers != 0) {
    if ((checkers & (checkers - 1)) != 0) return n;
    target = unchecked(BETWEEN[(ksq << 6) | <i32>ctz(checkers)]) | checkers;
  }
  const pins = computePins(pos);
  n = pieceMoves(pos, buf, n, target, pins);
  n = pawnMoves(pos, buf, n, unchecked(bb[them << 3]) & target, target, pins);
  const ep = pos.epSquare;
  // Like any capture, en passant must take a piece of the target set or land on it: in check,
  // take the checking pawn or block on the en-passant square.
  if (ep != NO_SQUARE && (target & (bit(ep ^ 8) | bit(ep))) != 0) n = enPassantMoves(pos, buf, n, ep);
  if (checkers == 0) n = castlingMoves(pos, buf, n, pins);
  return n;
}

/**
 * Legal captures, en-passant captures and promotions (all four pieces, capturing or not) of a
 * side to move that is not in check, given its pinned pieces (computePins). Returns the new end.
 */
export function generateNoisy(pos: Position, buf: StaticArray<u16>, start: i32, pins: u64): i32 {
  const them = pos.turn ^ 1;
  const bb = pos.bb;
  const enemy = unchecked(bb[them << 3]) & ~unchecked(bb[(them << 3) | KING]);
  let n = pieceMoves(pos, buf, start, enemy, pins);
  n = kingMoves(pos, buf, n, enemy);
  n = pawnMoves(pos, buf, n, enemy, PROMOTION_RANK, pins);
  const ep = pos.epSquare;
  if (ep != NO_SQUARE) n = enPassantMoves(pos, buf, n, ep);
  return n;
}

/**
 * Legal quiet moves (no capture, no promotion; castling included) of a side to move that is
 * not in check, given its pinned pieces (computePins). Returns the new end.
 */
export function generateQuiets(pos: Position, buf: StaticArray<u16>, start: i32, pins: u64): i32 {
  const bb = pos.bb;
  const empty = ~(unchecked(bb[0]) | unchecked(bb[8]));
  let n = pieceMoves(pos, buf, start, empty, pins);
  n = kingMoves(pos, buf, n, empty);
  n = pawnMoves(pos, buf, n, 0, empty & ~PROMOTION_RANK, pins);
  return castlingMoves(pos, buf, n, pins);
}

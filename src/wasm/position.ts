/**
 * Port of src/core/position.ts: mailbox board + bitboards by piece code (index color * 8 is
 * that color's occupancy), a state stack indexed by ply, incremental Polyglot key.
 * Changes from the TS: one u64 per bitboard and per key instead of lo/hi int32 halves, so the
 * "which half" sign-mask tricks go away; the state stack holds two u64 per ply
 * (state word | halfmoves << 32, key before the move) instead of four int32.
 */
import { BETWEEN, BISHOP_EMPTY, KING_ATT, KNIGHT_ATT, PAWN_ATT, ROOK_EMPTY, bishopAttacks, rookAttacks } from './attacks';
import {
  BISHOP, BLACK, CASTLING, EMPTY, EN_PASSANT, KIND_MASK, KING, KNIGHT, MOVE_NULL, NO_SQUARE,
  PAWN, PROMOTION, QUEEN, ROOK, WHITE,
} from './types';
import { Z_CASTLE, Z_EP, Z_PIECE, Z_TURN } from './zobrist';

export const WHITE_OO = 1;
export const WHITE_OOO = 2;
export const BLACK_OO = 4;
export const BLACK_OOO = 8;

const INITIAL_STACK = 256;
/** Sign bit of a state word: castling, en passant, promotion or null move. */
const SLOW: i32 = 1 << 31;
/** Dark squares (a1, c1, ..). */
const DARK: u64 = 0xaa55aa55aa55aa55;

// @ts-ignore: decorator
@inline export function bit(sq: i32): u64 {
  return (<u64>1) << <u64>sq;
}

export class Position {
  board: StaticArray<i8> = new StaticArray<i8>(64);
  bb: StaticArray<u64> = new StaticArray<u64>(16);
  kingSq: StaticArray<i8> = new StaticArray<i8>(2);
  castleRook: StaticArray<i8> = new StaticArray<i8>(4);
  castleMask: StaticArray<u8> = new StaticArray<u8>(64);
  castlePath: StaticArray<u64> = new StaticArray<u64>(4);
  castleKingPath: StaticArray<u64> = new StaticArray<u64>(4);

  turn: i32 = WHITE;
  castling: i32 = 0;
  epSquare: i32 = NO_SQUARE;
  halfmoves: i32 = 0;
  key: u64 = 0;
  ply: i32 = 0;
  startFullmoves: i32 = 1;
  startTurn: i32 = WHITE;
  chess960: bool = false;

  /** Two words per ply: state word (move | captured << 16 | castling << 20 | (ep + 1) << 24
   *  | SLOW) | halfmoves << 32, and the key before the move. */
  stack: StaticArray<u64> = new StaticArray<u64>(2 * INITIAL_STACK);

  constructor() {
    for (let i = 0; i < 4; i++) this.castleRook[i] = <i8>NO_SQUARE;
  }

  // ----- board editing (no key update) -----

  @inline putPiece(piece: i32, sq: i32): void {
    unchecked(this.board[sq] = <i8>piece);
    const b = bit(sq);
    const bb = this.bb;
    unchecked(bb[piece] |= b);
    unchecked(bb[piece & 8] |= b);
  }

  @inline removePiece(sq: i32): void {
    const piece = <i32>unchecked(this.board[sq]);
    unchecked(this.board[sq] = <i8>EMPTY);
    const b = ~bit(sq);
    const bb = this.bb;
    unchecked(bb[piece] &= b);
    unchecked(bb[piece & 8] &= b);
  }

  // ----- attacks -----

  isAttacked(sq: i32, by: i32, occ: u64): bool {
    const bb = this.bb;
    const o = by << 3;
    const p = ((by ^ 1) << 6) | sq;
    if (unchecked(PAWN_ATT[p]) & unchecked(bb[o | PAWN])) return true;
    if (unchecked(KNIGHT_ATT[sq]) & unchecked(bb[o | KNIGHT])) return true;
    if (unchecked(KING_ATT[sq]) & unchecked(bb[o | KING])) return true;
    const q = unchecked(bb[o | QUEEN]);
    const bq = unchecked(bb[o | BISHOP]) | q;
    if (bq) {
      if (bishopAttacks(sq, occ) & bq) return true;
    }
    const rq = unchecked(bb[o | ROOK]) | q;
    if (rq) {
      if (rookAttacks(sq, occ) & rq) return true;
    }
    return false;
  }

  attackersTo(sq: i32, by: i32, occ: u64): u64 {
    const bb = this.bb;
    const o = by << 3;
    const p = ((by ^ 1) << 6) | sq;
    let a = (unchecked(PAWN_ATT[p]) & unchecked(bb[o | PAWN])) |
      (unchecked(KNIGHT_ATT[sq]) & unchecked(bb[o | KNIGHT])) |
      (unchecked(KING_ATT[sq]) & unchecked(bb[o | KING]));
    const q = unchecked(bb[o | QUEEN]);
    a |= bishopAttacks(sq, occ) & (unchecked(bb[o | BISHOP]) | q);
    a |= rookAttacks(sq, occ) & (unchecked(bb[o | ROOK]) | q);
    return a;
  }

  /**
   * Pieces of either color that stand alone between `sq` and a bishop, rook or queen of `by`
   * on its line: with `sq` a king, those of the king's side are pinned, those of `by` give a
   * discovered check when they leave the line.
   */
  @inline sliderBlockers(sq: i32, by: i32): u64 {
    const bb = this.bb;
    const o = by << 3;
    const occ = unchecked(bb[0]) | unchecked(bb[8]);
    const q = unchecked(bb[o | QUEEN]);
    let s = (unchecked(ROOK_EMPTY[sq]) & (unchecked(bb[o | ROOK]) | q)) |
      (unchecked(BISHOP_EMPTY[sq]) & (unchecked(bb[o | BISHOP]) | q));
    const sb = sq << 6;
    let blockers: u64 = 0;
    while (s != 0) {
      const b = unchecked(BETWEEN[sb | <i32>ctz(s)]) & occ;
      s &= s - 1;
      if (b != 0 && (b & (b - 1)) == 0) blockers |= b;
    }
    return blockers;
  }

  /** Does a bishop, rook or queen of `by` attack `sq` through the occupancy `occ`? */
  @inline sliderAttacks(sq: i32, by: i32, occ: u64): bool {
    const bb = this.bb;
    const o = by << 3;
    const q = unchecked(bb[o | QUEEN]);
    if (bishopAttacks(sq, occ) & (unchecked(bb[o | BISHOP]) | q)) return true;
    return (rookAttacks(sq, occ) & (unchecked(bb[o | ROOK]) | q)) != 0;
  }

  /** Is the side to move in check? */
  inCheck(): bool {
    const bb = this.bb;
    return this.isAttacked(<i32>unchecked(this.kingSq[this.turn]), this.turn ^ 1, unchecked(bb[0]) | unchecked(bb[8]));
  }

  // ----- make / unmake -----

  private grow(): void {
    const old = this.stack;
    const b = new StaticArray<u64>(old.length * 2);
    for (let i = 0; i < old.length; i++) b[i] = old[i];
    this.stack = b;
  }

  play(m: i32): void {
    const sp = this.ply;
    if ((sp + 1) << 1 >= this.stack.length) this.grow();
    if (m >= PROMOTION) {
      this.playSpecial(m, sp);
      return;
    }
    const board = this.board;
    const bb = this.bb;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const piece = <i32>unchecked(board[from]);
    const captured = <i32>unchecked(board[to]);
    unchecked(board[from] = 0);
    unchecked(board[to] = <i8>piece);
    const us = this.turn;
    const castling = this.castling;
    const ep = this.epSquare;
    const halfmoves = this.halfmoves;
    let key = this.key;
    const st = this.stack;
    const si = sp << 1;
    unchecked(st[si] = <u64><u32>(m | (captured << 16) | (castling << 20) | ((ep + 1) << 24)) | ((<u64>halfmoves) << 32));
    unchecked(st[si + 1] = key);
    key ^= Z_TURN;
    if (ep >= 0) {
      key ^= unchecked(Z_EP[ep & 7]);
      this.epSquare = NO_SQUARE;
    }
    const tb = bit(to);
    const mv = bit(from) | tb;
    let hm = halfmoves + 1;
    const uo = us << 3;
    unchecked(bb[piece] ^= mv);
    unchecked(bb[uo] ^= mv);
    if (captured != 0) {
      const c = captured & 8;
      unchecked(bb[captured] ^= tb);
      unchecked(bb[c] ^= tb);
      key ^= unchecked(Z_PIECE[(captured << 6) | to]);
      hm = 0;
    }
    key ^= unchecked(Z_PIECE[(piece << 6) | from]) ^ unchecked(Z_PIECE[(piece << 6) | to]);
    const type = piece & 7;
    if (type == PAWN) {
      hm = 0;
      if ((to ^ from) == 16) {
        // Double push: keep the e.p. square only if an enemy pawn stands beside `to`.
        const e = (from + to) >> 1;
        const pa = (us << 6) | e;
        const tp = ((us ^ 1) << 3) | PAWN;
        if ((unchecked(PAWN_ATT[pa]) & unchecked(bb[tp])) != 0) {
          this.epSquare = e;
          key ^= unchecked(Z_EP[to & 7]);
        }
      }
    } else if (type == KING) {
      unchecked(this.kingSq[us] = <i8>to);
    }
    if (castling != 0) {
      const cm = this.castleMask;
      const rights = castling & ~(<i32>unchecked(cm[from]) | <i32>unchecked(cm[to]));
      if (rights != castling) {
        key ^= unchecked(Z_CASTLE[castling]) ^ unchecked(Z_CASTLE[rights]);
        this.castling = rights;
      }
    }
    this.halfmoves = hm;
    this.key = key;
    this.turn = us ^ 1;
    this.ply = sp + 1;
  }

  /** `play` for castling, en passant and promotion. */
  private playSpecial(m: i32, sp: i32): void {
    const us = this.turn;
    const castling = this.castling;
    const ep = this.epSquare;
    const halfmoves = this.halfmoves;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const kind = m & KIND_MASK;
    const piece = <i32>unchecked(this.board[from]);
    let captured = 0;
    let key = this.key;
    unchecked(this.stack[(sp << 1) + 1] = key);
    key ^= Z_TURN;
    if (ep >= 0) {
      key ^= unchecked(Z_EP[ep & 7]);
      this.epSquare = NO_SQUARE;
    }
    this.halfmoves++;
    if (kind == CASTLING) {
      const rook = <i32>unchecked(this.board[to]);
      const base = us == WHITE ? 0 : 56;
      const kTo = base + (to > from ? 6 : 2);
      const rTo = base + (to > from ? 5 : 3);
      this.removePiece(from);
      this.removePiece(to);
      this.putPiece(piece, kTo);
      this.putPiece(rook, rTo);
      const p = piece << 6;
      const r = rook << 6;
      key ^= unchecked(Z_PIECE[p | from]) ^ unchecked(Z_PIECE[p | kTo]) ^ unchecked(Z_PIECE[r | to]) ^ unchecked(Z_PIECE[r | rTo]);
      unchecked(this.kingSq[us] = <i8>kTo);
    } else {
      const capSq = kind == EN_PASSANT ? to ^ 8 : to;
      captured = <i32>unchecked(this.board[capSq]);
      if (captured != 0) {
        this.removePiece(capSq);
        key ^= unchecked(Z_PIECE[(captured << 6) | capSq]);
      }
      const placed = kind == PROMOTION ? (us << 3) | (((m >>> 12) & 3) + KNIGHT) : piece;
      this.removePiece(from);
      this.putPiece(placed, to);
      key ^= unchecked(Z_PIECE[(piece << 6) | from]) ^ unchecked(Z_PIECE[(placed << 6) | to]);
      this.halfmoves = 0;
    }
    if (castling != 0) {
      const rights = castling & ~(<i32>unchecked(this.castleMask[from]) | <i32>unchecked(this.castleMask[to]));
      if (rights != castling) {
        key ^= unchecked(Z_CASTLE[castling]) ^ unchecked(Z_CASTLE[rights]);
        this.castling = rights;
      }
    }
    unchecked(this.stack[sp << 1] = <u64><u32>(SLOW | m | (captured << 16) | (castling << 20) | ((ep + 1) << 24)) | ((<u64>halfmoves) << 32));
    this.key = key;
    this.turn = us ^ 1;
    this.ply = sp + 1;
  }

  undo(): void {
    const sp = this.ply - 1;
    const i = sp << 1;
    const st = this.stack;
    const e = unchecked(st[i]);
    const w = <i32>e;
    const us = this.turn ^ 1;
    this.ply = sp;
    this.turn = us;
    this.halfmoves = <i32>(e >> 32);
    this.castling = (w >>> 20) & 15;
    this.epSquare = ((w >>> 24) & 127) - 1;
    this.key = unchecked(st[i + 1]);
    if (w < 0) {
      this.undoSpecial(w, us);
      return;
    }
    const board = this.board;
    const bb = this.bb;
    const from = (w >>> 6) & 63;
    const to = w & 63;
    const captured = (w >>> 16) & 15;
    const piece = <i32>unchecked(board[to]);
    const tb = bit(to);
    const mv = bit(from) | tb;
    const uo = us << 3;
    unchecked(bb[piece] ^= mv);
    unchecked(bb[uo] ^= mv);
    unchecked(board[from] = <i8>piece);
    unchecked(board[to] = <i8>captured);
    if (captured != 0) {
      const c = captured & 8;
      unchecked(bb[captured] |= tb);
      unchecked(bb[c] |= tb);
    }
    if ((piece & 7) == KING) unchecked(this.kingSq[us] = <i8>from);
  }

  private undoSpecial(w: i32, us: i32): void {
    const m = w & 0xffff;
    if (m == MOVE_NULL) return;
    const captured = (w >>> 16) & 15;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const kind = m & KIND_MASK;
    if (kind == CASTLING) {
      const base = us == WHITE ? 0 : 56;
      const kTo = base + (to > from ? 6 : 2);
      const rTo = base + (to > from ? 5 : 3);
      const king = <i32>unchecked(this.board[kTo]);
      const rook = <i32>unchecked(this.board[rTo]);
      this.removePiece(kTo);
      this.removePiece(rTo);
      this.putPiece(king, from);
      this.putPiece(rook, to);
      unchecked(this.kingSq[us] = <i8>from);
      return;
    }
    this.removePiece(to);
    this.putPiece((us << 3) | PAWN, from);
    if (captured != EMPTY) this.putPiece(captured, kind == EN_PASSANT ? to ^ 8 : to);
  }

  /** The last move played neither captured nor promoted (false at the first ply and after a pass). */
  lastMoveQuiet(): bool {
    const sp = this.ply - 1;
    if (sp < 0) return false;
    const w = <i32>unchecked(this.stack[sp << 1]);
    return (w & 0xffff) != MOVE_NULL && ((w >>> 16) & 15) == EMPTY && (w & KIND_MASK) != PROMOTION;
  }

  /** Passes the move (null-move search). Not legal when in check. */
  playNull(): void {
    const sp = this.ply;
    if ((sp + 1) << 1 >= this.stack.length) this.grow();
    const ep = this.epSquare;
    let key = this.key;
    const st = this.stack;
    unchecked(st[sp << 1] = <u64><u32>(SLOW | MOVE_NULL | (this.castling << 20) | ((ep + 1) << 24)) | ((<u64>this.halfmoves) << 32));
    unchecked(st[(sp << 1) + 1] = key);
    key ^= Z_TURN;
    if (ep >= 0) {
      key ^= unchecked(Z_EP[ep & 7]);
      this.epSquare = NO_SQUARE;
    }
    this.key = key;
    this.halfmoves++;
    this.turn ^= 1;
    this.ply = sp + 1;
  }

  // ----- keys and draws -----

  computeKey(): u64 {
    let k: u64 = 0;
    for (let sq = 0; sq < 64; sq++) {
      const p = <i32>this.board[sq];
      if (p != EMPTY) k ^= Z_PIECE[(p << 6) | sq];
    }
    k ^= Z_CASTLE[this.castling];
    if (this.epSquare != NO_SQUARE) k ^= Z_EP[this.epSquare & 7];
    if (this.turn == WHITE) k ^= Z_TURN;
    return k;
  }

  repetitions(limit: i32 = 2): i32 {
    let count = 0;
    const end = max(0, this.ply - this.halfmoves);
    for (let i = this.ply - 4; i >= end; i -= 2) {
      if (this.stack[(i << 1) + 1] == this.key) {
        if (++count >= limit) break;
      }
    }
    return count;
  }

  /**
   * Neither side can ever checkmate (the rule chessops and lichess apply): each side has at
   * most a lone minor piece (a knight only against a bare king or queens), or only bishops
   * all on squares of one color with no pawns or knights on the board.
   */
  isInsufficientMaterial(): bool {
    return this.hasInsufficientMaterial(WHITE) && this.hasInsufficientMaterial(BLACK);
  }

  /** `color` cannot checkmate whatever the opponent does. */
  hasInsufficientMaterial(color: i32): bool {
    const bb = this.bb;
    const o = color << 3;
    if ((unchecked(bb[o | PAWN]) | unchecked(bb[o | ROOK]) | unchecked(bb[o | QUEEN])) != 0) return false;
    if (unchecked(bb[o | KNIGHT]) != 0) {
      const t = (color ^ 1) << 3;
      const others = unchecked(bb[t]) & ~unchecked(bb[t | KING]) & ~unchecked(bb[t | QUEEN]);
      return popcnt(unchecked(bb[o])) <= 2 && others == 0;
    }
    if (unchecked(bb[o | BISHOP]) != 0) {
      const b = unchecked(bb[BISHOP]) | unchecked(bb[8 | BISHOP]);
      const dark = (b & DARK) != 0;
      const light = (b & ~DARK) != 0;
      const pawnsOrKnights = unchecked(bb[PAWN]) | unchecked(bb[8 | PAWN]) | unchecked(bb[KNIGHT]) | unchecked(bb[8 | KNIGHT]);
      return !(dark && light) && pawnsOrKnights == 0;
    }
    return true;
  }

  // ----- set-up -----

  clear(): void {
    for (let i = 0; i < 64; i++) {
      this.board[i] = <i8>EMPTY;
      this.castleMask[i] = 0;
    }
    for (let i = 0; i < 16; i++) this.bb[i] = 0;
    for (let i = 0; i < 4; i++) {
      this.castleRook[i] = <i8>NO_SQUARE;
      this.castlePath[i] = 0;
      this.castleKingPath[i] = 0;
    }
    this.turn = WHITE;
    this.castling = 0;
    this.epSquare = NO_SQUARE;
    this.halfmoves = 0;
    this.ply = 0;
    this.startFullmoves = 1;
    this.startTurn = WHITE;
    this.chess960 = false;
  }

  addCastlingRight(i: i32, rookSq: i32): void {
    const color = i >> 1;
    const kingSq = <i32>this.kingSq[color];
    const base = color == WHITE ? 0 : 56;
    const kTo = base + (i & 1 ? 2 : 6);
    const rTo = base + (i & 1 ? 3 : 5);
    this.castling |= 1 << i;
    this.castleRook[i] = <i8>rookSq;
    this.castleMask[kingSq] = <u8>(<i32>this.castleMask[kingSq] | (color == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO));
    this.castleMask[rookSq] = <u8>(<i32>this.castleMask[rookSq] | (1 << i));
    let path: u64 = 0;
    let kpath: u64 = 0;
    for (let s = min(kingSq, kTo); s <= max(kingSq, kTo); s++) {
      if (s != kingSq && s != rookSq) path |= bit(s);
      if (s != kingSq) kpath |= bit(s);
    }
    for (let s = min(rookSq, rTo); s <= max(rookSq, rTo); s++) {
      if (s != kingSq && s != rookSq) path |= bit(s);
    }
    this.castlePath[i] = path;
    this.castleKingPath[i] = kpath;
    if ((kingSq & 7) != 4 || ((rookSq & 7) != 0 && (rookSq & 7) != 7)) this.chess960 = true;
  }

  finishSetup(): void {
    this.key = this.computeKey();
  }

  /**
   * Appends one ply of game history below the set-up position, as the TypeScript Position's
   * stack holds it (state word, halfmove clock, key before the move): called once per ply
   * played before, oldest first, after finishSetup. Repetitions of positions before the
   * set-up are then seen, and undo can take those plies back.
   */
  pushHistory(word: i32, halfmoves: i32, key: u64): void {
    const sp = this.ply;
    if ((sp + 1) << 1 >= this.stack.length) this.grow();
    unchecked(this.stack[sp << 1] = <u64><u32>word | ((<u64>halfmoves) << 32));
    unchecked(this.stack[(sp << 1) + 1] = key);
    this.ply = sp + 1;
    this.startTurn ^= 1;
  }
}

/**
 * The mutable integer position that search, move generation, perft and the PGN replay share.
 *
 * State lives in typed arrays and scalar fields; `play` pushes what it cannot recompute onto a
 * stack indexed by ply (Stockfish's StateInfo chain, flattened) and `undo` pops it, so nothing
 * is cloned or allocated per move. The Polyglot key is kept incrementally.
 *
 * The en-passant square is kept only when a pawn of the side to move stands beside the pawn
 * that just advanced two squares: exactly the Polyglot hashing rule (polyglot.md §1.4). Whether
 * the capture is actually legal is decided by move generation; FEN output asks for that.
 */
import { OUT, bishopAttacks, rookAttacks, KNIGHT_LO, KNIGHT_HI, KING_LO, KING_HI, PAWN_LO, PAWN_HI } from './attacks.js';
import { CASTLING, EN_PASSANT, PROMOTION, KIND_MASK, MOVE_NULL } from './move.js';
import { BISHOP, BLACK, EMPTY, KING, KNIGHT, NO_SQUARE, PAWN, QUEEN, ROOK, WHITE } from './types.js';
import {
  Z_CASTLE_HI,
  Z_CASTLE_LO,
  Z_EP_HI,
  Z_EP_LO,
  Z_PIECE_HI,
  Z_PIECE_LO,
  Z_TURN_HI,
  Z_TURN_LO,
} from './zobrist.js';

/** Castling right bits; the index of a right (0..3) is the bit's log2. */
export const WHITE_OO = 1;
export const WHITE_OOO = 2;
export const BLACK_OO = 4;
export const BLACK_OOO = 8;

const INITIAL_STACK = 256;

export class Position {
  /** Piece code per square (EMPTY = 0). */
  readonly board = new Int8Array(64);
  /** Bitboards by piece code; index color * 8 holds that color's occupancy. */
  readonly bbLo = new Int32Array(16);
  readonly bbHi = new Int32Array(16);
  readonly kingSq = new Int8Array(2);
  /** Rook square of each castling right (index 0..3), NO_SQUARE when the right never existed. */
  readonly castleRook = new Int8Array(4).fill(NO_SQUARE);
  /** Rights lost when a piece leaves or enters a square. */
  readonly castleMask = new Uint8Array(64);
  /** Squares that must be empty to castle with right i (king and rook excluded). */
  readonly castlePathLo = new Int32Array(4);
  readonly castlePathHi = new Int32Array(4);
  /** Squares the king crosses or lands on when castling with right i. */
  readonly castleKingPathLo = new Int32Array(4);
  readonly castleKingPathHi = new Int32Array(4);

  turn = WHITE;
  castling = 0;
  epSquare = NO_SQUARE;
  halfmoves = 0;
  keyLo = 0;
  keyHi = 0;
  /** Plies played since the position was set up. */
  ply = 0;
  /** Full-move number at set-up and the color to move then. */
  startFullmoves = 1;
  startTurn = WHITE;
  /** Castling rights were given in a way only Chess960 allows (or the caller asked for 960). */
  chess960 = false;

  // The state stack, indexed by ply: what `undo` needs to restore.
  /** castling | (ep + 1) << 4 | captured << 11 | halfmoves << 15, one write per move. */
  private stInfo = new Int32Array(INITIAL_STACK);
  private stMove = new Uint16Array(INITIAL_STACK);
  /** Keys of earlier positions, for repetition detection. */
  stKeyLo = new Int32Array(INITIAL_STACK);
  stKeyHi = new Int32Array(INITIAL_STACK);

  get fullmoves(): number {
    return this.startFullmoves + ((this.ply + this.startTurn) >> 1);
  }

  /** The move that led to the position `back` plies ago (1 = the last move). */
  moveAt(back: number): number {
    return this.stMove[this.ply - back]!;
  }

  // ----- board editing (no key update) ---------------------------------------------------

  /** Places a piece on an empty square. Used by set-up and play/undo. */
  putPiece(piece: number, sq: number): void {
    this.board[sq] = piece;
    const c = piece & 8;
    if (sq < 32) {
      const b = 1 << sq;
      this.bbLo[piece]! |= b;
      this.bbLo[c]! |= b;
    } else {
      const b = 1 << (sq - 32);
      this.bbHi[piece]! |= b;
      this.bbHi[c]! |= b;
    }
  }

  removePiece(sq: number): void {
    const piece = this.board[sq]!;
    this.board[sq] = EMPTY;
    const c = piece & 8;
    if (sq < 32) {
      const b = ~(1 << sq);
      this.bbLo[piece]! &= b;
      this.bbLo[c]! &= b;
    } else {
      const b = ~(1 << (sq - 32));
      this.bbHi[piece]! &= b;
      this.bbHi[c]! &= b;
    }
  }

  // ----- attacks -------------------------------------------------------------------------

  /** Is `sq` attacked by `by`'s pieces, given occupancy (occLo, occHi)? */
  isAttacked(sq: number, by: number, occLo: number, occHi: number): boolean {
    const lo = this.bbLo;
    const hi = this.bbHi;
    const o = by << 3;
    const p = ((by ^ 1) << 6) | sq;
    if ((PAWN_LO[p]! & lo[o | PAWN]!) | (PAWN_HI[p]! & hi[o | PAWN]!)) return true;
    if ((KNIGHT_LO[sq]! & lo[o | KNIGHT]!) | (KNIGHT_HI[sq]! & hi[o | KNIGHT]!)) return true;
    if ((KING_LO[sq]! & lo[o | KING]!) | (KING_HI[sq]! & hi[o | KING]!)) return true;
    const qLo = lo[o | QUEEN]!;
    const qHi = hi[o | QUEEN]!;
    const bqLo = lo[o | BISHOP]! | qLo;
    const bqHi = hi[o | BISHOP]! | qHi;
    if (bqLo | bqHi) {
      bishopAttacks(sq, occLo, occHi);
      if ((OUT[0]! & bqLo) | (OUT[1]! & bqHi)) return true;
    }
    const rqLo = lo[o | ROOK]! | qLo;
    const rqHi = hi[o | ROOK]! | qHi;
    if (rqLo | rqHi) {
      rookAttacks(sq, occLo, occHi);
      if ((OUT[0]! & rqLo) | (OUT[1]! & rqHi)) return true;
    }
    return false;
  }

  /** Pieces of `by` attacking `sq` with occupancy (occLo, occHi) → OUT. */
  attackersTo(sq: number, by: number, occLo: number, occHi: number): void {
    const lo = this.bbLo;
    const hi = this.bbHi;
    const o = by << 3;
    const p = ((by ^ 1) << 6) | sq;
    let aLo = (PAWN_LO[p]! & lo[o | PAWN]!) | (KNIGHT_LO[sq]! & lo[o | KNIGHT]!) | (KING_LO[sq]! & lo[o | KING]!);
    let aHi = (PAWN_HI[p]! & hi[o | PAWN]!) | (KNIGHT_HI[sq]! & hi[o | KNIGHT]!) | (KING_HI[sq]! & hi[o | KING]!);
    const qLo = lo[o | QUEEN]!;
    const qHi = hi[o | QUEEN]!;
    bishopAttacks(sq, occLo, occHi);
    aLo |= OUT[0]! & (lo[o | BISHOP]! | qLo);
    aHi |= OUT[1]! & (hi[o | BISHOP]! | qHi);
    rookAttacks(sq, occLo, occHi);
    aLo |= OUT[0]! & (lo[o | ROOK]! | qLo);
    aHi |= OUT[1]! & (hi[o | ROOK]! | qHi);
    OUT[0] = aLo;
    OUT[1] = aHi;
  }

  /** Is the side to move in check? */
  inCheck(): boolean {
    return this.isAttacked(this.kingSq[this.turn]!, this.turn ^ 1, this.bbLo[0]! | this.bbLo[8]!, this.bbHi[0]! | this.bbHi[8]!);
  }

  // ----- make / unmake -------------------------------------------------------------------

  private grow(): void {
    const n = this.stMove.length * 2;
    const g = <T extends Int8Array | Uint8Array | Uint16Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.stInfo = g(this.stInfo, (k) => new Int32Array(k));
    this.stMove = g(this.stMove, (k) => new Uint16Array(k));
    this.stKeyLo = g(this.stKeyLo, (k) => new Int32Array(k));
    this.stKeyHi = g(this.stKeyHi, (k) => new Int32Array(k));
  }

  /** Plays a legal move (as produced by move generation or notation parsing). */
  play(m: number): void {
    const sp = this.ply;
    if (sp + 1 >= this.stMove.length) this.grow();
    const us = this.turn;
    const them = us ^ 1;
    const info = this.castling | ((this.epSquare + 1) << 4) | (Math.min(this.halfmoves, 65535) << 15);
    this.stKeyLo[sp] = this.keyLo;
    this.stKeyHi[sp] = this.keyHi;
    this.stMove[sp] = m;

    let kLo = this.keyLo ^ Z_TURN_LO;
    let kHi = this.keyHi ^ Z_TURN_HI;
    if (this.epSquare !== NO_SQUARE) {
      kLo ^= Z_EP_LO[this.epSquare & 7]!;
      kHi ^= Z_EP_HI[this.epSquare & 7]!;
      this.epSquare = NO_SQUARE;
    }
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const kind = m & KIND_MASK;
    const piece = this.board[from]!;
    let captured = EMPTY;
    this.halfmoves++;

    if (kind === CASTLING) {
      const rook = this.board[to]!;
      const base = us === WHITE ? 0 : 56;
      const kTo = base + (to > from ? 6 : 2);
      const rTo = base + (to > from ? 5 : 3);
      this.removePiece(from);
      this.removePiece(to);
      this.putPiece(piece, kTo);
      this.putPiece(rook, rTo);
      kLo ^= Z_PIECE_LO[(piece << 6) | from]! ^ Z_PIECE_LO[(piece << 6) | kTo]! ^ Z_PIECE_LO[(rook << 6) | to]! ^ Z_PIECE_LO[(rook << 6) | rTo]!;
      kHi ^= Z_PIECE_HI[(piece << 6) | from]! ^ Z_PIECE_HI[(piece << 6) | kTo]! ^ Z_PIECE_HI[(rook << 6) | to]! ^ Z_PIECE_HI[(rook << 6) | rTo]!;
      this.kingSq[us] = kTo;
    } else {
      if (kind === EN_PASSANT) {
        const capSq = to ^ 8;
        captured = this.board[capSq]!;
        this.removePiece(capSq);
        kLo ^= Z_PIECE_LO[(captured << 6) | capSq]!;
        kHi ^= Z_PIECE_HI[(captured << 6) | capSq]!;
      } else {
        captured = this.board[to]!;
        if (captured !== EMPTY) {
          // Inline removal: this is the hottest branch of search and perft.
          const b = 1 << to;
          if (to < 32) {
            this.bbLo[captured]! ^= b;
            this.bbLo[captured & 8]! ^= b;
          } else {
            this.bbHi[captured]! ^= b;
            this.bbHi[captured & 8]! ^= b;
          }
          kLo ^= Z_PIECE_LO[(captured << 6) | to]!;
          kHi ^= Z_PIECE_HI[(captured << 6) | to]!;
          this.halfmoves = 0;
        }
      }
      // Move the piece with one XOR per bitboard half (shift counts wrap at 32).
      const fb = 1 << from;
      const tb = 1 << to;
      const mLo = (from < 32 ? fb : 0) | (to < 32 ? tb : 0);
      const mHi = (from >= 32 ? fb : 0) | (to >= 32 ? tb : 0);
      const uo = us << 3;
      this.bbLo[piece]! ^= mLo;
      this.bbHi[piece]! ^= mHi;
      this.bbLo[uo]! ^= mLo;
      this.bbHi[uo]! ^= mHi;
      this.board[from] = EMPTY;
      this.board[to] = piece;
      kLo ^= Z_PIECE_LO[(piece << 6) | from]! ^ Z_PIECE_LO[(piece << 6) | to]!;
      kHi ^= Z_PIECE_HI[(piece << 6) | from]! ^ Z_PIECE_HI[(piece << 6) | to]!;
      const type = piece & 7;
      if (type === PAWN) {
        this.halfmoves = 0;
        if (kind === PROMOTION) {
          const promo = (us << 3) | (((m >>> 12) & 3) + KNIGHT);
          this.removePiece(to);
          this.putPiece(promo, to);
          kLo ^= Z_PIECE_LO[(piece << 6) | to]! ^ Z_PIECE_LO[(promo << 6) | to]!;
          kHi ^= Z_PIECE_HI[(piece << 6) | to]! ^ Z_PIECE_HI[(promo << 6) | to]!;
        } else if ((to ^ from) === 16) {
          // Double push: keep the e.p. square only if an enemy pawn stands beside `to`.
          const f = to & 7;
          const ep = them << 3 | PAWN;
          if ((f > 0 && this.board[to - 1] === ep) || (f < 7 && this.board[to + 1] === ep)) {
            this.epSquare = (from + to) >> 1;
            kLo ^= Z_EP_LO[f]!;
            kHi ^= Z_EP_HI[f]!;
          }
        }
      } else if (type === KING) {
        this.kingSq[us] = to;
      }
    }
    if (this.castling !== 0) {
      const rights = this.castling & ~(this.castleMask[from]! | this.castleMask[to]!);
      if (rights !== this.castling) {
        kLo ^= Z_CASTLE_LO[this.castling]! ^ Z_CASTLE_LO[rights]!;
        kHi ^= Z_CASTLE_HI[this.castling]! ^ Z_CASTLE_HI[rights]!;
        this.castling = rights;
      }
    }
    this.stInfo[sp] = info | (captured << 11);
    this.keyLo = kLo;
    this.keyHi = kHi;
    this.turn = them;
    this.ply = sp + 1;
  }

  /** Takes back the last move played with `play`. */
  undo(): void {
    const sp = --this.ply;
    const m = this.stMove[sp]!;
    const us = (this.turn ^= 1);
    const info = this.stInfo[sp]!;
    this.castling = info & 15;
    this.epSquare = ((info >>> 4) & 127) - 1;
    this.halfmoves = info >>> 15;
    this.keyLo = this.stKeyLo[sp]!;
    this.keyHi = this.stKeyHi[sp]!;
    if (m === MOVE_NULL) return;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const kind = m & KIND_MASK;
    if (kind === CASTLING) {
      const base = us === WHITE ? 0 : 56;
      const kTo = base + (to > from ? 6 : 2);
      const rTo = base + (to > from ? 5 : 3);
      const king = this.board[kTo]!;
      const rook = this.board[rTo]!;
      this.removePiece(kTo);
      this.removePiece(rTo);
      this.putPiece(king, from);
      this.putPiece(rook, to);
      this.kingSq[us] = from;
      return;
    }
    if (kind === PROMOTION) {
      this.removePiece(to);
      this.putPiece((us << 3) | PAWN, from);
    } else {
      const piece = this.board[to]!;
      const fb = 1 << from;
      const tb = 1 << to;
      const mLo = (from < 32 ? fb : 0) | (to < 32 ? tb : 0);
      const mHi = (from >= 32 ? fb : 0) | (to >= 32 ? tb : 0);
      const uo = us << 3;
      this.bbLo[piece]! ^= mLo;
      this.bbHi[piece]! ^= mHi;
      this.bbLo[uo]! ^= mLo;
      this.bbHi[uo]! ^= mHi;
      this.board[to] = EMPTY;
      this.board[from] = piece;
      if ((piece & 7) === KING) this.kingSq[us] = from;
    }
    const captured = (info >>> 11) & 15;
    if (captured !== EMPTY) this.putPiece(captured, kind === EN_PASSANT ? to ^ 8 : to);
  }

  /** Passes the move (for null-move search and PGN `--`). Not legal when in check. */
  playNull(): void {
    const sp = this.ply;
    if (sp + 1 >= this.stMove.length) this.grow();
    this.stInfo[sp] = this.castling | ((this.epSquare + 1) << 4) | (Math.min(this.halfmoves, 65535) << 15);
    this.stKeyLo[sp] = this.keyLo;
    this.stKeyHi[sp] = this.keyHi;
    this.stMove[sp] = MOVE_NULL;
    this.keyLo ^= Z_TURN_LO;
    this.keyHi ^= Z_TURN_HI;
    if (this.epSquare !== NO_SQUARE) {
      this.keyLo ^= Z_EP_LO[this.epSquare & 7]!;
      this.keyHi ^= Z_EP_HI[this.epSquare & 7]!;
      this.epSquare = NO_SQUARE;
    }
    this.halfmoves++;
    this.turn ^= 1;
    this.ply = sp + 1;
  }

  // ----- keys and draws ------------------------------------------------------------------

  /** The Polyglot key computed from scratch (the incremental one must always equal it). */
  computeKey(): void {
    let lo = 0;
    let hi = 0;
    for (let sq = 0; sq < 64; sq++) {
      const p = this.board[sq]!;
      if (p !== EMPTY) {
        lo ^= Z_PIECE_LO[(p << 6) | sq]!;
        hi ^= Z_PIECE_HI[(p << 6) | sq]!;
      }
    }
    lo ^= Z_CASTLE_LO[this.castling]!;
    hi ^= Z_CASTLE_HI[this.castling]!;
    if (this.epSquare !== NO_SQUARE) {
      lo ^= Z_EP_LO[this.epSquare & 7]!;
      hi ^= Z_EP_HI[this.epSquare & 7]!;
    }
    if (this.turn === WHITE) {
      lo ^= Z_TURN_LO;
      hi ^= Z_TURN_HI;
    }
    OUT[0] = lo;
    OUT[1] = hi;
  }

  /**
   * How many times the current position occurred before (same key, same side to move),
   * looking back only as far as the last irreversible move. `limit` stops counting early.
   */
  repetitions(limit = 2): number {
    let count = 0;
    const end = Math.max(0, this.ply - this.halfmoves);
    for (let i = this.ply - 4; i >= end; i -= 2) {
      if (this.stKeyLo[i] === this.keyLo && this.stKeyHi[i] === this.keyHi) {
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
  isInsufficientMaterial(): boolean {
    return this.hasInsufficientMaterial(WHITE) && this.hasInsufficientMaterial(BLACK);
  }

  /** `color` cannot checkmate whatever the opponent does. */
  hasInsufficientMaterial(color: number): boolean {
    const lo = this.bbLo;
    const hi = this.bbHi;
    const o = color << 3;
    if ((lo[o | PAWN]! | hi[o | PAWN]! | lo[o | ROOK]! | hi[o | ROOK]! | lo[o | QUEEN]! | hi[o | QUEEN]!) !== 0) return false;
    const pop = (x: number): number => {
      let n = 0;
      while (x !== 0) {
        x &= x - 1;
        n++;
      }
      return n;
    };
    if ((lo[o | KNIGHT]! | hi[o | KNIGHT]!) !== 0) {
      const t = (color ^ 1) << 3;
      const others = (lo[t]! & ~lo[t | KING]! & ~lo[t | QUEEN]!) | (hi[t]! & ~hi[t | KING]! & ~hi[t | QUEEN]!);
      return pop(lo[o]!) + pop(hi[o]!) <= 2 && others === 0;
    }
    if ((lo[o | BISHOP]! | hi[o | BISHOP]!) !== 0) {
      const bLo = lo[BISHOP]! | lo[8 | BISHOP]!;
      const bHi = hi[BISHOP]! | hi[8 | BISHOP]!;
      const dark = ((bLo & 0xaa55aa55) | (bHi & 0xaa55aa55)) !== 0;
      const light = ((bLo & ~0xaa55aa55) | (bHi & ~0xaa55aa55)) !== 0;
      const pawnsOrKnights = lo[PAWN]! | hi[PAWN]! | lo[8 | PAWN]! | hi[8 | PAWN]! | lo[KNIGHT]! | hi[KNIGHT]! | lo[8 | KNIGHT]! | hi[8 | KNIGHT]!;
      return !(dark && light) && pawnsOrKnights === 0;
    }
    return true;
  }

  // ----- set-up ----------------------------------------------------------------------------

  /** Empties the position (set-up code fills it and then calls `finishSetup`). */
  clear(): void {
    this.board.fill(EMPTY);
    this.bbLo.fill(0);
    this.bbHi.fill(0);
    this.castleRook.fill(NO_SQUARE);
    this.castleMask.fill(0);
    this.castlePathLo.fill(0);
    this.castlePathHi.fill(0);
    this.castleKingPathLo.fill(0);
    this.castleKingPathHi.fill(0);
    this.turn = WHITE;
    this.castling = 0;
    this.epSquare = NO_SQUARE;
    this.halfmoves = 0;
    this.ply = 0;
    this.startFullmoves = 1;
    this.startTurn = WHITE;
    this.chess960 = false;
  }

  /** Grants castling right `i` (0..3) with the rook on `rookSq`; kings must be placed. */
  addCastlingRight(i: number, rookSq: number): void {
    const color = i >> 1;
    const kingSq = this.kingSq[color]!;
    const base = color === WHITE ? 0 : 56;
    const kTo = base + (i & 1 ? 2 : 6);
    const rTo = base + (i & 1 ? 3 : 5);
    this.castling |= 1 << i;
    this.castleRook[i] = rookSq;
    this.castleMask[kingSq]! |= color === WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    this.castleMask[rookSq]! |= 1 << i;
    let pLo = 0;
    let pHi = 0;
    let kLo = 0;
    let kHi = 0;
    const add = (sq: number, king: boolean): void => {
      if (sq !== kingSq && sq !== rookSq) {
        if (sq < 32) pLo |= 1 << sq;
        else pHi |= 1 << (sq - 32);
      }
      if (king && sq !== kingSq) {
        if (sq < 32) kLo |= 1 << sq;
        else kHi |= 1 << (sq - 32);
      }
    };
    for (let s = Math.min(kingSq, kTo); s <= Math.max(kingSq, kTo); s++) add(s, true);
    for (let s = Math.min(rookSq, rTo); s <= Math.max(rookSq, rTo); s++) add(s, false);
    this.castlePathLo[i] = pLo;
    this.castlePathHi[i] = pHi;
    this.castleKingPathLo[i] = kLo;
    this.castleKingPathHi[i] = kHi;
    if ((kingSq & 7) !== 4 || ((rookSq & 7) !== 0 && (rookSq & 7) !== 7)) this.chess960 = true;
  }

  /** Recomputes derived state after set-up: king squares must be set, key from scratch. */
  finishSetup(): void {
    this.computeKey();
    this.keyLo = OUT[0]!;
    this.keyHi = OUT[1]!;
  }

  /** A deep copy (cold path: API, tests). */
  clone(): Position {
    const p = new Position();
    p.board.set(this.board);
    p.bbLo.set(this.bbLo);
    p.bbHi.set(this.bbHi);
    p.kingSq.set(this.kingSq);
    p.castleRook.set(this.castleRook);
    p.castleMask.set(this.castleMask);
    p.castlePathLo.set(this.castlePathLo);
    p.castlePathHi.set(this.castlePathHi);
    p.castleKingPathLo.set(this.castleKingPathLo);
    p.castleKingPathHi.set(this.castleKingPathHi);
    p.turn = this.turn;
    p.castling = this.castling;
    p.epSquare = this.epSquare;
    p.halfmoves = this.halfmoves;
    p.keyLo = this.keyLo;
    p.keyHi = this.keyHi;
    p.ply = this.ply;
    p.startFullmoves = this.startFullmoves;
    p.startTurn = this.startTurn;
    p.chess960 = this.chess960;
    while (p.stMove.length < this.stMove.length) p.grow();
    p.stInfo.set(this.stInfo);
    p.stMove.set(this.stMove);
    p.stKeyLo.set(this.stKeyLo);
    p.stKeyHi.set(this.stKeyHi);
    return p;
  }
}

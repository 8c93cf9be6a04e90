/**
 * The mutable integer position that search, move generation, perft and the PGN replay share.
 *
 * State lives in typed arrays and scalar fields; `play` pushes what it cannot recompute onto a
 * stack indexed by ply (Stockfish's StateInfo chain, flattened) and `undo` pops it, so nothing
 * is cloned or allocated per move. The Polyglot key is kept incrementally.
 *
 * Make/unmake is the innermost loop of perft and search, and is shaped for V8: one packed state
 * word and the halfmove clock per ply in one array, the previous key in two more (which the
 * search reads for repetitions); a straight path for normal moves and an out-of-line one for
 * the rare kinds; `undo` small enough (under V8's 460-byte bytecode limit) to be inlined into
 * its callers; Zobrist keys from one interleaved table; imports copied into module-local
 * constants.
 *
 * The en-passant square is kept only when a pawn of the side to move stands beside the pawn
 * that just advanced two squares: exactly the Polyglot hashing rule (polyglot.md §1.4). Whether
 * the capture is actually legal is decided by move generation; FEN output asks for that.
 */
import {
  OUT as OUT_,
  bishopAttacks as bishopAttacks_,
  rookAttacks as rookAttacks_,
  KNIGHT_LO as KNIGHT_LO_,
  KNIGHT_HI as KNIGHT_HI_,
  KING_LO as KING_LO_,
  KING_HI as KING_HI_,
  PAWN_LO as PAWN_LO_,
  PAWN_HI as PAWN_HI_,
} from './attacks.js';
import { generateLegal } from './movegen.js';
import { CASTLING as CASTLING_, EN_PASSANT as EN_PASSANT_, PROMOTION as PROMOTION_, KIND_MASK as KIND_MASK_, MOVE_NULL as MOVE_NULL_ } from './move.js';
import {
  BISHOP as BISHOP_,
  BLACK as BLACK_,
  EMPTY as EMPTY_,
  KING as KING_,
  KNIGHT as KNIGHT_,
  MAX_MOVES,
  NO_SQUARE as NO_SQUARE_,
  PAWN as PAWN_,
  QUEEN as QUEEN_,
  ROOK as ROOK_,
  WHITE as WHITE_,
} from './types.js';
import {
  Z_CASTLE as Z_CASTLE_,
  Z_CASTLE_HI,
  Z_CASTLE_LO,
  Z_EP as Z_EP_,
  Z_EP_HI,
  Z_EP_LO,
  Z_PIECE as Z_PIECE_,
  Z_PIECE_HI,
  Z_PIECE_LO,
  Z_TURN_HI as Z_TURN_HI_,
  Z_TURN_LO as Z_TURN_LO_,
} from './zobrist.js';

// Module-local copies of the imports used in hot code: why, and the measurement, in docs/core.md
// ("Imports copied into module-local constants", `npm run bench -- aliases`).
const OUT = OUT_;
const bishopAttacks = bishopAttacks_;
const rookAttacks = rookAttacks_;
const KNIGHT_LO = KNIGHT_LO_;
const KNIGHT_HI = KNIGHT_HI_;
const KING_LO = KING_LO_;
const KING_HI = KING_HI_;
const PAWN_LO = PAWN_LO_;
const PAWN_HI = PAWN_HI_;
const CASTLING = CASTLING_;
const EN_PASSANT = EN_PASSANT_;
const PROMOTION = PROMOTION_;
const KIND_MASK = KIND_MASK_;
const MOVE_NULL = MOVE_NULL_;
const BISHOP = BISHOP_;
const BLACK = BLACK_;
const EMPTY = EMPTY_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const NO_SQUARE = NO_SQUARE_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;
const WHITE = WHITE_;
const ZP = Z_PIECE_;
const ZC = Z_CASTLE_;
const ZE = Z_EP_;
/** Scratch for `sameButDeadEp` (cold: only positions right after a double push). */
const REPETITION_MOVES = new Uint16Array(MAX_MOVES);
const TURN_LO = Z_TURN_LO_;
const TURN_HI = Z_TURN_HI_;

/** Castling right bits; the index of a right (0..3) is the bit's log2. */
export const WHITE_OO = 1;
export const WHITE_OOO = 2;
export const BLACK_OO = 4;
export const BLACK_OOO = 8;

const INITIAL_STACK = 256;
/**
 * Sign bit of a state word: the move is castling, en passant, a promotion or a null move, so
 * `undo` tests one sign instead of decoding the move kind (and stays small enough for V8 to
 * inline it into its callers).
 */
const SLOW = 1 << 31;

/**
 * A position with its move stack, for legal move generation and make/undo. `new Position()` is
 * an empty board with no kings, a buffer to fill, not a game: moves generated on it mean nothing.
 * Make one with `setupPosition` (from a `Setup`) or `positionFromFen` (tabiya/notation), or use
 * the `Board` class of the package's main entry, which starts from the initial position.
 */
export class Position {
  /** Piece code per square (EMPTY = 0). */
  readonly board: Int8Array = new Int8Array(64);
  /** Bitboards by piece code; index color * 8 holds that color's occupancy. */
  readonly bbLo: Int32Array = new Int32Array(16);
  readonly bbHi: Int32Array = new Int32Array(16);
  readonly kingSq: Int8Array = new Int8Array(2);
  /** Rook square of each castling right (index 0..3), NO_SQUARE when the right never existed. */
  readonly castleRook: Int8Array = new Int8Array(4).fill(NO_SQUARE);
  /** Rights lost when a piece leaves or enters a square. */
  readonly castleMask: Uint8Array = new Uint8Array(64);
  /** Squares that must be empty to castle with right i (king and rook excluded). */
  readonly castlePathLo: Int32Array = new Int32Array(4);
  readonly castlePathHi: Int32Array = new Int32Array(4);
  /** Squares the king crosses or lands on when castling with right i. */
  readonly castleKingPathLo: Int32Array = new Int32Array(4);
  readonly castleKingPathHi: Int32Array = new Int32Array(4);

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

  /**
   * The state stack, indexed by ply: what `undo` needs to restore, four words per ply side by
   * side (one array, so make/unmake touch one cache line and one bounds check): move |
   * captured << 16 | castling << 20 | (ep + 1) << 24 (| SLOW for the moves `undoSpecial` takes
   * back), the halfmove clock, and the key before the move (keyLo, keyHi), which the search
   * also reads for repetitions: the key of the position at ply i is at `(i << 2) + 2` and `+ 3`.
   */
  stack: Int32Array = new Int32Array(4 * INITIAL_STACK);

  get fullmoves(): number {
    return this.startFullmoves + ((this.ply + this.startTurn) >> 1);
  }

  /** The move that led to the position `back` plies ago (1 = the last move). */
  moveAt(back: number): number {
    return this.stack[(this.ply - back) << 2]! & 0xffff;
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
    const b = new Int32Array(this.stack.length * 2);
    b.set(this.stack);
    this.stack = b;
  }

  /**
   * Plays a legal move (as produced by move generation or notation parsing).
   *
   * Normal moves (quiet or capture: almost every move of a game) take the straight path below;
   * castling, en passant and promotion go to `playSpecial`, which keeps this function smaller
   * and keeps V8 from deoptimising it the first time a rare kind turns up. Which bitboard half
   * a square lies in is selected with sign masks, without branches.
   */
  play(m: number): void {
    const sp = this.ply;
    if ((sp + 1) << 2 >= this.stack.length) this.grow();
    if (m >= PROMOTION) {
      this.playSpecial(m, sp);
      return;
    }
    const board = this.board;
    const lo = this.bbLo;
    const hi = this.bbHi;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const piece = board[from]!;
    const captured = board[to]!;
    board[from] = 0;
    board[to] = piece;
    const us = this.turn;
    const castling = this.castling;
    const ep = this.epSquare;
    const halfmoves = this.halfmoves;
    let kLo = this.keyLo;
    let kHi = this.keyHi;
    const st = this.stack;
    const si = sp << 2;
    st[si] = m | (captured << 16) | (castling << 20) | ((ep + 1) << 24);
    st[si + 1] = halfmoves;
    st[si + 2] = kLo;
    st[si + 3] = kHi;
    kLo ^= TURN_LO;
    kHi ^= TURN_HI;
    if (ep >= 0) {
      const e = (ep & 7) << 1;
      kLo ^= ZE[e]!;
      kHi ^= ZE[e + 1]!;
      this.epSquare = NO_SQUARE;
    }
    // -1 when the square is in the upper half (bit 5 moved to the sign bit), else 0.
    const fh = (from << 26) >> 31;
    const th = (to << 26) >> 31;
    const fb = 1 << from;
    const tb = 1 << to;
    const tLo = tb & ~th;
    const tHi = tb & th;
    const mLo = (fb & ~fh) | tLo;
    const mHi = (fb & fh) | tHi;
    let hm = halfmoves + 1;
    // The mover first, then the captured piece: V8 then reuses the arrays' bounds and base
    // pointers inside the capture branch instead of reloading them after it.
    const uo = us << 3;
    lo[piece]! ^= mLo;
    hi[piece]! ^= mHi;
    lo[uo]! ^= mLo;
    hi[uo]! ^= mHi;
    if (captured !== 0) {
      const c = captured & 8;
      lo[captured]! ^= tLo;
      hi[captured]! ^= tHi;
      lo[c]! ^= tLo;
      hi[c]! ^= tHi;
      const z = (captured << 7) | (to << 1);
      kLo ^= ZP[z]!;
      kHi ^= ZP[z + 1]!;
      hm = 0;
    }
    const zf = (piece << 7) | (from << 1);
    const zt = (piece << 7) | (to << 1);
    kLo ^= ZP[zf]! ^ ZP[zt]!;
    kHi ^= ZP[zf + 1]! ^ ZP[zt + 1]!;
    const type = piece & 7;
    if (type === PAWN) {
      hm = 0;
      if ((to ^ from) === 16) {
        // Double push: keep the e.p. square only if an enemy pawn stands beside `to`, that
        // is, on a square a pawn of ours on the skipped square would attack.
        const e = (from + to) >> 1;
        const pa = (us << 6) | e;
        const tp = ((us ^ 1) << 3) | PAWN;
        if (((PAWN_LO[pa]! & lo[tp]!) | (PAWN_HI[pa]! & hi[tp]!)) !== 0) {
          this.epSquare = e;
          const z = (to & 7) << 1;
          kLo ^= ZE[z]!;
          kHi ^= ZE[z + 1]!;
        }
      }
    } else if (type === KING) {
      this.kingSq[us] = to;
    }
    if (castling !== 0) {
      const cm = this.castleMask;
      const rights = castling & ~(cm[from]! | cm[to]!);
      if (rights !== castling) {
        kLo ^= ZC[castling << 1]! ^ ZC[rights << 1]!;
        kHi ^= ZC[(castling << 1) + 1]! ^ ZC[(rights << 1) + 1]!;
        this.castling = rights;
      }
    }
    this.halfmoves = hm;
    this.keyLo = kLo;
    this.keyHi = kHi;
    this.turn = us ^ 1;
    this.ply = sp + 1;
  }

  /** `play` for castling, en passant and promotion. */
  private playSpecial(m: number, sp: number): void {
    const us = this.turn;
    const castling = this.castling;
    const ep = this.epSquare;
    const halfmoves = this.halfmoves;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const kind = m & KIND_MASK;
    const piece = this.board[from]!;
    let captured = 0;
    let kLo = this.keyLo;
    let kHi = this.keyHi;
    this.stack[(sp << 2) + 2] = kLo;
    this.stack[(sp << 2) + 3] = kHi;
    kLo ^= TURN_LO;
    kHi ^= TURN_HI;
    if (ep >= 0) {
      const e = (ep & 7) << 1;
      kLo ^= ZE[e]!;
      kHi ^= ZE[e + 1]!;
      this.epSquare = NO_SQUARE;
    }
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
      const p = piece << 7;
      const r = rook << 7;
      kLo ^= ZP[p | (from << 1)]! ^ ZP[p | (kTo << 1)]! ^ ZP[r | (to << 1)]! ^ ZP[r | (rTo << 1)]!;
      kHi ^= ZP[(p | (from << 1)) + 1]! ^ ZP[(p | (kTo << 1)) + 1]! ^ ZP[(r | (to << 1)) + 1]! ^ ZP[(r | (rTo << 1)) + 1]!;
      this.kingSq[us] = kTo;
    } else {
      const capSq = kind === EN_PASSANT ? to ^ 8 : to;
      captured = this.board[capSq]!;
      if (captured !== 0) {
        this.removePiece(capSq);
        const z = (captured << 7) | (capSq << 1);
        kLo ^= ZP[z]!;
        kHi ^= ZP[z + 1]!;
      }
      // A pawn moves either way; a promotion then becomes its piece on `to`.
      const placed = kind === PROMOTION ? (us << 3) | (((m >>> 12) & 3) + KNIGHT) : piece;
      this.removePiece(from);
      this.putPiece(placed, to);
      const zf = (piece << 7) | (from << 1);
      const zt = (placed << 7) | (to << 1);
      kLo ^= ZP[zf]! ^ ZP[zt]!;
      kHi ^= ZP[zf + 1]! ^ ZP[zt + 1]!;
      this.halfmoves = 0;
    }
    if (castling !== 0) {
      const rights = castling & ~(this.castleMask[from]! | this.castleMask[to]!);
      if (rights !== castling) {
        kLo ^= ZC[castling << 1]! ^ ZC[rights << 1]!;
        kHi ^= ZC[(castling << 1) + 1]! ^ ZC[(rights << 1) + 1]!;
        this.castling = rights;
      }
    }
    this.stack[sp << 2] = SLOW | m | (captured << 16) | (castling << 20) | ((ep + 1) << 24);
    this.stack[(sp << 2) + 1] = halfmoves;
    this.keyLo = kLo;
    this.keyHi = kHi;
    this.turn = us ^ 1;
    this.ply = sp + 1;
  }

  /**
   * Takes back the last move played with `play`: the state comes back from the stack.
   * Keep this function short: at 453 bytes of bytecode (Node 20) it is just under the size V8
   * inlines into callers such as perft and the search, which is worth a few percent of perft.
   */
  undo(): void {
    const sp = this.ply - 1;
    const i = sp << 2;
    const st = this.stack;
    const w = st[i]!;
    const us = this.turn ^ 1;
    this.ply = sp;
    this.turn = us;
    this.halfmoves = st[i + 1]!;
    this.castling = (w >>> 20) & 15;
    this.epSquare = ((w >>> 24) & 127) - 1;
    this.keyLo = st[i + 2]!;
    this.keyHi = st[i + 3]!;
    if (w < 0) {
      this.undoSpecial(w, us);
      return;
    }
    const board = this.board;
    const lo = this.bbLo;
    const hi = this.bbHi;
    const from = (w >>> 6) & 63;
    const to = w & 63;
    const captured = (w >>> 16) & 15;
    const piece = board[to]!;
    const fh = (from << 26) >> 31;
    const th = (to << 26) >> 31;
    const fb = 1 << from;
    const tb = 1 << to;
    const tLo = tb & ~th;
    const tHi = tb & th;
    const mLo = (fb & ~fh) | tLo;
    const mHi = (fb & fh) | tHi;
    const uo = us << 3;
    lo[piece]! ^= mLo;
    hi[piece]! ^= mHi;
    lo[uo]! ^= mLo;
    hi[uo]! ^= mHi;
    board[from] = piece;
    board[to] = captured;
    if (captured !== 0) {
      const c = captured & 8;
      lo[captured]! |= tLo;
      hi[captured]! |= tHi;
      lo[c]! |= tLo;
      hi[c]! |= tHi;
    }
    if ((piece & 7) === KING) this.kingSq[us] = from;
  }

  /** `undo` for castling, en passant, promotion and null moves; the scalars are already restored. */
  private undoSpecial(w: number, us: number): void {
    const m = w & 0xffff;
    if (m === MOVE_NULL) return;
    const captured = (w >>> 16) & 15;
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
    // En passant and promotion are both pawn moves.
    this.removePiece(to);
    this.putPiece((us << 3) | PAWN, from);
    if (captured !== EMPTY) this.putPiece(captured, kind === EN_PASSANT ? to ^ 8 : to);
  }

  /** Passes the move (for null-move search and PGN `--`). Not legal when in check. */
  playNull(): void {
    const sp = this.ply;
    if ((sp + 1) << 2 >= this.stack.length) this.grow();
    const ep = this.epSquare;
    let kLo = this.keyLo;
    let kHi = this.keyHi;
    const st = this.stack;
    st[sp << 2] = SLOW | MOVE_NULL | (this.castling << 20) | ((ep + 1) << 24);
    st[(sp << 2) + 1] = this.halfmoves;
    st[(sp << 2) + 2] = kLo;
    st[(sp << 2) + 3] = kHi;
    kLo ^= TURN_LO;
    kHi ^= TURN_HI;
    if (ep >= 0) {
      const e = (ep & 7) << 1;
      kLo ^= ZE[e]!;
      kHi ^= ZE[e + 1]!;
      this.epSquare = NO_SQUARE;
    }
    this.keyLo = kLo;
    this.keyHi = kHi;
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
      lo ^= TURN_LO;
      hi ^= TURN_HI;
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
      const lo = this.stack[(i << 2) + 2]!;
      const hi = this.stack[(i << 2) + 3]!;
      if ((lo !== this.keyLo || hi !== this.keyHi) && !this.sameButDeadEp(i, lo, hi)) continue;
      if (++count >= limit) break;
    }
    return count;
  }

  /**
   * Is position `i` of the history (key lo/hi) the current position but for an e.p. square on
   * which no capture is legal? FIDE (art. 9.2.3) calls positions the same when the same moves
   * are possible, but the Polyglot key counts the e.p. file whenever a pawn stands beside, even
   * a pinned one. Only the position right after a double push has an e.p. square, so the legal
   * moves are generated here only when the keys differ by exactly that square's file.
   */
  private sameButDeadEp(i: number, lo: number, hi: number): boolean {
    const ep = ((this.stack[i << 2]! >>> 24) & 127) - 1;
    if (ep === NO_SQUARE_) return false;
    if ((lo ^ Z_EP_LO[ep & 7]!) !== this.keyLo || (hi ^ Z_EP_HI[ep & 7]!) !== this.keyHi) return false;
    const then = this.clone();
    while (then.ply > i) then.undo();
    const n = generateLegal(then, REPETITION_MOVES, 0);
    for (let k = 0; k < n; k++) if ((REPETITION_MOVES[k]! & KIND_MASK_) === EN_PASSANT_) return false;
    return true;
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
    p.copyFrom(this);
    return p;
  }

  /** Makes this position a copy of `src` (history included), without allocating when the stack is large enough. */
  copyFrom(src: Position): void {
    this.board.set(src.board);
    this.bbLo.set(src.bbLo);
    this.bbHi.set(src.bbHi);
    this.kingSq.set(src.kingSq);
    this.castleRook.set(src.castleRook);
    this.castleMask.set(src.castleMask);
    this.castlePathLo.set(src.castlePathLo);
    this.castlePathHi.set(src.castlePathHi);
    this.castleKingPathLo.set(src.castleKingPathLo);
    this.castleKingPathHi.set(src.castleKingPathHi);
    this.turn = src.turn;
    this.castling = src.castling;
    this.epSquare = src.epSquare;
    this.halfmoves = src.halfmoves;
    this.keyLo = src.keyLo;
    this.keyHi = src.keyHi;
    this.ply = src.ply;
    this.startFullmoves = src.startFullmoves;
    this.startTurn = src.startTurn;
    this.chess960 = src.chess960;
    while (this.stack.length < src.stack.length) this.grow();
    this.stack.set(src.stack.subarray(0, (src.ply + 1) << 2));
  }
}

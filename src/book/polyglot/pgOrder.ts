/**
 * PolyGlot's legal-move order, so that `dump` lists opponent replies exactly as
 * `polyglot dump-book` does (polyglot.md §4).
 *
 * PolyGlot generates moves piece by piece from a piece list per colour: the king first, then
 * the other pieces by square a1…h8 as set up; a captured piece's slot is refilled with the
 * last piece of that list (promotion and castling keep slots in place). Per piece the move
 * directions come in fixed increments of its 16-wide board (knight -33 -31 -18 -14 +14 +18
 * +31 +33; bishop -17 -15 +15 +17; rook -16 -1 +1 +16; queen and king all eight, ascending),
 * sliders walk outwards, pawns give capture towards the a-file, capture towards the h-file,
 * push, double push, promotions as N B R Q; castling comes last, h-side first.
 *
 * `PgBoard` follows a Position move by move (with undo) and sorts our legal moves by that
 * order. The line walk of info-book -exact calls it millions of times, so the piece lists
 * and their undo stack live in preallocated typed arrays.
 */
import { generateLegal } from '../../core/movegen.js';
import { CASTLING, EN_PASSANT, KIND_MASK, PROMOTION } from '../../core/move.js';
import type { Position } from '../../core/position.js';
import { BISHOP, EMPTY, KING, KNIGHT, MAX_MOVES, PAWN, ROOK } from '../../core/types.js';

// Direction index by (rank step + 2) * 5 + (file step + 2), per piece kind; -1 = none.
const KNIGHT_DIRS = table([[-2, -1], [-2, 1], [-1, -2], [-1, 2], [1, -2], [1, 2], [2, -1], [2, 1]]);
const BISHOP_DIRS = table([[-1, -1], [-1, 1], [1, -1], [1, 1]]);
const ROOK_DIRS = table([[-1, 0], [0, -1], [0, 1], [1, 0]]);
const QUEEN_DIRS = table([[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]);

function table(dirs: number[][]): Int8Array {
  const t = new Int8Array(25).fill(-1);
  dirs.forEach(([dr, df], i) => (t[(dr! + 2) * 5 + df! + 2] = i));
  return t;
}

/** Deepest line followed (PolyGlot's own limit). */
export const MAX_PLY = 1024;
// State per ply: list of White (16), list of Black (16), sizes (2), slot per square (64).
const STATE = 98;

export class PgBoard {
  /** Piece lists: White's squares at 0..15, Black's at 16..31; sizes at 32, 33; slots at 34..97. */
  private readonly st = new Int8Array(STATE);
  private readonly stack = new Int8Array(STATE * MAX_PLY);
  private depth = 0;
  private readonly keys = new Int32Array(MAX_MOVES);

  constructor(readonly pos: Position) {
    const st = this.st;
    st.fill(-1, 34);
    for (let c = 0; c < 2; c++) {
      let n = 0;
      for (const kingPass of [true, false]) {
        for (let sq = 0; sq < 64; sq++) {
          const p = pos.board[sq]!;
          if (p === EMPTY || p >> 3 !== c || ((p & 7) === KING) !== kingPass) continue;
          st[34 + sq] = n;
          st[c * 16 + n++] = sq;
        }
      }
      st[32 + c] = n;
    }
  }

  /** Plays a legal move on the position and the piece lists. */
  play(m: number): void {
    const st = this.st;
    this.stack.set(st, this.depth++ * STATE);
    const pos = this.pos;
    const us = pos.turn;
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const kind = m & KIND_MASK;
    if (kind === CASTLING) {
      const base = from & 56;
      const kTo = base + (to > from ? 6 : 2);
      const rTo = base + (to > from ? 5 : 3);
      const ks = st[34 + from]!;
      const rs = st[34 + to]!;
      st[34 + from] = -1;
      st[34 + to] = -1;
      st[us * 16 + ks] = kTo;
      st[us * 16 + rs] = rTo;
      st[34 + kTo] = ks;
      st[34 + rTo] = rs;
    } else {
      const cap = kind === EN_PASSANT ? to ^ 8 : pos.board[to] !== EMPTY ? to : -1;
      if (cap >= 0) {
        const them = us ^ 1;
        const s = st[34 + cap]!;
        const last = --st[32 + them]!;
        if (s !== last) {
          const moved = st[them * 16 + last]!;
          st[them * 16 + s] = moved;
          st[34 + moved] = s;
        }
        st[34 + cap] = -1;
      }
      const s = st[34 + from]!;
      st[34 + from] = -1;
      st[34 + to] = s;
      st[us * 16 + s] = to;
    }
    pos.play(m);
  }

  undo(): void {
    const o = --this.depth * STATE;
    this.st.set(this.stack.subarray(o, o + STATE));
    this.pos.undo();
  }

  /** Writes the legal moves in PolyGlot's generation order into `out` from `start`; returns the end. */
  legalMoves(out: Uint16Array, start: number): number {
    const end = generateLegal(this.pos, out, start);
    const keys = this.keys;
    for (let i = start; i < end; i++) keys[i - start] = this.orderKey(out[i]!);
    // Insertion sort: lists are short and this allocates nothing.
    for (let i = start + 1; i < end; i++) {
      const k = keys[i - start]!;
      const m = out[i]!;
      let j = i - 1;
      while (j >= start && keys[j - start]! > k) {
        keys[j + 1 - start] = keys[j - start]!;
        out[j + 1] = out[j]!;
        j--;
      }
      keys[j + 1 - start] = k;
      out[j + 1] = m;
    }
    return end;
  }

  /** Sort key: slot of the moving piece, direction, distance, promotion piece. */
  private orderKey(m: number): number {
    const from = (m >>> 6) & 63;
    const to = m & 63;
    const kind = m & KIND_MASK;
    if (kind === CASTLING) return (1 << 20) | (to > from ? 0 : 1);
    const type = this.pos.board[from]! & 7;
    const dr = (to >> 3) - (from >> 3);
    const df = (to & 7) - (from & 7);
    let dir: number;
    let dist = Math.max(Math.abs(dr), Math.abs(df));
    if (type === PAWN) {
      dir = df < 0 ? 0 : df > 0 ? 1 : dist === 1 ? 2 : 3;
      dist = 0;
    } else if (type === KNIGHT) {
      dir = KNIGHT_DIRS[(dr + 2) * 5 + df + 2]!;
      dist = 0;
    } else {
      const t = type === BISHOP ? BISHOP_DIRS : type === ROOK ? ROOK_DIRS : QUEEN_DIRS;
      dir = t[(Math.sign(dr) + 2) * 5 + Math.sign(df) + 2]!;
    }
    const promo = kind === PROMOTION ? (m >>> 12) & 3 : 0;
    return (this.st[34 + from]! << 12) | (dir << 8) | (dist << 3) | promo;
  }
}

/**
 * Standard Algebraic Notation: `makeSan` writes minimal disambiguation and +/#; `parseSan`
 * reads SAN as real PGN files spell it: 0-0, over-disambiguation, e8=Q/e8Q/e8q, trailing
 * + # ! ?, long algebraic (e2e4, e2-e4, Ng1f3, Nb8xc6), the captured piece of reversible algebraic
 * notation (Nf3xPe5), king-takes-rook castling, "e.p.".
 * A move that cannot be read, is illegal or is ambiguous is an error naming move and position.
 */
import { generateLegal } from '../core/movegen.js';
import { CASTLING, EN_PASSANT, KIND_MASK, PROMOTION } from '../core/move.js';
import type { Position } from '../core/position.js';
import { err, ok, ParseError, quote, typeName, type Result } from '../core/result.js';
import { OUT, KING_HI, KING_LO, KNIGHT_HI, KNIGHT_LO, PAWN_HI, PAWN_LO, bishopAttacks, queenAttacks, rookAttacks } from '../core/attacks.js';
import { BISHOP, EMPTY, KING, KNIGHT, MAX_MOVES, PAWN, QUEEN, ROOK, TYPE_LETTERS, WHITE, squareName } from '../core/types.js';
import { makeFen } from './fen.js';

export class SanError extends ParseError {}

const BUF = new Uint16Array(MAX_MOVES);
/** The legal moves of the position `makeSans` names moves in (BUF serves the check test meanwhile). */
const LEGAL = new Uint16Array(MAX_MOVES);

/** SAN of a legal move in the position. */
export function makeSan(pos: Position, m: number): string {
  return makeSanWithoutSuffix(pos, m) + checkSuffix(pos, m);
}

/**
 * SAN of several legal moves of one position (a book's moves there): the legal moves, which
 * disambiguation compares against, are generated once for all of them.
 */
export function makeSans(pos: Position, moves: readonly number[]): string[] {
  const n = generateLegal(pos, LEGAL, 0);
  return moves.map((m) => sanBody(pos, m, LEGAL, n) + checkSuffix(pos, m));
}

/** '+', '#' or '' for the move `m` (played and taken back). */
function checkSuffix(pos: Position, m: number): string {
  pos.play(m);
  let suffix = '';
  if (pos.inCheck()) suffix = generateLegal(pos, BUF, 0) === 0 ? '#' : '+';
  pos.undo();
  return suffix;
}

/** SAN without the check/mate suffix (cheaper: no move is played). */
export function makeSanWithoutSuffix(pos: Position, m: number): string {
  const type = pos.board[(m >>> 6) & 63]! & 7;
  // Only a piece other than a pawn or king may need the other legal moves to disambiguate.
  const n = type !== PAWN && type !== KING && (m & KIND_MASK) !== CASTLING ? generateLegal(pos, BUF, 0) : 0;
  return sanBody(pos, m, BUF, n);
}

/** SAN without the suffix, given the position's legal moves legal[0..n) (read only for a piece that may need disambiguating). */
function sanBody(pos: Position, m: number, legal: Uint16Array, n: number): string {
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const kind = m & KIND_MASK;
  if (kind === CASTLING) return to > from ? 'O-O' : 'O-O-O';
  const piece = pos.board[from]!;
  const type = piece & 7;
  const capture = pos.board[to] !== EMPTY || kind === EN_PASSANT;
  let san: string;
  if (type === PAWN) {
    san = capture ? 'abcdefgh'[from & 7]! + 'x' + squareName(to) : squareName(to);
    if (kind === PROMOTION) san += '=' + TYPE_LETTERS[((m >>> 12) & 3) + 2];
    return san;
  }
  san = TYPE_LETTERS[type]!;
  if (type !== KING) {
    // Disambiguate among other legal moves of the same piece kind to the same square.
    let others = false;
    let sameFile = false;
    let sameRank = false;
    for (let i = 0; i < n; i++) {
      const o = legal[i]!;
      const of = (o >>> 6) & 63;
      if ((o & 63) !== to || of === from || pos.board[of] !== piece || (o & KIND_MASK) === CASTLING) continue;
      others = true;
      if ((of & 7) === (from & 7)) sameFile = true;
      if (of >> 3 === from >> 3) sameRank = true;
    }
    if (others) {
      if (!sameFile) san += 'abcdefgh'[from & 7];
      else if (!sameRank) san += String((from >> 3) + 1);
      else san += squareName(from);
    }
  }
  if (capture) san += 'x';
  return san + squareName(to);
}

const PIECE_LETTERS = 'PNBRQK';
const PROMO_LETTERS = 'nbrqNBRQ';

/** Parses SAN (leniently) into a legal move of the position. */
export function parseSan(pos: Position, text: string): Result<number, SanError> {
  if (typeof text !== 'string') return err(new SanError('ERR_SAN_SYNTAX', `a SAN move is a string, not ${typeName(text)}`));
  const m = sanToMove(pos, text);
  if (m >= 0) return ok(m);
  return err(sanError(pos, text, m));
}

/** The reason codes of `sanToMove`'s negative results. */
export const SAN_UNREADABLE = -1;
export const SAN_ILLEGAL = -2;
export const SAN_AMBIGUOUS = -3;

export function sanError(pos: Position, text: string, code: number): SanError {
  const where = `in position ${makeFen(pos)}`;
  if (code === SAN_AMBIGUOUS) return new SanError('ERR_SAN_AMBIGUOUS', `ambiguous move ${quote(text, 40)} ${where}`);
  if (code === SAN_ILLEGAL) return new SanError('ERR_SAN_ILLEGAL', `illegal move ${quote(text, 40)} ${where}`);
  return new SanError('ERR_SAN_SYNTAX', `unreadable move ${quote(text, 40)} ${where}`);
}

/**
 * The hot-path form of parseSan used by PGN replay: the move, or SAN_UNREADABLE,
 * SAN_ILLEGAL or SAN_AMBIGUOUS. Allocates nothing but the sliced string.
 */
export function sanToMove(pos: Position, text: string): number {
  let end = text.length;
  // Trailing check, mate and annotation glyphs; "e.p." suffixes.
  for (;;) {
    while (end > 0) {
      const c = text.charCodeAt(end - 1);
      if (c === 43 || c === 35 || c === 33 || c === 63 || c === 32) end--; // + # ! ? space
      else break;
    }
    if (end >= 4 && text.startsWith('e.p.', end - 4)) {
      end -= 4;
      continue;
    }
    break;
  }
  let start = 0;
  while (start < end && text.charCodeAt(start) === 32) start++;
  if (start >= end) return SAN_UNREADABLE;

  // Castling: O-O, 0-0, o-o (with or without dashes).
  const c0 = text.charCodeAt(start);
  if (c0 === 79 || c0 === 48 || c0 === 111) {
    let count = 0;
    let i = start;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 79 || c === 48 || c === 111) count++;
      else if (c !== 45) break;
    }
    if (i !== end || count < 2 || count > 3) return SAN_UNREADABLE;
    return findCastling(pos, count === 2);
  }

  // Piece letter.
  let type = 0;
  const pl = PIECE_LETTERS.indexOf(text[start]!);
  if (pl >= 0) {
    type = pl + 1;
    start++;
  }
  // Promotion at the end: "=Q", "Q" or "q" after the destination rank.
  let promo = 0;
  if (end - start >= 3) {
    const last = text[end - 1]!;
    const pi = PROMO_LETTERS.indexOf(last);
    if (pi >= 0) {
      const before = text.charCodeAt(end - 2);
      if (before === 61 /* = */ || (before >= 49 && before <= 56)) {
        promo = (pi & 3) + 2;
        end -= before === 61 ? 2 : 1;
      }
    } else if (text.charCodeAt(end - 1) === 41 /* ) */) {
      return SAN_UNREADABLE;
    }
  }
  // Destination square.
  if (end - start < 2) return SAN_UNREADABLE;
  const tf = text.charCodeAt(end - 2) - 97;
  const tr = text.charCodeAt(end - 1) - 49;
  if (tf < 0 || tf > 7 || tr < 0 || tr > 7) return SAN_UNREADABLE;
  const to = tr * 8 + tf;
  end -= 2;
  // The captured piece before the destination, as reversible algebraic notation writes it
  // ("Bb5xNc6", "exPd5"); polyglot make-book reads these too. It must name what stands there.
  let captured = 0;
  if (end - start >= 2) {
    const cl = PIECE_LETTERS.indexOf(text[end - 1]!);
    const sep = text.charCodeAt(end - 2);
    if (cl >= 0 && cl < 5 && (sep === 120 || sep === 58)) {
      captured = cl + 1;
      end--;
    }
  }
  // Capture or dash separator.
  if (end > start) {
    const c = text.charCodeAt(end - 1);
    if (c === 120 || c === 45 || c === 58) end--; // x - :
  }
  // Optional from-file and from-rank.
  let fromFile = -1;
  let fromRank = -1;
  if (end > start) {
    const c = text.charCodeAt(start);
    if (c >= 97 && c <= 104) {
      fromFile = c - 97;
      start++;
    }
  }
  if (end > start) {
    const c = text.charCodeAt(start);
    if (c >= 49 && c <= 56) {
      fromRank = c - 49;
      start++;
    }
  }
  if (start !== end) return SAN_UNREADABLE;
  // Without a piece letter it is a pawn move, unless the full origin is given (LAN "g1f3").
  if (type === 0 && !(fromFile >= 0 && fromRank >= 0)) type = PAWN;
  if (captured !== 0 && capturedOn(pos, to) !== captured) return SAN_ILLEGAL;

  return resolveSan(pos, type, fromFile, fromRank, to, promo);
}

/** The type of the opponent's piece a move to `to` would capture (a pawn on the en passant square), else 0. */
export function capturedOn(pos: Position, to: number): number {
  const target = pos.board[to]!;
  if (target === EMPTY) return to === pos.epSquare ? PAWN : 0;
  return target >> 3 === pos.turn ? 0 : target & 7;
}

/**
 * The legal move matching parsed SAN parts: piece type (0 = any, for long algebraic with a
 * full origin), optional origin file/rank (-1 when absent), destination and promotion type
 * (0 = none). Returns the move, SAN_ILLEGAL or SAN_AMBIGUOUS.
 *
 * Only pieces that can reach the destination are considered, each tested for leaving its king
 * safe: PGN replay calls this for every move, and generating all legal moves each time
 * dominated its cost. King moves that might be castling go the general way.
 */
export function resolveSan(pos: Position, type: number, fromFile: number, fromRank: number, to: number, promo: number): number {
  const us = pos.turn;
  const board = pos.board;
  if (type === 0) {
    if (fromFile < 0 || fromRank < 0) return SAN_ILLEGAL;
    const p = board[fromRank * 8 + fromFile]!;
    if (p === EMPTY || p >> 3 !== us) return SAN_ILLEGAL;
    type = p & 7;
  }
  if (type === KING && (pos.castling & (us === WHITE ? 3 : 12)) !== 0) return resolveByGeneration(pos, type, fromFile, fromRank, to, promo);
  const target = board[to]!;
  if (target !== EMPTY && target >> 3 === us) return SAN_ILLEGAL;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const o = us << 3;
  const occLo = lo[0]! | lo[8]!;
  const occHi = hi[0]! | hi[8]!;
  let cLo = 0;
  let cHi = 0;
  let ep = false;
  switch (type) {
    case PAWN: {
      if (promo !== 0 ? to >> 3 !== (us === WHITE ? 7 : 0) : to >> 3 === (us === WHITE ? 7 : 0)) return SAN_ILLEGAL;
      const pa = ((us ^ 1) << 6) | to;
      // A pawn captures only when its file is given ("dxe5", "de5", "d4e5"): "e5" and "xe5"
      // are not dxe5, as python-chess and chessops read them.
      if ((target !== EMPTY || to === pos.epSquare) && fromFile >= 0) {
        cLo = PAWN_LO[pa]! & lo[o | PAWN]!;
        cHi = PAWN_HI[pa]! & hi[o | PAWN]!;
        ep = target === EMPTY;
      }
      if (target === EMPTY) {
        const up = us === WHITE ? 8 : -8;
        const pawn = o | PAWN;
        const one = to - up;
        let from = -1;
        if (one >= 0 && one < 64) {
          if (board[one] === pawn) from = one;
          else if (board[one] === EMPTY && to >> 3 === (us === WHITE ? 3 : 4) && board[one - up] === pawn) from = one - up;
        }
        if (from >= 0) {
          if (from < 32) cLo |= 1 << from;
          else cHi |= 1 << (from - 32);
        }
      }
      break;
    }
    case KNIGHT:
      cLo = KNIGHT_LO[to]! & lo[o | KNIGHT]!;
      cHi = KNIGHT_HI[to]! & hi[o | KNIGHT]!;
      break;
    case BISHOP:
      bishopAttacks(to, occLo, occHi);
      cLo = OUT[0]! & lo[o | BISHOP]!;
      cHi = OUT[1]! & hi[o | BISHOP]!;
      break;
    case ROOK:
      rookAttacks(to, occLo, occHi);
      cLo = OUT[0]! & lo[o | ROOK]!;
      cHi = OUT[1]! & hi[o | ROOK]!;
      break;
    case QUEEN:
      queenAttacks(to, occLo, occHi);
      cLo = OUT[0]! & lo[o | QUEEN]!;
      cHi = OUT[1]! & hi[o | QUEEN]!;
      break;
    case KING:
      cLo = KING_LO[to]! & lo[o | KING]!;
      cHi = KING_HI[to]! & hi[o | KING]!;
      break;
    default:
      return SAN_ILLEGAL;
  }
  if (type !== PAWN && promo !== 0) return SAN_ILLEGAL;
  let found = -1;
  let matches = 0;
  for (let half = 0; half < 2; half++) {
    let b = half === 0 ? cLo : cHi;
    while (b !== 0) {
      const from = (half << 5) + 31 - Math.clz32(b & -b);
      b &= b - 1;
      if (fromFile >= 0 && (from & 7) !== fromFile) continue;
      if (fromRank >= 0 && from >> 3 !== fromRank) continue;
      let m = (from << 6) | to;
      if (promo !== 0) m |= PROMOTION | ((promo - KNIGHT) << 12);
      else if (ep && (from & 7) !== (to & 7)) m |= EN_PASSANT;
      if (ep ? leavesKingSafePlayed(pos, m, us) : leavesKingSafe(pos, from, to, us)) {
        matches++;
        found = m;
      }
    }
  }
  if (matches === 0) return SAN_ILLEGAL;
  if (matches > 1) return SAN_AMBIGUOUS;
  return found;
}

/**
 * Is our king safe after moving from → to (not en passant)? The board after the move is
 * described by occupancy (from emptied, to filled) and by the enemy pieces minus a captured one.
 */
function leavesKingSafe(pos: Position, from: number, to: number, us: number): boolean {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  let occLo = lo[0]! | lo[8]!;
  let occHi = hi[0]! | hi[8]!;
  let keepLo = -1;
  let keepHi = -1;
  if (from < 32) occLo &= ~(1 << from);
  else occHi &= ~(1 << (from - 32));
  if (to < 32) {
    occLo |= 1 << to;
    keepLo = ~(1 << to);
  } else {
    occHi |= 1 << (to - 32);
    keepHi = ~(1 << (to - 32));
  }
  const k = (pos.board[from]! & 7) === KING ? to : pos.kingSq[us]!;
  const t = (us ^ 1) << 3;
  const p = (us << 6) | k;
  if ((PAWN_LO[p]! & lo[t | PAWN]! & keepLo) | (PAWN_HI[p]! & hi[t | PAWN]! & keepHi)) return false;
  if ((KNIGHT_LO[k]! & lo[t | KNIGHT]! & keepLo) | (KNIGHT_HI[k]! & hi[t | KNIGHT]! & keepHi)) return false;
  if ((KING_LO[k]! & lo[t | KING]!) | (KING_HI[k]! & hi[t | KING]!)) return false;
  const qLo = lo[t | QUEEN]!;
  const qHi = hi[t | QUEEN]!;
  bishopAttacks(k, occLo, occHi);
  if ((OUT[0]! & (lo[t | BISHOP]! | qLo) & keepLo) | (OUT[1]! & (hi[t | BISHOP]! | qHi) & keepHi)) return false;
  rookAttacks(k, occLo, occHi);
  if ((OUT[0]! & (lo[t | ROOK]! | qLo) & keepLo) | (OUT[1]! & (hi[t | ROOK]! | qHi) & keepHi)) return false;
  return true;
}

/** The same test by playing the move (en passant removes a third piece). */
function leavesKingSafePlayed(pos: Position, m: number, us: number): boolean {
  pos.play(m);
  const safe = !pos.isAttacked(pos.kingSq[us]!, pos.turn, pos.bbLo[0]! | pos.bbLo[8]!, pos.bbHi[0]! | pos.bbHi[8]!);
  pos.undo();
  return safe;
}

/** The general matcher: every legal move filtered by the SAN parts. */
function resolveByGeneration(pos: Position, type: number, fromFile: number, fromRank: number, to: number, promo: number): number {
  const n = generateLegal(pos, BUF, 0);
  let found = -1;
  let matches = 0;
  for (let i = 0; i < n; i++) {
    const m = BUF[i]!;
    const from = (m >>> 6) & 63;
    if (fromFile >= 0 && (from & 7) !== fromFile) continue;
    if (fromRank >= 0 && from >> 3 !== fromRank) continue;
    const kind = m & KIND_MASK;
    const mt = pos.board[from]! & 7;
    if (type !== 0 && mt !== type) continue;
    if (kind === CASTLING) {
      // King takes own rook, or the king's destination as in "e1g1" / "Kg1": in Chess960 only
      // a two-square king move, which cannot be an ordinary one (as in parseUci).
      const kTo = (from & 56) + ((m & 63) > from ? 6 : 2);
      if ((m & 63) !== to && (kTo !== to || (pos.chess960 && Math.abs(to - from) !== 2))) continue;
    } else if ((m & 63) !== to) continue;
    if (kind === PROMOTION) {
      if (((m >>> 12) & 3) + 2 !== promo) continue;
    } else if (promo !== 0) continue;
    if (found !== m) matches++;
    found = m;
  }
  if (matches === 0) return SAN_ILLEGAL;
  if (matches > 1) return SAN_AMBIGUOUS;
  return found;
}

/** The castling move to the king's or queen's side, or SAN_ILLEGAL. */
export function findCastling(pos: Position, kingSide: boolean): number {
  const n = generateLegal(pos, BUF, 0);
  for (let i = 0; i < n; i++) {
    const m = BUF[i]!;
    if ((m & KIND_MASK) === CASTLING && (m & 63) > ((m >>> 6) & 63) === kingSide) return m;
  }
  return SAN_ILLEGAL;
}

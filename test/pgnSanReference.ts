/**
 * The SAN matcher as it was before replay was optimised (every legal move generated and
 * filtered), kept as the oracle that `sanToMove`, `resolveSan` and `sanBytesToMove` must equal.
 */
import { generateLegal } from '../src/core/movegen.js';
import { CASTLING, KIND_MASK, PROMOTION } from '../src/core/move.js';
import type { Position } from '../src/core/position.js';
import { PAWN } from '../src/core/types.js';
import { SAN_AMBIGUOUS, SAN_ILLEGAL, SAN_UNREADABLE } from '../src/notation/san.js';

const BUF = new Uint16Array(256);

const PIECE_LETTERS = 'PNBRQK';
const PROMO_LETTERS = 'nbrqNBRQ';

/** The move, or SAN_UNREADABLE, SAN_ILLEGAL or SAN_AMBIGUOUS, found among all legal moves. */
export function referenceSanToMove(pos: Position, text: string): number {
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
  // The captured piece of reversible algebraic notation ("Bb5xNc6", "exPd5").
  let captured = 0;
  if (end - start >= 2 && 'PNBRQ'.includes(text[end - 1]!) && 'x:'.includes(text[end - 2]!)) {
    captured = PIECE_LETTERS.indexOf(text[end - 1]!) + 1;
    end--;
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
  if (captured !== 0) {
    const target = pos.board[to]!;
    const there = target === 0 ? (to === pos.epSquare ? PAWN : 0) : target >> 3 === pos.turn ? 0 : target & 7;
    if (there !== captured) return SAN_ILLEGAL;
  }

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
    // A pawn captures only when its file is given ("dxe5"): "e5" and "xe5" are not dxe5.
    if (mt === PAWN && fromFile < 0 && (from & 7) !== (m & 7)) continue;
    if (kind === CASTLING) {
      // King takes own rook, or the king's destination as in "e1g1" / "Kg1" (in Chess960 only a
      // two-square king move, which cannot be an ordinary one).
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

function findCastling(pos: Position, kingSide: boolean): number {
  const n = generateLegal(pos, BUF, 0);
  for (let i = 0; i < n; i++) {
    const m = BUF[i]!;
    if ((m & KIND_MASK) === CASTLING && (m & 63) > ((m >>> 6) & 63) === kingSide) return m;
  }
  return SAN_ILLEGAL;
}

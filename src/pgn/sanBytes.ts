/**
 * SAN straight from the bytes of a PGN buffer: the same lenient grammar as `sanToMove`
 * (notation/san.ts), lexed without making a string, then resolved by the same `resolveSan`.
 * Replay calls this once per move, so it must not allocate; `test/pgnSan.test.ts` checks that
 * it agrees with `sanToMove` on every input.
 */
import type { Position } from '../core/position.js';
import { SAN_ILLEGAL, SAN_UNREADABLE, capturedOn, findCastling, resolveSan } from '../notation/san.js';

/** Promotion letter → type (KNIGHT..QUEEN), 0 for anything else. */
const PROMO = new Uint8Array(128);
/** Piece letter → type (PAWN..KING), 0 for anything else. */
const PIECE = new Uint8Array(128);
for (const [ch, t] of [['n', 2], ['b', 3], ['r', 4], ['q', 5], ['N', 2], ['B', 3], ['R', 4], ['Q', 5]] as const) PROMO[ch.charCodeAt(0)] = t;
for (const [ch, t] of [['P', 1], ['N', 2], ['B', 3], ['R', 4], ['Q', 5], ['K', 6]] as const) PIECE[ch.charCodeAt(0)] = t;

const isEp = (b: Uint8Array, e: number): boolean =>
  b[e - 4] === 101 && b[e - 3] === 46 && b[e - 2] === 112 && b[e - 1] === 46; // "e.p."

/** The legal move written as SAN in buf[start..end), or SAN_UNREADABLE / SAN_ILLEGAL / SAN_AMBIGUOUS. */
export function sanBytesToMove(pos: Position, buf: Uint8Array, start: number, end: number): number {
  const first = start;
  // Trailing check, mate and annotation glyphs; "e.p." suffixes.
  for (;;) {
    while (end > start) {
      const c = buf[end - 1]!;
      if (c === 43 || c === 35 || c === 33 || c === 63 || c === 32) end--; // + # ! ? space
      else break;
    }
    if (end - first >= 4 && isEp(buf, end)) {
      end -= 4;
      continue;
    }
    break;
  }
  while (start < end && buf[start] === 32) start++;
  if (start >= end) return SAN_UNREADABLE;

  // Castling: O-O, 0-0, o-o (with or without dashes).
  const c0 = buf[start]!;
  if (c0 === 79 || c0 === 48 || c0 === 111) {
    let count = 0;
    let i = start;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c === 79 || c === 48 || c === 111) count++;
      else if (c !== 45) break;
    }
    if (i !== end || count < 2 || count > 3) return SAN_UNREADABLE;
    return findCastling(pos, count === 2);
  }

  let type = c0 < 128 ? PIECE[c0]! : 0;
  if (type !== 0) start++;
  // Promotion at the end: "=Q", "Q" or "q" after the destination rank.
  let promo = 0;
  if (end - start >= 3) {
    const last = buf[end - 1]!;
    const p = last < 128 ? PROMO[last]! : 0;
    if (p !== 0) {
      const before = buf[end - 2]!;
      if (before === 61 /* = */ || (before >= 49 && before <= 56)) {
        promo = p;
        end -= before === 61 ? 2 : 1;
      }
    } else if (last === 41 /* ) */) {
      return SAN_UNREADABLE;
    }
  }
  // Destination square.
  if (end - start < 2) return SAN_UNREADABLE;
  const tf = buf[end - 2]! - 97;
  const tr = buf[end - 1]! - 49;
  if (tf < 0 || tf > 7 || tr < 0 || tr > 7) return SAN_UNREADABLE;
  const to = tr * 8 + tf;
  end -= 2;
  // The captured piece of reversible algebraic notation ("Bb5xNc6", "exPd5"), as in sanToMove.
  let captured = 0;
  if (end - start >= 2) {
    const cl = buf[end - 1]!;
    const sep = buf[end - 2]!;
    if (cl < 128 && PIECE[cl]! !== 0 && PIECE[cl]! !== 6 && (sep === 120 || sep === 58)) {
      captured = PIECE[cl]!;
      end--;
    }
  }
  // Capture or dash separator.
  if (end > start) {
    const c = buf[end - 1]!;
    if (c === 120 || c === 45 || c === 58) end--; // x - :
  }
  // Optional origin file and rank.
  let fromFile = -1;
  let fromRank = -1;
  if (end > start) {
    const c = buf[start]!;
    if (c >= 97 && c <= 104) {
      fromFile = c - 97;
      start++;
    }
  }
  if (end > start) {
    const c = buf[start]!;
    if (c >= 49 && c <= 56) {
      fromRank = c - 49;
      start++;
    }
  }
  if (start !== end) return SAN_UNREADABLE;
  // Without a piece letter it is a pawn move, unless the full origin is given (LAN "g1f3").
  if (type === 0 && !(fromFile >= 0 && fromRank >= 0)) type = 1;
  if (captured !== 0 && capturedOn(pos, to) !== captured) return SAN_ILLEGAL;
  return resolveSan(pos, type, fromFile, fromRank, to, promo);
}

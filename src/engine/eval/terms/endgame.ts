/**
 * Endgame knowledge the general evaluation cannot express:
 *
 * - KXK (a lone king against a queen, a rook or enough minor pieces): a won score plus a
 *   gradient that drives the lone king to the edge and brings the winning king closer, so
 *   the search finds the mate. KBNK drives it to a corner of the bishop's colour.
 * - KPK: exact, from the bitbase.
 * - Scale factors for the endgame half of the score: pawnless endings where the stronger side
 *   is ahead by at most a minor piece (KRKB, KRKN, KQKQ, ...) are nearly drawn; bishops of
 *   opposite colours halve the advantage; a bishop with rook pawns that cannot be promoted on
 *   the bishop's colour against a king in the corner is a draw.
 *
 * Insufficient material (KK, KBK, KNK, same-coloured bishops) is recognised by the search via
 * Position.isInsufficientMaterial.
 */
import type { Position } from '../../../core/position.js';
import {
  BISHOP as BISHOP_,
  KNIGHT as KNIGHT_,
  PAWN as PAWN_,
  QUEEN as QUEEN_,
  ROOK as ROOK_,
} from '../../../core/types.js';
import { CENTER_DIST as CENTER_DIST_, DIST as DIST_, popcnt as popcnt_ } from '../masks.js';
import { kpkWins as kpkWins_ } from './kpk.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const BISHOP = BISHOP_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;
const CENTER_DIST = CENTER_DIST_;
const DIST = DIST_;
const popcnt = popcnt_;
const kpkWins = kpkWins_;

/** Piece counts by c * 8 + type, filled by the evaluation before calling these functions. */
export const COUNT = new Int32Array(16);
/** Non-pawn material of each side in pawn units × 100 (N 3.2, B 3.3, R 5, Q 9.5). */
export const NPM = new Int32Array(2);

/** Won-ending base score: above any normal evaluation, below mate scores. */
export const KNOWN_WIN = 10000;
/** Returned by `specialEndgame` when no special evaluator applies. */
export const NO_SPECIAL = 0x7fffffff;
/** Scale meaning "unchanged". */
export const SCALE_NORMAL = 64;

const DARK = 0xaa55aa55 | 0;

/** Number of squares of a set with few members (pieces other than pawns): one step per member. */
function sparseCount(lo: number, hi: number): number {
  let n = 0;
  while (lo !== 0) {
    n++;
    lo &= lo - 1;
  }
  while (hi !== 0) {
    n++;
    hi &= hi - 1;
  }
  return n;
}

export function countMaterial(pos: Position): void {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  for (let c = 0; c < 2; c++) {
    const o = c << 3;
    COUNT[o | PAWN] = popcnt(lo[o | PAWN]!, hi[o | PAWN]!);
    const n = sparseCount(lo[o | KNIGHT]!, hi[o | KNIGHT]!);
    const b = sparseCount(lo[o | BISHOP]!, hi[o | BISHOP]!);
    const r = sparseCount(lo[o | ROOK]!, hi[o | ROOK]!);
    const q = sparseCount(lo[o | QUEEN]!, hi[o | QUEEN]!);
    COUNT[o | KNIGHT] = n;
    COUNT[o | BISHOP] = b;
    COUNT[o | ROOK] = r;
    COUNT[o | QUEEN] = q;
    NPM[c] = n * 320 + b * 330 + r * 500 + q * 950;
  }
}

/** A special evaluator's score from White's point of view, or NO_SPECIAL. COUNT/NPM must be set. */
export function specialEndgame(pos: Position): number {
  const pawnsW = COUNT[PAWN]!;
  const pawnsB = COUNT[8 | PAWN]!;
  for (let strong = 0; strong < 2; strong++) {
    const weak = strong ^ 1;
    if (NPM[weak] !== 0 || COUNT[(weak << 3) | PAWN] !== 0) continue;
    const so = strong << 3;
    const sign = strong === 0 ? 1 : -1;
    const sk = pos.kingSq[strong]!;
    const wk = pos.kingSq[weak]!;
    const pawns = strong === 0 ? pawnsW : pawnsB;
    if (NPM[strong] === 0) {
      if (pawns === 1) {
        const lo = pos.bbLo[so | PAWN]!;
        const hi = pos.bbHi[so | PAWN]!;
        const psq = lo !== 0 ? 31 - Math.clz32(lo) : 63 - Math.clz32(hi);
        if (!kpkWins(strong, pos.turn, sk, psq, wk)) return 0;
        const rr = strong === 0 ? psq >> 3 : 7 - (psq >> 3);
        return sign * (KNOWN_WIN + 100 + 20 * rr);
      }
      return NO_SPECIAL;
    }
    const n = COUNT[so | KNIGHT]!;
    const b = COUNT[so | BISHOP]!;
    const heavy = COUNT[so | ROOK]! + COUNT[so | QUEEN]!;
    if (heavy === 0 && pawns === 0) {
      if (n === 1 && b === 1) return sign * kbnk(pos, strong, sk, wk);
      if (b === 0 && n <= 2) return 0;
      if (n === 0 && !bishopsOnBothColours(pos, so)) return 0;
    }
    if (heavy === 0 && (b + n < 2 || (n === 0 && !bishopsOnBothColours(pos, so))) && pawns > 0) return NO_SPECIAL;
    if (heavy > 0 || b + n >= 2) {
      const score = KNOWN_WIN + NPM[strong]! + 100 * pawns + 20 * CENTER_DIST[wk]! + 10 * (7 - DIST[(sk << 6) | wk]!);
      return sign * Math.min(score, KNOWN_WIN + 5000);
    }
  }
  return NO_SPECIAL;
}

function bishopsOnBothColours(pos: Position, so: number): boolean {
  const lo = pos.bbLo[so | BISHOP]!;
  const hi = pos.bbHi[so | BISHOP]!;
  return ((lo | hi) & DARK) !== 0 && ((lo | hi) & ~DARK) !== 0;
}

/** Bishop and knight: the mate works only in a corner of the bishop's colour. */
function kbnk(pos: Position, strong: number, sk: number, wk: number): number {
  const so = strong << 3;
  const dark = ((pos.bbLo[so | BISHOP]! | pos.bbHi[so | BISHOP]!) & DARK) !== 0;
  // a1 and h8 are dark; a8 and h1 light.
  const corner = dark ? Math.min(DIST[(wk << 6) | 0]!, DIST[(wk << 6) | 63]!) : Math.min(DIST[(wk << 6) | 7]!, DIST[(wk << 6) | 56]!);
  return KNOWN_WIN + 650 + 40 * (7 - corner) + 10 * CENTER_DIST[wk]! + 10 * (7 - DIST[(sk << 6) | wk]!);
}

/** How much of the endgame score the side it favours keeps (0..64). COUNT/NPM must be set. */
export function endgameScale(pos: Position, egWhite: number): number {
  const strong = egWhite >= 0 ? 0 : 1;
  const weak = strong ^ 1;
  const so = strong << 3;
  const wo = weak << 3;
  const pawns = COUNT[so | PAWN]!;
  if (pawns === 0 && NPM[strong]! - NPM[weak]! <= 330) return NPM[strong]! < 500 ? 0 : 8;
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  // A bishop and rook pawns on one edge file whose promotion square the bishop does not cover.
  if (NPM[strong] === 330 && COUNT[so | BISHOP] === 1 && pawns > 0) {
    const pLo = lo[so | PAWN]!;
    const pHi = hi[so | PAWN]!;
    const aFile = 0x01010101;
    const hFile = 0x80808080 | 0;
    const onA = ((pLo | pHi) & ~aFile) === 0;
    const onH = ((pLo | pHi) & ~hFile) === 0;
    if (onA || onH) {
      const promo = (strong === 0 ? 56 : 0) + (onA ? 0 : 7);
      const promoDark = ((promo >> 3) + (promo & 7)) % 2 === 0;
      const bishopDark = ((lo[so | BISHOP]! | hi[so | BISHOP]!) & DARK) !== 0;
      if (promoDark !== bishopDark && DIST[(pos.kingSq[weak]! << 6) | promo]! <= 1) return 0;
    }
  }
  // Opposite-coloured bishops.
  if (COUNT[so | BISHOP] === 1 && COUNT[wo | BISHOP] === 1) {
    const sb = ((lo[so | BISHOP]! | hi[so | BISHOP]!) & DARK) !== 0;
    const wb = ((lo[wo | BISHOP]! | hi[wo | BISHOP]!) & DARK) !== 0;
    if (sb !== wb) return NPM[strong] === 330 && NPM[weak] === 330 ? 22 : 44;
  }
  return SCALE_NORMAL;
}

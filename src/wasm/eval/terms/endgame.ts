/**
 * KXK / KBNK gradients, exact KPK from the bitbase,
 * and the endgame scale (pawnless near-equal material, wrong rook pawn + bishop, opposite
 * bishops).
 */
import { Position } from '../../position';
import { BISHOP, KNIGHT, PAWN, QUEEN, ROOK } from '../../types';
import { CENTER_DIST, DIST, FILE_A, FILE_H, popcnt64 } from '../masks';
import { kpkWins } from './kpk';

/** Piece counts by c * 8 + type, filled by the evaluation before calling these functions. */
export const COUNT = new StaticArray<i32>(16);
/** Non-pawn material of each side in pawn units x 100 (N 3.2, B 3.3, R 5, Q 9.5). */
export const NPM = new StaticArray<i32>(2);

export const KNOWN_WIN: i32 = 10000;
export const NO_SPECIAL: i32 = 0x7fffffff;
export const SCALE_NORMAL: i32 = 64;

const DARK: u64 = 0xaa55aa55aa55aa55;

export function countMaterial(pos: Position): void {
  const bb = pos.bb;
  for (let c = 0; c < 2; c++) {
    const o = c << 3;
    unchecked(COUNT[o | PAWN] = popcnt64(unchecked(bb[o | PAWN])));
    const n = popcnt64(unchecked(bb[o | KNIGHT]));
    const b = popcnt64(unchecked(bb[o | BISHOP]));
    const r = popcnt64(unchecked(bb[o | ROOK]));
    const q = popcnt64(unchecked(bb[o | QUEEN]));
    unchecked(COUNT[o | KNIGHT] = n);
    unchecked(COUNT[o | BISHOP] = b);
    unchecked(COUNT[o | ROOK] = r);
    unchecked(COUNT[o | QUEEN] = q);
    unchecked(NPM[c] = n * 320 + b * 330 + r * 500 + q * 950);
  }
}

/** A special evaluator's score from White's point of view, or NO_SPECIAL. COUNT/NPM must be set. */
export function specialEndgame(pos: Position): i32 {
  const pawnsW = unchecked(COUNT[PAWN]);
  const pawnsB = unchecked(COUNT[8 | PAWN]);
  for (let strong = 0; strong < 2; strong++) {
    const weak = strong ^ 1;
    if (unchecked(NPM[weak]) != 0 || unchecked(COUNT[(weak << 3) | PAWN]) != 0) continue;
    const so = strong << 3;
    const sign = strong == 0 ? 1 : -1;
    const sk = <i32>unchecked(pos.kingSq[strong]);
    const wk = <i32>unchecked(pos.kingSq[weak]);
    const pawns = strong == 0 ? pawnsW : pawnsB;
    if (unchecked(NPM[strong]) == 0) {
      if (pawns == 1) {
        const psq = 63 - <i32>clz(unchecked(pos.bb[so | PAWN]));
        if (!kpkWins(strong, pos.turn, sk, psq, wk)) return 0;
        const rr = strong == 0 ? psq >> 3 : 7 - (psq >> 3);
        return sign * (KNOWN_WIN + 100 + 20 * rr);
      }
      return NO_SPECIAL;
    }
    const n = unchecked(COUNT[so | KNIGHT]);
    const b = unchecked(COUNT[so | BISHOP]);
    const heavy = unchecked(COUNT[so | ROOK]) + unchecked(COUNT[so | QUEEN]);
    if (heavy == 0 && pawns == 0) {
      if (n == 1 && b == 1) return sign * kbnk(pos, strong, sk, wk);
      if (b == 0 && n <= 2) return 0;
      if (n == 0 && !bishopsOnBothColours(pos, so)) return 0;
    }
    if (heavy == 0 && (b + n < 2 || (n == 0 && !bishopsOnBothColours(pos, so))) && pawns > 0) return NO_SPECIAL;
    if (heavy > 0 || b + n >= 2) {
      const score = KNOWN_WIN + unchecked(NPM[strong]) + 100 * pawns + 20 * <i32>unchecked(CENTER_DIST[wk]) + 10 * (7 - <i32>unchecked(DIST[(sk << 6) | wk]));
      return sign * min(score, KNOWN_WIN + 5000);
    }
  }
  return NO_SPECIAL;
}

function bishopsOnBothColours(pos: Position, so: i32): bool {
  const b = unchecked(pos.bb[so | BISHOP]);
  return (b & DARK) != 0 && (b & ~DARK) != 0;
}

/** Bishop and knight: the mate works only in a corner of the bishop's colour. */
function kbnk(pos: Position, strong: i32, sk: i32, wk: i32): i32 {
  const so = strong << 3;
  const dark = (unchecked(pos.bb[so | BISHOP]) & DARK) != 0;
  // a1 and h8 are dark; a8 and h1 light.
  const w = wk << 6;
  const corner = dark
    ? min(<i32>unchecked(DIST[w | 0]), <i32>unchecked(DIST[w | 63]))
    : min(<i32>unchecked(DIST[w | 7]), <i32>unchecked(DIST[w | 56]));
  return KNOWN_WIN + 650 + 40 * (7 - corner) + 10 * <i32>unchecked(CENTER_DIST[wk]) + 10 * (7 - <i32>unchecked(DIST[(sk << 6) | wk]));
}

/** How much of the endgame score the side it favours keeps (0..64). COUNT/NPM must be set. */
export function endgameScale(pos: Position, egWhite: i32): i32 {
  const strong = egWhite >= 0 ? 0 : 1;
  const weak = strong ^ 1;
  const so = strong << 3;
  const wo = weak << 3;
  const pawns = unchecked(COUNT[so | PAWN]);
  const npmS = unchecked(NPM[strong]);
  const npmW = unchecked(NPM[weak]);
  if (pawns == 0 && npmS - npmW <= 330) return npmS < 500 ? 0 : 8;
  const bb = pos.bb;
  // A bishop and rook pawns on one edge file whose promotion square the bishop does not cover.
  if (npmS == 330 && unchecked(COUNT[so | BISHOP]) == 1 && pawns > 0) {
    const p = unchecked(bb[so | PAWN]);
    const onA = (p & ~FILE_A) == 0;
    const onH = (p & ~FILE_H) == 0;
    if (onA || onH) {
      const promo = (strong == 0 ? 56 : 0) + (onA ? 0 : 7);
      const promoDark = ((promo >> 3) + (promo & 7)) % 2 == 0;
      const bishopDark = (unchecked(bb[so | BISHOP]) & DARK) != 0;
      if (promoDark != bishopDark && <i32>unchecked(DIST[(<i32>unchecked(pos.kingSq[weak]) << 6) | promo]) <= 1) return 0;
    }
  }
  // Opposite-coloured bishops.
  if (unchecked(COUNT[so | BISHOP]) == 1 && unchecked(COUNT[wo | BISHOP]) == 1) {
    const sb = (unchecked(bb[so | BISHOP]) & DARK) != 0;
    const wb = (unchecked(bb[wo | BISHOP]) & DARK) != 0;
    if (sb != wb) return npmS == 330 && npmW == 330 ? 22 : 44;
  }
  return SCALE_NORMAL;
}

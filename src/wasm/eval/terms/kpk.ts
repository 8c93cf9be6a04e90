/**
 * The KPK win/draw bitbase, built by the same retrograde
 * iteration (same order, in place) the first time it is needed. 2 x 24 x 64 x 64 positions.
 */
import { KING_ATT, PAWN_ATT } from '../../attacks';

const SIZE = 2 * 24 * 64 * 64;
const INVALID: u8 = 0;
const UNKNOWN: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 4;

const BITS = new StaticArray<u32>(SIZE / 32);
let built = false;

// @ts-ignore: decorator
@inline function index(stm: i32, bk: i32, wk: i32, psq: i32): i32 {
  return wk | (bk << 6) | (stm << 12) | ((psq & 7) << 13) | ((6 - (psq >> 3)) << 15);
}
// @ts-ignore: decorator
@inline function kingHits(a: i32, b: i32): bool {
  return ((KING_ATT[a] >> <u64>b) & 1) != 0;
}
// @ts-ignore: decorator
@inline function dist(a: i32, b: i32): i32 {
  return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)));
}

/** The black king has no square to go to that White's king and pawn do not cover. */
function blackStuck(bk: i32, wk: i32, psq: i32): bool {
  return (KING_ATT[bk] & ~(KING_ATT[wk] | PAWN_ATT[psq])) == 0;
}

function build(): void {
  const db = new StaticArray<u8>(SIZE);
  for (let idx = 0; idx < SIZE; idx++) {
    const wk = idx & 63;
    const bk = (idx >> 6) & 63;
    const stm = (idx >> 12) & 1;
    const psq = ((idx >> 13) & 3) + ((6 - (idx >> 15)) << 3);
    const up = psq + 8;
    let r: u8;
    if (dist(wk, bk) <= 1 || wk == psq || bk == psq || (stm == 0 && ((PAWN_ATT[psq] >> <u64>bk) & 1) != 0)) {
      r = INVALID;
    } else if (stm == 0 && psq >> 3 == 6 && wk != up && (dist(bk, up) > 1 || dist(wk, up) == 1)) {
      r = WIN;
    } else if (stm == 1 && (blackStuck(bk, wk, psq) || (kingHits(bk, psq) && !kingHits(wk, psq)))) {
      r = DRAW;
    } else {
      r = UNKNOWN;
    }
    db[idx] = r;
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (let idx = 0; idx < SIZE; idx++) {
      if (unchecked(db[idx]) != UNKNOWN) continue;
      const wk = idx & 63;
      const bk = (idx >> 6) & 63;
      const stm = (idx >> 12) & 1;
      const psq = ((idx >> 13) & 3) + ((6 - (idx >> 15)) << 3);
      let r: i32 = INVALID;
      const from = stm == 0 ? wk : bk;
      let b = unchecked(KING_ATT[from]);
      while (b != 0) {
        const to = <i32>ctz(b);
        b &= b - 1;
        r |= stm == 0 ? <i32>db[index(1, bk, to, psq)] : <i32>db[index(0, to, wk, psq)];
      }
      if (stm == 0) {
        if (psq >> 3 < 6) r |= <i32>db[index(1, bk, wk, psq + 8)];
        if (psq >> 3 == 1 && psq + 8 != wk && psq + 8 != bk) r |= <i32>db[index(1, bk, wk, psq + 16)];
      }
      const good: i32 = stm == 0 ? WIN : DRAW;
      const bad: i32 = stm == 0 ? DRAW : WIN;
      const res = r & good ? good : r & UNKNOWN ? UNKNOWN : bad;
      if (res != UNKNOWN) {
        db[idx] = <u8>res;
        changed = true;
      }
    }
  }
  for (let idx = 0; idx < SIZE; idx++) if (db[idx] == WIN) BITS[idx >> 5] |= (<u32>1) << <u32>(idx & 31);
  built = true;
}

/** Builds the table now (it is otherwise built the first time a KPK position is evaluated). */
export function initKpk(): void {
  if (!built) build();
}

/**
 * Is KPK a win for the side with the pawn? `strong` is that side's color; squares are real
 * board squares; `stm` is the side to move.
 */
export function kpkWins(strong: i32, stm: i32, strongKing: i32, pawn: i32, weakKing: i32): bool {
  if (!built) build();
  let wk = strongKing;
  let bk = weakKing;
  let p = pawn;
  let side = stm;
  if (strong == 1) {
    wk ^= 56;
    bk ^= 56;
    p ^= 56;
    side ^= 1;
  }
  if ((p & 7) >= 4) {
    wk ^= 7;
    bk ^= 7;
    p ^= 7;
  }
  const idx = index(side, bk, wk, p);
  return ((unchecked(BITS[idx >> 5]) >>> <u32>(idx & 31)) & 1) != 0;
}

/**
 * King and pawn against king: a win/draw table for every position (the classic "KPK
 * bitbase"), built by retrograde iteration the first time it is needed (about 100 ms; 24 KB).
 * With the pawn mirrored onto files a-d and the stronger side as White there are
 * 2 × 24 × 64 × 64 positions: side to move, pawn square (ranks 2-7), both kings.
 */
import {
  KING_HI as KING_HI_,
  KING_LO as KING_LO_,
  PAWN_HI as PAWN_HI_,
  PAWN_LO as PAWN_LO_,
} from '../../../core/attacks.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const KING_HI = KING_HI_;
const KING_LO = KING_LO_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;

const SIZE = 2 * 24 * 64 * 64;
const INVALID = 0;
const UNKNOWN = 1;
const DRAW = 2;
const WIN = 4;

let bits: Uint32Array | null = null;

const index = (stm: number, bk: number, wk: number, psq: number): number =>
  wk | (bk << 6) | (stm << 12) | ((psq & 7) << 13) | ((6 - (psq >> 3)) << 15);

const kingHits = (a: number, b: number): boolean =>
  ((b < 32 ? KING_LO[a]! >>> b : KING_HI[a]! >>> (b - 32)) & 1) !== 0;
const dist = (a: number, b: number): number => Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));

function build(): Uint32Array {
  const db = new Uint8Array(SIZE);
  for (let idx = 0; idx < SIZE; idx++) {
    const wk = idx & 63;
    const bk = (idx >> 6) & 63;
    const stm = (idx >> 12) & 1;
    const psq = ((idx >> 13) & 3) + ((6 - (idx >> 15)) << 3);
    const up = psq + 8;
    let r: number;
    if (dist(wk, bk) <= 1 || wk === psq || bk === psq || (stm === 0 && ((bk < 32 ? PAWN_LO[psq]! >>> bk : PAWN_HI[psq]! >>> (bk - 32)) & 1) !== 0)) {
      r = INVALID;
    } else if (stm === 0 && psq >> 3 === 6 && wk !== up && (dist(bk, up) > 1 || dist(wk, up) === 1)) {
      r = WIN;
    } else if (stm === 1 && (blackStuck(bk, wk, psq) || (kingHits(bk, psq) && !kingHits(wk, psq)))) {
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
      if (db[idx] !== UNKNOWN) continue;
      const wk = idx & 63;
      const bk = (idx >> 6) & 63;
      const stm = (idx >> 12) & 1;
      const psq = ((idx >> 13) & 3) + ((6 - (idx >> 15)) << 3);
      let r = INVALID;
      const from = stm === 0 ? wk : bk;
      for (let half = 0; half < 2; half++) {
        let b = half === 0 ? KING_LO[from]! : KING_HI[from]!;
        while (b !== 0) {
          const to = (half << 5) + 31 - Math.clz32(b & -b);
          b &= b - 1;
          r |= stm === 0 ? db[index(1, bk, to, psq)]! : db[index(0, to, wk, psq)]!;
        }
      }
      if (stm === 0) {
        if (psq >> 3 < 6) r |= db[index(1, bk, wk, psq + 8)]!;
        if (psq >> 3 === 1 && psq + 8 !== wk && psq + 8 !== bk) r |= db[index(1, bk, wk, psq + 16)]!;
      }
      const good = stm === 0 ? WIN : DRAW;
      const bad = stm === 0 ? DRAW : WIN;
      const res = r & good ? good : r & UNKNOWN ? UNKNOWN : bad;
      if (res !== UNKNOWN) {
        db[idx] = res;
        changed = true;
      }
    }
  }
  const out = new Uint32Array(SIZE / 32);
  for (let idx = 0; idx < SIZE; idx++) if (db[idx] === WIN) out[idx >> 5]! |= 1 << (idx & 31);
  return out;
}

/** The black king has no square to go to that White's king and pawn do not cover. */
function blackStuck(bk: number, wk: number, psq: number): boolean {
  return ((KING_LO[bk]! & ~(KING_LO[wk]! | PAWN_LO[psq]!)) | (KING_HI[bk]! & ~(KING_HI[wk]! | PAWN_HI[psq]!))) === 0;
}

/** Builds the table now (it is otherwise built the first time a KPK position is evaluated). */
export function initKpk(): void {
  if (bits === null) bits = build();
}

/**
 * Is KPK a win for the side with the pawn? `strong` is that side's color; squares are real
 * board squares; `stm` is the side to move.
 */
export function kpkWins(strong: number, stm: number, strongKing: number, pawn: number, weakKing: number): boolean {
  if (bits === null) bits = build();
  let wk = strongKing;
  let bk = weakKing;
  let p = pawn;
  let side = stm;
  if (strong === 1) {
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
  return ((bits[idx >> 5]! >>> (idx & 31)) & 1) !== 0;
}

/**
 * Static exchange evaluation in threshold form ("does this
 * move win at least `threshold`?", Stockfish's see_ge). The swap loop alternates sides, always
 * recapturing with the least valuable attacker, and adds x-ray attackers as the occupancy
 * shrinks. Pins and checks are ignored.
 */
import { KING_ATT, KNIGHT_ATT, PAWN_ATT, bishopAttacks, rookAttacks } from './attacks';
import { Position, bit } from './position';
import { BISHOP, KIND_MASK, KING, KNIGHT, NORMAL, PAWN, QUEEN, ROOK } from './types';

/** Piece values for exchanges, by type (index 0 and 7 unused, the king a sentinel). */
export const SEE_VALUE: StaticArray<i32> = [0, 100, 320, 330, 500, 950, 20000, 0];

/** Does move `m` (legal in `pos`) win at least `threshold` in a static exchange? */
export function seeGe(pos: Position, m: i32, threshold: i32): bool {
  const kind = m & KIND_MASK;
  // Castling, promotions and en passant (a pawn for a pawn) are judged as even trades.
  if (kind != NORMAL) return 0 >= threshold;
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const board = pos.board;
  let swap = unchecked(SEE_VALUE[<i32>unchecked(board[to]) & 7]) - threshold;
  if (swap < 0) return false;
  swap = unchecked(SEE_VALUE[<i32>unchecked(board[from]) & 7]) - swap;
  if (swap <= 0) return true;

  const bb = pos.bb;
  // Remove the mover (the target square's occupant is replaced, it stays "occupied").
  let occ = (unchecked(bb[0]) | unchecked(bb[8])) & ~bit(from);
  const q = unchecked(bb[QUEEN]) | unchecked(bb[8 | QUEEN]);
  const bq = unchecked(bb[BISHOP]) | unchecked(bb[8 | BISHOP]) | q;
  const rq = unchecked(bb[ROOK]) | unchecked(bb[8 | ROOK]) | q;

  // All attackers of both colours.
  let a = (unchecked(PAWN_ATT[64 | to]) & unchecked(bb[PAWN])) | (unchecked(PAWN_ATT[to]) & unchecked(bb[8 | PAWN])) |
    (unchecked(KNIGHT_ATT[to]) & (unchecked(bb[KNIGHT]) | unchecked(bb[8 | KNIGHT]))) |
    (unchecked(KING_ATT[to]) & (unchecked(bb[KING]) | unchecked(bb[8 | KING])));
  a |= bishopAttacks(to, occ) & bq;
  a |= rookAttacks(to, occ) & rq;

  let stm = pos.turn;
  let res = 1;
  for (;;) {
    stm ^= 1;
    a &= occ;
    const o = stm << 3;
    const s = a & unchecked(bb[o]);
    if (s == 0) break;
    res ^= 1;
    // Least valuable attacker of side `stm`.
    let type = PAWN;
    let b: u64 = 0;
    for (; type <= KING; type++) {
      b = s & unchecked(bb[o | type]);
      if (b != 0) break;
    }
    if (type == KING) {
      // The king may capture only if the other side has no attacker left.
      return ((a & unchecked(bb[o ^ 8])) != 0 ? res ^ 1 : res) != 0;
    }
    swap = unchecked(SEE_VALUE[type]) - swap;
    if (swap < res) break;
    occ &= ~(b & (~b + 1));
    if (type == PAWN || type == BISHOP || type == QUEEN) a |= bishopAttacks(to, occ) & bq;
    if (type == ROOK || type == QUEEN) a |= rookAttacks(to, occ) & rq;
  }
  return res != 0;
}

/**
 * Static exchange evaluation in threshold form: "does this move win at least `threshold`?"
 * (the swap-off of seed 003, Stockfish's `see_ge`). Answering a yes/no question lets the
 * swap loop stop as soon as the outcome is decided, so it is cheaper than computing the
 * exchange value, and search only ever compares SEE with a bound.
 *
 * The loop alternates sides, always recapturing with the least valuable attacker, and adds
 * x-ray attackers (sliders behind the piece that just captured) as the occupancy shrinks.
 * Pins and checks are ignored, as usual.
 */
import {
  KING_HI as KING_HI_,
  KING_LO as KING_LO_,
  KNIGHT_HI as KNIGHT_HI_,
  KNIGHT_LO as KNIGHT_LO_,
  OUT as OUT_,
  PAWN_HI as PAWN_HI_,
  PAWN_LO as PAWN_LO_,
  bishopAttacks as bishopAttacks_,
  rookAttacks as rookAttacks_,
} from '../../core/attacks.js';
import { KIND_MASK as KIND_MASK_, NORMAL as NORMAL_ } from '../../core/move.js';
import type { Position } from '../../core/position.js';
import {
  BISHOP as BISHOP_,
  KING as KING_,
  KNIGHT as KNIGHT_,
  PAWN as PAWN_,
  QUEEN as QUEEN_,
  ROOK as ROOK_,
} from '../../core/types.js';
// Module-local bindings: V8 reads these faster than imported bindings in hot code.
const KING_HI = KING_HI_;
const KING_LO = KING_LO_;
const KNIGHT_HI = KNIGHT_HI_;
const KNIGHT_LO = KNIGHT_LO_;
const OUT = OUT_;
const PAWN_HI = PAWN_HI_;
const PAWN_LO = PAWN_LO_;
const bishopAttacks = bishopAttacks_;
const rookAttacks = rookAttacks_;
const KIND_MASK = KIND_MASK_;
const NORMAL = NORMAL_;
const BISHOP = BISHOP_;
const KING = KING_;
const KNIGHT = KNIGHT_;
const PAWN = PAWN_;
const QUEEN = QUEEN_;
const ROOK = ROOK_;

/** Piece values for exchanges, by type (index 0 and 6 unused except the king sentinel). */
export const SEE_VALUE = new Int32Array([0, 100, 320, 330, 500, 950, 20000, 0]);

/** Does move `m` (legal in `pos`) win at least `threshold` in a static exchange? */
export function seeGe(pos: Position, m: number, threshold: number): boolean {
  const kind = m & KIND_MASK;
  // Castling, promotions and en passant (a pawn for a pawn) are judged as even trades.
  if (kind !== NORMAL) return 0 >= threshold;
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const board = pos.board;
  let swap = SEE_VALUE[board[to]! & 7]! - threshold;
  if (swap < 0) return false;
  swap = SEE_VALUE[board[from]! & 7]! - swap;
  if (swap <= 0) return true;

  const lo = pos.bbLo;
  const hi = pos.bbHi;
  let occLo = lo[0]! | lo[8]!;
  let occHi = hi[0]! | hi[8]!;
  // Remove the mover (the target square's occupant is replaced, it stays "occupied").
  if (from < 32) occLo &= ~(1 << from);
  else occHi &= ~(1 << (from - 32));

  const bqLo = lo[BISHOP]! | lo[QUEEN]! | lo[8 | BISHOP]! | lo[8 | QUEEN]!;
  const bqHi = hi[BISHOP]! | hi[QUEEN]! | hi[8 | BISHOP]! | hi[8 | QUEEN]!;
  const rqLo = lo[ROOK]! | lo[QUEEN]! | lo[8 | ROOK]! | lo[8 | QUEEN]!;
  const rqHi = hi[ROOK]! | hi[QUEEN]! | hi[8 | ROOK]! | hi[8 | QUEEN]!;

  // All attackers of both colours.
  let aLo = (PAWN_LO[64 | to]! & lo[PAWN]!) | (PAWN_LO[to]! & lo[8 | PAWN]!) |
    (KNIGHT_LO[to]! & (lo[KNIGHT]! | lo[8 | KNIGHT]!)) | (KING_LO[to]! & (lo[KING]! | lo[8 | KING]!));
  let aHi = (PAWN_HI[64 | to]! & hi[PAWN]!) | (PAWN_HI[to]! & hi[8 | PAWN]!) |
    (KNIGHT_HI[to]! & (hi[KNIGHT]! | hi[8 | KNIGHT]!)) | (KING_HI[to]! & (hi[KING]! | hi[8 | KING]!));
  bishopAttacks(to, occLo, occHi);
  aLo |= OUT[0]! & bqLo;
  aHi |= OUT[1]! & bqHi;
  rookAttacks(to, occLo, occHi);
  aLo |= OUT[0]! & rqLo;
  aHi |= OUT[1]! & rqHi;

  let stm = pos.turn;
  let res = 1;
  for (;;) {
    stm ^= 1;
    aLo &= occLo;
    aHi &= occHi;
    const o = stm << 3;
    const sLo = aLo & lo[o]!;
    const sHi = aHi & hi[o]!;
    if ((sLo | sHi) === 0) break;
    res ^= 1;
    // Least valuable attacker of side `stm`.
    let type = PAWN;
    let bLo = 0;
    let bHi = 0;
    for (; type <= KING; type++) {
      bLo = sLo & lo[o | type]!;
      bHi = sHi & hi[o | type]!;
      if ((bLo | bHi) !== 0) break;
    }
    if (type === KING) {
      // The king may capture only if the other side has no attacker left.
      const oLo = aLo & lo[o ^ 8]!;
      const oHi = aHi & hi[o ^ 8]!;
      return ((oLo | oHi) !== 0 ? res ^ 1 : res) !== 0;
    }
    swap = SEE_VALUE[type]! - swap;
    if (swap < res) break;
    if (bLo !== 0) occLo &= ~(bLo & -bLo);
    else occHi &= ~(bHi & -bHi);
    if (type === PAWN || type === BISHOP || type === QUEEN) {
      bishopAttacks(to, occLo, occHi);
      aLo |= OUT[0]! & bqLo;
      aHi |= OUT[1]! & bqHi;
    }
    if (type === ROOK || type === QUEEN) {
      rookAttacks(to, occLo, occHi);
      aLo |= OUT[0]! & rqLo;
      aHi |= OUT[1]! & rqHi;
    }
  }
  return res !== 0;
}

/**
 * UCI move strings. Standard chess writes castling as the king's two-square move (e1g1);
 * Chess960 (UCI_Chess960) writes king takes own rook (e1h1). Both are accepted on input (in
 * Chess960 the king's destination only when it is two squares away: a king step is a king move).
 */
import { generateLegal } from '../core/movegen.js';
import { CASTLING, KIND_MASK, MOVE_NULL, PROMOTION } from '../core/move.js';
import type { Position } from '../core/position.js';
import { err, ok, ParseError, quote, typeName, type Result } from '../core/result.js';
import { MAX_MOVES, parseSquare, squareName } from '../core/types.js';
import { makeFen } from './fen.js';

export class UciError extends ParseError {}

const BUF = new Uint16Array(MAX_MOVES);

/** UCI string of a move; castling as king→rook when `chess960`. */
export function makeUci(m: number, chess960 = false): string {
  if (m === MOVE_NULL) return '0000';
  const from = (m >>> 6) & 63;
  let to = m & 63;
  const kind = m & KIND_MASK;
  if (kind === CASTLING && !chess960) to = (from & 56) + (to > from ? 6 : 2);
  let s = squareName(from) + squareName(to);
  if (kind === PROMOTION) s += 'nbrq'[(m >>> 12) & 3];
  return s;
}

/** The legal move a UCI string denotes in the position, or an error naming move and position. */
export function parseUci(pos: Position, text: string): Result<number, UciError> {
  if (typeof text !== 'string') return err(new UciError('ERR_UCI_SYNTAX', `a UCI move is a string, not ${typeName(text)}`));
  const s = text.trim();
  const bad = (code: string, why: string): { ok: false; error: UciError } =>
    err(new UciError(code, `${why} ${quote(text, 40)} in position ${makeFen(pos)}`));
  if (s.length !== 4 && s.length !== 5) return bad('ERR_UCI_SYNTAX', 'unreadable UCI move');
  const from = parseSquare(s.slice(0, 2));
  const to = parseSquare(s.slice(2, 4));
  if (from === undefined || to === undefined) return bad('ERR_UCI_SYNTAX', 'unreadable UCI move');
  let promo = 0;
  if (s.length === 5) {
    promo = 'nbrq'.indexOf(s[4]!.toLowerCase()) + 2;
    if (promo < 2) return bad('ERR_UCI_SYNTAX', 'unreadable UCI move');
  }
  const n = generateLegal(pos, BUF, 0);
  for (let i = 0; i < n; i++) {
    const m = BUF[i]!;
    if (((m >>> 6) & 63) !== from) continue;
    const kind = m & KIND_MASK;
    if (kind === CASTLING) {
      // King takes rook, or the king's destination: always in standard chess, and in Chess960
      // when the king moves two squares (from the e-file), which no other king move does, as
      // python-chess and chessops read "e1g1" there. A one-square step (b1c1) stays a king move.
      const kTo = (from & 56) + ((m & 63) > from ? 6 : 2);
      if (promo === 0 && ((m & 63) === to || (kTo === to && (!pos.chess960 || Math.abs(to - from) === 2)))) return ok(m);
      continue;
    }
    if ((m & 63) !== to) continue;
    if (kind === PROMOTION ? ((m >>> 12) & 3) + 2 !== promo : promo !== 0) continue;
    return ok(m);
  }
  return bad('ERR_UCI_ILLEGAL', 'illegal move');
}

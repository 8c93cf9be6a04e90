/**
 * SAN for writing many games (`tabiya pgn clean`, game trees): the same text as `makeSan`, but
 * disambiguation asks `resolveSan` (which looks only at pieces that reach the target square)
 * instead of generating every legal move, so re-exporting a database costs little more than
 * reading it. `test/pgnSan.test.ts` checks it against makeSan move by move.
 */
import { generateLegal } from '../core/movegen.js';
import { CASTLING, EN_PASSANT, KIND_MASK, PROMOTION } from '../core/move.js';
import type { Position } from '../core/position.js';
import { EMPTY, KING, MAX_MOVES, PAWN, TYPE_LETTERS, squareName } from '../core/types.js';
import { resolveSan } from '../notation/san.js';

const BUF = new Uint16Array(MAX_MOVES);
const FILES = 'abcdefgh';

/** SAN of a legal move, with + or #. */
export function writeSan(pos: Position, m: number): string {
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const kind = m & KIND_MASK;
  let san: string;
  if (kind === CASTLING) {
    san = to > from ? 'O-O' : 'O-O-O';
  } else {
    const type = pos.board[from]! & 7;
    const capture = pos.board[to] !== EMPTY || kind === EN_PASSANT;
    if (type === PAWN) {
      san = capture ? `${FILES[from & 7]}x${squareName(to)}` : squareName(to);
      if (kind === PROMOTION) san += '=' + TYPE_LETTERS[((m >>> 12) & 3) + 2];
    } else {
      san = TYPE_LETTERS[type]!;
      if (type !== KING && resolveSan(pos, type, -1, -1, to, 0) !== m) {
        // Another piece of the kind can go there: the file if it tells them apart, else the rank, else both.
        if (resolveSan(pos, type, from & 7, -1, to, 0) === m) san += FILES[from & 7];
        else if (resolveSan(pos, type, -1, from >> 3, to, 0) === m) san += String((from >> 3) + 1);
        else san += squareName(from);
      }
      if (capture) san += 'x';
      san += squareName(to);
    }
  }
  pos.play(m);
  if (pos.inCheck()) san += generateLegal(pos, BUF, 0) === 0 ? '#' : '+';
  pos.undo();
  return san;
}

/**
 * Move lists as people type them after `--moves`: UCI or SAN, mixed freely, separated by
 * spaces or commas, move numbers ("1.", "1...", "12.e4") allowed and ignored:
 * `"e2e4 e7e5"`, `"e4 e5 Nf3"`, `"1. e4 e5 2. Nf3"`, `"e4,e5"`.
 *
 *     const pos = unwrap(positionFromFen(STARTING_FEN));
 *     const r = playMoveList(pos, 'e4 e5 Nf3');   // pos is now after 2. Nf3
 *     if (!r.ok) console.error(r.error.message);  // move 3 of the list: illegal move "Nf6" in position ...
 */
import type { Position } from '../core/position.js';
import { err, ok, ParseError, typeName, type Result } from '../core/result.js';
import { makeSan, parseSan } from './san.js';
import { parseUci } from './uci.js';

export class MoveListError extends ParseError {
  constructor(
    code: string,
    message: string,
    /** 1-based position of the bad move in the list (move numbers not counted). */
    readonly index: number,
    readonly move: string,
  ) {
    super(code, message);
    this.name = 'MoveListError';
  }
}

const UCI_SHAPE = /^[a-h][1-8][a-h][1-8][nbrqNBRQ]?$/;

/** The moves of a list, move numbers left out. */
export function moveListWords(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((w) => w.replace(/^\d+\.+/, ''))
    .filter((w) => w !== '');
}

/**
 * Plays the moves of `text` on `pos` (which it changes) and returns them; on the first move
 * that is not legal there, stops and names it with its place in the list.
 */
export function playMoveList(pos: Position, text: string): Result<number[], MoveListError> {
  const moves: number[] = [];
  if (typeof text !== 'string') return err(new MoveListError('ERR_SAN_SYNTAX', `a move list is a string, not ${typeName(text)}`, 1, String(text)));
  const words = moveListWords(text);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    // A word shaped like UCI is read as UCI, anything else as (lenient) SAN.
    const m = UCI_SHAPE.test(word) ? parseUci(pos, word) : parseSan(pos, word);
    if (!m.ok) return err(new MoveListError(m.error.code, `move ${i + 1} of the list: ${m.error.message}`, i + 1, word));
    moves.push(m.value);
    pos.play(m.value);
  }
  return ok(moves);
}

/**
 * UCI moves from `pos` as SAN, the way a reader writes a line: `"e4 e5 Nf3"`, or with
 * `numbered` `"1.e4 e5 2.Nf3"` (a line starting with Black's move: `"3...Nd4 4.Nxe5"`). `pos`
 * is left as it was; the text stops before the first move that is not legal.
 */
export function uciLineToSan(pos: Position, uci: readonly string[], numbered = false): string {
  const p = pos.clone();
  const out: string[] = [];
  for (const text of uci) {
    const m = parseUci(p, text);
    if (!m.ok) break;
    const san = makeSan(p, m.value);
    if (!numbered) out.push(san);
    else if (p.turn === 0) out.push(`${p.fullmoves}.${san}`);
    else out.push(out.length === 0 ? `${p.fullmoves}...${san}` : san);
    p.play(m.value);
  }
  return out.join(' ');
}

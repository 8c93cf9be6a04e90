/**
 * FEN (and Shredder-FEN / X-FEN castling for Chess960): `parseFen` → Setup, `makeFen` ← Position.
 *
 * Parsing is lenient where real files are (missing fields, as in EPD) and precise where
 * it fails: every error names the field and what is wrong.
 */
import { generateLegal } from '../core/movegen.js';
import { EN_PASSANT, KIND_MASK } from '../core/move.js';
import type { Position } from '../core/position.js';
import { err, ok, ParseError, quote, typeName, type Result } from '../core/result.js';
import { setupPosition, type Setup } from '../core/setup.js';
import { BLACK, EMPTY, KING, MAX_MOVES, NO_SQUARE, PIECE_CHARS, ROOK, WHITE, parseSquare, pieceFromChar, squareName } from '../core/types.js';

export const STARTING_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The part of a FEN an error is about: one of its six fields, or the FEN as a whole. */
export type FenField = 'fen' | 'board' | 'turn' | 'castling' | 'ep' | 'halfmoves' | 'fullmoves';

export class FenError extends ParseError {
  constructor(
    code: string,
    message: string,
    /** Which field is wrong (the board for an illegal position, the whole FEN for a wrong field count). */
    readonly field: FenField,
  ) {
    super(code, message);
  }
}

const fail = (code: string, field: FenField, message: string): { ok: false; error: FenError } => err(new FenError(code, message, field));

/**
 * Parses a FEN (1 to 6 fields; the missing ones are `w - - 0 1`, as python-chess and chessops
 * take them) into an unchecked Setup.
 */
export function parseFen(fen: string): Result<Setup, FenError> {
  // A FEN from untyped code (a form field not filled in, a JSON key missing) is said to be what it is.
  if (typeof fen !== 'string') return fail('ERR_FEN', 'fen', `a FEN is a string, not ${typeName(fen)}`);
  const parts = fen.trim().split(/\s+/);
  if (parts[0] === '') return fail('ERR_FEN', 'fen', 'empty FEN');
  if (parts.length > 6) return fail('ERR_FEN', 'fen', `FEN ${quote(fen)} has ${parts.length} fields; at most 6 are allowed`);
  const [boardPart, turnPart = 'w', castlingPart = '-', epPart = '-', halfPart = '0', fullPart = '1'] = parts;

  // Field 1: piece placement, rank 8 first.
  const board = new Int8Array(64);
  const ranks = boardPart!.split('/');
  if (ranks.length !== 8) return fail('ERR_FEN_BOARD', 'board', `board field ${quote(boardPart!)} has ${ranks.length} ranks; 8 are required`);
  for (let r = 0; r < 8; r++) {
    const text = ranks[r]!;
    let file = 0;
    for (const ch of text) {
      if (ch >= '1' && ch <= '8') {
        file += ch.charCodeAt(0) - 48;
      } else {
        const p = pieceFromChar(ch);
        if (p === EMPTY && (ch === '0' || ch === '9')) return fail('ERR_FEN_BOARD', 'board', `board field: a count of empty squares is 1 to 8, not ${ch} (rank ${8 - r}, ${quote(text)})`);
        if (p === EMPTY) return fail('ERR_FEN_BOARD', 'board', `board field: invalid piece letter ${quote(ch)} on rank ${8 - r}`);
        if (file > 7) return fail('ERR_FEN_BOARD', 'board', `board field: rank ${8 - r} (${quote(text)}) has more than 8 squares`);
        board[(7 - r) * 8 + file] = p;
        file++;
      }
      if (file > 8) return fail('ERR_FEN_BOARD', 'board', `board field: rank ${8 - r} (${quote(text)}) has more than 8 squares`);
    }
    if (file !== 8) return fail('ERR_FEN_BOARD', 'board', `board field: rank ${8 - r} (${quote(text)}) has ${file} squares; 8 are required`);
  }

  // Field 2: side to move.
  if (turnPart !== 'w' && turnPart !== 'b') return fail('ERR_FEN_TURN', 'turn', `side-to-move field ${quote(turnPart!)} must be "w" or "b"`);
  const turn = turnPart === 'w' ? WHITE : BLACK;

  // Field 3: castling, as KQkq (outermost rook), Shredder files (HAha) or a mix (X-FEN).
  const castlingRooks: number[] = [];
  if (castlingPart !== '-') {
    for (const ch of castlingPart) {
      const lower = ch.toLowerCase();
      const color = ch === lower ? BLACK : WHITE;
      const rank = color === WHITE ? 0 : 7;
      const rook = (color << 3) | ROOK;
      let king = -1;
      for (let f = 0; f < 8; f++) if (board[rank * 8 + f] === ((color << 3) | KING)) king = f;
      let rookSq = -1;
      if (lower === 'k' || lower === 'q') {
        if (king >= 0) {
          if (lower === 'k') {
            for (let f = 7; f > king; f--) if (board[rank * 8 + f] === rook) { rookSq = rank * 8 + f; break; }
          } else {
            for (let f = 0; f < king; f++) if (board[rank * 8 + f] === rook) { rookSq = rank * 8 + f; break; }
          }
        }
      } else if (lower >= 'a' && lower <= 'h') {
        rookSq = rank * 8 + lower.charCodeAt(0) - 97;
      } else {
        return fail('ERR_FEN_CASTLING', 'castling', `castling field ${quote(castlingPart!)}: invalid character ${quote(ch)}`);
      }
      if (rookSq >= 0) castlingRooks.push(rookSq);
    }
  }

  // Field 4: en-passant target square.
  let epSquare = NO_SQUARE;
  if (epPart !== '-') {
    const sq = parseSquare(epPart!);
    if (sq === undefined) return fail('ERR_FEN_EP', 'ep', `en-passant field ${quote(epPart!)} is not a square or "-"`);
    if (sq >> 3 !== (turn === WHITE ? 5 : 2)) {
      return fail('ERR_FEN_EP', 'ep', `en-passant square ${epPart} is on the wrong rank for ${turn === WHITE ? 'White' : 'Black'} to move`);
    }
    epSquare = sq;
  }

  // Fields 5 and 6: move counters.
  if (!/^\d+$/.test(halfPart!)) return fail('ERR_FEN_HALFMOVES', 'halfmoves', `halfmove clock ${quote(halfPart!)} is not a non-negative integer`);
  if (!/^\d+$/.test(fullPart!)) return fail('ERR_FEN_FULLMOVES', 'fullmoves', `fullmove number ${quote(fullPart!)} is not a positive integer`);
  const halfmoves = Math.min(parseInt(halfPart!, 10), 65535);
  const fullmoves = Math.max(1, Math.min(parseInt(fullPart!, 10), 1 << 24));
  return ok({ board, turn, castlingRooks, epSquare, halfmoves, fullmoves });
}

/** Parses and validates a FEN into a playable Position (into `pos` if given). */
export function positionFromFen(fen: string, pos?: Position): Result<Position, FenError> {
  const setup = parseFen(fen);
  if (!setup.ok) return setup;
  const r = setupPosition(setup.value, pos);
  // Every reason a set-up fails (kings, pawns on the back rank, the side not to move in check) is on the board.
  if (!r.ok) return err(new FenError(r.error.code, `FEN ${quote(fen)}: ${r.error.message}`, 'board'));
  return r;
}

const EP_SCRATCH = new Uint16Array(MAX_MOVES);

/** The e.p. square if an en-passant capture is legal now (what FEN shows), else NO_SQUARE. */
export function legalEpSquare(pos: Position): number {
  if (pos.epSquare === NO_SQUARE) return NO_SQUARE;
  const n = generateLegal(pos, EP_SCRATCH, 0);
  for (let i = 0; i < n; i++) if ((EP_SCRATCH[i]! & KIND_MASK) === EN_PASSANT) return pos.epSquare;
  return NO_SQUARE;
}

export interface MakeFenOptions {
  /** Castling as rook files (HAha) instead of KQkq. Default: X-FEN (files only when needed). */
  shredder?: boolean;
  /** Write the e.p. square after every double push, as pgn-extract does. Default: only when a capture is legal. */
  epAlways?: boolean;
  /** Omit the two move counters (EPD). */
  epd?: boolean;
}

/** Castling field of a position. */
export function makeCastling(pos: Position, shredder = false): string {
  let out = '';
  for (let i = 0; i < 4; i++) {
    if ((pos.castling & (1 << i)) === 0) continue;
    const rookSq = pos.castleRook[i]!;
    const color = i >> 1;
    const rank = rookSq >> 3;
    // X-FEN: K/Q when the rook is the outermost rook on its side, its file letter otherwise.
    let outermost = true;
    const kf = pos.kingSq[color]! & 7;
    const rf = rookSq & 7;
    const rook = (color << 3) | ROOK;
    if (rf > kf) {
      for (let f = rf + 1; f < 8; f++) if (pos.board[rank * 8 + f] === rook) outermost = false;
    } else {
      for (let f = rf - 1; f >= 0; f--) if (pos.board[rank * 8 + f] === rook) outermost = false;
    }
    let ch = shredder || !outermost ? 'abcdefgh'[rf]! : i & 1 ? 'q' : 'k';
    if (color === WHITE) ch = ch.toUpperCase();
    out += ch;
  }
  return out === '' ? '-' : out;
}

export function makeBoardFen(pos: Position): string {
  let out = '';
  for (let r = 7; r >= 0; r--) {
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pos.board[r * 8 + f]!;
      if (p === EMPTY) empty++;
      else {
        if (empty) out += empty;
        empty = 0;
        out += PIECE_CHARS[p];
      }
    }
    if (empty) out += empty;
    if (r > 0) out += '/';
  }
  return out;
}

/** The FEN of a position. */
export function makeFen(pos: Position, opts: MakeFenOptions = {}): string {
  const ep = opts.epAlways ? lastDoublePushSquare(pos) : legalEpSquare(pos);
  const fields = [
    makeBoardFen(pos),
    pos.turn === WHITE ? 'w' : 'b',
    makeCastling(pos, opts.shredder),
    ep === NO_SQUARE ? '-' : squareName(ep),
  ];
  if (!opts.epd) fields.push(String(pos.halfmoves), String(pos.fullmoves));
  return fields.join(' ');
}

/** The square behind a pawn that just advanced two squares, whatever can capture it. */
function lastDoublePushSquare(pos: Position): number {
  if (pos.epSquare !== NO_SQUARE) return pos.epSquare;
  if (pos.ply === 0) return NO_SQUARE;
  const m = pos.moveAt(1);
  const from = (m >>> 6) & 63;
  const to = m & 63;
  const p = pos.board[to]!;
  if ((p & 7) === 1 && (from ^ to) === 16 && (m & KIND_MASK) === 0) return (from + to) >> 1;
  return NO_SQUARE;
}

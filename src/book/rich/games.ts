/**
 * The games of a `.tbk` book, compactly: a fixed 16-byte record per game and its moves as
 * 12-bit codes. Storing the games is what makes a book of a large collection small (most
 * positions of a collection occur in one game only: they are found through the game instead
 * of being stored one by one, see singles.ts) and what makes make-book's order-dependent
 * halving reproducible after a build was spilled to disk or split into shards (the games are
 * replayed in order, see halving.ts). Browser-safe.
 *
 * Move code: from << 6 | to (12 bits). The kind of move follows from the position: a pawn
 * reaching the last rank promotes (to a queen unless an escape code came before), a pawn
 * moving diagonally to an empty square takes en passant, a king moving onto its own rook
 * castles (the core's encoding). Escape codes have from = to, which no move has: 0, 1, 2 say
 * that the next move promotes to a knight, bishop or rook. Two codes fill three bytes (the
 * first code's high byte, then its low nibble with the second's high nibble, then the second's
 * low byte); each game starts on a byte boundary.
 *
 * Record (little-endian):
 *    0 u32  moves offset, low 32 bits      4 u16 moves offset, high 16 bits
 *    6 u16  codes
 *    8 u16  White's rating (0 none)       10 u16 Black's rating
 *   12 u16  month (year·12 + month − 1, 0 unknown; splits.ts)
 *   14 u8   result (bits 0-1: 0 draw, 1 White won, 2 Black won, 3 unfinished),
 *           speed (bits 2-4, splits.ts), bit 5: set up from a FEN (see `fens`)
 *   15 u8   0
 */
import { PROMOTION, EN_PASSANT, CASTLING, makeMove, makePromotion, moveFrom, moveTo, moveKind, promotionType } from '../../core/move.js';
import { isLegal } from '../../core/movegen.js';
import { BookError } from '../polyglot/select.js';
import type { GameSource } from './halving.js';
import type { Position } from '../../core/position.js';
import { KING, KNIGHT, PAWN, QUEEN, ROOK, colorOf, fileOf, rankOf, typeOf } from '../../core/types.js';

export const GAME_RECORD_SIZE = 16;

export const RESULT_DRAW = 0;
export const RESULT_WHITE = 1;
export const RESULT_BLACK = 2;
export const RESULT_UNFINISHED = 3;

/** What a book keeps of a game besides its moves. */
export interface GameInfo {
  /** RESULT_*. */
  result: number;
  whiteElo: number;
  blackElo: number;
  month: number;
  speed: number;
  /** Set up from a FEN (kept in the book's FEN list). */
  fen: boolean;
}

/** A growable byte array (the writer's buffers). */
export class Bytes {
  data: Uint8Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.data = new Uint8Array(capacity);
  }

  reserve(n: number): void {
    if (this.length + n <= this.data.length) return;
    let cap = this.data.length * 2;
    while (cap < this.length + n) cap *= 2;
    const d = new Uint8Array(cap);
    d.set(this.data.subarray(0, this.length));
    this.data = d;
  }

  view(): Uint8Array {
    return this.data.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}

/** Writes a game record at `o`. */
export function putGameRecord(b: Uint8Array, o: number, movesOffset: number, codes: number, info: GameInfo): void {
  const lo = movesOffset % 0x100000000;
  const hi = Math.floor(movesOffset / 0x100000000);
  b[o] = lo & 0xff;
  b[o + 1] = (lo >>> 8) & 0xff;
  b[o + 2] = (lo >>> 16) & 0xff;
  b[o + 3] = lo >>> 24;
  b[o + 4] = hi & 0xff;
  b[o + 5] = (hi >>> 8) & 0xff;
  b[o + 6] = codes & 0xff;
  b[o + 7] = codes >>> 8;
  b[o + 8] = info.whiteElo & 0xff;
  b[o + 9] = info.whiteElo >>> 8;
  b[o + 10] = info.blackElo & 0xff;
  b[o + 11] = info.blackElo >>> 8;
  b[o + 12] = info.month & 0xff;
  b[o + 13] = info.month >>> 8;
  b[o + 14] = (info.result & 3) | ((info.speed & 7) << 2) | (info.fen ? 32 : 0);
  b[o + 15] = 0;
}

/** A decoded game record. */
export interface GameRecord extends GameInfo {
  movesOffset: number;
  codes: number;
}

export function readGameRecord(b: Uint8Array, o: number): GameRecord {
  const flags = b[o + 14]!;
  return {
    movesOffset: (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16)) + b[o + 3]! * 0x1000000 + (b[o + 4]! | (b[o + 5]! << 8)) * 0x100000000,
    codes: b[o + 6]! | (b[o + 7]! << 8),
    whiteElo: b[o + 8]! | (b[o + 9]! << 8),
    blackElo: b[o + 10]! | (b[o + 11]! << 8),
    month: b[o + 12]! | (b[o + 13]! << 8),
    result: flags & 3,
    speed: (flags >>> 2) & 7,
    fen: (flags & 32) !== 0,
  };
}

/** Bytes taken by `codes` move codes. */
export const codeBytes = (codes: number): number => (codes * 3 + 1) >>> 1;

/**
 * Appends the codes of `count` core moves to `out`; returns the number of codes (moves plus
 * escapes for under-promotions).
 */
export function encodeMoves(moves: Uint16Array, start: number, count: number, out: Bytes): number {
  let codes = 0;
  for (let i = 0; i < count; i++) {
    const m = moves[start + i]!;
    if (moveKind(m) === PROMOTION && promotionType(m) !== QUEEN) codes++;
    codes++;
  }
  out.reserve(codeBytes(codes));
  const d = out.data;
  let o = out.length;
  let half = false;
  const put = (code: number): void => {
    if (!half) {
      d[o] = code >>> 4;
      d[o + 1] = (code & 15) << 4;
      o += 1;
    } else {
      d[o] |= code >>> 8;
      d[o + 1] = code & 0xff;
      o += 2;
    }
    half = !half;
  };
  for (let i = 0; i < count; i++) {
    const m = moves[start + i]!;
    if (moveKind(m) === PROMOTION) {
      const t = promotionType(m);
      if (t !== QUEEN) put(((t - KNIGHT) << 6) | (t - KNIGHT));
    }
    put((moveFrom(m) << 6) | moveTo(m));
  }
  out.length = half ? o + 1 : o;
  return codes;
}

/** Code `i` of a game whose codes start at byte `o` of `b`. */
export function codeAt(b: Uint8Array, o: number, i: number): number {
  const p = o + ((i * 3) >>> 1);
  return (i & 1) === 0 ? (b[p]! << 4) | (b[p + 1]! >>> 4) : ((b[p]! & 15) << 8) | b[p + 1]!;
}

/**
 * The core move of a code in `pos` (`promo`: the piece type an escape asked for, else QUEEN):
 * the kind follows from the board, so a code that is no legal move gives a move that is not
 * legal either (nextMove checks).
 */
export function decodeMove(pos: Position, code: number, promo: number): number {
  const from = code >>> 6;
  const to = code & 63;
  const piece = pos.board[from]!;
  const type = typeOf(piece);
  if (type === PAWN) {
    const r = rankOf(to);
    if (r === 0 || r === 7) return makePromotion(from, to, promo);
    if (fileOf(from) !== fileOf(to) && pos.board[to] === 0) return EN_PASSANT | makeMove(from, to);
  } else if (type === KING) {
    const target = pos.board[to]!;
    if (target !== 0 && typeOf(target) === ROOK && colorOf(target) === colorOf(piece)) return CASTLING | makeMove(from, to);
  }
  return makeMove(from, to);
}

/**
 * The piece type an escape code asks the next move to promote to, 0 when `code` is a move, -1
 * for a code with from = to that no escape uses.
 */
export function escapePromotion(code: number): number {
  if (code >>> 6 !== (code & 63)) return 0;
  const promo = KNIGHT + (code & 63);
  return promo > ROOK ? -1 : promo;
}

/**
 * A move code that is not a legal move where the game stands: the stored moves are damaged (a
 * checksum catches changed bytes, not a code written wrong). `ply` counts from the game's start.
 */
export class IllegalMoveCode extends Error {
  constructor(
    readonly ply: number,
    readonly code: number,
  ) {
    super(`move code ${code.toString(16).padStart(3, '0')} at ply ${ply + 1} is not a legal move there`);
  }
}

/**
 * Replays a game's codes from `pos` (its start position), calling `visit(pos, move, ply)`
 * before each move is played; stops when `visit` returns false. Leaves `pos` after the last
 * move played and returns the number of plies played. Every move is checked against the
 * position (isLegal, no allocation): a code that is not a legal move throws IllegalMoveCode
 * before `visit` sees it, so damaged codes never become positions.
 */
export function replayCodes(pos: Position, b: Uint8Array, o: number, codes: number, visit: (pos: Position, move: number, ply: number) => boolean): number {
  let ply = 0;
  for (let i = 0; ; ) {
    const m = nextMove(pos, b, o, codes, i);
    if (m === NO_MORE_MOVES) return ply;
    if (m === ILLEGAL_CODE) throw new IllegalMoveCode(ply, codeAt(b, o, NEXT_CODE[0]! - 1));
    i = NEXT_CODE[0]!;
    if (!visit(pos, m, ply)) return ply;
    pos.play(m);
    ply++;
  }
}

/** A game whose move codes are damaged, as the book's error: which book, which game (from 1), where. */
export function damagedGame(book: string, game: number, e: IllegalMoveCode): BookError {
  return new BookError('ERR_TBK_DAMAGED', `${book}: game ${game + 1}: ${e.message}: the stored moves are damaged`);
}

/**
 * Replays game `game` of `games` from its start, set into `pos` (replayCodes); damaged move
 * codes are a BookError naming the games' book and the game.
 */
export function replayGame(games: GameSource, game: number, rec: GameRecord, pos: Position, visit: (pos: Position, move: number, ply: number) => boolean): number {
  games.setStart(game, pos);
  const { bytes, offset } = games.codes(game);
  try {
    return replayCodes(pos, bytes, offset, rec.codes, visit);
  } catch (e) {
    throw e instanceof IllegalMoveCode ? damagedGame(games.name, game, e) : e;
  }
}

/** Where `nextMove` stopped: the index of the code after the move it returned (or of the illegal code). */
export const NEXT_CODE: Int32Array = new Int32Array(1);

/** nextMove's answers that are not moves. */
export const NO_MORE_MOVES = -1;
export const ILLEGAL_CODE = -2;

/**
 * The move of `pos` that a game's codes give from code `i` on (escape codes before it applied),
 * with NEXT_CODE[0] set to the code after it; NO_MORE_MOVES when the codes end first,
 * ILLEGAL_CODE when the code is not a legal move of `pos`.
 */
export function nextMove(pos: Position, b: Uint8Array, o: number, codes: number, i: number): number {
  let promo = QUEEN;
  for (; i < codes; i++) {
    const code = codeAt(b, o, i);
    const escape = escapePromotion(code);
    NEXT_CODE[0] = i + 1;
    if (escape < 0) return ILLEGAL_CODE;
    if (escape !== 0) {
      promo = escape;
      continue;
    }
    const m = decodeMove(pos, code, promo);
    // An escape is written before an under-promotion only.
    if (!isLegal(pos, m) || (promo !== QUEEN && moveKind(m) !== PROMOTION)) return ILLEGAL_CODE;
    return m;
  }
  return NO_MORE_MOVES;
}

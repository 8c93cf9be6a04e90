/**
 * "Parse, don't validate": a Setup is a position as written (FEN, API) that may be illegal;
 * `setupPosition` checks it and produces a playable Position or says what is wrong.
 */
import { Position } from './position.js';
import { err, ok, ParseError, type Result } from './result.js';
import { BLACK, EMPTY, KING, NO_SQUARE, PAWN, ROOK, WHITE, squareName } from './types.js';

export interface Setup {
  /** 64 piece codes, a1 first. */
  board: ArrayLike<number>;
  turn: number;
  /** Squares of the rooks that keep a castling right. */
  castlingRooks: readonly number[];
  epSquare: number;
  halfmoves: number;
  fullmoves: number;
}

export class SetupError extends ParseError {}

/** Where a set-up into a caller's Position is built, so that one that fails leaves it as it was. */
let scratch: Position | undefined;

/**
 * Validates a Setup into `into` (a fresh Position by default). `into` is changed only when the
 * set-up is valid: a caller that keeps its position after an error keeps a playable one.
 */
export function setupPosition(setup: Setup, into?: Position): Result<Position, SetupError> {
  const pos = into === undefined ? new Position() : (scratch ??= new Position());
  pos.clear();
  const kings = [0, 0];
  for (let sq = 0; sq < 64; sq++) {
    const p = setup.board[sq]!;
    if (p === EMPTY) continue;
    const type = p & 7;
    if (type === 0 || type > KING || p > 14) return err(new SetupError('ERR_PIECE', `invalid piece code ${p} on ${squareName(sq)}`));
    if (type === PAWN && (sq < 8 || sq >= 56)) {
      return err(new SetupError('ERR_PAWN_ON_BACK_RANK', `pawn on ${squareName(sq)}: pawns cannot stand on the first or last rank`));
    }
    if (type === KING) {
      kings[p >> 3]!++;
      pos.kingSq[p >> 3] = sq;
    }
    pos.putPiece(p, sq);
  }
  for (const c of [WHITE, BLACK]) {
    if (kings[c] !== 1) {
      return err(new SetupError('ERR_KINGS', `${c === WHITE ? 'White' : 'Black'} has ${kings[c]} kings; exactly one is required`));
    }
  }
  pos.turn = setup.turn;
  pos.startTurn = setup.turn;
  pos.halfmoves = setup.halfmoves;
  pos.startFullmoves = Math.max(1, setup.fullmoves);

  // Castling rights whose rook is not where it must be are dropped, as chessops, python-chess
  // and Polyglot do: "KQkq" after the rooks have moved is common in hand-written FEN. Of two
  // rights on one side ("FH"), the outermost rook's is kept whatever the order of the letters,
  // as chessops and python-chess keep it.
  const rookOf = [-1, -1, -1, -1];
  for (const rookSq of setup.castlingRooks) {
    const p = setup.board[rookSq]!;
    if ((p & 7) !== ROOK) continue;
    const color = p >> 3;
    const backRank = color === WHITE ? 0 : 7;
    const ksq = pos.kingSq[color]!;
    if (rookSq >> 3 !== backRank || ksq >> 3 !== backRank) continue;
    const side = (rookSq & 7) > (ksq & 7) ? 0 : 1;
    const i = color * 2 + side;
    const old = rookOf[i]!;
    if (old < 0 || (side === 0 ? rookSq > old : rookSq < old)) rookOf[i] = rookSq;
  }
  for (let i = 0; i < 4; i++) if (rookOf[i]! >= 0) pos.addCastlingRight(i, rookOf[i]!);

  // The side not to move must not be in check.
  const occLo = pos.bbLo[0]! | pos.bbLo[8]!;
  const occHi = pos.bbHi[0]! | pos.bbHi[8]!;
  if (pos.isAttacked(pos.kingSq[pos.turn ^ 1]!, pos.turn, occLo, occHi)) {
    return err(new SetupError('ERR_OPPOSITE_CHECK', `the side not to move (${pos.turn === WHITE ? 'Black' : 'White'}) is in check`));
  }

  // En passant: kept only if plausible (a pawn just advanced two squares) and, following the
  // Polyglot hashing rule, only if a pawn of the side to move stands beside it.
  const ep = setup.epSquare;
  if (ep !== NO_SQUARE) {
    const us = setup.turn;
    const epRank = us === WHITE ? 5 : 2;
    const pushed = us === WHITE ? ep - 8 : ep + 8;
    const origin = us === WHITE ? ep + 8 : ep - 8;
    const enemyPawn = ((us ^ 1) << 3) | PAWN;
    const ourPawn = (us << 3) | PAWN;
    if (
      ep >> 3 === epRank &&
      setup.board[ep] === EMPTY &&
      setup.board[origin] === EMPTY &&
      setup.board[pushed] === enemyPawn &&
      (((pushed & 7) > 0 && setup.board[pushed - 1] === ourPawn) || ((pushed & 7) < 7 && setup.board[pushed + 1] === ourPawn))
    ) {
      pos.epSquare = ep;
    }
  }
  pos.finishSetup();
  if (into === undefined) return ok(pos);
  into.copyFrom(pos);
  return ok(into);
}

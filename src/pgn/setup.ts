/**
 * Setting up the shared replay Position for a game: the start position (copied from a pristine
 * one, far cheaper than parsing a FEN per game), or the [FEN] tag, under the [Variant] tag.
 */
import { Position } from '../core/position.js';
import { quote, unwrap } from '../core/result.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';

const START = unwrap(positionFromFen(STARTING_FEN));

/** Copies the state of `src` (not its move history) into `dst`. */
export function copyPosition(dst: Position, src: Position): void {
  dst.board.set(src.board);
  dst.bbLo.set(src.bbLo);
  dst.bbHi.set(src.bbHi);
  dst.kingSq.set(src.kingSq);
  dst.castleRook.set(src.castleRook);
  dst.castleMask.set(src.castleMask);
  dst.castlePathLo.set(src.castlePathLo);
  dst.castlePathHi.set(src.castlePathHi);
  dst.castleKingPathLo.set(src.castleKingPathLo);
  dst.castleKingPathHi.set(src.castleKingPathHi);
  dst.turn = src.turn;
  dst.castling = src.castling;
  dst.epSquare = src.epSquare;
  dst.halfmoves = src.halfmoves;
  dst.keyLo = src.keyLo;
  dst.keyHi = src.keyHi;
  dst.ply = 0;
  dst.startFullmoves = src.ply === 0 ? src.startFullmoves : src.fullmoves;
  dst.startTurn = src.turn;
  dst.chess960 = src.chess960;
}

/** Resets `pos` to the standard start position. */
export function resetToStart(pos: Position): void {
  copyPosition(pos, START);
}

export type VariantKind = 'standard' | 'chess960' | 'unknown';

/** Classifies a [Variant] tag value; names as lichess, chess.com, ChessBase and SCID write them. */
export function variantKind(value: string): VariantKind {
  const v = value.toLowerCase().replace(/[\s_-]+/g, '');
  if (v === '' || v === 'standard' || v === 'chess' || v === 'normal' || v === 'fromposition' || v === 'classical') return 'standard';
  if (v === 'chess960' || v === 'fischerandom' || v === 'fischerrandom' || v === 'frc' || v === '960' || v === 'fischerrandomchess') {
    return 'chess960';
  }
  return 'unknown';
}

/**
 * Sets up `pos` for a game from its [FEN] and [Variant] tag values (undefined when absent).
 * Returns undefined on success, or the reason the set-up failed.
 */
export function setupGame(pos: Position, fen: string | undefined, variant: string | undefined): { kind: 'bad-fen' | 'unknown-variant'; message: string } | undefined {
  const kind = variant === undefined ? 'standard' : variantKind(variant);
  if (kind === 'unknown') return { kind: 'unknown-variant', message: `unsupported variant ${quote(variant!)}` };
  if (fen === undefined) {
    resetToStart(pos);
  } else {
    const r = positionFromFen(fen, pos);
    if (!r.ok) return { kind: 'bad-fen', message: r.error.message };
  }
  if (kind === 'chess960') pos.chess960 = true;
  return undefined;
}

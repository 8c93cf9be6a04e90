/**
 * The contract between the PGN reader and its consumers (book builders, filters, stats).
 *
 * The reader tokenises, replays the main line on one shared Position and calls the visitor.
 * Hooks are optional; returning `false` from `endTags` or `move` tells the reader to skip
 * the rest of the game's movetext without decoding it (headers-only reading, max-ply cut-offs).
 * A game that turns out broken is reported through `error`, after which the consumer must
 * forget whatever it collected since `beginGame`; the reader then resynchronises at the next game.
 */
import type { Position } from '../core/position.js';

export interface PgnLocation {
  /** File name as given ('-' for stdin). */
  file: string;
  /** 1-based line and column. */
  line: number;
  column: number;
  /** 1-based index of the game in its file. */
  game: number;
}

export type PgnErrorKind =
  | 'illegal-move'
  | 'ambiguous-move'
  | 'unreadable-move'
  | 'bad-token'
  | 'bad-tag'
  | 'bad-fen'
  | 'unknown-variant'
  | 'unmatched-parenthesis'
  | 'missing-result'
  | 'truncated'
  | 'too-long';

export interface PgnGameError extends PgnLocation {
  kind: PgnErrorKind;
  message: string;
}

export interface PgnVisitor {
  /** A game starts (before its first tag). */
  beginGame?(loc: PgnLocation): void;
  /** One tag pair, in file order. */
  tag?(name: string, value: string): void;
  /** Tags are read and `pos` is set up (start position or the [FEN] tag). `false` skips the movetext. */
  endTags?(pos: Position): boolean | void;
  /** A main-line move, called before it is played on `pos`. `false` stops replaying this game. */
  move?(pos: Position, move: number, ply: number): boolean | void;
  /** The game ended cleanly; `result` is the movetext's result token ('1-0', '0-1', '1/2-1/2', '*'). */
  endGame?(result: string): void;
  /** The game is broken and skipped. */
  error?(e: PgnGameError): void;
}

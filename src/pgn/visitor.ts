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
  /** 1-based index of the game in its file (in its part, when `part` is given). */
  game: number;
  /** The part of the file `game` counts in, when it is not the whole file ("shard 2/3 from byte 27150428"). */
  part?: string;
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
  /** For a comment or variation never closed: the line it opened on, which `message` names too. */
  opened?: number;
}

export interface PgnVisitor {
  /** A game starts (before its first tag). */
  beginGame?(loc: PgnLocation): void;
  /** One tag pair, in file order (of the tags named in `tagNames` only, when it is given). */
  tag?(name: string, value: string): void;
  /** The tags `tag` reads: the parser decodes no other (a book build reads six of a game's dozen). */
  readonly tagNames?: readonly string[];
  /** Tags are read and `pos` is set up (start position or the [FEN] tag). `false` skips the movetext. */
  endTags?(pos: Position): boolean | void;
  /**
   * A main-line move, called before it is played on `pos`; `ply` is its 0-based index in the main
   * line (= `pos.ply`). `false` stops replaying this game: the move is not played, the rest of
   * the movetext is only checked for structure, and `endGame` still follows.
   */
  move?(pos: Position, move: number, ply: number): boolean | void;
  /** The game ended cleanly; `result` is the movetext's result token ('1-0', '0-1', '1/2-1/2', '*'). */
  endGame?(result: string): void;
  /** The game is broken and skipped. */
  error?(e: PgnGameError): void;

  // Optional hooks for consumers that want more than tags and the main line. Each costs
  // nothing when absent: comments are decoded and variations replayed only when asked for.

  /**
   * A null move (`--`, `Z0`) on the main line or, with variations, in a variation; `pos` is
   * before it. Without this hook the reader stops replaying the main line at a null move (as if
   * `move` had returned `false`), so `move` only ever sees real moves; in variations the null
   * move is then played silently.
   */
  nullMove?(pos: Position, ply: number, depth: number): boolean | void;
  /**
   * A move inside a variation at nesting `depth` ≥ 1, before it is played on `pos` (which holds
   * the variation's position). Having this hook or `beginVariation` makes the reader replay
   * variations; an illegal move in one then breaks the game. Without them variations are
   * skipped unread, so a broken variation cannot break the game.
   */
  variationMove?(pos: Position, move: number, ply: number, depth: number): void;
  /** `(` opened a variation at `depth` ≥ 1: an alternative to the move just played, so `pos` is back before it. */
  beginVariation?(depth: number): void;
  /** `)` closed the variation at `depth`; `pos` is back on the line that contains it. */
  endVariation?(depth: number): void;
  /** A `{…}` or `;…` comment, decoded, at variation depth `depth` (0 = main line). */
  comment?(text: string, depth: number): void;
  /** A NAG: `$n`, or a glyph such as `!`, `?!`, `+-` mapped to its number. */
  nag?(nag: number, depth: number): void;
  /** The move text as written (without move number), before it is decoded; also with `replay: false`. */
  san?(text: string, depth: number): void;
  /**
   * The game's bytes as they stand in the file, from its first tag (or first movetext token) to
   * the end of its result token; called just before `endGame`, and only on request (filters
   * that copy games through unchanged). The array is valid only during the call.
   */
  gameText?(bytes: Uint8Array): void;
}

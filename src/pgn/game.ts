/**
 * Games as trees, for consumers that want everything (editors, round trips, the writer):
 * tags in file order, the main line as nodes with NAGs, comments and variations. Building a
 * tree costs far more than visiting, so bulk jobs (books, stats, filters) use visitors instead.
 *
 *     const { games, errors } = readGames(text);
 *     games[0].moves[0].san;                 // 'e4'
 *     games[0].moves[0].variations?.[0][0];  // the first move of the first alternative
 */
import { MOVE_NULL } from '../core/move.js';
import type { Position } from '../core/position.js';
import { makeFen } from '../notation/fen.js';
import { parsePgn, type PgnParserOptions } from './parser.js';
import { writeSan } from './sanWriter.js';
import type { PgnGameError, PgnLocation, PgnVisitor } from './visitor.js';

export interface PgnNode {
  /** SAN: rewritten in standard form when the game was replayed, as written otherwise. */
  san: string;
  /** The 16-bit move (MOVE_NULL for `--`); absent when read without replay. */
  move?: number;
  nags?: number[];
  /** Comments before this move (only the first move of a line can have them). */
  before?: string[];
  /** Comments after this move. */
  comments?: string[];
  /** Alternatives to this move, each a line of nodes. */
  variations?: PgnNode[][];
}

export interface PgnGame {
  /** Tag pairs in file order. */
  tags: [string, string][];
  /** Comments before the first move. */
  comments?: string[];
  moves: PgnNode[];
  /** The movetext's result token. */
  result: string;
  /** Where the game starts in its file. */
  location?: PgnLocation;
  /** FEN of the start position when the game was replayed from a [FEN] tag. */
  fen?: string;
}

/** The value of a tag, or undefined. */
export function gameTag(game: PgnGame, name: string): string | undefined {
  for (const [n, v] of game.tags) if (n === name) return v;
  return undefined;
}

/** The main line's SAN moves. */
export function mainLine(game: PgnGame): string[] {
  return game.moves.map((n) => n.san);
}

/** A visitor that builds a PgnGame per game and hands it (or its error) over. */
export class GameBuilder implements PgnVisitor {
  private game: PgnGame | undefined;
  /** The line being built at each variation depth. */
  private lines: PgnNode[][] = [];
  /** Comments waiting for the first move of the line at each depth. */
  private pending: (string[] | undefined)[] = [];

  constructor(
    private readonly onGame: (game: PgnGame) => void,
    private readonly onError?: (e: PgnGameError) => void,
  ) {}

  beginGame(loc: PgnLocation): void {
    this.game = { tags: [], moves: [], result: '*', location: loc };
    this.lines = [this.game.moves];
    this.pending = [];
  }

  tag(name: string, value: string): void {
    this.game?.tags.push([name, value]);
  }

  endTags(pos: Position): void {
    if (this.game !== undefined && gameTag(this.game, 'FEN') !== undefined) this.game.fen = makeFen(pos);
  }

  private add(node: PgnNode, depth: number): void {
    const line = this.lines[depth];
    if (line === undefined) return;
    const before = this.pending[depth];
    if (before !== undefined) {
      node.before = before;
      this.pending[depth] = undefined;
    }
    line.push(node);
  }

  move(pos: Position, move: number): void {
    this.add({ san: writeSan(pos, move), move }, 0);
  }

  variationMove(pos: Position, move: number, _ply: number, depth: number): void {
    this.add({ san: writeSan(pos, move), move }, depth);
  }

  nullMove(_pos: Position, _ply: number, depth: number): void {
    this.add({ san: '--', move: MOVE_NULL }, depth);
  }

  /** Only called when reading without replay: moves as written. */
  san(text: string, depth: number): void {
    if (!this.replaying) this.add({ san: text }, depth);
  }

  /** Set by readGames: whether move/variationMove deliver the moves. */
  replaying = true;

  beginVariation(depth: number): void {
    const parent = this.lines[depth - 1];
    const last = parent?.[parent.length - 1];
    const line: PgnNode[] = [];
    if (last !== undefined) (last.variations ??= []).push(line);
    this.lines[depth] = line;
    this.pending[depth] = undefined;
  }

  endVariation(depth: number): void {
    this.lines.length = depth;
    this.pending.length = depth;
  }

  comment(text: string, depth: number): void {
    // Line breaks inside comments carry no meaning in PGN (writers wrap comments at will).
    const t = text.replace(/\s+/g, ' ').trim();
    const line = this.lines[depth];
    if (line === undefined || this.game === undefined) return;
    const last = line[line.length - 1];
    if (last !== undefined) (last.comments ??= []).push(t);
    else if (depth === 0) (this.game.comments ??= []).push(t);
    else (this.pending[depth] ??= []).push(t);
  }

  nag(nag: number, depth: number): void {
    const line = this.lines[depth];
    const last = line?.[line.length - 1];
    if (last !== undefined) (last.nags ??= []).push(nag);
  }

  endGame(result: string): void {
    if (this.game === undefined) return;
    this.game.result = result;
    const g = this.game;
    this.game = undefined;
    this.onGame(g);
  }

  error(e: PgnGameError): void {
    this.game = undefined;
    this.onError?.(e);
  }
}

/** Reads all games of a PGN text into trees (with variations), plus the broken games' errors. */
export function readGames(input: string | Uint8Array, options: PgnParserOptions & { file?: string } = {}): { games: PgnGame[]; errors: PgnGameError[] } {
  const games: PgnGame[] = [];
  const errors: PgnGameError[] = [];
  const builder = new GameBuilder((g) => games.push(g), (e) => errors.push(e));
  builder.replaying = options.replay ?? true;
  parsePgn(input, builder, { variations: true, ...options });
  return { games, errors };
}

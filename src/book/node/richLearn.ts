/**
 * Book learning on a `.tbk` file: one finished game at a time (the engine, after each game) or
 * a PGN of games (`tabiya book learn`). The rules are in src/book/rich/learn.ts.
 *
 * The engine's entry point, kept stable:
 *
 *     learnGame(bookPath: string, game: LearnGame, opts?: LearnGameOptions): Promise<LearnReport>
 *
 *   - `game` is src/engine/bookProbe.ts's LearnGame (start FEN, UCI moves, result,
 *     engineColor); it may also carry `evals`: per ply, the evaluation after that move in
 *     centipawns from the mover's side (null where unknown), used by the PostBook;
 *   - `opts.player` overrides `game.engineColor` (one of them is required), `opts.postBook` is
 *     the number of the player's moves recorded after the book ended (default 10);
 *   - every call is one crash-safe change of the file under its lock (richFile.ts), and adds
 *     one to the header's learned-games count, so a series of calls cut short by `kill -9`
 *     leaves a book holding exactly the first k games, k being that count.
 *
 * Errors (no such book, damaged book, illegal move, no player colour) are BookErrors naming the
 * book or the move.
 */
import type { LearnGame } from '../../engine/bookProbe.js';
import type { Position } from '../../core/position.js';
import { positionFromFen } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import { PgnParser } from '../../pgn/parser.js';
import { parseCommentCommands } from '../../pgn/annotations.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { BookError } from '../polyglot/select.js';
import { learnInto, type LearnInput, type LearnOptions, type LearnReport, type LearnTarget } from '../rich/learn.js';
import { NotesTarget } from '../rich/notesTarget.js';
import { changeNotes } from './tbkFile.js';
import { existsSync } from 'node:fs';
import { tbkFileVersion } from './openTbk.js';
import { noGameError, openInput } from './inputs.js';
import { patchRichBook, type LockOptions } from './richFile.js';

export interface LearnGameOptions extends LearnOptions, LockOptions {
  /** The colour that learns (0 White, 1 Black); default `game.engineColor`. */
  player?: number;
}

/** A LearnGame that may carry the engine's evaluations. */
export type LearnGameWithEvals = LearnGame & { evals?: readonly (number | null | undefined)[] };

/** Learns one finished game into the book (see the module comment). */
export async function learnGame(bookPath: string, game: LearnGameWithEvals, opts: LearnGameOptions = {}): Promise<LearnReport> {
  return learnGameSync(bookPath, game, opts);
}

/** The synchronous form of `learnGame`. */
export function learnGameSync(bookPath: string, game: LearnGameWithEvals, opts: LearnGameOptions = {}): LearnReport {
  const input = learnInput(game, opts.player);
  return learnChange(bookPath, (target) => learnInto(target, input, opts), 1, opts);
}

/**
 * One crash-safe learning change of a book under its lock: a version 2 book's notes
 * (tbkFile.ts), a version 1 book's bytes (richFile.ts). `learned` is added to the book's count
 * of learned games.
 */
export function learnChange<T>(bookPath: string, apply: (target: LearnTarget) => T, learned: number, opts: LockOptions & { verify?: boolean } = {}): T {
  if (bookVersion(bookPath) === 2) return changeNotes(bookPath, (book) => ({ result: apply(new NotesTarget(book)), learned }), opts);
  return patchRichBook(bookPath, apply, learned, opts);
}

function bookVersion(path: string): number | undefined {
  if (!existsSync(path)) throw new BookError('ERR_BOOK_READ', `${path}: no such book`);
  return tbkFileVersion(path);
}

/** A LearnGame as learning input: start position, core moves, result, player. */
export function learnInput(game: LearnGameWithEvals, player?: number): LearnInput {
  const p = player ?? game.engineColor;
  if (p !== 0 && p !== 1) throw new BookError('ERR_LEARN_PLAYER', 'book learning needs the colour the engine played (engineColor or player)');
  const start = positionFromFen(game.startFen);
  if (!start.ok) throw new BookError('ERR_LEARN_FEN', `book learning: ${start.error.message}`);
  const pos = start.value.clone();
  const moves: number[] = [];
  for (let i = 0; i < game.moves.length; i++) {
    const m = parseUci(pos, game.moves[i]!);
    if (!m.ok) throw new BookError('ERR_LEARN_MOVE', `book learning: move ${i + 1} "${game.moves[i]}": ${m.error.message}`);
    moves.push(m.value);
    pos.play(m.value);
  }
  const whiteResult = game.result === '1-0' ? 1 : game.result === '0-1' ? -1 : 0;
  return { start: start.value, moves, whiteResult, player: p, evals: game.evals };
}

export interface LearnPgnOptions extends LearnOptions, LockOptions {
  /** The player whose moves learn: matched against [White] and [Black], case-insensitive. */
  player: string;
  onProgress?(done: number, total: number, games: number): void;
  onError?(e: PgnGameError): void;
}

export interface LearnPgnSummary {
  gamesRead: number;
  gamesSkipped: number;
  /** Games the player played with a result, and those learned from (one per colour played). */
  gamesLearned: number;
  /** Games without the player, and games of the player without a result. */
  notPlayer: number;
  unfinished: number;
  bookMoves: number;
  userValued: number;
  postBookMoves: number;
  postBookNew: number;
  /** Learned games that had the engine's evaluation on some PostBook move. */
  withEvals: number;
}

/** Learns every game of the PGN files played by `opts.player`, as one crash-safe change. */
export async function learnFromPgn(bookPath: string, files: readonly string[], opts: LearnPgnOptions): Promise<LearnPgnSummary> {
  const inputs = files.map((f) => openInput(f));
  const games: LearnInput[] = [];
  const sum: LearnPgnSummary = { gamesRead: 0, gamesSkipped: 0, gamesLearned: 0, notPlayer: 0, unfinished: 0, bookMoves: 0, userValued: 0, postBookMoves: 0, postBookNew: 0, withEvals: 0 };
  let firstError: PgnGameError | undefined;
  const onError = (e: PgnGameError): void => {
    firstError ??= e;
    opts.onError?.(e);
  };
  const visitor = new LearnVisitor(opts.player.toLowerCase(), (g) => games.push(g), sum, onError);
  const parser = new PgnParser(visitor);
  const total = inputs.reduce((n, s) => n + (s.source.size ?? 0), 0);
  let before = 0;
  for (const input of inputs) {
    const gamesBefore = parser.games;
    firstError = undefined;
    parser.begin(input.source.name);
    for await (const chunk of input.source.chunks) {
      parser.push(chunk);
      opts.onProgress?.(before + (input.source.bytesRead?.() ?? 0), total, parser.games);
    }
    if (input.failure !== undefined) throw new BookError('ERR_BOOK_INPUT', `${input.source.name}: cannot read: ${input.failure}`);
    parser.end();
    // As in book make: a file without one readable game is the wrong file, not a few bad games
    // (the cast: TypeScript does not see the assignment in onError).
    if (parser.games === gamesBefore) throw noGameError(input.source.name, firstError as PgnGameError | undefined);
    before += input.source.size ?? 0;
  }
  sum.gamesRead = parser.games;
  sum.gamesSkipped = parser.errors;
  return learnChange(
    bookPath,
    (patch) => {
      // A game counts as one with evaluations when an evaluation was learned from it (a PostBook
      // move's): evaluations on the opponent's moves or on book moves teach nothing.
      let evals = 0;
      const target = countingEvals(patch, () => evals++);
      for (const g of games) {
        const before = evals;
        const r = learnInto(target, g, opts);
        if (evals > before) sum.withEvals++;
        sum.bookMoves += r.bookMoves;
        sum.userValued += r.userValued;
        sum.postBookMoves += r.postBookMoves;
        sum.postBookNew += r.postBookNew;
        sum.gamesLearned++;
      }
      return sum;
    },
    games.length,
    { ...opts, verify: true },
  );
}

/** `t` as it is, telling `onEval` of every evaluation learned. */
function countingEvals(t: LearnTarget, onEval: () => void): LearnTarget {
  return {
    get size() {
      return t.size;
    },
    hasBookMoves: (keyLo, keyHi) => t.hasBookMoves(keyLo, keyHi),
    find: (keyLo, keyHi, move) => t.find(keyLo, keyHi, move),
    findOrCreate: (keyLo, keyHi, move, black) => t.findOrCreate(keyLo, keyHi, move, black),
    isPostBook: (r) => t.isPostBook(r),
    hasUserValue: (r) => t.hasUserValue(r),
    markPostBook: (r) => t.markPostBook(r),
    addDynamic: (r, result) => t.addDynamic(r, result),
    addEval: (r, cp) => {
      onEval();
      t.addEval(r, cp);
    },
  };
}

/** Collects each game of the player: start, moves, evaluations from the comments. */
class LearnVisitor implements PgnVisitor {
  private white = '';
  private black = '';
  private result = '';
  private start: Position | undefined;
  private moves: number[] = [];
  private evals: (number | null)[] = [];
  /** This game's tags named neither player as the learner (counted in notPlayer). */
  private notPlayer = false;

  constructor(
    private readonly player: string,
    private readonly emit: (g: LearnInput) => void,
    private readonly sum: LearnPgnSummary,
    private readonly onError?: (e: PgnGameError) => void,
  ) {}

  beginGame(): void {
    this.notPlayer = false;
    this.white = this.black = this.result = '';
    this.moves = [];
    this.evals = [];
    this.start = undefined;
  }

  tag(name: string, value: string): void {
    if (name === 'White') this.white = value.trim().toLowerCase();
    else if (name === 'Black') this.black = value.trim().toLowerCase();
    else if (name === 'Result') this.result = value.trim();
  }

  endTags(pos: Position): boolean {
    this.notPlayer = this.white !== this.player && this.black !== this.player;
    if (this.notPlayer) {
      this.sum.notPlayer++;
      return false;
    }
    this.start = pos.clone();
    return true;
  }

  move(_pos: Position, m: number): void {
    this.moves.push(m);
    this.evals.push(null);
  }

  comment(text: string, depth: number): void {
    if (depth !== 0 || this.moves.length === 0 || this.start === undefined) return;
    const ply = this.moves.length - 1;
    const moverBlack = (this.start.turn + ply) & 1;
    const e = evalOfComment(text, moverBlack === 1);
    if (e !== undefined) this.evals[ply] = e;
  }

  endGame(): void {
    if (this.start === undefined) return;
    const r = this.result === '1-0' ? 1 : this.result === '0-1' ? -1 : this.result === '1/2-1/2' ? 0 : undefined;
    if (r === undefined) {
      this.sum.unfinished++;
      return;
    }
    for (const player of [0, 1]) {
      if ((player === 0 ? this.white : this.black) !== this.player) continue;
      this.emit({ start: this.start, moves: this.moves, whiteResult: r, player, evals: this.evals });
    }
  }

  error(e: PgnGameError): void {
    // A broken game is counted as broken only, even when its tags already said whose it is not.
    if (this.notPlayer) this.sum.notPlayer--;
    this.notPlayer = false;
    this.start = undefined;
    this.onError?.(e);
  }
}

/** Mate scores become this many centipawns less the mate distance. */
const MATE_CP = 20000;

/**
 * The evaluation in a move comment, centipawns from the mover's side: `[%eval 0.35]` and
 * `[%eval #-3]` are from White's side (lichess); an engine's `+0.35/12` or `-M3/20` at the start
 * of the comment (cutechess, our match runner) is from the mover's side.
 */
export function evalOfComment(text: string, moverBlack: boolean): number | undefined {
  const cmd = parseCommentCommands(text).eval;
  if (cmd !== undefined) {
    const white = 'cp' in cmd ? cmd.cp : Math.sign(cmd.mate) * (MATE_CP - Math.abs(cmd.mate));
    return moverBlack ? -white : white;
  }
  const m = /^\s*([+-])?(?:M(\d+)|(\d+\.\d+)|(\d+))(?:\/\d+)?(?=\s|$)/.exec(text);
  if (m === null || (m[1] === undefined && m[3] === undefined && m[2] === undefined)) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2] !== undefined) return sign * (MATE_CP - Number(m[2]));
  return Math.round(sign * Number(m[3] ?? m[4]) * 100);
}

/**
 * The friendly API over the integer core, in the spirit of python-chess:
 *
 *     const board = new Board();              // or Board.fromFen('…')
 *     board.push('e4'); board.push('e7e5');   // SAN or UCI
 *     board.moves().map((m) => m.san);        // legal moves with SAN and UCI
 *     board.fen(); board.polyglotKeyHex();    // '…', '463b96181691fc9c'
 *     board.outcome();                        // { winner, termination } once the game is over
 *     board.outcome({ claimDraw: false });    // only the ends the rules impose (no fifty-move or threefold claim)
 *
 * Moves are returned as small records; the engine and book builders use `board.position`
 * and integer moves directly.
 */
import { legalMoves } from './core/movegen.js';
import { CASTLING, KIND_MASK, MOVE_NULL, PROMOTION } from './core/move.js';
import { Position } from './core/position.js';
import { unwrap } from './core/result.js';
import { COLOR_NAMES, ROLE_NAMES, squareName, type ColorName, type RoleName } from './core/types.js';
import { keyToBigInt, keyToHex } from './core/zobrist.js';
import { STARTING_FEN, makeFen, positionFromFen, type MakeFenOptions } from './notation/fen.js';
import { makeSan, parseSan, sanToMove } from './notation/san.js';
import { makeUci, parseUci } from './notation/uci.js';

export interface MoveInfo {
  /** The 16-bit integer move (see core/move.ts). */
  move: number;
  uci: string;
  san: string;
  from: string;
  to: string;
  promotion?: RoleName;
  castling?: 'king' | 'queen';
}

export type Termination =
  | 'checkmate'
  | 'stalemate'
  | 'insufficient-material'
  | 'seventyfive-moves'
  | 'fivefold-repetition'
  | 'fifty-moves'
  | 'threefold-repetition';

export interface OutcomeOptions {
  /**
   * Count the draws a player may claim (fifty moves, threefold repetition) as ends of the game,
   * as match adjudication does. Default true; false gives only the ends the rules impose
   * (FIDE Laws 5.1, 5.2, 9.6), as python-chess's `outcome()` does by default.
   */
  claimDraw?: boolean;
}

export interface Outcome {
  /** undefined for a draw. */
  winner: ColorName | undefined;
  termination: Termination;
}

/** The spellings of a null move the PGN reader takes (src/pgn/parser.ts). */
const NULL_MOVES = new Set(['--', 'Z0', '0000']);

export class Board {
  readonly position: Position;

  /** A board at the standard start position, or at `fen` (throws FenError on bad input). */
  constructor(fen: string = STARTING_FEN) {
    this.position = unwrap(positionFromFen(fen));
  }

  static fromFen(fen: string): Board {
    return new Board(fen);
  }

  /** Wraps an existing Position (shared, not copied). */
  static fromPosition(pos: Position): Board {
    const b = Object.create(Board.prototype) as { position: Position };
    b.position = pos;
    return b as Board;
  }

  copy(): Board {
    return Board.fromPosition(this.position.clone());
  }

  get turn(): ColorName {
    return COLOR_NAMES[this.position.turn]!;
  }

  get chess960(): boolean {
    return this.position.chess960;
  }

  fen(opts?: MakeFenOptions): string {
    return makeFen(this.position, opts);
  }

  /** Legal moves as integers. */
  legalMoves(): number[] {
    return legalMoves(this.position);
  }

  /** Legal moves with their notation. */
  moves(): MoveInfo[] {
    return this.legalMoves().map((m) => this.info(m));
  }

  /** A legal move with its notation (throws RangeError on a move not legal here, as `push`). */
  describe(m: number): MoveInfo {
    return this.info(this.legal(m));
  }

  private info(m: number): MoveInfo {
    const from = (m >>> 6) & 63;
    const info: MoveInfo = {
      move: m,
      uci: makeUci(m, this.position.chess960),
      san: makeSan(this.position, m),
      from: squareName(from),
      to: squareName(m & 63),
    };
    if ((m & KIND_MASK) === PROMOTION) info.promotion = ROLE_NAMES[((m >>> 12) & 3) + 2]!;
    if ((m & KIND_MASK) === CASTLING) info.castling = (m & 63) > from ? 'king' : 'queen';
    return info;
  }

  /**
   * The SAN of a legal move. A move not legal here has none (SAN names a move by what the
   * position allows), so it is a RangeError, as python-chess's `san()` raises, rather than
   * letters that read as some move.
   */
  san(m: number): string {
    if (m === MOVE_NULL) return '--';
    return makeSan(this.position, this.legal(m));
  }

  uci(m: number): string {
    return makeUci(m, this.position.chess960);
  }

  parseSan(san: string): number {
    return unwrap(parseSan(this.position, san));
  }

  parseUci(uci: string): number {
    return unwrap(parseUci(this.position, uci));
  }

  /**
   * Plays a move given as an integer, SAN or UCI; returns the integer move. Throws on illegal input.
   * A null move (MOVE_NULL, or `--`, `Z0`, `0000` as PGN files and UCI write it, as python-chess's
   * `push_san` and `push_uci` read it) passes the turn; it is refused in check, as the PGN reader does.
   */
  push(move: number | string): number {
    let m: number;
    if (move === MOVE_NULL || (typeof move === 'string' && NULL_MOVES.has(move.trim()))) {
      if (this.position.inCheck()) throw new RangeError(`null move while in check in position ${this.fen()}`);
      this.position.playNull();
      return MOVE_NULL;
    }
    if (typeof move === 'number') {
      m = this.legal(move);
    } else if (typeof move !== 'string') {
      m = unwrap(parseSan(this.position, move));
    } else {
      const viaSan = sanToMove(this.position, move);
      m = viaSan >= 0 ? viaSan : unwrap(/^[a-h][1-8][a-h][1-8][nbrqNBRQ]?$/.test(move.trim()) ? parseUci(this.position, move) : parseSan(this.position, move));
    }
    this.position.play(m);
    return m;
  }

  private legal(m: number): number {
    if (!legalMoves(this.position).includes(m)) throw new RangeError(`illegal move ${m} in position ${this.fen()}`);
    return m;
  }

  /** Takes back the last move; returns it. */
  pop(): number {
    if (this.position.ply === 0) throw new RangeError('no move to take back');
    const m = this.position.moveAt(1);
    this.position.undo();
    return m;
  }

  polyglotKey(): bigint {
    return keyToBigInt(this.position.keyHi, this.position.keyLo);
  }

  polyglotKeyHex(): string {
    return keyToHex(this.position.keyHi, this.position.keyLo);
  }

  isCheck(): boolean {
    return this.position.inCheck();
  }

  isCheckmate(): boolean {
    return this.position.inCheck() && legalMoves(this.position).length === 0;
  }

  isStalemate(): boolean {
    return !this.position.inCheck() && legalMoves(this.position).length === 0;
  }

  isInsufficientMaterial(): boolean {
    return this.position.isInsufficientMaterial();
  }

  /** Fifty moves (100 plies) without capture or pawn move; a claimable draw. */
  isFiftyMoves(): boolean {
    return this.position.halfmoves >= 100 && !this.isCheckmate();
  }

  /** The position occurred at least twice before (third occurrence); a claimable draw. */
  isThreefoldRepetition(): boolean {
    return this.position.repetitions(2) >= 2;
  }

  /**
   * Seventy-five moves (150 plies) without capture or pawn move, the last move not mate: the
   * game is drawn without a claim (FIDE Laws 9.6.2).
   */
  isSeventyFiveMoves(): boolean {
    return this.position.halfmoves >= 150 && !this.isCheckmate();
  }

  /** The position occurred at least four times before (fifth occurrence): drawn without a claim (FIDE Laws 9.6.1). */
  isFivefoldRepetition(): boolean {
    return this.position.repetitions(4) >= 4;
  }

  /**
   * How the game ended, or undefined while it goes on. Checkmate comes first: a mate on the
   * move that completes seventy-five moves or a repetition wins (FIDE Laws 9.6).
   */
  outcome(opts: OutcomeOptions = {}): Outcome | undefined {
    const noMoves = legalMoves(this.position).length === 0;
    if (noMoves && this.position.inCheck()) return { winner: this.position.turn === 0 ? 'black' : 'white', termination: 'checkmate' };
    if (noMoves) return { winner: undefined, termination: 'stalemate' };
    if (this.isInsufficientMaterial()) return { winner: undefined, termination: 'insufficient-material' };
    if (this.position.halfmoves >= 150) return { winner: undefined, termination: 'seventyfive-moves' };
    if (this.isFivefoldRepetition()) return { winner: undefined, termination: 'fivefold-repetition' };
    if (opts.claimDraw === false) return undefined;
    if (this.position.halfmoves >= 100) return { winner: undefined, termination: 'fifty-moves' };
    if (this.isThreefoldRepetition()) return { winner: undefined, termination: 'threefold-repetition' };
    return undefined;
  }

  /** Whether `outcome(opts)` has ended the game. */
  isGameOver(opts: OutcomeOptions = {}): boolean {
    return this.outcome(opts) !== undefined;
  }
}

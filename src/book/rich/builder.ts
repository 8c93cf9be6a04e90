/**
 * Counting games into a version 2 book: the PGN visitor behind `book make` and `book add`.
 * Each finished game is appended to the book's games (games.ts) and each of its first max-ply
 * moves counted into the accumulator (plyLog.ts); when the accumulator is full it is handed
 * to `spill` and emptied, so memory stays within the budget whatever the input's size.
 * Browser-safe: where spilled runs and game bytes go is the caller's (src/book/node/tbkBuild.ts).
 *
 * The walk is make-book's (src/book/polyglot/collect.ts): the result comes from the [Result]
 * tag, only plies 0..maxPly-1 are recorded and the rest is not decoded, and a game is buffered
 * until `endGame`, so a broken one leaves nothing behind. A game without a decisive or drawn
 * result counts as unfinished: a draw in make-book's counters, outside the W/D/L statistics.
 */
import type { Position } from '../../core/position.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../../notation/fen.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { rating } from './build.js';
import { PlyLog, MOVER_DRAW, MOVER_LOSS, MOVER_UNFINISHED, MOVER_WIN } from './plyLog.js';
import { Bytes, GAME_RECORD_SIZE, RESULT_BLACK, RESULT_DRAW, RESULT_UNFINISHED, RESULT_WHITE, encodeMoves, putGameRecord, type GameInfo } from './games.js';
import { GamePlies } from './repeats.js';
import { cellOf, monthOf, ratingBand, speedOf, type SplitKinds } from './splits.js';

/** Where a builder's output goes as it grows. */
export interface BuildSinks {
  /**
   * The accumulator is full: grow it (within the memory budget) or write its rows as a sorted
   * run and empty it. Returns the table to count into.
   */
  full(table: PlyLog): PlyLog;
  /** Game records and move codes, in game order, whenever a buffer fills (and at the end). */
  games(records: Uint8Array, codes: Uint8Array): void;
}

export class BookBuilder implements PgnVisitor {
  /** The current game's plies: keys, moves and halfmove clocks (for its repeats). */
  private readonly plies = new GamePlies();
  private result = RESULT_UNFINISHED;
  private whiteElo = 0;
  private blackElo = 0;
  private date = '';
  private utcDate = '';
  private timeControl = '';
  private firstBlack = 0;
  private startFen: string | undefined;
  private readonly records = new Bytes(1 << 16);
  private readonly codes = new Bytes(1 << 18);
  /** Bytes of codes handed to the sink before the current buffer. */
  private codesFlushed = 0;
  /** Games counted (the next game's number), plies counted, broken games seen. */
  games = 0;
  positions = 0;
  errors = 0;
  /** Games set up from a FEN: [game, FEN]. */
  readonly fens: [number, string][] = [];

  constructor(
    public table: PlyLog,
    private readonly maxPly: number,
    private readonly split: SplitKinds,
    private readonly sinks: BuildSinks,
    private readonly onError: (e: PgnGameError) => void = () => {},
    /** Number of the first game (games already in the book being added to). */
    firstGame = 0,
    /** Bytes of codes already in the book being added to. */
    codesBefore = 0,
  ) {
    this.games = firstGame;
    this.codesFlushed = codesBefore;
  }

  beginGame(): void {
    this.plies.count = 0;
    this.result = RESULT_UNFINISHED;
    this.whiteElo = 0;
    this.blackElo = 0;
    this.date = '';
    this.utcDate = '';
    this.timeControl = '';
    this.startFen = undefined;
  }

  readonly tagNames = ['Result', 'WhiteElo', 'BlackElo', 'Date', 'UTCDate', 'TimeControl'];

  tag(name: string, value: string): void {
    switch (name) {
      case 'Result':
        this.result = value === '1-0' ? RESULT_WHITE : value === '0-1' ? RESULT_BLACK : value === '1/2-1/2' ? RESULT_DRAW : RESULT_UNFINISHED;
        break;
      case 'WhiteElo':
        this.whiteElo = rating(value);
        break;
      case 'BlackElo':
        this.blackElo = rating(value);
        break;
      case 'Date':
        this.date = value;
        break;
      case 'UTCDate':
        this.utcDate = value;
        break;
      case 'TimeControl':
        this.timeControl = value;
        break;
    }
  }

  endTags(pos: Position): void {
    this.firstBlack = pos.turn;
    if (isStandardStart(pos)) {
      this.startFen = undefined;
      return;
    }
    const fen = makeFen(pos);
    this.startFen = fen === STARTING_FEN ? undefined : fen;
  }

  move(pos: Position, m: number, ply: number): boolean {
    if (ply >= this.maxPly) return false;
    this.plies.push(pos.keyLo, pos.keyHi, m, pos.halfmoves);
    return true;
  }

  endGame(): void {
    const g = this.games++;
    const info: GameInfo = {
      result: this.result,
      whiteElo: this.whiteElo,
      blackElo: this.blackElo,
      month: monthOf(this.utcDate !== '' ? this.utcDate : this.date),
      speed: speedOf(this.timeControl),
      fen: this.startFen !== undefined,
    };
    if (this.startFen !== undefined) this.fens.push([g, this.startFen]);
    const at = this.codesFlushed + this.codes.length;
    const pl = this.plies;
    const codes = encodeMoves(pl.moves, 0, pl.count, this.codes);
    this.records.reserve(GAME_RECORD_SIZE);
    putGameRecord(this.records.data, this.records.length, at, codes, info);
    this.records.length += GAME_RECORD_SIZE;
    if (this.records.length >= 1 << 16 || this.codes.length >= 1 << 18) this.flushGames();
    const cell = cellOf(this.split, ratingBand(info.whiteElo, info.blackElo), info.speed, info.month);
    let t = this.table;
    for (let k = 0; k < pl.count; k++) {
      const black = (this.firstBlack + k) & 1;
      const res =
        this.result === RESULT_UNFINISHED ? MOVER_UNFINISHED : this.result === RESULT_DRAW ? MOVER_DRAW : (this.result === RESULT_WHITE) === (black === 0) ? MOVER_WIN : MOVER_LOSS;
      const elo = black ? this.blackElo : this.whiteElo;
      const again = pl.repeatAt(k);
      if (!t.count(pl.keysLo[k]!, pl.keysHi[k]!, black, pl.moves[k]!, cell, res, elo, g, k, again)) {
        t = this.table = this.sinks.full(t);
        t.count(pl.keysLo[k]!, pl.keysHi[k]!, black, pl.moves[k]!, cell, res, elo, g, k, again);
      }
    }
    this.positions += pl.count;
    pl.count = 0;
  }

  error(e: PgnGameError): void {
    this.plies.count = 0;
    this.errors++;
    this.onError(e);
  }

  /** Hands the buffered games to the sink. */
  flushGames(): void {
    if (this.records.length === 0 && this.codes.length === 0) return;
    this.sinks.games(this.records.view(), this.codes.view());
    this.codesFlushed += this.codes.length;
    this.records.clear();
    this.codes.clear();
  }
}

const START = positionFromFen(STARTING_FEN);

/**
 * Whether makeFen(pos) would be STARTING_FEN, told from what it reads without writing the FEN:
 * nearly every game starts there, and a FEN a game was the largest allocation of parsing.
 */
function isStandardStart(pos: Position): boolean {
  if (!START.ok) return false;
  const s = START.value;
  if (pos.turn !== s.turn || pos.castling !== s.castling || pos.epSquare !== s.epSquare || pos.halfmoves !== s.halfmoves || pos.fullmoves !== s.fullmoves) return false;
  for (let i = 0; i < 4; i++) if (pos.castleRook[i] !== s.castleRook[i]) return false;
  for (let sq = 0; sq < 64; sq++) if (pos.board[sq] !== s.board[sq]) return false;
  return true;
}

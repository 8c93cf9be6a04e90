/**
 * Ending games: the board rules the runner detects itself, and the optional adjudication
 * rules (match-runner.md §1.5). Checks run in cutechess's order: board result (mate first, so
 * mate on the hundredth reversible ply wins), then draw, resign and maximal length.
 *
 * Semantics chosen where the two tools differ, and why:
 * - `draw movenumber=N movecount=C score=S`: counts consecutive plies whose mover's own score is
 *   a centipawn value with |cp| ≤ S (a mate score or no score resets), resets on a capture or a
 *   pawn move; adjudicates once the game's full-move number − 1 ≥ N and the count ≥ 2C. The FEN
 *   move number (not the ply count) keeps EPD and PGN openings consistent (cutechess #797).
 * - `resign movecount=C score=S [twosided]`: a side that reported ≤ −S (a losing mate counts)
 *   on C of its own moves in a row loses; two-sided also needs the opponent's ≥ +S for its last C.
 * - `maxmoves=N`: a draw after 2N plies played by the engines (opening plies excluded).
 */
import { generateLegal } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { MAX_MOVES, WHITE } from '../core/types.js';
import type { EngineScore } from '../protocol/engineClient.js';

export type GameResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/** The PGN `[Termination]` vocabulary. */
export type Termination = 'normal' | 'adjudication' | 'time forfeit' | 'abandoned' | 'stalled connection' | 'illegal move' | 'rules infraction' | 'unterminated';

export interface GameEnd {
  result: GameResult;
  /** cutechess's reason text: `White mates`, `Draw by 3-fold repetition`, … */
  reason: string;
  termination: Termination;
}

export const COLOR_WORD = ['White', 'Black'] as const;

const BUF = new Uint16Array(MAX_MOVES);

/** The result by the rules of chess, or undefined while the game goes on. */
export function boardOutcome(pos: Position): GameEnd | undefined {
  const n = generateLegal(pos, BUF, 0);
  if (n === 0) {
    if (pos.inCheck()) {
      const winner = pos.turn ^ 1;
      return { result: winner === WHITE ? '1-0' : '0-1', reason: `${COLOR_WORD[winner]} mates`, termination: 'normal' };
    }
    return { result: '1/2-1/2', reason: 'Draw by stalemate', termination: 'normal' };
  }
  if (pos.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'Draw by insufficient mating material', termination: 'normal' };
  if (pos.halfmoves >= 100) return { result: '1/2-1/2', reason: 'Draw by fifty moves rule', termination: 'normal' };
  if (pos.repetitions(2) >= 2) return { result: '1/2-1/2', reason: 'Draw by 3-fold repetition', termination: 'normal' };
  return undefined;
}

/** A loss for `loser`, or a draw when the winner has no mating material (cutechess's rule for forfeits). */
export function forfeit(pos: Position, loser: number, reason: string, termination: Termination): GameEnd {
  if (pos.hasInsufficientMaterial(loser ^ 1)) return { result: '1/2-1/2', reason, termination };
  return { result: loser === WHITE ? '0-1' : '1-0', reason, termination };
}

export interface DrawRule {
  moveNumber: number;
  moveCount: number;
  score: number;
}

export interface ResignRule {
  moveCount: number;
  score: number;
  twoSided: boolean;
}

export interface AdjudicationRules {
  draw?: DrawRule;
  resign?: ResignRule;
  /** Draw after this many full moves by the engines (0: off). */
  maxMoves?: number;
}

/** A score as a number for comparisons: mates far beyond any centipawn value, nearer mates larger. */
function scoreValue(s: EngineScore): number {
  if (s.kind === 'cp') return s.value;
  return s.value > 0 ? 1_000_000 - (2 * s.value - 1) : -1_000_000 + 2 * -s.value;
}

/** Tracks the adjudication counters of one game; feed it every engine move after it is played. */
export class Adjudicator {
  private drawCount = 0;
  private readonly resignCount = [0, 0];
  private readonly winCount = [0, 0];
  private enginePlies = 0;

  constructor(private readonly rules: AdjudicationRules) {}

  /**
   * Books a move by `mover` with its reported score (mover's point of view) and returns the
   * adjudicated end, if any. `pos` is the position after the move; `resetting` is true for a
   * capture or pawn move.
   */
  afterMove(pos: Position, mover: number, score: EngineScore | undefined, resetting: boolean): GameEnd | undefined {
    this.enginePlies++;
    const { draw, resign, maxMoves } = this.rules;
    if (draw) {
      if (resetting || score === undefined || score.kind !== 'cp' || Math.abs(score.value) > draw.score) this.drawCount = 0;
      else this.drawCount++;
      if (pos.fullmoves - 1 >= draw.moveNumber && this.drawCount >= 2 * draw.moveCount) {
        return { result: '1/2-1/2', reason: 'Draw by adjudication', termination: 'adjudication' };
      }
    }
    if (resign) {
      const v = score === undefined ? 0 : scoreValue(score);
      this.resignCount[mover] = score !== undefined && v <= -resign.score ? this.resignCount[mover]! + 1 : 0;
      this.winCount[mover] = score !== undefined && v >= resign.score ? this.winCount[mover]! + 1 : 0;
      const other = mover ^ 1;
      if (this.resignCount[mover]! >= resign.moveCount && (!resign.twoSided || this.winCount[other]! >= resign.moveCount)) {
        const winner = other;
        return { result: winner === WHITE ? '1-0' : '0-1', reason: `${COLOR_WORD[winner]} wins by adjudication`, termination: 'adjudication' };
      }
    }
    if (maxMoves && maxMoves > 0 && this.enginePlies >= 2 * maxMoves) {
      return { result: '1/2-1/2', reason: 'Draw by adjudication: maximal game length', termination: 'adjudication' };
    }
    return undefined;
  }
}

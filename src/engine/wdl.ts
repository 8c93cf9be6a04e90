/**
 * Win/draw/loss chances from an evaluation, for UCI_ShowWDL (`info … wdl W D L`, permille).
 *
 * Two logistic curves, the form Stockfish uses: with v the score in centipawns from the side to
 * move and p the game phase (0 = kings and pawns … 24 = all pieces),
 *
 *     win  = σ((v − a) / b),   loss = σ((−v − a) / b),   draw = 1 − win − loss,
 *     a = a0 + a1·p/24,        b = b0 + b1·p/24,
 *
 * a is how far ahead a side must be to win half the time, b how quickly that chance rises; a > 0
 * keeps the draw share positive. The numbers are fitted by maximum likelihood on labelled
 * positions with `tabiya tune wdl` (src/tune/wdl.ts; docs/tuning.md shows the fit).
 */
import { popcount } from '../core/bitboard.js';
import type { Position } from '../core/position.js';
import { BISHOP, KNIGHT, QUEEN, ROOK } from '../core/types.js';
import { PHASE_MAX } from './evalParams.js';
import { MATE_IN_MAX } from './score.js';

export interface WdlModel {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/**
 * Fitted on the 561,737 quiet positions of 120,000 master games (both players 2300+) with the
 * built-in evaluation: `tabiya tune wdl ../shared/data/tuning/pgnmentor_quiet_labeled.epd.gz`.
 * Refit whenever the evaluation's weights change: the curves are in the evaluation's units.
 */
export const DEFAULT_WDL: WdlModel = { a0: 139.8, a1: -17.1, b0: 81.1, b1: 74.9 };

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Game phase 0..24: knights and bishops 1, rooks 2, queens 4, as the evaluation tapers. */
export function gamePhase(pos: Position): number {
  const lo = pos.bbLo;
  const hi = pos.bbHi;
  const count = (t: number): number => popcount(lo[t]! | lo[8 | t]!, hi[t]! | hi[8 | t]!);
  const phase = count(KNIGHT) + count(BISHOP) + 2 * count(ROOK) + 4 * count(QUEEN);
  return Math.min(PHASE_MAX, phase);
}

/** The model's a and b at phase p (each at least 1). */
export function wdlShape(model: WdlModel, phase: number): { a: number; b: number } {
  const t = phase / 24;
  return { a: Math.max(1, model.a0 + model.a1 * t), b: Math.max(1, model.b0 + model.b1 * t) };
}

/** Win, draw and loss chances (0..1) of the side to move at score v (centipawns, not a mate). */
export function wdlChances(model: WdlModel, v: number, phase: number): [number, number, number] {
  const { a, b } = wdlShape(model, phase);
  const win = sigmoid((v - a) / b);
  const loss = sigmoid((-v - a) / b);
  return [win, Math.max(0, 1 - win - loss), loss];
}

/**
 * The `wdl` of a UCI info line, three permille that sum to 1000, for a score of `cp` centipawns
 * from the side to move, or of a mate in `mate` moves (negative: being mated), which is certain.
 */
export function wdlPermille(model: WdlModel, cp: number | undefined, mate: number | undefined, phase: number): [number, number, number] {
  if (mate !== undefined) return mate > 0 ? [1000, 0, 0] : [0, 0, 1000];
  const [w, , l] = wdlChances(model, Math.max(-MATE_IN_MAX, Math.min(MATE_IN_MAX, cp ?? 0)), phase);
  const win = Math.round(w * 1000);
  const loss = Math.min(1000 - win, Math.round(l * 1000));
  return [win, 1000 - win - loss, loss];
}

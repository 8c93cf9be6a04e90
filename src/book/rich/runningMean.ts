/**
 * The PostBook evaluation of a move is kept as a mean in whole centipawns and a count (the
 * `.tbk` layout has an int16 and a uint16 for it). Rounding the mean to the nearest centipawn at
 * every game freezes it once the count is large: after 80 games an evaluation 40 cp away moves
 * the exact mean by less than half a centipawn, so the rounded mean never moves again (100 games
 * at 0.00 and then 100 at +0.40 kept 0.00).
 *
 * The mean is therefore rounded with a dither (stochastic rounding, made deterministic with the
 * golden-ratio sequence over the count, as in low-discrepancy sampling): `floor(exact + d)`
 * with `d` spread evenly over [0, 1) rounds up as often as the fraction asks, so the stored mean
 * follows the exact one within about a centipawn however many games it has.
 */
const GOLDEN = 0.6180339887498949;

/** The mean of `count` evaluations `mean` with one more, `cp`, in whole centipawns. */
export function meanWithOne(mean: number, count: number, cp: number): number {
  const exact = (mean * count + cp) / (count + 1);
  const dither = ((count + 1) * GOLDEN) % 1;
  return Math.floor(exact + dither);
}

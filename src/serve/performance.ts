/**
 * Performance rating of a set of games, as the Lichess opening explorer reports it per move
 * (lichess-org/lila-openingexplorer, `Stats::performance`): the opponents' average rating plus
 * FIDE's rating difference dp for the score, read from the table of the FIDE Rating
 * Regulations (FIDE Handbook B.02, table 8.1(a): dp for each whole percentage p) and
 * interpolated linearly between whole percentages. 100% gives the average + 800, 0% the
 * average − 800, 50% the average itself.
 */

/** dp for p = 0%, 1%, ... 100% (FIDE Handbook B.02, table 8.1(a); below 50% the negatives). */
const DP_HIGH = [
  0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444,
  470, 501, 538, 589, 677, 800,
];

/** FIDE's dp for a score of `percent` (0..100), interpolated between whole percentages. */
export function ratingDifference(percent: number): number {
  const p = Math.max(0, Math.min(100, percent));
  const whole = Math.floor(p);
  const frac = p - whole;
  const at = (i: number): number => (i >= 50 ? DP_HIGH[i - 50]! : -DP_HIGH[50 - i]!);
  return whole === 100 ? 800 : at(whole) * (1 - frac) + at(whole + 1) * frac;
}

/**
 * The performance of a player who scored `wins`, `draws` and `losses` against opponents of
 * average rating `opponents`, rounded; null without games or without a rating.
 */
export function performanceRating(opponents: number, wins: number, draws: number, losses: number): number | null {
  const games = wins + draws + losses;
  if (games <= 0 || !(opponents > 0)) return null;
  return Math.round(opponents + ratingDifference((100 * (wins + draws / 2)) / games));
}

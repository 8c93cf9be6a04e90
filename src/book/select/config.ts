/**
 * The book policy: one plain object that says how a move is chosen among a position's book
 * moves, shared by `tabiya book probe --explain`, the engine's UCI/xboard options and the API.
 *
 * Three families, each following its program's documented procedure:
 *
 *   - `terra`: Terra's selection (seed 001, "How Terra selects a move from books"): moves set to
 *     100 are always played; otherwise a die chooses between the user-set group and the
 *     statistics group, then a roulette wheel (or "select best") chooses within the group, with
 *     RandomType, BookLimit, MinBookGames, MinTerraGames, TerraLimit and the avoid list; the
 *     PostBook answers when the book has nothing to play.
 *   - `polyglot-best` / `polyglot-weighted`: PolyGlot 2.0.4's adapter (polyglot.md §5.1): shares
 *     in per ten-thousand, BookTreshold in per mille, optional BookLearn factor.
 *   - `gnu-best` / `gnu-worst` / `gnu-random`: GNU Chess 6's `book best|worst|random`
 *     (polyglot.md §5.2) on raw weights.
 *   - `uniform`: every book move alike (python-chess `choice`).
 *
 * A rich-book move's Polyglot weight is the make-book weight the book stores (2·wins + draws,
 * halved as `polyglot make-book` halves), so the weight policies play a `.tbk` exactly as
 * PolyGlot or GNU Chess would play its Polyglot export.
 */

/** Policy names; `best`, `weighted`, `worst` and `random` are accepted as short aliases. */
export const POLICY_KINDS = [
  'terra',
  'polyglot-best',
  'polyglot-weighted',
  'gnu-best',
  'gnu-worst',
  'gnu-random',
  'uniform',
] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** Short names kept from the engine's earlier BookPolicy option and GNU Chess's `book` command. */
export const POLICY_ALIASES: Readonly<Record<string, PolicyKind>> = {
  best: 'polyglot-best',
  weighted: 'polyglot-weighted',
  worst: 'gnu-worst',
  random: 'gnu-random',
};

/**
 * Terra's RandomType. Seed 001 defines 1 (random, Terra Win% + fixed frequency) and says the
 * others are "select best" or random choices over the same values; tabiya numbers them so:
 *
 *   0  select best, by Win% (Terra's where it has enough games, else the fixed Win%)
 *   1  random (roulette wheel), Terra Win% + fixed frequency  (seed 001's example)
 *   2  random (roulette wheel), by Win% (Terra's, else fixed)
 *   3  select best, Terra Win% + fixed frequency
 */
export const RANDOM_TYPES = [0, 1, 2, 3] as const;

export interface BookPolicyConfig {
  policy: PolicyKind;
  /** Terra: how statistics are turned into values and whether the pick is random (see RANDOM_TYPES). */
  randomType: number;
  /** Terra: least fixed Win% (0..100) for a move valued by its fixed statistics. */
  bookLimit: number;
  /** Terra: least number of fixed games for a move valued by its fixed statistics. */
  minBookGames: number;
  /** Terra: least number of the engine's own games before its own Win% is used for a move. */
  minTerraGames: number;
  /** Terra: the engine's own Win% must exceed this (0..100), or the move goes to the avoid list. */
  terraLimit: number;
  /**
   * Terra: chance in percent (0..100) of choosing the user-set group when both groups have
   * moves; -1 uses Terra's rule P = 1 − Π(100 − v)/100 over the user-set values.
   */
  userGroupPercent: number;
  /** Terra: when the book has nothing to play, play the PostBook move with the best history. */
  postBook: boolean;
  /** PolyGlot: per mille; a move whose share is not above it is never played (sic "Treshold"). */
  bookThreshold: number;
  /** PolyGlot: scale weights by (2W+D+4)/(2L+D+4) of the engine's own games (BookLearn). */
  bookLearn: boolean;
  /** Non-Terra policies: honour user-set values too (0 never played, 100 always). */
  userValues: boolean;
  /**
   * Every policy: a move from games whose rated movers averaged under this Elo is out of play,
   * as is one whose games carry no rating (0: off). Like the rating filter of an opening
   * explorer, it keeps the repertoire to what strong players play. Moves with a user value (where
   * the policy honours it), PostBook moves and moves known only by an imported weight are not
   * judged by it.
   */
  minAvgElo: number;
}

/** The defaults: Terra with the settings of seed 001's worked example. */
export function defaultPolicy(): BookPolicyConfig {
  return {
    policy: 'terra',
    randomType: 1,
    bookLimit: 33,
    minBookGames: 4,
    minTerraGames: 3,
    terraLimit: 40,
    userGroupPercent: -1,
    postBook: true,
    bookThreshold: 5,
    bookLearn: false,
    userValues: true,
    minAvgElo: 0,
  };
}

/** One row of `explainPolicy`: the chance the policy plays `move` and why it is in or out. */
export interface PolicyRow {
  move: number;
  /** Probability in [0, 1] that `choose` returns this move (the rows sum to 1 or to 0). */
  probability: number;
  /** The move can be chosen (probability > 0). */
  inPlay: boolean;
  reason: string;
}

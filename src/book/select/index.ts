/**
 * Choosing a move among a position's rich-book moves (browser-safe, no I/O).
 *
 *     const policy = parsePolicy({ BookPolicy: 'terra', RandomType: 1, BookLimit: 33 });
 *     const rows = explainPolicy(policy, book.probe(pos));   // probability and reason per move
 *     const move = choose(policy, book.probe(pos), seededRandom(7));   // 0 when none
 *
 * `explainPolicy` and `choose` run the same plan, so the frequencies of `choose` over many
 * seeded draws converge to `explainPolicy`'s probabilities (tested). Moves keep the order the
 * book gives them; "first" on ties means first in that order.
 */
import { USER_UNSET, type RichMove } from '../rich/types.js';
import type { BookPolicyConfig, PolicyRow } from './config.js';
import { chooseTerra, explainTerra, planTerra } from './terra.js';
import { chooseWeights, explainWeights, planWeights } from './weights.js';

export { POLICY_KINDS, POLICY_ALIASES, RANDOM_TYPES, defaultPolicy, type BookPolicyConfig, type PolicyKind, type PolicyRow } from './config.js';
export { POLICY_OPTIONS, PolicyError, parsePolicy, parsePolicyKind, setPolicyOption, findPolicyOption, policyOptionDefault, type PolicyOption } from './options.js';
export { winPercent } from './terra.js';
export { polyglotWeight } from './weights.js';
export { seededRandom } from '../polyglot/select.js';

/**
 * Why a move is kept out of play before the policy runs, or '' when it is not: a forbidden
 * move (book audit, or by hand) never plays, whatever its statistics or user value; then the
 * rating filter (MinAvgElo).
 */
function veto(config: BookPolicyConfig, m: RichMove): string {
  if (m.forbidden === true) return 'forbidden (book audit or by hand)';
  const handSet = m.userValue !== USER_UNSET && (config.policy === 'terra' || config.userValues);
  if (config.minAvgElo <= 0 || m.postBook || handSet || m.wins + m.draws + m.losses === 0) return '';
  if (m.ratedGames === 0) return `no rated games (MinAvgElo ${config.minAvgElo})`;
  return m.avgElo < config.minAvgElo ? `average Elo ${m.avgElo} < MinAvgElo ${config.minAvgElo}` : '';
}


/**
 * The policy's probabilities for the moves the vetoes kept, with the reasons when `explain`.
 * `unplayableWeight`: the weight of a Polyglot book's entries for the position that cannot be
 * played, which PolyGlot's shares count (see `planWeights`).
 */
function runPolicy(config: BookPolicyConfig, kept: readonly RichMove[], explain: boolean, unplayableWeight = 0): { probability: number[]; reasons: string[] } {
  return config.policy === 'terra'
    ? explainTerra(planTerra(config, kept, explain), kept.length, explain)
    : explainWeights(planWeights(config, kept, explain, unplayableWeight), kept.length, explain);
}

/**
 * The probability `choose` gives each move (same order as `moves`), and why it is in or out.
 * The rating filter acts first: the policy then runs as if the book held only the moves it kept.
 * `unplayableWeight`: a Polyglot book's weight on entries the position cannot play (illegal,
 * move 0, key collisions), which PolyGlot's shares count (polyglot.md §5.1).
 */
export function explainPolicy(config: BookPolicyConfig, moves: readonly RichMove[], unplayableWeight = 0): PolicyRow[] {
  const vetoes = moves.map((m) => veto(config, m));
  const kept = moves.filter((_, i) => vetoes[i] === '');
  const { probability, reasons } = runPolicy(config, kept, true, unplayableWeight);
  let k = 0;
  return moves.map((m, i) => {
    const veto = vetoes[i]!;
    if (veto !== '') return { move: m.move, probability: 0, inPlay: false, reason: veto };
    const p = probability[k]!;
    return { move: m.move, probability: p, inPlay: p > 0, reason: reasons[k++]! };
  });
}

/**
 * The probability `choose` gives each move (same order as `moves`): `explainPolicy`'s numbers
 * without its reasons, whose text costs more than the arithmetic (the explorer asks for every
 * position it shows).
 */
export function policyProbabilities(config: BookPolicyConfig, moves: readonly RichMove[]): number[] {
  const kept = moves.filter((m) => veto(config, m) === '');
  const { probability } = runPolicy(config, kept, false);
  if (kept.length === moves.length) return probability;
  let k = 0;
  return moves.map((m) => (m === kept[k] ? probability[k++]! : 0));
}

/**
 * The move the policy plays, or 0 when it plays none (out of book). `random` gives uniform
 * numbers in [0, 1); with a seeded one (`seededRandom`) the choice is reproducible.
 * `unplayableWeight` as for `explainPolicy`.
 */
export function choose(config: BookPolicyConfig, moves: readonly RichMove[], random: () => number = Math.random, unplayableWeight = 0): number {
  // The policy's own procedure sees only the moves the vetoes (forbidden, rating filter) let through.
  moves = moves.filter((m) => veto(config, m) === '');
  if (moves.length === 0) return 0;
  const i = config.policy === 'terra' ? chooseTerra(planTerra(config, moves, false), random) : chooseWeights(planWeights(config, moves, false, unplayableWeight), random);
  return i < 0 ? 0 : moves[i]!.move;
}

/**
 * The avoid list for a position: forbidden moves, and Terra's: moves set to 0 and moves whose own Win% is not above
 * TerraLimit. The engine keeps them out of its search, as Terra's search routine does.
 */
export function avoidedMoves(config: BookPolicyConfig, moves: readonly RichMove[]): number[] {
  // Forbidden moves stay out of the search too: the audit found them losing.
  const forbidden = moves.filter((m) => m.forbidden === true).map((m) => m.move);
  const avoid = config.policy !== 'terra' ? moves.filter((m) => config.userValues && m.userValue === 0 && !m.postBook).map((m) => m.move) : planTerra(config, moves, false).avoid.map((i) => moves[i]!.move);
  return [...new Set([...forbidden, ...avoid])];
}

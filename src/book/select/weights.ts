/**
 * The weight-based policies: PolyGlot 2.0.4's adapter, GNU Chess 6's `book best|worst|random`
 * and a uniform choice, over rich-book moves whose weight is Polyglot's `2·wins + draws`.
 *
 * PolyGlot (polyglot.md §5.1): w = 1000·weight, times (2W+D+4)/(2L+D+4) of the engine's own
 * games with BookLearn; share = trunc(10000·w/Σw) with Σ over every entry of the position's key,
 * playable or not;
 * a move is a candidate when share > 10·BookThreshold; `best` is the first strictly highest
 * share, `weighted` the reservoir pick (probability share/Σshare).
 * GNU Chess (polyglot.md §5.2): `best` the first strictly largest weight, `worst` the first
 * smallest, `random` the reservoir pick on raw weights. GNU Chess starts its "worst" search at
 * 10000 so that weights of 10000 and more are never worst; that artefact of a 16-bit-era
 * constant is not reproduced.
 * Moves are taken in the order of the Polyglot export (see `polyglotOrder`), so ties go where
 * PolyGlot and GNU Chess send them. Weight 0 is Polyglot's "deleted" and is never played. With `userValues`, a user value of 0
 * removes a move and moves set to 100 are played (uniformly) before any of these rules.
 */
import type { RichMove } from '../rich/types.js';
import type { BookPolicyConfig } from './config.js';
import { firstMax, reservoirPick, uniformIndex } from './wheel.js';

/**
 * A rich move's Polyglot weight: the stored make-book weight when the book has one (what its
 * Polyglot export holds, halvings included, or the weight of an imported `.bin`), else
 * 2·wins + draws of its fixed statistics.
 */
export function polyglotWeight(m: RichMove): number {
  const games = 2 * m.wins + m.draws;
  // A stored 0 next to games won or drawn means the book never kept make-book's counters.
  return m.weight !== undefined && (m.weight > 0 || games === 0) ? m.weight : games;
}

/** What a weight policy makes of a position's moves before any draw. */
export interface WeightPlan {
  reasons: string[];
  /** Moves set to 100 (played uniformly, before anything else). */
  always: number[];
  /** Candidate indices and their weights for the policy's rule. */
  cands: number[];
  weights: number[];
  /** 'best' | 'worst' | 'random' (reservoir) | 'uniform'. */
  rule: 'best' | 'worst' | 'random' | 'uniform';
}

/**
 * `explain` false: the reasons stay empty (the explorer and the engine only need the numbers).
 * `unplayableWeight`: the weight of the position's book entries that are not among `moves`
 * because they cannot be played (illegal here, move 0, a key collision); PolyGlot counts them in
 * the total its shares are taken of, so they lower every share.
 */
export function planWeights(c: BookPolicyConfig, moves: readonly RichMove[], explain = true, unplayableWeight = 0): WeightPlan {
  const reasons: string[] = moves.map(() => '');
  const always: number[] = [];
  const cands: number[] = [];
  const weights: number[] = [];
  const polyglot = c.policy === 'polyglot-best' || c.policy === 'polyglot-weighted';
  const rule = c.policy === 'polyglot-best' || c.policy === 'gnu-best' ? 'best' : c.policy === 'gnu-worst' ? 'worst' : c.policy === 'uniform' ? 'uniform' : 'random';

  // PolyGlot's shares are over every entry of the key, including ones it will not play.
  const scaled: number[] = moves.map((m) => {
    let w = 1000 * polyglotWeight(m);
    if (c.bookLearn) w = Math.trunc((w * (2 * m.dynWins + m.dynDraws + 4)) / (2 * m.dynLosses + m.dynDraws + 4));
    return m.postBook ? 0 : w;
  });
  let total = polyglot ? 1000 * unplayableWeight : 0;
  for (const w of scaled) total += w;

  for (const i of polyglotOrder(moves)) {
    const m = moves[i]!;
    const weight = polyglotWeight(m);
    if (m.postBook) {
      if (explain) reasons[i] = 'PostBook move: only the terra policy plays these';
      continue;
    }
    if (c.userValues && m.userValue === 0) {
      if (explain) reasons[i] = 'user value 0: never played';
      continue;
    }
    if (c.userValues && m.userValue >= 100) {
      always.push(i);
      if (explain) reasons[i] = 'user value 100: always played';
      continue;
    }
    if (weight <= 0) {
      if (explain) reasons[i] = 'weight 0: never played';
      continue;
    }
    if (polyglot) {
      const share = total > 0 ? Math.trunc((10000 * scaled[i]!) / total) : 0;
      const learnt = explain && c.bookLearn ? ` (learn-scaled ${scaled[i]! / 1000})` : '';
      if (share <= 10 * c.bookThreshold) {
        if (explain) reasons[i] = `share ${share / 100}% of weight ${weight}${learnt} is not above BookThreshold ${c.bookThreshold}‰`;
        continue;
      }
      cands.push(i);
      weights.push(share);
      if (explain) reasons[i] = `share ${share / 100}% of weight ${weight}${learnt}`;
    } else {
      cands.push(i);
      weights.push(weight);
      if (explain) reasons[i] = `weight ${weight}`;
    }
  }
  return { reasons, always, cands, weights, rule };
}

/**
 * The moves' indices in the order of their Polyglot export: weight descending, then the order
 * the moves were first seen in the games (a rich entry's `firstSeen`, make-book's creation
 * order), then book order. "First" on ties then means what it means to PolyGlot and GNU Chess.
 */
function polyglotOrder(moves: readonly (RichMove & { readonly firstSeen?: number })[]): number[] {
  const idx = moves.map((_, i) => i);
  return idx.sort((a, b) => polyglotWeight(moves[b]!) - polyglotWeight(moves[a]!) || (moves[a]!.firstSeen ?? a) - (moves[b]!.firstSeen ?? b) || a - b);
}

function firstMin(values: readonly number[]): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) if (best < 0 || values[i]! < values[best]!) best = i;
  return best;
}

export function explainWeights(plan: WeightPlan, n: number, explain = true): { probability: number[]; reasons: string[] } {
  const probability: number[] = new Array<number>(n).fill(0);
  const reasons = plan.reasons.slice();
  if (plan.always.length > 0) {
    for (const i of plan.always) probability[i] = 1 / plan.always.length;
    if (explain) for (const i of plan.cands) reasons[i] = `not considered: a move is set to 100 (always); ${reasons[i]}`;
    return { probability, reasons };
  }
  if (plan.cands.length === 0) return { probability, reasons };
  if (plan.rule === 'best' || plan.rule === 'worst') {
    const k = plan.rule === 'best' ? firstMax(plan.weights) : firstMin(plan.weights);
    plan.cands.forEach((i, j) => {
      if (j === k) {
        probability[i] = 1;
        if (explain) reasons[i] = `${plan.rule} of the book: ${reasons[i]}`;
      } else if (explain) reasons[i] = `not the ${plan.rule}: ${reasons[i]}`;
    });
  } else if (plan.rule === 'uniform') {
    for (const i of plan.cands) {
      probability[i] = 1 / plan.cands.length;
      if (explain) reasons[i] = `one of ${plan.cands.length} alike: ${reasons[i]}`;
    }
  } else {
    let sum = 0;
    for (const w of plan.weights) sum += w;
    plan.cands.forEach((i, j) => {
      probability[i] = plan.weights[j]! / sum;
      if (explain) reasons[i] = `weighted ${plan.weights[j]!}/${sum}: ${reasons[i]}`;
    });
  }
  return { probability, reasons };
}

export function chooseWeights(plan: WeightPlan, random: () => number): number {
  if (plan.always.length > 0) return plan.always[uniformIndex(plan.always.length, random)]!;
  if (plan.cands.length === 0) return -1;
  switch (plan.rule) {
    case 'best':
      return plan.cands[firstMax(plan.weights)]!;
    case 'worst':
      return plan.cands[firstMin(plan.weights)]!;
    case 'uniform':
      return plan.cands[uniformIndex(plan.cands.length, random)]!;
    default:
      return plan.cands[reservoirPick(plan.weights, random)]!;
  }
}

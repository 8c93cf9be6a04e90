/**
 * What a game of the Lichess database dumps looks like, as distributions to draw from: time
 * controls and their shares, the speed Lichess files each under, ratings and their changes,
 * game ids, terminations. The shares are round figures in the spirit of the public monthly
 * dumps (most games bullet and blitz, few classical, a handful correspondence); they are
 * parameters of a test generator, not statistics.
 */
import type { Rng } from '../../src/match/rng.js';

export type Speed = 'UltraBullet' | 'Bullet' | 'Blitz' | 'Rapid' | 'Classical' | 'Correspondence';

/**
 * Lichess's speed of a clock: from the estimated game duration, base + 40 × increment seconds
 * (scalachess `Speed`: UltraBullet < 30 s, Bullet < 180, Blitz < 480, Rapid < 1500).
 */
export function speedOf(base: number, increment: number): Speed {
  const t = base + 40 * increment;
  return t < 30 ? 'UltraBullet' : t < 180 ? 'Bullet' : t < 480 ? 'Blitz' : t < 1500 ? 'Rapid' : 'Classical';
}

export interface TimeControl {
  /** The TimeControl tag: "180+2", or "-" for correspondence. */
  tag: string;
  base: number;
  increment: number;
  speed: Speed;
  /** Share of all games, in percent. */
  share: number;
}

const tc = (tag: string, share: number): TimeControl => {
  if (tag === '-') return { tag, base: 0, increment: 0, speed: 'Correspondence', share };
  const [base, increment] = tag.split('+').map(Number) as [number, number];
  return { tag, base, increment, speed: speedOf(base, increment), share };
};

/** The time controls drawn from: bullet about 30 %, blitz 45 %, rapid 20 %, classical 2 %. */
export const TIME_CONTROLS: readonly TimeControl[] = [
  tc('15+0', 0.4),
  tc('30+0', 1.5),
  tc('60+0', 20),
  tc('120+1', 7),
  tc('180+0', 16),
  tc('180+2', 11),
  tc('300+0', 11),
  tc('300+3', 7),
  tc('600+0', 13),
  tc('600+5', 4),
  tc('900+10', 5),
  tc('1800+0', 1.6),
  tc('1800+20', 0.7),
  tc('2700+45', 0.3),
  tc('-', 0.5),
];

/** Picks an item with probability proportional to `weight(item)`. */
export function weighted<T>(items: readonly T[], weight: (t: T) => number): (rng: Rng) => T {
  const cumulative: number[] = [];
  let sum = 0;
  for (const t of items) cumulative.push((sum += weight(t)));
  return (rng) => {
    const x = rng.next() * sum;
    let i = 0;
    while (cumulative[i]! <= x) i++;
    return items[i]!;
  };
}

export const MIN_RATING = 600;
export const MAX_RATING = 3200;

/** A standard normal deviate (Box–Muller). */
export function gaussian(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * A player's rating: normal around 1600 with deviation 330, so about three players in four are
 * rated 1200-2000, within Lichess's 600-3200 (tails folded back in).
 */
export function playerRating(rng: Rng): number {
  for (;;) {
    const r = Math.round(1600 + 330 * gaussian(rng));
    if (r >= MIN_RATING && r <= MAX_RATING) return r;
  }
}

/** White's expected score against Black (the Elo formula Glicko-2's expectation comes close to). */
export function expectedScore(white: number, black: number): number {
  return 1 / (1 + 10 ** ((black - white) / 400));
}

/**
 * A rating change, Glicko-2-like: K × (score − expectation), with K from 8 to 24 standing for
 * the player's rating deviation (an even game moves an established player 4 to 12 points).
 * Written as Lichess does: "+5", "-5", "+0".
 */
export function ratingDiff(score: number, expected: number, rng: Rng): string {
  const d = Math.round((8 + 16 * rng.next()) * (score - expected));
  return d < 0 ? String(d) : `+${d}`;
}

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The 8-character game id of game number `n` (< 2^46): a Feistel permutation of n keyed by the
 * seed, written in base 62, so ids look random and never repeat within a run.
 */
export function gameId(n: number, seed: number): string {
  let left = Math.floor(n / 0x800000) & 0x7fffff;
  let right = n & 0x7fffff;
  for (let round = 0; round < 4; round++) {
    let f = Math.imul(right ^ seed ^ Math.imul(round + 1, 0x9e3779b9), 0x85ebca6b);
    f = Math.imul(f ^ (f >>> 13), 0xc2b2ae35);
    const next = (left ^ (f >>> 9)) & 0x7fffff;
    left = right;
    right = next;
  }
  let v = left * 0x800000 + right;
  let id = '';
  for (let i = 0; i < 8; i++) {
    id = ID_CHARS[v % 62] + id;
    v = Math.floor(v / 62);
  }
  return id;
}

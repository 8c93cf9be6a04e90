/**
 * The players of the generated games: a pool of made-up Lichess-style user names, each with a
 * rating, sorted by rating so that an opponent of similar strength is a nearby index (Lichess
 * pairs players of close ratings: most games are between players within 100-200 points).
 */
import { createRng, type Rng } from '../../src/match/rng.js';
import { gaussian, playerRating } from './lichess.js';

const WORDS = [
  'knight', 'rook', 'pawn', 'bishop', 'queen', 'king', 'blitz', 'tactic', 'gambit', 'castle', 'fork', 'pin', 'mate', 'zugzwang',
  'tempo', 'fianchetto', 'sicilian', 'dragon', 'najdorf', 'endgame', 'opening', 'patzer', 'caro', 'kann', 'berlin', 'london',
  'wolf', 'tiger', 'eagle', 'shadow', 'storm', 'fire', 'ice', 'night', 'dark', 'light', 'silent', 'lucky', 'crazy', 'happy',
  'magic', 'master', 'hunter', 'rider', 'player', 'lover', 'slayer', 'ninja', 'pirate', 'wizard', 'panda', 'fox', 'bear',
];
const NAMES = ['alex', 'max', 'ivan', 'olga', 'lena', 'omar', 'ravi', 'yuki', 'nina', 'sven', 'ana', 'leo', 'mia', 'tom', 'kai', 'zoe', 'ali', 'eva', 'juan', 'li'];

export interface Players {
  names: string[];
  /** Ratings, ascending (names[i] is rated ratings[i]). */
  ratings: Int16Array;
}

const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);

function userName(rng: Rng): string {
  const pick = (list: string[]): string => list[rng.int(list.length)]!;
  const digits = rng.next() < 0.6 ? String(rng.int(rng.next() < 0.5 ? 100 : 10000)) : '';
  switch (rng.int(4)) {
    case 0:
      return cap(pick(WORDS)) + cap(pick(WORDS)) + digits;
    case 1:
      return `${pick(WORDS)}_${pick(WORDS)}${digits}`;
    case 2:
      return cap(pick(NAMES)) + (rng.next() < 0.5 ? '_' : '') + cap(pick(WORDS)) + digits;
    default:
      return `${pick(NAMES)}${pick(NAMES)}${digits || rng.int(1000)}`;
  }
}

/** `count` players drawn from `seed` (the same seed gives the same pool). */
export function makePlayers(count: number, seed: number): Players {
  const rng = createRng(seed ^ 0x5bd1e995);
  const pool = Array.from({ length: count }, () => ({ name: userName(rng), rating: playerRating(rng) })).sort((a, b) => a.rating - b.rating);
  return { names: pool.map((p) => p.name), ratings: Int16Array.from(pool.map((p) => p.rating)) };
}

/** A random player, and an opponent rated near them (about 90 points apart on average). */
export function pairing(players: Players, rng: Rng): [number, number] {
  const n = players.names.length;
  const a = rng.int(n);
  const target = players.ratings[a]! + 110 * gaussian(rng);
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (players.ratings[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  let b = Math.min(n - 1, Math.max(0, lo + rng.int(21) - 10));
  if (b === a) b = a + 1 < n ? a + 1 : a - 1;
  return [a, b];
}

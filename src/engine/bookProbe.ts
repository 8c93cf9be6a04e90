/**
 * The engine's view of an opening book, behind one small interface so that Polyglot books and
 * richer formats plug in the same way:
 *
 *   - `choose(pos)`: the move to play in book, by policy (best, weighted by weight, uniform);
 *   - `knowsWell(pos, side)`: the position is in the book with good statistics for `side`,
 *     which is what book-aware search asks of each position along the principal variation
 *     (seed 000, Deliverable 3: GNU Chess stopped its search when the PV reached a book
 *     position with wins);
 *   - `learn(game)`: a finished game handed back for book learning, when the source supports it.
 *
 * A Polyglot book knows a position when it has moves for it; its weights already encode
 * results (2·wins + draws in `polyglot make-book`), so "good statistics" means a total weight
 * at or above `minKnownWeight`. Sources with win/draw/loss counts answer by score instead.
 */
import type { Position } from '../core/position.js';
import type { PolyglotReader } from '../book/polyglot/reader.js';

export interface BookCandidate {
  /** Core 16-bit move, legal in the position. */
  move: number;
  weight: number;
  /** Games won, drawn and lost with the move, from the mover's side, when the source has them. */
  wins?: number;
  draws?: number;
  losses?: number;
}

/** A finished game for book learning. */
export interface LearnGame {
  /** FEN of the start position. */
  startFen: string;
  /** UCI moves played. */
  moves: string[];
  result: '1-0' | '0-1' | '1/2-1/2';
  /** The colour the engine played (0 White, 1 Black), if known. */
  engineColor?: number;
}

/** What a book format provides to the engine. */
export interface BookSource {
  readonly name: string;
  /** Legal book moves of the position (empty when out of book). */
  candidates(pos: Position): BookCandidate[];
  /** Book learning (optional): called once per finished game. */
  learn?(game: LearnGame): void;
}

export type BookPolicy = 'best' | 'weighted' | 'uniform';

export interface BookProbeOptions {
  policy?: BookPolicy;
  /** Moves below this weight are never played (default 1). */
  minWeight?: number;
  /** knowsWell: least total weight of a Polyglot position (default 1). */
  minKnownWeight?: number;
  /** knowsWell with W/D/L counts: least number of games (default 10) ... */
  minGames?: number;
  /** ... and least score for the side asked about, 0..1 (default 0.5). */
  minScore?: number;
  /** Uniform numbers in [0, 1) (default Math.random); inject a seeded one for reproducibility. */
  random?: () => number;
}

export class BookProbe {
  policy: BookPolicy;
  minWeight: number;
  minKnownWeight: number;
  minGames: number;
  minScore: number;
  random: () => number;

  constructor(
    readonly source: BookSource,
    opts: BookProbeOptions = {},
  ) {
    this.policy = opts.policy ?? 'weighted';
    this.minWeight = opts.minWeight ?? 1;
    this.minKnownWeight = opts.minKnownWeight ?? 1;
    this.minGames = opts.minGames ?? 10;
    this.minScore = opts.minScore ?? 0.5;
    this.random = opts.random ?? Math.random;
  }

  /** Playable book moves (weight ≥ minWeight), optionally restricted to `only`. */
  candidates(pos: Position, only?: readonly number[]): BookCandidate[] {
    const all = this.source.candidates(pos);
    return all.filter((c) => c.weight >= this.minWeight && (!only || only.length === 0 || only.includes(c.move)));
  }

  /** The book move to play, or 0 when out of book. */
  choose(pos: Position, only?: readonly number[]): number {
    const cands = this.candidates(pos, only);
    if (cands.length === 0) return 0;
    if (this.policy === 'best') {
      let best = cands[0]!;
      for (const c of cands) if (c.weight > best.weight) best = c;
      return best.move;
    }
    if (this.policy === 'uniform') return cands[Math.min(cands.length - 1, Math.floor(this.random() * cands.length))]!.move;
    let total = 0;
    for (const c of cands) total += c.weight;
    let draw = Math.floor(this.random() * total);
    for (const c of cands) {
      draw -= c.weight;
      if (draw < 0) return c.move;
    }
    return cands[cands.length - 1]!.move;
  }

  /** Is the position in the book with good statistics for `side` (0 White, 1 Black)? */
  knowsWell(pos: Position, side: number): boolean {
    const cands = this.source.candidates(pos);
    if (cands.length === 0) return false;
    let games = 0;
    let points = 0;
    let weight = 0;
    let counted = false;
    for (const c of cands) {
      weight += c.weight;
      if (c.wins !== undefined || c.draws !== undefined || c.losses !== undefined) {
        counted = true;
        const w = c.wins ?? 0;
        const d = c.draws ?? 0;
        const l = c.losses ?? 0;
        games += w + d + l;
        // Counts are from the mover's side; turn them to `side`'s.
        points += pos.turn === side ? w + d / 2 : l + d / 2;
      }
    }
    if (!counted) return weight >= this.minKnownWeight;
    return games >= this.minGames && points / games >= this.minScore;
  }

  learn(game: LearnGame): void {
    this.source.learn?.(game);
  }
}

/** A Polyglot book (read into memory) as a book source. */
export function polyglotSource(reader: PolyglotReader): BookSource {
  return {
    name: reader.name,
    candidates(pos: Position): BookCandidate[] {
      return reader.moves(pos, { minWeight: 0 }).map((m) => ({ move: m.move, weight: m.weight }));
    },
  };
}

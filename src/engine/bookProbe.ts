/**
 * The engine's view of an opening book, behind one small interface so that Polyglot books and
 * rich books (`.tbk`) plug in the same way:
 *
 *   - `choose(pos)`: the move to play in book, by the book policy (src/book/select/: Terra's
 *     procedure, PolyGlot's and GNU Chess's rules, uniform);
 *   - `avoided(pos)`: the policy's avoid list (Terra: moves set to "never" and moves whose own
 *     results are bad), which the search leaves out when the book has nothing to play;
 *   - `knowsWell(pos, side)`: the position is in the book with good statistics for `side`,
 *     which is what book-aware search asks of each position along the principal variation
 *     (seed 000, Deliverable 3: GNU Chess stopped its search when the PV reached a book
 *     position with wins);
 *   - `learn(game)`: a finished game handed back for book learning, when the source supports it.
 *
 * A source with full statistics (`probe`, the rich book) hands the policy its moves as they
 * are; a Polyglot source gives weights only, which become weight-only moves (`weightOnlyMove`).
 * A Polyglot book knows a position when it has moves for it; its weights already encode
 * results (2·wins + draws in `polyglot make-book`), so "good statistics" means a total weight
 * at or above `minKnownWeight`. Sources with win/draw/loss counts answer by score instead.
 *
 * A source that fails while probing (a large book read on disk whose damage shows only when a
 * damaged entry is read) puts the book out of play: the failure is reported once through
 * `onFailure` and the engine searches as if it had no book, rather than crash mid-game.
 */
import type { Position } from '../core/position.js';
import type { PolyglotReader } from '../book/polyglot/reader.js';
import type { RichMove } from '../book/rich/types.js';
import { avoidedMoves, choose, defaultPolicy, parsePolicyKind, type BookPolicyConfig, type PolicyKind } from '../book/select/index.js';

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
  /** Per ply, the engine's evaluation after its move (centipawns, its view) where it searched. */
  evals?: (number | null)[];
}

/** What a book format provides to the engine. */
export interface BookSource {
  readonly name: string;
  /** Legal book moves of the position (empty when out of book). */
  candidates(pos: Position): BookCandidate[];
  /** Legal moves with full statistics (rich books); when present the policy reads these. */
  probe?(pos: Position): RichMove[];
  /**
   * The weight of the entries the book holds under the position's key that are not playable
   * moves (illegal here, move 0, another position's by a key collision). PolyGlot takes its
   * shares of the total of every entry of the key (polyglot.md §5.1), so these lower the
   * shares of the playable moves; `candidates` leaves them out.
   */
  unplayableWeight?(pos: Position): number;
  /**
   * Boards of the book's stored positions (of at least `minGames` games, reached by a game
   * before ply `beforePly`) that `indexed` lacks, where the book can give them: a version 2
   * `.tbk` replays its games (a walk from the start misses positions of games set up from a FEN,
   * and transpositions of rarer lines); a Polyglot book keeps keys only.
   */
  unreachedBoards?(indexed: (keyHi: number, keyLo: number) => boolean, minGames: number, beforePly: number): Iterable<Position>;
  /** Book learning (optional): called once per finished game; may finish asynchronously. */
  learn?(game: LearnGame): void | Promise<void>;
  /** Lets go of the file a source keeps open (a book searched on disk, a `.tbk`): the engine was given another book. */
  close?(): void;
}

/** A policy name (src/book/select/config.ts), or one of the aliases best, weighted, worst, random. */
export type BookPolicy = PolicyKind | 'best' | 'weighted' | 'worst' | 'random';

export interface BookProbeOptions {
  /** A policy name or a full policy (default: defaultPolicy(), Terra's procedure). */
  policy?: BookPolicy | BookPolicyConfig;
  /** Polyglot sources: moves below this weight are never played (default 1). */
  minWeight?: number;
  /** knowsWell: least total weight of a Polyglot position (default 1). */
  minKnownWeight?: number;
  /** knowsWell with W/D/L counts: least number of games (default 10) ... */
  minGames?: number;
  /** ... and least score for the side asked about, 0..1 (default 0.5). */
  minScore?: number;
  /** Uniform numbers in [0, 1) (default Math.random); inject a seeded one for reproducibility. */
  random?: () => number;
  /** Told once when the source fails and the book goes out of play (the message names the file). */
  onFailure?: (message: string) => void;
}

/** A full policy from a name or a policy (throws for an unknown name). */
export function toPolicy(p: BookPolicy | BookPolicyConfig | undefined): BookPolicyConfig {
  if (p === undefined) return defaultPolicy();
  if (typeof p !== 'string') return { ...p };
  const kind = parsePolicyKind(p);
  if (!kind) throw new Error(`unknown book policy "${p}"`);
  return { ...defaultPolicy(), policy: kind };
}

/**
 * A Polyglot entry as a rich move: the weight is all it has (no games, no user value), which
 * the weight policies use as it is and Terra's procedure as the move's frequency.
 */
export function weightOnlyMove(c: BookCandidate): RichMove {
  return {
    move: c.move,
    wins: c.wins ?? 0,
    draws: c.draws ?? 0,
    losses: c.losses ?? 0,
    avgElo: 0,
    ratedGames: 0,
    dynWins: 0,
    dynDraws: 0,
    dynLosses: 0,
    userValue: -1,
    postBook: false,
    evalCp: 0,
    weight: c.weight,
  };
}

export class BookProbe {
  policy: BookPolicyConfig;
  minWeight: number;
  minKnownWeight: number;
  minGames: number;
  minScore: number;
  random: () => number;
  /** Why the book went out of play, once its source failed. */
  failure: string | undefined;
  private readonly onFailure: ((message: string) => void) | undefined;

  constructor(
    readonly source: BookSource,
    opts: BookProbeOptions = {},
  ) {
    this.policy = toPolicy(opts.policy);
    this.minWeight = opts.minWeight ?? 1;
    this.minKnownWeight = opts.minKnownWeight ?? 1;
    this.minGames = opts.minGames ?? 10;
    this.minScore = opts.minScore ?? 0.5;
    this.random = opts.random ?? Math.random;
    this.onFailure = opts.onFailure;
  }

  /** Playable candidates (weight ≥ minWeight), optionally restricted to `only`. */
  candidates(pos: Position, only?: readonly number[]): BookCandidate[] {
    const all = this.guard(() => this.source.candidates(pos), []);
    return all.filter((c) => c.weight >= this.minWeight && (!only || only.length === 0 || only.includes(c.move)));
  }

  /** The moves the policy chooses among, optionally restricted to `only`. */
  moves(pos: Position, only?: readonly number[]): RichMove[] {
    const source = this.source;
    if (!source.probe) return this.candidates(pos, only).map(weightOnlyMove);
    const all = this.guard(() => source.probe!(pos), []);
    return !only || only.length === 0 ? all : all.filter((m) => only.includes(m.move));
  }

  /** The book move to play, or 0 when out of book. */
  choose(pos: Position, only?: readonly number[]): number {
    return choose(this.policy, this.moves(pos, only), this.random, this.unplayableWeight(pos));
  }

  /** The weight of the position's entries that cannot be played (see `BookSource.unplayableWeight`). */
  unplayableWeight(pos: Position): number {
    const source = this.source;
    return source.unplayableWeight && !source.probe ? this.guard(() => source.unplayableWeight!(pos), 0) : 0;
  }

  /** The policy's avoid list in this position: moves the search should leave out. */
  avoided(pos: Position): number[] {
    if (!this.source.probe) return [];
    return avoidedMoves(this.policy, this.moves(pos));
  }

  /** Is the position in the book with good statistics for `side` (0 White, 1 Black)? */
  knowsWell(pos: Position, side: number): boolean {
    const cands = this.guard(() => this.source.candidates(pos), []);
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

  /** Does the book learn from games (a `.tbk`; a Polyglot `.bin` keeps no learning)? */
  get canLearn(): boolean {
    return this.source.learn !== undefined;
  }

  learn(game: LearnGame): void | Promise<void> {
    if (this.failure !== undefined) return;
    return this.source.learn?.(game);
  }

  /** `ask()`'s answer, or `none` once the source has failed (reported the first time). */
  private guard<T>(ask: () => T, none: T): T {
    if (this.failure !== undefined) return none;
    try {
      return ask();
    } catch (e) {
      this.failure = `${(e as Error).message}; playing on without the book`;
      this.onFailure?.(this.failure);
      return none;
    }
  }
}

/** A Polyglot book (read into memory, or searched on disk) as a book source. */
export function polyglotSource(reader: Pick<PolyglotReader, 'name' | 'entriesOf' | 'moves'>): BookSource {
  return {
    name: reader.name,
    candidates(pos: Position): BookCandidate[] {
      return reader.moves(pos, { minWeight: 0 }).map((m) => ({ move: m.move, weight: m.weight }));
    },
    unplayableWeight(pos: Position): number {
      let total = 0;
      for (const e of reader.entriesOf(pos.keyHi, pos.keyLo)) total += e.weight;
      for (const m of reader.moves(pos, { minWeight: 0 })) total -= m.weight;
      return total;
    },
  };
}

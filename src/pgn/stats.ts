/**
 * Statistics over a PGN collection (what `tabiya pgn stats` prints): results, plies, ratings,
 * years, set-up games, and the first broken games of each kind with their locations.
 */
import type { Position } from '../core/position.js';
import type { PgnErrorKind, PgnGameError, PgnLocation, PgnVisitor } from './visitor.js';

/** A game whose [Result] tag and movetext result disagree, where it starts. */
export interface ResultTagMismatch {
  file: string;
  line: number;
  game: number;
  part?: string;
  /** The [Result] tag's value, as written. */
  tag: string;
  /** The movetext's result token. */
  movetext: string;
}

export interface PgnStatsReport {
  results: Record<string, number>;
  /** Games whose [Result] tag differs from the movetext's result. */
  resultTagMismatches: number;
  /** The first of them (as many as broken games listed per kind), by file and line. */
  firstResultTagMismatches: ResultTagMismatch[];
  plies: { total: number; mean: number; min: number; max: number };
  /** Player ratings (WhiteElo and BlackElo, each counted), by 200-point range. */
  ratings: { count: number; min: number; max: number; mean: number; ranges: Record<string, number> };
  /** Games with both players rated. */
  bothRated: number;
  years: { min: number; max: number } | null;
  /** Games from a [FEN] set-up. */
  setupGames: number;
  /** The first broken games of each kind. */
  firstErrors: PgnGameError[];
}

const RANGES = ['<2000', '2000-2199', '2200-2399', '2400-2599', '2600-2799', '2800+'];
const rangeOf = (elo: number): string => RANGES[elo < 2000 ? 0 : elo >= 2800 ? 5 : Math.floor((elo - 2000) / 200) + 1]!;

export class PgnStats implements PgnVisitor {
  readonly results: Record<string, number> = { '1-0': 0, '0-1': 0, '1/2-1/2': 0, '*': 0 };
  resultTagMismatches = 0;
  totalPlies = 0;
  minPlies = Infinity;
  maxPlies = 0;
  games = 0;
  private ratingCount = 0;
  private ratingSum = 0;
  private ratingMin = Infinity;
  private ratingMax = -Infinity;
  private readonly ranges: Record<string, number> = Object.fromEntries(RANGES.map((r) => [r, 0]));
  bothRated = 0;
  private yearMin = Infinity;
  private yearMax = -Infinity;
  setupGames = 0;
  readonly firstErrors: PgnGameError[] = [];
  readonly firstResultTagMismatches: ResultTagMismatch[] = [];
  private readonly shownByKind = new Map<PgnErrorKind, number>();

  // The current game.
  private plies = 0;
  private resultTag: string | undefined;
  private elos = 0;
  private elo1 = 0;
  private elo2 = 0;
  private year = 0;
  private setup = false;
  private where: PgnLocation | undefined;

  /** Keeps up to `errorsPerKind` locations of each error kind. */
  constructor(private readonly errorsPerKind = 3) {}

  beginGame(loc?: PgnLocation): void {
    this.where = loc;
    this.plies = 0;
    this.resultTag = undefined;
    this.elos = 0;
    this.year = 0;
    this.setup = false;
  }

  tag(name: string, value: string): void {
    switch (name) {
      case 'Result':
        this.resultTag = value;
        break;
      case 'WhiteElo':
      case 'BlackElo': {
        const elo = /^\d{3,4}$/.test(value) ? Number(value) : 0;
        if (elo > 0) {
          if (this.elos++ === 0) this.elo1 = elo;
          else this.elo2 = elo;
        }
        break;
      }
      case 'Date': {
        const y = /^\d{4}/.test(value) ? Number(value.slice(0, 4)) : 0;
        this.year = y;
        break;
      }
      case 'FEN':
        this.setup = true;
        break;
    }
  }

  move(): void {
    this.plies++;
  }

  nullMove(_pos: Position): void {
    this.plies++;
  }

  endGame(result: string): void {
    this.games++;
    this.results[result] = (this.results[result] ?? 0) + 1;
    if (this.resultTag !== undefined && this.resultTag !== result) {
      this.resultTagMismatches++;
      // Named by file and line, as pgn-extract names them ("Inconsistent result strings"), so
      // they can be found and mended: a count alone sends the user searching a large file.
      const w = this.where;
      if (w !== undefined && this.firstResultTagMismatches.length < this.errorsPerKind) {
        const m: ResultTagMismatch = { file: w.file, line: w.line, game: w.game, tag: this.resultTag, movetext: result };
        if (w.part !== undefined) m.part = w.part;
        this.firstResultTagMismatches.push(m);
      }
    }
    this.totalPlies += this.plies;
    if (this.plies < this.minPlies) this.minPlies = this.plies;
    if (this.plies > this.maxPlies) this.maxPlies = this.plies;
    for (let i = 0; i < this.elos && i < 2; i++) {
      const elo = i === 0 ? this.elo1 : this.elo2;
      this.ratingCount++;
      this.ratingSum += elo;
      if (elo < this.ratingMin) this.ratingMin = elo;
      if (elo > this.ratingMax) this.ratingMax = elo;
      this.ranges[rangeOf(elo)]!++;
    }
    if (this.elos >= 2) this.bothRated++;
    if (this.year > 0) {
      if (this.year < this.yearMin) this.yearMin = this.year;
      if (this.year > this.yearMax) this.yearMax = this.year;
    }
    if (this.setup) this.setupGames++;
  }

  error(e: PgnGameError): void {
    const shown = this.shownByKind.get(e.kind) ?? 0;
    if (shown < this.errorsPerKind) {
      this.shownByKind.set(e.kind, shown + 1);
      this.firstErrors.push(e);
    }
  }

  report(): PgnStatsReport {
    return {
      results: { ...this.results },
      resultTagMismatches: this.resultTagMismatches,
      firstResultTagMismatches: [...this.firstResultTagMismatches],
      plies: {
        total: this.totalPlies,
        mean: this.games > 0 ? Math.round((10 * this.totalPlies) / this.games) / 10 : 0,
        min: this.games > 0 ? this.minPlies : 0,
        max: this.maxPlies,
      },
      ratings: {
        count: this.ratingCount,
        min: this.ratingCount > 0 ? this.ratingMin : 0,
        max: this.ratingCount > 0 ? this.ratingMax : 0,
        mean: this.ratingCount > 0 ? Math.round(this.ratingSum / this.ratingCount) : 0,
        ranges: { ...this.ranges },
      },
      bothRated: this.bothRated,
      years: this.yearMin <= this.yearMax ? { min: this.yearMin, max: this.yearMax } : null,
      setupGames: this.setupGames,
      firstErrors: [...this.firstErrors],
    };
  }
}

/**
 * Sampling labelled positions from games, as a PGN visitor. From each finished game (result
 * 1-0, 0-1 or 1/2-1/2), positions are candidates when they come after the first `skipPlies`
 * plies (the opening, usually from a book), the side to move is not in check, and the move that
 * led to them was not a capture (an exchange in progress says little about who stands
 * better). Up to `perGame` candidates are drawn at random (seeded per game, so a run is
 * reproducible), each is made quiet with the engine's quiescence search (resolve.ts), and the
 * quiet leaf is kept with the game's result unless it is in check, a mate is in sight, too few
 * pieces remain, or the same position was already kept. Broken games are skipped and counted.
 */
import { CASTLING, EN_PASSANT, KIND_MASK } from '../core/move.js';
import type { Position } from '../core/position.js';
import { createRng } from '../match/rng.js';
import { makeFen, positionFromFen } from '../notation/fen.js';
import type { PgnGameError, PgnLocation, PgnVisitor } from '../pgn/visitor.js';
import { formatLabeled } from './labels.js';
import { QuietResolver, RESOLVED, RESOLVE_IN_CHECK } from './resolve.js';

export interface SampleOptions {
  skipPlies: number;
  perGame: number;
  seed: number;
  /** Leave out positions with fewer pieces than this (kings included). */
  minPieces: number;
}

export interface SampleCounts {
  games: number;
  /** Games skipped: unfinished (`*`) or too short to have a candidate. */
  unfinished: number;
  /** Games whose [Result] tag and movetext disagree on the result: no label to trust. */
  resultConflict: number;
  noCandidate: number;
  /** Broken games the reader reported. */
  bad: number;
  candidates: number;
  written: number;
  resolved: number;
  inCheck: number;
  mate: number;
  fewPieces: number;
  duplicates: number;
  byResult: { '1-0': number; '0-1': number; '1/2-1/2': number };
}

const RESULT_CODE: Readonly<Record<string, number>> = { '1-0': 2, '0-1': 0, '1/2-1/2': 1 };

export class PositionSampler implements PgnVisitor {
  readonly counts: SampleCounts = {
    games: 0,
    unfinished: 0,
    resultConflict: 0,
    noCandidate: 0,
    bad: 0,
    candidates: 0,
    written: 0,
    resolved: 0,
    inCheck: 0,
    mate: 0,
    fewPieces: 0,
    duplicates: 0,
    byResult: { '1-0': 0, '0-1': 0, '1/2-1/2': 0 },
  };
  /** The first broken games, as `file:line: why`. */
  readonly errors: string[] = [];
  /** The first games skipped for a result their [Result] tag contradicts, as `file:line: why`. */
  readonly conflicts: string[] = [];
  private where: PgnLocation | undefined;
  private fens: string[] = [];
  private lastCapture = false;
  private resultTag = '';
  private readonly seen = new Set<string>();
  private readonly resolver = new QuietResolver();

  constructor(
    private readonly opts: SampleOptions,
    /** Receives every labelled line. */
    private readonly emit: (line: string) => void,
  ) {}

  beginGame(loc?: PgnLocation): void {
    this.where = loc;
    this.fens = [];
    this.lastCapture = false;
    this.resultTag = '';
  }

  tag(name: string, value: string): void {
    if (name === 'Result') this.resultTag = value.trim();
  }

  move(pos: Position, move: number, ply: number): void {
    if (ply >= this.opts.skipPlies && !this.lastCapture && !pos.inCheck()) this.fens.push(makeFen(pos));
    const kind = move & KIND_MASK;
    this.lastCapture = kind === EN_PASSANT || (kind !== CASTLING && pos.board[move & 63] !== 0);
  }

  endGame(result: string): void {
    const code = RESULT_CODE[result];
    const gameIndex = this.counts.games + this.counts.bad;
    this.counts.games++;
    if (code === undefined) {
      this.counts.unfinished++;
      return;
    }
    const tagged = RESULT_CODE[this.resultTag];
    if (tagged !== undefined && tagged !== code) {
      this.counts.resultConflict++;
      // Named, as pgn-extract names it ("Inconsistent result strings"), so it can be mended.
      const w = this.where;
      if (this.conflicts.length < 100 && w !== undefined) this.conflicts.push(`${w.file}:${w.line}: game ${w.game}: [Result "${this.resultTag}"] but the movetext ends ${result}`);
      return;
    }
    if (this.fens.length === 0) {
      this.counts.noCandidate++;
      return;
    }
    this.counts.candidates += this.fens.length;
    const rng = createRng((this.opts.seed ^ Math.imul(gameIndex + 1, 0x9e3779b1)) >>> 0);
    // A partial Fisher–Yates draws perGame distinct plies.
    const fens = this.fens;
    const take = Math.min(this.opts.perGame, fens.length);
    const picked: string[] = [];
    for (let i = 0; i < take; i++) {
      const j = i + rng.int(fens.length - i);
      const t = fens[i]!;
      fens[i] = fens[j]!;
      fens[j] = t;
      picked.push(fens[i]!);
    }
    for (const fen of picked) this.label(fen, code, result);
  }

  error(e: PgnGameError): void {
    this.counts.bad++;
    if (this.errors.length < 100) this.errors.push(`${e.file}:${e.line}: game ${e.game}: ${e.message}`);
  }

  private label(fen: string, code: number, result: string): void {
    const r = positionFromFen(fen);
    if (!r.ok) return;
    const pos = r.value;
    const status = this.resolver.resolve(pos);
    if (status !== RESOLVED) {
      if (status === RESOLVE_IN_CHECK) this.counts.inCheck++;
      else this.counts.mate++;
      return;
    }
    if (this.resolver.plies > 0) this.counts.resolved++;
    let pieces = 0;
    for (let sq = 0; sq < 64; sq++) if (pos.board[sq] !== 0) pieces++;
    if (pieces < this.opts.minPieces) {
      this.counts.fewPieces++;
      return;
    }
    const epd = makeFen(pos).split(' ').slice(0, 4).join(' ');
    if (this.seen.has(epd)) {
      this.counts.duplicates++;
      return;
    }
    this.seen.add(epd);
    this.counts.written++;
    this.counts.byResult[result as keyof SampleCounts['byResult']]++;
    this.emit(formatLabeled(epd, code));
  }
}

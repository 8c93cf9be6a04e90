/**
 * User-set values (Terra's `bookeval`, seed 001): 0..100, where 100 means "always play" and 0
 * "never play" (the move goes to the avoid list), set by hand or from NAGs in a PGN of lines.
 *
 *   !! 100   ! 75   !? 15   ?! 15   ? 0   ?? 0
 *
 * Terra's table gives `!?` 15 ("very seldom"); its worked example marks d5 "=?!" with the value
 * 15, which is the only value it gives for `?!`, so both read 15. `??` is not in Terra's
 * table; it is read as "never", like `?`. A move set by hand or by a NAG that is not in the book
 * yet is added (with no games), as Terra's avoid list needs it.
 *
 * Lines (Terra's rules): every game of the PGN is one line, a tag separates lines (no result
 * token needed), only main-line NAGs count, and when one move gets several NAGs over the file
 * the last one wins; moves without a NAG keep their value.
 */
import type { Position } from '../../core/position.js';
import { err, ok, ParseError, type Result } from '../../core/result.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import { USER_NONE } from './format.js';
import type { RichTable } from './table.js';

/** A value to set: 0..100, or 'clear' (unset the user value and the dynamic statistics). */
export type UserValue = number | 'clear';

const GLYPHS: Record<string, number> = { '!!': 100, '!': 75, '!?': 15, '?!': 15, '?': 0, '??': 0 };
/** NAG numbers $1..$6 (!, ?, !!, ??, !?, ?!) → values. */
const NAG_VALUES = [-1, 75, 0, 100, 0, 15, 15];

/** Parses `--value`: 0..100, a glyph (!!, !, !?, ?!, ?, ??) or `clear`. */
export function parseUserValue(s: string): Result<UserValue> {
  const t = s.trim();
  if (t === 'clear') return ok('clear');
  if (t in GLYPHS) return ok(GLYPHS[t]!);
  if (/^\d{1,3}$/.test(t) && Number(t) <= 100) return ok(Number(t));
  return err(new ParseError('ERR_USER_VALUE', `"${s}" is not a user value (0..100, !!, !, !?, ?!, ?, ?? or clear)`));
}

/** The value a NAG number sets, or -1 for NAGs that say nothing about the move's value. */
export function nagValue(nag: number): number {
  return nag >= 1 && nag <= 6 ? NAG_VALUES[nag]! : -1;
}

/** Sets (or clears) the user value of a move in a position; returns the row. */
export function setUserValue(t: RichTable, keyLo: number, keyHi: number, move: number, black: number, value: UserValue): number {
  const r = t.findOrCreate(keyLo, keyHi, move, black);
  if (value === 'clear') {
    t.user[r] = USER_NONE;
    t.dynWins[r] = 0;
    t.dynDraws[r] = 0;
    t.dynLosses[r] = 0;
  } else t.user[r] = value;
  return r;
}

/** Counts of an annotate run. */
export interface AnnotateStats {
  lines: number;
  /** NAGs applied (a move set twice counts twice). */
  values: number;
  /** Moves added to the book because a line gave them a value. */
  added: number;
  /** Broken lines skipped. */
  skipped: number;
}

/**
 * A PGN of lines, as Terra writes them: a line cut short by the next tag or the end of the file
 * (no result token) still counts and is applied; a line with an illegal move is dropped and
 * reported.
 */
export abstract class LinesVisitor implements PgnVisitor {
  constructor(private readonly report: (e: PgnGameError) => void) {}

  endGame(): void {
    this.apply();
  }

  error(e: PgnGameError): void {
    if (e.kind === 'missing-result') {
      this.apply();
      return;
    }
    this.drop();
    this.report(e);
  }

  /** The line ended: what it gave counts. */
  protected abstract apply(): void;
  /** The line is broken: what it gave is forgotten and counted as skipped. */
  protected abstract drop(): void;
}

/**
 * The PGN visitor of `book annotate`: collects each line's (position, move, value) and applies
 * them in file order when the line ends.
 */
export class AnnotateVisitor extends LinesVisitor {
  readonly stats: AnnotateStats = { lines: 0, values: 0, added: 0, skipped: 0 };
  private pending: number[] = [];
  private lastLo = 0;
  private lastHi = 0;
  private lastMove = -1;
  private lastBlack = 0;

  constructor(
    private readonly table: RichTable,
    onError: (e: PgnGameError) => void = () => {},
  ) {
    super(onError);
  }

  beginGame(): void {
    this.pending = [];
    this.lastMove = -1;
  }

  move(pos: Position, m: number): void {
    this.lastLo = pos.keyLo;
    this.lastHi = pos.keyHi;
    this.lastMove = m;
    this.lastBlack = pos.turn;
  }

  nag(nag: number, depth: number): void {
    if (depth !== 0 || this.lastMove < 0) return;
    const v = nagValue(nag);
    if (v >= 0) this.pending.push(this.lastLo, this.lastHi, this.lastMove, this.lastBlack, v);
  }

  protected drop(): void {
    this.pending = [];
    this.stats.skipped++;
  }

  protected apply(): void {
    const p = this.pending;
    const t = this.table;
    for (let i = 0; i < p.length; i += 5) {
      const before = t.size;
      setUserValue(t, p[i]!, p[i + 1]!, p[i + 2]!, p[i + 3]!, p[i + 4]!);
      if (t.size > before) this.stats.added++;
      this.stats.values++;
    }
    this.stats.lines++;
    this.pending = [];
  }
}

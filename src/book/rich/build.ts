/**
 * Counting games into a rich book: the PGN visitor behind `book make` and `book add`.
 *
 * The walk is make-book's (src/book/polyglot/collect.ts): the result comes from the [Result]
 * tag, only plies 0..maxPly-1 are recorded and the rest of the game is not decoded, and a game
 * is buffered in typed arrays until `endGame`, so a broken one leaves nothing behind. What it
 * adds: the core move (make-book keeps only its Polyglot form), the movers' ratings
 * ([WhiteElo]/[BlackElo]) and W/D/L from the mover's side.
 *
 * A game without a decisive or drawn result (`*`, missing, anything else) counts as a draw in
 * make-book's counters, exactly as make-book counts it, so that export stays byte-identical;
 * it does not count in the W/D/L statistics, which hold finished games only.
 */
import type { Position } from '../../core/position.js';
import type { PgnGameError, PgnVisitor } from '../../pgn/visitor.js';
import type { RichTable } from './table.js';

export class RichGameVisitor implements PgnVisitor {
  private keysLo = new Int32Array(256);
  private keysHi = new Int32Array(256);
  private moves = new Uint16Array(256);
  private count = 0;
  private result = 0;
  private known = false;
  private whiteElo = 0;
  private blackElo = 0;
  private firstBlack = 0;
  /** Games counted, moves recorded, broken games seen. */
  games = 0;
  positions = 0;
  errors = 0;

  constructor(
    private readonly table: RichTable,
    private readonly maxPly: number,
    private readonly onError: (e: PgnGameError) => void = () => {},
  ) {}

  beginGame(): void {
    this.count = 0;
    this.result = 0;
    this.known = false;
    this.whiteElo = 0;
    this.blackElo = 0;
  }

  tag(name: string, value: string): void {
    if (name === 'Result') {
      this.result = value === '1-0' ? 1 : value === '0-1' ? -1 : 0;
      this.known = value === '1-0' || value === '0-1' || value === '1/2-1/2';
    } else if (name === 'WhiteElo') this.whiteElo = rating(value);
    else if (name === 'BlackElo') this.blackElo = rating(value);
  }

  endTags(pos: Position): void {
    this.firstBlack = pos.turn;
  }

  move(pos: Position, m: number, ply: number): boolean {
    if (ply >= this.maxPly) return false;
    const n = this.count;
    if (n === this.moves.length) this.grow();
    this.keysLo[n] = pos.keyLo;
    this.keysHi[n] = pos.keyHi;
    this.moves[n] = m;
    this.count = n + 1;
    return true;
  }

  endGame(): void {
    this.games++;
    this.positions += this.count;
    const t = this.table;
    for (let k = 0; k < this.count; k++) {
      const black = (this.firstBlack + k) & 1;
      t.count(this.keysLo[k]!, this.keysHi[k]!, this.moves[k]!, black, black ? -this.result : this.result, black ? this.blackElo : this.whiteElo, this.known);
    }
    this.count = 0;
  }

  error(e: PgnGameError): void {
    this.count = 0;
    this.errors++;
    this.onError(e);
  }

  private grow(): void {
    const n = this.moves.length * 2;
    const lo = new Int32Array(n);
    const hi = new Int32Array(n);
    const mv = new Uint16Array(n);
    lo.set(this.keysLo);
    hi.set(this.keysHi);
    mv.set(this.moves);
    this.keysLo = lo;
    this.keysHi = hi;
    this.moves = mv;
  }
}

/** A rating tag's value, or 0 when it is not a plausible rating. */
export function rating(value: string): number {
  if (!/^\d{3,4}$/.test(value.trim())) return 0;
  const n = parseInt(value, 10);
  return n >= 100 && n <= 4000 ? n : 0;
}

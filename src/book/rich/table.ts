/**
 * A rich book being built or changed: one row per (position key, move) in typed-array columns
 * that grow by doubling, and an open-addressing index of row numbers.
 *
 * The index is probed linearly from the key's low bits alone (as make-book's accumulator does),
 * so every move of a position lies in one probe run: that is what Polyglot's halving walks
 * (all moves of the position are halved when one of them reaches 16,384 games) and what
 * "does this position have book moves" asks.
 *
 * Rows are never removed here; filters are applied when the table is serialised.
 */
import { COUNT_MAX } from '../polyglot/make.js';
import { EF_BLACK, EF_POSTBOOK, USER_NONE } from './format.js';
import { meanWithOne } from './runningMean.js';

export class RichTable {
  size = 0;
  keyLo: Int32Array = new Int32Array(0);
  keyHi: Int32Array = new Int32Array(0);
  move: Uint16Array = new Uint16Array(0);
  flags: Uint8Array = new Uint8Array(0);
  user: Uint8Array = new Uint8Array(0);
  wins: Uint32Array = new Uint32Array(0);
  draws: Uint32Array = new Uint32Array(0);
  losses: Uint32Array = new Uint32Array(0);
  rated: Uint32Array = new Uint32Array(0);
  dynWins: Uint32Array = new Uint32Array(0);
  dynDraws: Uint32Array = new Uint32Array(0);
  dynLosses: Uint32Array = new Uint32Array(0);
  eloSum: Float64Array = new Float64Array(0);
  pgN: Uint16Array = new Uint16Array(0);
  pgSum: Uint16Array = new Uint16Array(0);
  evalCp: Int16Array = new Int16Array(0);
  evalN: Uint16Array = new Uint16Array(0);
  seq: Uint32Array = new Uint32Array(0);
  learn: Uint32Array = new Uint32Array(0);
  /** Next first-seen number to hand out. */
  nextSeq = 0;

  private slots: Int32Array;
  private mask: number;

  constructor(expected = 1024) {
    let cap = 1024;
    while (cap < expected) cap *= 2;
    this.resize(cap);
    this.slots = new Int32Array(cap * 2);
    this.mask = cap * 2 - 1;
  }

  /** Row of (key, move), or -1. */
  find(keyLo: number, keyHi: number, move: number): number {
    keyLo |= 0;
    keyHi |= 0;
    const slots = this.slots;
    const mask = this.mask;
    for (let i = keyLo & mask; ; i = (i + 1) & mask) {
      const s = slots[i]!;
      if (s === 0) return -1;
      const r = s - 1;
      if (this.keyLo[r] === keyLo && this.keyHi[r] === keyHi && this.move[r] === move) return r;
    }
  }

  /** Row of (key, move), created empty (first-seen number assigned) when missing. */
  findOrCreate(keyLo: number, keyHi: number, move: number, black: number): number {
    keyLo |= 0;
    keyHi |= 0;
    const slots = this.slots;
    const mask = this.mask;
    let i = keyLo & mask;
    for (; ; i = (i + 1) & mask) {
      const s = slots[i]!;
      if (s === 0) break;
      const r = s - 1;
      if (this.keyLo[r] === keyLo && this.keyHi[r] === keyHi && this.move[r] === move) return r;
    }
    const r = this.append(keyLo, keyHi, move, black ? EF_BLACK : 0);
    this.seq[r] = this.nextSeq++;
    if (this.slots === slots) slots[i] = r + 1;
    else this.insertSlot(r);
    return r;
  }

  /**
   * Appends a row without looking for an existing one (loading a book, whose rows are unique);
   * the caller sets `seq`. May grow the index.
   */
  append(keyLo: number, keyHi: number, move: number, flags: number): number {
    const r = this.size++;
    if (r === this.keyLo.length) this.resize(r * 2);
    this.keyLo[r] = keyLo;
    this.keyHi[r] = keyHi;
    this.move[r] = move;
    this.flags[r] = flags;
    this.user[r] = USER_NONE;
    if (this.size * 2 > this.slots.length) this.rehash();
    return r;
  }

  /** Indexes a row made by `append` (when the index did not grow meanwhile). */
  index(r: number): void {
    this.insertSlot(r);
  }

  /**
   * One game move: fixed W/D/L from the mover's side (`moverResult` +1, 0, -1) and the mover's
   * rating (0 = none) when the result is `known`, and make-book's counters with its halving
   * in any case (make-book counts an unfinished game as a draw). Returns the row.
   */
  count(keyLo: number, keyHi: number, move: number, black: number, moverResult: number, elo: number, known: boolean): number {
    keyLo |= 0;
    keyHi |= 0;
    const before = this.size;
    const r = this.findOrCreate(keyLo, keyHi, move, black);
    // A row made earlier without games (book set, annotate, a PostBook move) is created by
    // make-book only now: its first-seen number, which breaks weight ties on export, too.
    if (this.size === before && this.pgN[r] === 0 && this.pgSum[r] === 0) this.seq[r] = this.nextSeq++;
    if (known) {
      if (moverResult > 0) this.wins[r]!++;
      else if (moverResult < 0) this.losses[r]!++;
      else this.draws[r]!++;
      if (elo > 0) {
        this.rated[r]!++;
        this.eloSum[r]! += elo;
      }
    }
    this.flags[r]! &= ~EF_POSTBOOK;
    const n = this.pgN[r]! + 1;
    this.pgN[r] = n;
    this.pgSum[r]! += moverResult + 1;
    if (n >= COUNT_MAX) this.halve(keyLo, keyHi);
    return r;
  }

  /** Calls `fn` with every row of the key (any order). */
  rowsOf(keyLo: number, keyHi: number, fn: (r: number) => void): void {
    keyLo |= 0;
    keyHi |= 0;
    const slots = this.slots;
    const mask = this.mask;
    for (let i = keyLo & mask; slots[i] !== 0; i = (i + 1) & mask) {
      const r = slots[i]! - 1;
      if (this.keyLo[r] === keyLo && this.keyHi[r] === keyHi) fn(r);
    }
  }

  /** Does the key have a row that is a book move (not only PostBook)? */
  hasBookMoves(keyLo: number, keyHi: number): boolean {
    keyLo |= 0;
    keyHi |= 0;
    const slots = this.slots;
    const mask = this.mask;
    for (let i = keyLo & mask; slots[i] !== 0; i = (i + 1) & mask) {
      const r = slots[i]! - 1;
      if (this.keyLo[r] === keyLo && this.keyHi[r] === keyHi && (this.flags[r]! & EF_POSTBOOK) === 0) return true;
    }
    return false;
  }

  // The row operations book learning needs (learn.ts), shared with BookPatch (patch.ts).

  isPostBook(r: number): boolean {
    return (this.flags[r]! & EF_POSTBOOK) !== 0;
  }

  hasUserValue(r: number): boolean {
    return this.user[r] !== USER_NONE;
  }

  markPostBook(r: number): void {
    this.flags[r]! |= EF_POSTBOOK;
  }

  /** One more game of the engine's: +1 won, 0 drawn, -1 lost. */
  addDynamic(r: number, result: number): void {
    if (result > 0) this.dynWins[r]!++;
    else if (result < 0) this.dynLosses[r]!++;
    else this.dynDraws[r]!++;
  }

  /** One more evaluation (centipawns, in int16 range) into the row's running mean. */
  addEval(r: number, cp: number): void {
    const n = this.evalN[r]!;
    this.evalCp[r] = meanWithOne(this.evalCp[r]!, n, cp);
    if (n < 0xffff) this.evalN[r] = n + 1;
  }

  /** Fixed games of a row. */
  games(r: number): number {
    return this.wins[r]! + this.draws[r]! + this.losses[r]!;
  }

  /** make-book's halving: every move of the position, n and sum halved rounding up. */
  private halve(keyLo: number, keyHi: number): void {
    this.rowsOf(keyLo, keyHi, (r) => {
      this.pgN[r] = (this.pgN[r]! + 1) >>> 1;
      this.pgSum[r] = (this.pgSum[r]! + 1) >>> 1;
    });
  }

  private insertSlot(r: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = this.keyLo[r]! & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = r + 1;
  }

  private rehash(): void {
    const n = this.slots.length * 2;
    this.slots = new Int32Array(n);
    this.mask = n - 1;
    for (let r = 0; r < this.size - 1; r++) this.insertSlot(r);
  }

  private resize(cap: number): void {
    const grow = <T extends { length: number; set(a: ArrayLike<number>): void }>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a as unknown as ArrayLike<number>);
      return b;
    };
    this.keyLo = grow(this.keyLo, (n) => new Int32Array(n));
    this.keyHi = grow(this.keyHi, (n) => new Int32Array(n));
    this.move = grow(this.move, (n) => new Uint16Array(n));
    this.flags = grow(this.flags, (n) => new Uint8Array(n));
    this.user = grow(this.user, (n) => new Uint8Array(n));
    this.wins = grow(this.wins, (n) => new Uint32Array(n));
    this.draws = grow(this.draws, (n) => new Uint32Array(n));
    this.losses = grow(this.losses, (n) => new Uint32Array(n));
    this.rated = grow(this.rated, (n) => new Uint32Array(n));
    this.dynWins = grow(this.dynWins, (n) => new Uint32Array(n));
    this.dynDraws = grow(this.dynDraws, (n) => new Uint32Array(n));
    this.dynLosses = grow(this.dynLosses, (n) => new Uint32Array(n));
    this.eloSum = grow(this.eloSum, (n) => new Float64Array(n));
    this.pgN = grow(this.pgN, (n) => new Uint16Array(n));
    this.pgSum = grow(this.pgSum, (n) => new Uint16Array(n));
    this.evalCp = grow(this.evalCp, (n) => new Int16Array(n));
    this.evalN = grow(this.evalN, (n) => new Uint16Array(n));
    this.seq = grow(this.seq, (n) => new Uint32Array(n));
    this.learn = grow(this.learn, (n) => new Uint32Array(n));
  }
}

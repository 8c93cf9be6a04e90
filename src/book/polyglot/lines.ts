/**
 * The walk behind `dump-book` and `info-book` (polyglot.md §4), reproduced step for step so
 * that dumps and counts come out identical to PolyGlot 2.0.4's.
 *
 * From the start position, "book" nodes (the chosen colour to move) follow every legal book
 * move with weight > 0 in file order; "all" nodes (the opponent to move) follow every legal
 * move, in PolyGlot's generation order, that leads to a position with book moves. A line
 * ends at a leaf, at a position repeated earlier on the same line (`{cycle: ply=P}`), or at a
 * position already visited by an earlier line (`{trans: line=L, ply=P}`). The `exact`
 * variant (info-book -exact) follows every legal move at book nodes and detects
 * transpositions at book nodes only; like PolyGlot it keeps one array of line keys across
 * walks, so a stale key can end a line just as it does there.
 */
import { generateLegal } from '../../core/movegen.js';
import { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { BLACK, MAX_MOVES, WHITE } from '../../core/types.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { makeSan } from '../../notation/san.js';
import { CHILD_KEY, childKey } from './childKey.js';
import { ENTRY_SIZE, encodeMove, u32 } from './format.js';
import { MAX_PLY, PgBoard } from './pgOrder.js';
import type { PolyglotReader } from './reader.js';


export interface WalkOptions {
  /** Colour whose book moves are followed (the other one plays any reply). */
  colour: number;
  /** info-book -exact: every legal move at book nodes, transpositions checked there only. */
  exact?: boolean;
  /** Receives the text of each finished line (dump). */
  output?: (line: string) => void;
}

export class LineWalker {
  /** Colour marked on the first entry of each key reached as a book node (info-book). */
  readonly reached = new Map<number, number>();
  private readonly keysHi = new Int32Array(MAX_PLY);
  private readonly keysLo = new Int32Array(MAX_PLY);
  /** Positions met in this walk: the line and the height where first met. */
  private visited = new KeyTable();
  private line = 1;
  private height = 0;
  private opts: WalkOptions = { colour: WHITE };
  private readonly sans: string[] = [];
  private readonly probs = new Float64Array(MAX_PLY);
  /** Legal moves per height, MAX_MOVES slots each. */
  private readonly moveBuf = new Uint16Array(MAX_PLY * MAX_MOVES);
  private readonly scratch = new Uint16Array(MAX_MOVES);
  private readonly index: KeyTable;

  constructor(private readonly book: PolyglotReader) {
    this.index = keyIndex(book);
  }

  /** Walks from the start position; returns the number of lines. */
  walk(opts: WalkOptions): number {
    this.opts = opts;
    this.line = 1;
    this.height = 0;
    this.visited = new KeyTable(1 << 16);
    const board = new PgBoard(unwrap(positionFromFen(STARTING_FEN, new Position())));
    this.search(board, opts.colour === WHITE);
    return this.line - 1;
  }

  /** First entry of the position's key in the book, or -1 (also when that entry is a0a0). */
  private firstEntry(pos: Position): number {
    const first = this.index.get(pos.keyHi, pos.keyLo);
    if (first < 0) return -1;
    const o = first * ENTRY_SIZE + 8;
    return ((this.book.bytes[o]! << 8) | this.book.bytes[o + 1]!) === 0 ? -1 : first;
  }

  /** Does the position have a legal book move of weight > 0? */
  private hasBookMove(pos: Position): boolean {
    const first = this.firstEntry(pos);
    if (first < 0) return false;
    const bytes = this.book.bytes;
    const n = generateLegal(pos, this.scratch, 0);
    for (let i = first; i < this.book.size; i++) {
      const o = i * ENTRY_SIZE;
      if (i > first && (u32(bytes, o) !== pos.keyHi >>> 0 || u32(bytes, o + 4) !== pos.keyLo >>> 0)) break;
      const pm = (bytes[o + 8]! << 8) | bytes[o + 9]!;
      if (pm === 0 || ((bytes[o + 10]! << 8) | bytes[o + 11]!) === 0) continue;
      for (let k = 0; k < n; k++) if (encodeMove(this.scratch[k]!) === pm) return true;
    }
    return false;
  }

  /** Legal book moves (weight > 0) of the position in file order, with their weights. */
  private bookMoves(pos: Position, first: number): { moves: number[]; weights: number[] } {
    const bytes = this.book.bytes;
    const moves: number[] = [];
    const weights: number[] = [];
    const n = generateLegal(pos, this.scratch, 0);
    for (let i = first; i < this.book.size; i++) {
      const o = i * ENTRY_SIZE;
      if (i > first && (u32(bytes, o) !== pos.keyHi >>> 0 || u32(bytes, o + 4) !== pos.keyLo >>> 0)) break;
      const pm = (bytes[o + 8]! << 8) | bytes[o + 9]!;
      const w = (bytes[o + 10]! << 8) | bytes[o + 11]!;
      if (pm === 0 || w === 0) continue;
      for (let k = 0; k < n; k++) {
        if (encodeMove(this.scratch[k]!) !== pm) continue;
        moves.push(this.scratch[k]!);
        weights.push(w);
        break;
      }
    }
    return { moves, weights };
  }

  private search(board: PgBoard, bookNode: boolean): number {
    const pos = board.pos;
    const exact = this.opts.exact === true;
    const height = this.height;
    for (let i = 0; i < height; i++) {
      if (this.keysHi[i] === pos.keyHi && this.keysLo[i] === pos.keyLo) {
        this.emit(`{cycle: ply=${i}}`);
        return 1;
      }
    }
    if (!exact || bookNode) {
      this.keysHi[height] = pos.keyHi;
      this.keysLo[height] = pos.keyLo;
      const seen = this.visited.get(pos.keyHi, pos.keyLo);
      if (seen >= 0) {
        this.emit(`{trans: line=${seen}, ply=${this.visited.aux}}`);
        return 1;
      }
      this.visited.add(pos.keyHi, pos.keyLo, this.line, height);
    }
    // The moves to follow, at buf[base .. base + count).
    const buf = this.moveBuf;
    const base = height * MAX_MOVES;
    let count = 0;
    let shares: number[] | undefined;
    if (bookNode) {
      const first = this.firstEntry(pos);
      if (first >= 0) {
        this.reached.set(first, pos.turn);
        if (!exact) {
          const bm = this.bookMoves(pos, first);
          let sum = 0;
          for (const w of bm.weights) sum += w;
          for (let i = 0; i < bm.moves.length; i++) {
            buf[base + i] = bm.moves[i]!;
          }
          count = bm.moves.length;
          shares = bm.weights.map((w) => w / sum);
        }
      }
      if (exact) count = board.legalMoves(buf, base) - base;
    } else {
      const end = board.legalMoves(buf, base);
      for (let i = base; i < end; i++) {
        const m = buf[i]!;
        // Most replies leave the book: look their key up before playing them.
        childKey(pos, m);
        if (this.index.get(CHILD_KEY[1]!, CHILD_KEY[0]!) < 0) continue;
        pos.play(m);
        if (this.hasBookMove(pos)) buf[base + count++] = m;
        pos.undo();
      }
    }
    let lines = 0;
    for (let i = 0; i < count; i++) {
      const m = buf[base + i]!;
      if (this.opts.output) this.sans[height] = makeSan(pos, m);
      this.probs[height] = shares !== undefined ? shares[i]! : 0;
      board.play(m);
      this.height = height + 1;
      let ret = this.search(board, !bookNode);
      board.undo();
      if (ret === 0 && bookNode) {
        this.emit('');
        ret = 1;
      }
      this.height = height;
      lines += ret;
    }
    return lines;
  }

  /** Writes the current line (moves 0..height-1) with its ending, and counts it. */
  private emit(ending: string): void {
    const out = this.opts.output;
    if (out) {
      let s = `${this.line}: `;
      let white = true;
      for (let i = 0; i < this.height; i++) {
        if (white) s += `${(i >> 1) + 1}. `;
        white = !white;
        s += this.sans[i];
        // The followed colour's moves carry their share, as PolyGlot's "%.0f" prints it.
        if (!white === (this.opts.colour === WHITE)) s += `{${formatPercent(100 * this.probs[i]!)}%} `;
        else s += ' ';
      }
      out(s + ending + '\n');
    }
    this.line++;
  }
}

/** An open-addressing map from a 64-bit key (two int32 halves) to a number and an int32. */
export class KeyTable {
  /** Per slot: key low, key high, value + 1 (0 = empty), second value. */
  private slots: Int32Array;
  private mask: number;
  size = 0;
  /** The second value of the last key found by `get`. */
  aux = 0;

  constructor(expected = 1024) {
    let cap = 1024;
    while (cap < expected * 2) cap *= 2;
    this.slots = new Int32Array(cap * 4);
    this.mask = cap - 1;
  }

  /** The value of the key (its second value goes to `aux`), or -1. */
  get(hi: number, lo: number): number {
    const s = this.slots;
    for (let i = lo & this.mask; ; i = (i + 1) & this.mask) {
      const o = i << 2;
      const v = s[o + 2]!;
      if (v === 0) return -1;
      if (s[o] === lo && s[o + 1] === hi) {
        this.aux = s[o + 3]!;
        return v - 1;
      }
    }
  }

  /** Sets the values of a key that is not in the table yet (value < 2^31 - 1). */
  add(hi: number, lo: number, value: number, aux = 0): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.size++;
    const s = this.slots;
    let i = lo & this.mask;
    while (s[(i << 2) + 2] !== 0) i = (i + 1) & this.mask;
    const o = i << 2;
    s[o] = lo;
    s[o + 1] = hi;
    s[o + 2] = value + 1;
    s[o + 3] = aux;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    this.size = 0;
    for (let o = 0; o < old.length; o += 4) if (old[o + 2] !== 0) this.add(old[o + 1]!, old[o]!, old[o + 2]! - 1, old[o + 3]!);
  }
}

/** Distinct keys of a sorted book → index of their first entry. */
function keyIndex(book: PolyglotReader): KeyTable {
  const t = new KeyTable(book.size);
  const b = book.bytes;
  let ph = -1;
  let pl = -1;
  for (let i = 0; i < book.size; i++) {
    const h = u32(b, i * ENTRY_SIZE) | 0;
    const l = u32(b, i * ENTRY_SIZE + 4) | 0;
    if (h === ph && l === pl) continue;
    ph = h;
    pl = l;
    t.add(h, l, i);
  }
  return t;
}

/** C's `printf("%.0f")`: round half to even on the exact double. */
export function formatPercent(v: number): string {
  const f = Math.floor(v);
  const d = v - f;
  const r = d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
  return String(r);
}

/** Counts of info-book: lines, positions on lines, and (exact) unreachable ones. */
export interface LineCounts {
  linesWhite: number;
  linesBlack: number;
  positionsWhite: number;
  positionsBlack: number;
  /** Only with exact. */
  unreachableWhite?: number;
  unreachableBlack?: number;
  isolated: number;
  /** Distinct keys counted. */
  positions: number;
}

/** Runs info-book's walks (`exact` adds the unreachable counts). */
export function countLines(book: PolyglotReader, exact = false): LineCounts {
  const walker = new LineWalker(book);
  const linesWhite = walker.walk({ colour: WHITE });
  const linesBlack = walker.walk({ colour: BLACK });
  const count = (): { white: number; black: number; total: number } => {
    let white = 0;
    let black = 0;
    let total = 0;
    let lastHi = 0;
    let lastLo = 0;
    for (let i = 0; i < book.size; i++) {
      const h = u32(book.bytes, i * ENTRY_SIZE);
      const l = u32(book.bytes, i * ENTRY_SIZE + 4);
      if (h === lastHi && l === lastLo) continue;
      lastHi = h;
      lastLo = l;
      total++;
      const c = walker.reached.get(i);
      if (c === WHITE) white++;
      else if (c === BLACK) black++;
    }
    return { white, black, total };
  };
  const normal = count();
  const result: LineCounts = {
    linesWhite,
    linesBlack,
    positionsWhite: normal.white,
    positionsBlack: normal.black,
    isolated: normal.total - normal.white - normal.black,
    positions: normal.total,
  };
  if (exact) {
    walker.walk({ colour: WHITE, exact: true });
    walker.walk({ colour: BLACK, exact: true });
    const ext = count();
    result.unreachableWhite = ext.white - normal.white;
    result.unreachableBlack = ext.black - normal.black;
    result.isolated = normal.total - ext.white - ext.black;
  }
  return result;
}

/** info-book's rows, as PolyGlot prints them. */
export function formatLineCounts(c: LineCounts): string {
  const row = (label: string, n: number): string => `${label.padEnd(31)}: ${String(n).padStart(8)}\n`;
  let s = row('Lines for white', c.linesWhite) + row('Lines for black', c.linesBlack);
  s += row('Positions on lines for white', c.positionsWhite) + row('Positions on lines for black', c.positionsBlack);
  if (c.unreachableWhite !== undefined) {
    s += row('Unreachable white positions(?)', c.unreachableWhite) + row('Unreachable black positions(?)', c.unreachableBlack!);
  }
  return s + row('Isolated positions', c.isolated);
}

/** dump-book's text for one colour, header included. */
export function dumpLines(book: PolyglotReader, colour: number, name: string): string {
  const parts: string[] = [`Dump of "${name}" for ${colour === WHITE ? 'white' : 'black'}.\n`];
  new LineWalker(book).walk({ colour, output: (s) => parts.push(s) });
  return parts.join('');
}

/**
 * The real games the generator recombines: every main line of a PGN collection as SAN bytes,
 * the result, and an index of the positions of each game's first SPLICE_PLIES plies by Polyglot
 * key, so that a game can leave its own moves at any of those positions and go on with the
 * moves of another game that reached the same position (a transposition: same pieces, side to
 * move, castling and en-passant rights, so every move of the other game stays legal and keeps
 * its SAN). Everything lives in SharedArrayBuffers, built once and read by every worker.
 */
import type { Position } from '../../src/core/position.js';
import { readPgn } from '../../src/pgn/reader.js';
import { writeSan } from '../../src/pgn/sanWriter.js';
import type { Openings } from './openings.js';

/** Positions 0..SPLICE_PLIES of each game are indexed (deeper ones rarely occur twice). */
export const SPLICE_PLIES = 40;
/** Index entries per game: entry g * ENTRIES + p is the position of game g after p plies. */
export const ENTRIES = SPLICE_PLIES + 1;

export const WHITE_WINS = 0;
export const BLACK_WINS = 1;
export const DRAW = 2;

export interface Corpus {
  games: number;
  /** The SAN of every move, one after another without separators. */
  san: Uint8Array;
  /** Game g's ply i spans san[moveStart[first[g] + i] .. moveStart[first[g] + i + 1]). */
  moveStart: Uint32Array;
  first: Uint32Array;
  plies: Uint16Array;
  /** WHITE_WINS, BLACK_WINS or DRAW. */
  result: Uint8Array;
  /** Per entry: its position's group (entries with the same position), -1 past the game's end. */
  group: Int32Array;
  /** Group k's entries are members[groupStart[k] .. groupStart[k + 1]). */
  groupStart: Uint32Array;
  members: Uint32Array;
  /** Per entry: the move that led there (16-bit move code; 0 at ply 0). */
  lastMove: Uint16Array;
  /** Per entry: 1 if some game reached the same position by another last move (a transposition). */
  transposing: Uint8Array;
  /** Per game: its deepest transposing ply (≤ SPLICE_PLIES), 0 if none. */
  deepestTransposing: Uint8Array;
  /** Per entry: the opening of the last named position up to that ply (-1: none), and its ply. */
  opening: Int16Array;
  openingPly: Uint8Array;
}

/** Reads the main lines of `file` (set-up games, games with null moves and unfinished games left out). */
export async function buildCorpus(file: string, openings: Openings): Promise<Corpus> {
  if (openings.maxPly > SPLICE_PLIES) throw new Error(`opening names go ${openings.maxPly} plies deep, past the ${SPLICE_PLIES} indexed`);
  const san = new Grow(Uint8Array, 1 << 24);
  const moveStart = new Grow(Uint32Array, 1 << 22);
  const first = new Grow(Uint32Array, 1 << 16);
  const plies = new Grow(Uint16Array, 1 << 16);
  const result = new Grow(Uint8Array, 1 << 16);
  const keyLo = new Grow(Int32Array, 1 << 20);
  const keyHi = new Grow(Int32Array, 1 << 20);
  const lastMove = new Grow(Uint16Array, 1 << 20);
  let skip = false;
  let n = 0;
  const keep = (p: Position): void => {
    if (n <= SPLICE_PLIES) {
      keyLo.set(first.length * ENTRIES + n, p.keyLo);
      keyHi.set(first.length * ENTRIES + n, p.keyHi);
    }
  };
  const rollBack = (): void => {
    moveStart.length = first.length === 0 ? 0 : first.at(first.length - 1) + plies.at(plies.length - 1) + 1;
    san.length = moveStart.length === 0 ? 0 : moveStart.at(moveStart.length - 1);
  };
  await readPgn(file, {
    beginGame: () => void ((skip = false), (n = 0)),
    tag: (name) => void (name === 'FEN' && (skip = true)),
    endTags: (p) => {
      if (skip) return false;
      moveStart.push(san.length);
      keep(p);
      return true;
    },
    nullMove: () => ((skip = true), false),
    move: (p, m) => {
      const text = writeSan(p, m);
      for (let i = 0; i < text.length; i++) san.push(text.charCodeAt(i));
      moveStart.push(san.length);
      if (++n <= SPLICE_PLIES) {
        lastMove.set(first.length * ENTRIES + n, m);
        p.play(m);
        keep(p);
        p.undo();
      }
    },
    endGame: (r) => {
      const code = r === '1-0' ? WHITE_WINS : r === '0-1' ? BLACK_WINS : r === '1/2-1/2' ? DRAW : -1;
      if (skip || n === 0 || code < 0 || n > 0xffff) {
        rollBack();
        return;
      }
      first.push(moveStart.length - n - 1);
      plies.push(n);
      result.push(code);
    },
    error: () => rollBack(),
  });
  const games = first.length;
  first.push(moveStart.length);
  const corpus: Corpus = {
    games,
    san: san.shared(),
    moveStart: moveStart.shared(),
    first: first.shared(),
    plies: plies.shared(),
    result: result.shared(),
    ...positionGroups(games, plies.view(), keyLo.view(), keyHi.view(), lastMove),
    ...openingsAlong(games, plies.view(), keyLo.view(), keyHi.view(), openings),
  };
  return corpus;
}

/** Entries with the same key, grouped (open addressing on the two key halves). */
function positionGroups(
  games: number,
  plies: Uint16Array,
  keyLo: Int32Array,
  keyHi: Int32Array,
  moves: Grow<Uint16Array>,
): Pick<Corpus, 'group' | 'groupStart' | 'members' | 'lastMove' | 'transposing' | 'deepestTransposing'> {
  const entries = games * ENTRIES;
  const group = new Int32Array(new SharedArrayBuffer(entries * 4)).fill(-1);
  let capacity = 1 << 16;
  while (capacity < entries * 1.5) capacity *= 2;
  const mask = capacity - 1;
  const slotLo = new Int32Array(capacity);
  const slotHi = new Int32Array(capacity);
  const slotGroup = new Int32Array(capacity).fill(-1);
  const count = new Grow(Uint32Array, 1 << 20);
  let used = 0;
  for (let g = 0; g < games; g++) {
    const last = Math.min(plies[g]!, SPLICE_PLIES);
    for (let p = 0; p <= last; p++) {
      const e = g * ENTRIES + p;
      const lo = keyLo[e]!;
      const hi = keyHi[e]!;
      let s = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) & mask;
      while (slotGroup[s]! >= 0 && (slotLo[s] !== lo || slotHi[s] !== hi)) s = (s + 1) & mask;
      if (slotGroup[s]! < 0) {
        slotLo[s] = lo;
        slotHi[s] = hi;
        slotGroup[s] = count.length;
        count.push(0);
      }
      const k = slotGroup[s]!;
      group[e] = k;
      count.set(k, count.at(k) + 1);
      used++;
    }
  }
  const groups = count.length;
  const groupStart = new Uint32Array(new SharedArrayBuffer((groups + 1) * 4));
  for (let k = 0; k < groups; k++) groupStart[k + 1] = groupStart[k]! + count.at(k);
  const members = new Uint32Array(new SharedArrayBuffer(used * 4));
  const fill = groupStart.slice(0, groups);
  const lastMove = new Uint16Array(new SharedArrayBuffer(entries * 2));
  lastMove.set(moves.view().subarray(0, entries));
  // A group transposes when its members came by more than one last move.
  const firstMove = new Int32Array(groups).fill(-1);
  const mixed = new Uint8Array(groups);
  for (let e = 0; e < entries; e++) {
    const k = group[e]!;
    if (k < 0) continue;
    members[fill[k]!++] = e;
    if (e % ENTRIES === 0) continue;
    if (firstMove[k]! < 0) firstMove[k] = lastMove[e]!;
    else if (firstMove[k] !== lastMove[e]) mixed[k] = 1;
  }
  const transposing = new Uint8Array(new SharedArrayBuffer(entries));
  const deepestTransposing = new Uint8Array(new SharedArrayBuffer(games));
  for (let e = 0; e < entries; e++) {
    const k = group[e]!;
    if (k < 0 || mixed[k] === 0 || e % ENTRIES === 0) continue;
    transposing[e] = 1;
    deepestTransposing[Math.floor(e / ENTRIES)] = e % ENTRIES;
  }
  return { group, groupStart, members, lastMove, transposing, deepestTransposing };
}

/** For every entry, the last named position along its game up to there. */
function openingsAlong(games: number, plies: Uint16Array, keyLo: Int32Array, keyHi: Int32Array, openings: Openings): Pick<Corpus, 'opening' | 'openingPly'> {
  const entries = games * ENTRIES;
  const opening = new Int16Array(new SharedArrayBuffer(entries * 2)).fill(-1);
  const openingPly = new Uint8Array(new SharedArrayBuffer(entries));
  for (let g = 0; g < games; g++) {
    const last = Math.min(plies[g]!, SPLICE_PLIES);
    let current = -1;
    let at = 0;
    for (let p = 0; p <= last; p++) {
      const e = g * ENTRIES + p;
      const id = p <= openings.maxPly ? openings.find(keyLo[e]!, keyHi[e]!) : -1;
      if (id >= 0) {
        current = id;
        at = p;
      }
      opening[e] = current;
      openingPly[e] = at;
    }
  }
  return { opening, openingPly };
}

type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;
type TypedArrayClass<T extends TypedArray> = { new (n: number): T; new (b: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };

/** A typed array that grows as it is filled. */
class Grow<T extends TypedArray> {
  private a: T;
  length = 0;

  constructor(
    private readonly type: TypedArrayClass<T>,
    initial: number,
  ) {
    this.a = new type(initial);
  }

  push(v: number): void {
    if (this.length === this.a.length) this.grow(this.length + 1);
    this.a[this.length++] = v;
  }

  /** Sets index i (growing with zeros up to it). */
  set(i: number, v: number): void {
    if (i >= this.a.length) this.grow(i + 1);
    this.a[i] = v;
    if (i >= this.length) this.length = i + 1;
  }

  at(i: number): number {
    return this.a[i]!;
  }

  view(): T {
    return this.a.subarray(0, this.length) as T;
  }

  /** A copy in a SharedArrayBuffer, for the workers. */
  shared(): T {
    const out = new this.type(new SharedArrayBuffer(this.length * this.type.BYTES_PER_ELEMENT));
    out.set(this.view() as never);
    return out;
  }

  private grow(min: number): void {
    let n = this.a.length * 2;
    while (n < min) n *= 2;
    const b = new this.type(n);
    b.set(this.a as never);
    this.a = b;
  }
}

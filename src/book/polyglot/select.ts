/**
 * From raw entries of one key to the book moves of a position, and picking one of them.
 *
 * Shared by the in-memory and the file reader. Entries whose move is not legal in the position
 * (garbage, collisions, a0a0) are dropped, as every serious consumer does (polyglot.md §5);
 * weight-0 entries are dropped by default (`minWeight: 1`), the usual way to disable a move in
 * place. Policies follow python-chess: `best` is the first entry with the highest weight,
 * `weighted` draws an integer below the weight sum, `uniform` ignores weights.
 */
import { generateLegal } from '../../core/movegen.js';
import type { Position } from '../../core/position.js';
import { ParseError } from '../../core/result.js';
import { MAX_MOVES } from '../../core/types.js';
import { makeUci } from '../../notation/uci.js';
import { encodeMove, type RawEntry } from './format.js';

/** A book move of a position: the decoded legal move plus what the entry stores. */
/**
 * What a book is probed with: the core `Position`, or a `Board` (its `position`), as
 * python-chess's `reader.find(board)` takes its board.
 */
export type Probed = Position | { readonly position: Position };

/**
 * The position of `p`. Anything else is a TypeError: read as a position, it would have no key
 * (undefined), and the lookup would say "no book moves" instead of naming the mistake.
 */
export function positionOf(p: Probed): Position {
  const pos = p !== null && typeof p === 'object' && 'position' in p ? p.position : p;
  if (pos === null || typeof pos !== 'object' || typeof (pos as Position).keyHi !== 'number' || typeof (pos as Position).keyLo !== 'number') {
    throw new TypeError(`a book is probed with a Board or a Position, not ${describe(p)}`);
  }
  return pos as Position;
}

function describe(x: unknown): string {
  if (x === null || typeof x !== 'object') return typeof x === 'string' ? `the string ${JSON.stringify(x.slice(0, 60))}` : String(x);
  return `an object of class ${(x as object).constructor?.name ?? 'none'}`;
}

export interface BookMove {
  /** Core 16-bit move (castling as king takes rook). */
  move: number;
  /** UCI of the move (standard castling notation unless the position is Chess960). */
  uci: string;
  /** The Polyglot move field as stored. */
  raw: number;
  weight: number;
  learn: number;
  /** Index of the entry in the book file. */
  index: number;
}

export type Policy = 'best' | 'weighted' | 'uniform';

export interface ProbeOptions {
  /** Entries below this weight are ignored (default 1, so weight 0 means "never play"). */
  minWeight?: number;
  /** Moves to leave out: core moves or UCI strings. */
  exclude?: readonly (number | string)[];
}

export interface ChooseOptions extends ProbeOptions {
  /** How to pick (default 'weighted'). */
  policy?: Policy;
  /** Uniform random numbers in [0, 1); inject a seeded one for reproducible picks. */
  random?: () => number;
}

/**
 * Errors of book files and lookups: `code` is stable, the message names the file and says what
 * is wrong; `file` and `offset` (the byte where the damage was found) locate it when known.
 */
export class BookError extends ParseError {
  constructor(
    code: string,
    message: string,
    readonly file?: string,
    readonly offset?: number,
  ) {
    super(code, message);
    this.name = 'BookError';
  }
}

const BUF = new Uint16Array(MAX_MOVES);

const POLICIES: readonly Policy[] = ['best', 'weighted', 'uniform'];

/**
 * Options from untyped code (a settings file, a form's field) are checked: a misspelt policy,
 * a `minWeight` that is not a number or an `exclude` that is one move instead of a list would
 * otherwise pick by another rule without a word (a string's `exclude` was read letter by letter).
 * Checked in every position, in the book or not, so a mistake shows at its first use.
 */
function checkOptions(opts: ChooseOptions): void {
  const { minWeight, exclude, policy, random } = opts;
  const said = (x: unknown): string => (typeof x === 'string' ? JSON.stringify(x) : String(x));
  if (minWeight !== undefined && (typeof minWeight !== 'number' || Number.isNaN(minWeight))) throw new TypeError(`minWeight ${said(minWeight)} is not a number`);
  if (exclude !== undefined && !Array.isArray(exclude)) throw new TypeError(`exclude is a list of moves (UCI strings or core moves), not ${said(exclude)}`);
  if (policy !== undefined && !POLICIES.includes(policy)) throw new RangeError(`policy ${said(policy)} is not one of ${POLICIES.join(', ')}`);
  if (random !== undefined && typeof random !== 'function') throw new TypeError('random is a function giving numbers in [0, 1), such as seededRandom(seed)');
}

/** The legal, non-excluded moves among `entries` (all of one key), in file order. */
export function bookMoves(pos: Position, entries: readonly RawEntry[], opts: ProbeOptions = {}): BookMove[] {
  checkOptions(opts);
  if (entries.length === 0) return [];
  const minWeight = opts.minWeight ?? 1;
  const n = generateLegal(pos, BUF, 0);
  const out: BookMove[] = [];
  for (const e of entries) {
    if (e.weight < minWeight || e.move === 0) continue;
    for (let i = 0; i < n; i++) {
      const m = BUF[i]!;
      if (encodeMove(m) !== e.move) continue;
      const uci = makeUci(m, pos.chess960);
      if (opts.exclude && isExcluded(opts.exclude, m, uci)) break;
      out.push({ move: m, uci, raw: e.move, weight: e.weight, learn: e.learn, index: e.index });
      break;
    }
  }
  return out;
}

function isExcluded(exclude: readonly (number | string)[], m: number, uci: string): boolean {
  for (const x of exclude) if (x === m || x === uci) return true;
  return false;
}

/** The first move with the highest weight, or undefined. */
export function bestMove(moves: readonly BookMove[]): BookMove | undefined {
  let best: BookMove | undefined;
  for (const m of moves) if (best === undefined || m.weight > best.weight) best = m;
  return best;
}

/** Picks a move by policy, or undefined when there is none. */
export function chooseMove(moves: readonly BookMove[], opts: ChooseOptions = {}): BookMove | undefined {
  checkOptions(opts);
  if (moves.length === 0) return undefined;
  const policy = opts.policy ?? 'weighted';
  if (policy === 'best') return bestMove(moves);
  const random = opts.random ?? Math.random;
  if (policy === 'uniform') return moves[Math.min(moves.length - 1, Math.floor(random() * moves.length))];
  let total = 0;
  for (const m of moves) total += m.weight;
  if (total === 0) return moves[Math.min(moves.length - 1, Math.floor(random() * moves.length))];
  const draw = Math.floor(random() * total);
  let acc = 0;
  for (const m of moves) {
    acc += m.weight;
    if (acc > draw) return m;
  }
  return moves[moves.length - 1];
}

/** A small seeded generator (mulberry32) for reproducible `choose` calls. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

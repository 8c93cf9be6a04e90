/**
 * Which book positions can be reached from the current position within n plies, both sides
 * moving, and by which moves: board conversion, steering a game that left the book back into
 * stored positions (docs/conversion.md).
 *
 * A depth-first search over every legal move sequence, pruned by irreversibility: each node
 * keeps the stored positions that still pass the tests of signature.ts with the plies left,
 * and a node whose list is empty is not expanded, since nothing stored can be reached below
 * it. Every node reached is looked up in the book by key, so the hits are exactly the book
 * positions some sequence of at most n plies reaches (test/book-reach.test.ts compares them
 * with a brute-force enumeration). Transpositions are searched once per number of plies left,
 * which keeps the first line found for each hit a shortest one.
 */
import { generateLegal } from '../../core/movegen.js';
import type { Position } from '../../core/position.js';
import { MAX_MOVES } from '../../core/types.js';
import { KeyTable } from '../polyglot/lines.js';
import type { ReachIndex } from './reachIndex.js';
import { BOARD_WORDS, castlingAllows, materialAllows, materialKey, pliesNeeded, writeBoard } from './signature.js';

export interface ReachHit {
  /** Position number in the index. */
  target: number;
  /** Plies of the shortest sequence found. */
  plies: number;
  /** That sequence, core moves from the current position. */
  moves: number[];
}

export interface ReachResult {
  hits: ReachHit[];
  /** Nodes searched (moves played). */
  nodes: number;
  /** Stored positions that passed the irreversibility tests at the root. */
  candidates: number;
  /** The current position is itself in the book. */
  inBook: boolean;
  /** False when `maxNodes` stopped the search before it was complete. */
  complete: boolean;
}

export interface ReachOptions {
  /** Plies to look ahead (1..12). */
  plies: number;
  /** Stop after this many nodes (default 5,000,000). */
  maxNodes?: number;
  /**
   * Told every 65,536 nodes: the share of the search done (the root moves searched, or the
   * nodes against maxNodes when that is further on) and the nodes so far.
   */
  onProgress?: (share: number, nodes: number) => void;
}

/** Per plies-left salts, so one table holds "searched with r plies left" for every r. */
const SALT = [0, 0x2545f491, 0x6c8e9cf5, 0x1b873593, 0x5d4ef3c1, 0x7fb5a1d3, 0x3c6ef372, 0x4a7c15f1, 0x0d2e7bc3, 0x61c88647, 0x27d4eb2f, 0x165667b1, 0x2f1d8a3b];
export const MAX_REACH_PLIES = SALT.length - 1;

/** A reusable search over one index (buffers kept between calls). */
export class ReachSearch {
  private moves = new Uint16Array(0);
  private lists: Int32Array[] = [];
  private boards = new Int32Array(0);
  private path: number[] = [];
  private seen = new KeyTable(1 << 12);
  private best = new Map<number, ReachHit>();
  private nodes = 0;
  private maxNodes = 0;
  private onProgress: ReachOptions['onProgress'];
  /** Root moves searched and their number, for onProgress. */
  private rootDone = 0;
  private rootMoves = 1;

  constructor(readonly index: ReachIndex) {}

  run(pos: Position, opts: ReachOptions): ReachResult {
    const plies = opts.plies;
    if (!Number.isInteger(plies) || plies < 1 || plies > MAX_REACH_PLIES) throw new RangeError(`plies must be a whole number from 1 to ${MAX_REACH_PLIES}`);
    const ix = this.index;
    let root = new Int32Array(1024);
    let n = ix.candidates(pos, plies, root);
    if (n > root.length) {
      root = new Int32Array(n);
      n = ix.candidates(pos, plies, root);
    }
    if (this.moves.length < (plies + 1) * MAX_MOVES) this.moves = new Uint16Array((plies + 1) * MAX_MOVES);
    this.boards = new Int32Array((plies + 1) * BOARD_WORDS);
    this.lists = [root];
    for (let d = 1; d <= plies; d++) this.lists.push(new Int32Array(n));
    this.seen = new KeyTable(1 << 12);
    this.best = new Map();
    this.path = [];
    this.nodes = 0;
    this.maxNodes = opts.maxNodes ?? 5_000_000;
    this.onProgress = opts.onProgress;
    this.rootDone = 0;
    this.rootMoves = 1;
    const inBook = ix.find(pos.keyHi, pos.keyLo) >= 0;
    if (n > 0) this.search(pos, 0, plies, n);
    const hits = [...this.best.values()].sort((a, b) => a.plies - b.plies || a.target - b.target);
    return { hits, nodes: this.nodes, candidates: n, inBook, complete: this.nodes < this.maxNodes };
  }

  private search(pos: Position, depth: number, left: number, count: number): void {
    const ix = this.index;
    const moves = this.moves;
    const base = depth * MAX_MOVES;
    const end = generateLegal(pos, moves, base);
    if (depth === 0) this.rootMoves = Math.max(1, end - base);
    const parentList = this.lists[depth]!;
    const childList = this.lists[depth + 1]!;
    const here = this.boards;
    const o = (depth + 1) * BOARD_WORDS;
    for (let k = base; k < end; k++) {
      if (this.nodes >= this.maxNodes) return;
      const m = moves[k]!;
      pos.play(m);
      this.nodes++;
      if ((this.nodes & 0xffff) === 0 && this.onProgress !== undefined) this.onProgress(Math.max(this.rootDone / this.rootMoves, this.nodes / this.maxNodes), this.nodes);
      this.path.push(m);
      const t = ix.find(pos.keyHi, pos.keyLo);
      if (t >= 0) this.arrive(t, depth + 1);
      const rest = left - 1;
      if (rest > 0 && !this.searched(pos, rest)) {
        writeBoard(pos, here, o);
        const mat = materialKey(here, o);
        const castle = pos.castling & 15;
        let c = 0;
        for (let j = 0; j < count; j++) {
          const i = parentList[j]!;
          const f = ix.flags[i]!;
          if (!castlingAllows(castle, f & 15) || !materialAllows(mat, ix.material[i]!)) continue;
          if (pliesNeeded(here, o, ix.boards, i * BOARD_WORDS, pos.turn, castle, f >> 4, rest) > rest) continue;
          childList[c++] = i;
        }
        if (c > 0) this.search(pos, depth + 1, rest, c);
      }
      this.path.pop();
      pos.undo();
      if (depth === 0) this.rootDone++;
    }
  }

  /** True when this position was already searched with at least `left` plies to go (else marks it). */
  private searched(pos: Position, left: number): boolean {
    for (let r = left; r < SALT.length; r++) if (this.seen.get(pos.keyHi, pos.keyLo ^ SALT[r]!) >= 0) return true;
    this.seen.add(pos.keyHi, pos.keyLo ^ SALT[left]!, 0);
    return false;
  }

  private arrive(target: number, plies: number): void {
    const had = this.best.get(target);
    if (had === undefined || plies < had.plies) this.best.set(target, { target, plies, moves: [...this.path] });
  }
}

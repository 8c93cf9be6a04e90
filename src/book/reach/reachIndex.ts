/**
 * The positions of a book, as boards: an index built once per book so that the reach search
 * (reach.ts) can ask which stored positions are still reachable from the current one.
 *
 * Books store keys, not boards: a Polyglot `.bin` only 64-bit Zobrist keys and moves, a `.tbk`
 * the same keys with statistics. The boards are recovered by walking the book's tree from the
 * initial position (PolyGlot's `info-book -exact` does the same to count reachable entries):
 * every book move of every position reached is played, each new key is recorded once with its
 * board, and transpositions are visited once. Positions no book line leads to (entries of
 * games set up from a FEN, or transpositions of lines below the walk's threshold) are given by
 * `moreRoots` where the book can give their boards (a `.tbk` replays its games, rich/recover.ts):
 * each is walked in turn as another root. A Polyglot `.bin` has no games: what the walk from the
 * start misses stays out.
 *
 * Positions are grouped by material signature, and within a group by pawn structure, so the
 * irreversibility tests (signature.ts) run once per group before any position is looked at.
 */
import { popcount32 } from '../../core/bitboard.js';
import type { Position } from '../../core/position.js';
import { STARTING_FEN, makeFen, positionFromFen } from '../../notation/fen.js';
import { KeyTable } from '../polyglot/lines.js';
import {
  BOARD_WORDS, capturesBy, castlingAllows, countIn, materialAllows, materialKey, pawnsAllow, pliesNeeded, wordOf, writeBoard,
} from './signature.js';

/** A book move as the walk sees it (the engine's BookCandidate has this shape). */
export interface WalkMove {
  /** Core move, legal in the position. */
  move: number;
  weight: number;
  /** Games won, drawn and lost with the move from the mover's side, when the book counts them. */
  wins?: number;
  draws?: number;
  losses?: number;
}

/** The book moves of a position (empty when it is not in the book). */
export type MovesOf = (pos: Position) => readonly WalkMove[];

/**
 * Stored positions the walk from the start misses are recovered from a book's games only where
 * a game reached them before this ply. Past it they are mostly late middlegames and endgames
 * that an out-of-book game (leaving the book around ply 20) seldom comes back to, and they cost
 * the search far more than they give: on the 389k-game book, recovering all of them (343,245
 * positions) made a 4-ply search from 1.e4 e5 2.Nf3 Nc6 sixteen times slower for 5 more
 * positions found; before ply 40 (88,248), the share of out-of-book positions that can return
 * within 4 plies went from 22.8% to 25.6% for searches half as long again (docs/conversion.md).
 */
export const RECOVER_BEFORE_PLY = 40;

export interface WalkOptions {
  /** Follow only moves played in at least this many games (books with counts; default 1). */
  minGames?: number;
  /** Stop after this many positions (default 4,000,000). */
  maxPositions?: number;
  /** The walk's start (default the initial position). */
  startFen?: string;
  /**
   * After the walk from the start: boards of stored positions it did not reach (`indexed` says
   * which keys the index holds), each walked as another root.
   */
  moreRoots?: (indexed: (keyHi: number, keyLo: number) => boolean) => Iterable<Position>;
  /**
   * Told every 4,096 positions indexed, and once the index is made (share 1): how much of the
   * work is done (an estimate: the walk from the start, see walkShare, as the first WALK_SHARE)
   * and the positions indexed so far.
   */
  onProgress?: (share: number, positions: number) => void;
}

/**
 * The share of an index's making that the walk from the start takes; the rest is the walk from
 * other roots (a .tbk's games) and the sort into groups. Measured on books of 85,000 master
 * games: 22 of 28 s for the .bin (min-games 1), 3.4 of 5.6 s for the .tbk.
 */
const WALK_SHARE = 0.8;

/** A move's part of its position's subtree in walkShare: its games where the book counts them, else its weight. */
function walkWeight(m: WalkMove): number {
  return Math.max(1, m.wins === undefined ? m.weight : m.wins + (m.draws ?? 0) + (m.losses ?? 0));
}

/**
 * How much of a depth-first walk is done, from its stack alone: at each depth, the moves already
 * walked take their share of what the position above them is worth, each move weighing its
 * games (or weight). A book's subtrees are about as big as the games that went through them, so
 * the estimate grows about evenly with the work, where counting moves alone would give 1.e4,
 * a third of a master book's positions, the same part as 1.b4. The number of positions
 * reachable is not known before the walk (it is what the walk finds), so a count cannot say it.
 */
function walkShare(frames: readonly { moves: readonly WalkMove[]; next: number }[]): number {
  let share = 0;
  let base = 1;
  for (let d = 0; d < frames.length; d++) {
    const f = frames[d]!;
    let total = 0;
    for (const m of f.moves) total += walkWeight(m);
    if (total === 0) break;
    // Below the deepest frame, move next - 1 is being walked: the ones before it are done.
    const deepest = d === frames.length - 1;
    const done = deepest ? f.next : f.next - 1;
    for (let i = 0; i < done; i++) share += (base * walkWeight(f.moves[i]!)) / total;
    if (deepest || done < 0) break;
    base *= walkWeight(f.moves[done]!) / total;
  }
  return Math.min(1, share);
}

/** The arrays of an index, by name, and how long each is for `size` positions (per position, or per group). */
export const SAVED_ARRAYS = {
  keyHi: Int32Array,
  keyLo: Int32Array,
  boards: Int32Array,
  flags: Uint8Array,
  material: Float64Array,
  parent: Int32Array,
  via: Uint16Array,
  weight: Float64Array,
  wins: Float64Array,
  draws: Float64Array,
  losses: Float64Array,
  order: Int32Array,
  groupStart: Int32Array,
  groupMaterial: Float64Array,
  groupPawns: Int32Array,
  materialStart: Int32Array,
} as const;

export type SavedArrayName = keyof typeof SAVED_ARRAYS;

export interface SavedReachIndex {
  /** The walk's roots as FENs: the start first, then the boards moreRoots gave. */
  roots: string[];
  size: number;
  hasCounts: boolean;
  fromOtherRoots: number;
  arrays: Pick<ReachIndex, SavedArrayName>;
}

const WP = wordOf(0, 1);
const BP = wordOf(1, 1);

export class ReachIndex {
  size = 0;
  keyHi: Int32Array;
  keyLo: Int32Array;
  boards: Int32Array;
  /** Castling rights (low four bits) and side to move (bit 4). */
  flags: Uint8Array;
  material: Float64Array;
  /** The position the walk came from and the move it played; for a root, -1 − its number in `roots`. */
  parent: Int32Array;
  via: Uint16Array;
  /** Totals over the position's book moves: weight, and games won, drawn, lost by the side to move. */
  weight: Float64Array;
  wins: Float64Array;
  draws: Float64Array;
  losses: Float64Array;
  /** The book counts games (a .tbk); a .bin has weights only. */
  hasCounts = false;
  /** Positions walked from roots other than the start (boards recovered from a .tbk's games, and what follows them). */
  fromOtherRoots = 0;
  readonly keys: KeyTable;
  /** FENs of the walk's roots: the start, then the positions no walk from the start reached. */
  readonly roots: string[];
  /** Position numbers sorted by group; group g spans order[groupStart[g] .. groupStart[g + 1]). */
  order: Int32Array = new Int32Array(0);
  /** Pawn-structure groups: start in `order`, then material key and pawn bitboards of each. */
  groupStart: Int32Array = new Int32Array(0);
  groupMaterial: Float64Array = new Float64Array(0);
  groupPawns: Int32Array = new Int32Array(0);
  /** Material groups: each spans pawn groups materialStart[m] .. materialStart[m + 1]. */
  materialStart: Int32Array = new Int32Array(0);

  private constructor(roots: string[], capacity: number) {
    this.roots = roots;
    this.keys = new KeyTable(capacity);
    this.keyHi = new Int32Array(capacity);
    this.keyLo = new Int32Array(capacity);
    this.boards = new Int32Array(capacity * BOARD_WORDS);
    this.flags = new Uint8Array(capacity);
    this.material = new Float64Array(capacity);
    this.parent = new Int32Array(capacity);
    this.via = new Uint16Array(capacity);
    this.weight = new Float64Array(capacity);
    this.wins = new Float64Array(capacity);
    this.draws = new Float64Array(capacity);
    this.losses = new Float64Array(capacity);
  }

  /** The walk's start. */
  get startFen(): string {
    return this.roots[0]!;
  }

  /** Walks a book from its start (then from the other roots `moreRoots` gives) and indexes every position reached. */
  static build(movesOf: MovesOf, opts: WalkOptions = {}): ReachIndex {
    const startFen = opts.startFen ?? STARTING_FEN;
    const r = positionFromFen(startFen);
    if (!r.ok) throw r.error;
    const index = new ReachIndex([startFen], 1 << 12);
    const minGames = opts.minGames ?? 1;
    const max = opts.maxPositions ?? 4_000_000;
    const pos = r.value;
    // Depth-first with play/undo on one position; an explicit stack keeps deep books off the call stack.
    const frames: { moves: WalkMove[]; next: number; self: number }[] = [];
    const enter = (parent: number, via: number): boolean => {
      if (index.keys.get(pos.keyHi, pos.keyLo) >= 0 || index.size >= max) return false;
      const moves = movesOf(pos);
      if (moves.length === 0) return false;
      const self = index.add(pos, parent, via, moves);
      frames.push({ moves: moves.filter((m) => m.wins === undefined || m.wins + (m.draws ?? 0) + (m.losses ?? 0) >= minGames), next: 0, self });
      if (opts.onProgress !== undefined && (index.size & 4095) === 0) opts.onProgress(WALK_SHARE * (fromStart ? walkShare(frames) : 1), index.size);
      return true;
    };
    const walk = (): void => {
      while (frames.length > 0) {
        const f = frames[frames.length - 1]!;
        if (f.next >= f.moves.length) {
          frames.pop();
          if (frames.length > 0) pos.undo();
          continue;
        }
        const m = f.moves[f.next++]!.move;
        pos.play(m);
        if (!enter(f.self, m)) pos.undo();
      }
    };
    let fromStart = true;
    enter(-1, 0);
    walk();
    fromStart = false;
    if (opts.moreRoots !== undefined) {
      const walked = index.size;
      for (const root of opts.moreRoots((hi, lo) => index.keys.get(hi | 0, lo | 0) >= 0)) {
        pos.copyFrom(root);
        if (enter(-1 - index.roots.length, 0)) {
          index.roots.push(makeFen(root));
          walk();
        }
      }
      index.fromOtherRoots = index.size - walked;
    }
    index.finish();
    opts.onProgress?.(1, index.size);
    return index;
  }

  /** An index from its saved arrays (indexFile.ts), the key table rebuilt; the arrays are taken, not copied. */
  static restore(saved: SavedReachIndex): ReachIndex {
    const index = new ReachIndex(saved.roots, 0);
    const n = saved.size;
    Object.assign(index, saved.arrays);
    index.size = n;
    index.hasCounts = saved.hasCounts;
    index.fromOtherRoots = saved.fromOtherRoots;
    for (let i = 0; i < n; i++) index.keys.add(index.keyHi[i]!, index.keyLo[i]!, i);
    return index;
  }

  /** What restore needs: the walk's results and the groups, as typed arrays. */
  save(): SavedReachIndex {
    const n = this.size;
    return {
      roots: this.roots,
      size: n,
      hasCounts: this.hasCounts,
      fromOtherRoots: this.fromOtherRoots,
      arrays: {
        keyHi: this.keyHi.subarray(0, n),
        keyLo: this.keyLo.subarray(0, n),
        boards: this.boards.subarray(0, n * BOARD_WORDS),
        flags: this.flags.subarray(0, n),
        material: this.material.subarray(0, n),
        parent: this.parent.subarray(0, n),
        via: this.via.subarray(0, n),
        weight: this.weight.subarray(0, n),
        wins: this.wins.subarray(0, n),
        draws: this.draws.subarray(0, n),
        losses: this.losses.subarray(0, n),
        order: this.order,
        groupStart: this.groupStart,
        groupMaterial: this.groupMaterial,
        groupPawns: this.groupPawns,
        materialStart: this.materialStart,
      },
    };
  }

  private add(pos: Position, parent: number, via: number, moves: readonly WalkMove[]): number {
    if (this.size === this.keyHi.length) this.grow();
    const i = this.size++;
    this.keyHi[i] = pos.keyHi;
    this.keyLo[i] = pos.keyLo;
    writeBoard(pos, this.boards, i * BOARD_WORDS);
    this.flags[i] = (pos.castling & 15) | (pos.turn << 4);
    this.material[i] = materialKey(this.boards, i * BOARD_WORDS);
    this.parent[i] = parent;
    this.via[i] = via;
    let w = 0;
    let wins = 0;
    let draws = 0;
    let losses = 0;
    for (const m of moves) {
      w += m.weight;
      if (m.wins !== undefined) this.hasCounts = true;
      wins += m.wins ?? 0;
      draws += m.draws ?? 0;
      losses += m.losses ?? 0;
    }
    this.weight[i] = w;
    this.wins[i] = wins;
    this.draws[i] = draws;
    this.losses[i] = losses;
    this.keys.add(pos.keyHi, pos.keyLo, i);
    return i;
  }

  private grow(): void {
    const n = this.keyHi.length * 2;
    const more = <T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(a: T, k = 1): T => {
      const b = new (a.constructor as new (n: number) => T)(n * k);
      b.set(a);
      return b;
    };
    this.keyHi = more(this.keyHi);
    this.keyLo = more(this.keyLo);
    this.boards = more(this.boards, BOARD_WORDS);
    this.flags = more(this.flags);
    this.material = more(this.material);
    this.parent = more(this.parent);
    this.via = more(this.via);
    this.weight = more(this.weight);
    this.wins = more(this.wins);
    this.draws = more(this.draws);
    this.losses = more(this.losses);
  }

  /** Sorts positions into material and pawn-structure groups. */
  private finish(): void {
    const n = this.size;
    const b = this.boards;
    const order = Array.from({ length: n }, (_, i) => i);
    const pw = (i: number, k: number): number => b[i * BOARD_WORDS + (k < 2 ? WP + k : BP + k - 2)]!;
    order.sort((x, y) => this.material[x]! - this.material[y]! || pw(x, 0) - pw(y, 0) || pw(x, 1) - pw(y, 1) || pw(x, 2) - pw(y, 2) || pw(x, 3) - pw(y, 3) || x - y);
    this.order = Int32Array.from(order);
    const starts: number[] = [];
    const mats: number[] = [];
    const pawns: number[] = [];
    const matStarts: number[] = [];
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      const prev = k > 0 ? order[k - 1]! : -1;
      const newMaterial = prev < 0 || this.material[i] !== this.material[prev];
      if (newMaterial || pw(i, 0) !== pw(prev, 0) || pw(i, 1) !== pw(prev, 1) || pw(i, 2) !== pw(prev, 2) || pw(i, 3) !== pw(prev, 3)) {
        if (newMaterial) matStarts.push(starts.length);
        starts.push(k);
        mats.push(this.material[i]!);
        pawns.push(pw(i, 0), pw(i, 1), pw(i, 2), pw(i, 3));
      }
    }
    starts.push(n);
    matStarts.push(mats.length);
    this.groupStart = Int32Array.from(starts);
    this.groupMaterial = Float64Array.from(mats);
    this.groupPawns = Int32Array.from(pawns);
    this.materialStart = Int32Array.from(matStarts);
  }

  /** The position number of a key, or -1. */
  find(hi: number, lo: number): number {
    return this.keys.get(hi, lo);
  }

  /** Pawn-structure groups. */
  get groups(): number {
    return this.groupStart.length - 1;
  }

  /** Side to move of position `i`. */
  turnOf(i: number): number {
    return this.flags[i]! >> 4;
  }

  /** The moves from its root (rootOf) to position `i`. */
  line(i: number): number[] {
    const out: number[] = [];
    for (let j = i; this.parent[j]! >= 0; j = this.parent[j]!) out.push(this.via[j]!);
    return out.reverse();
  }

  /** The number in `roots` of the root position `i` was walked from (0: the start). */
  rootOf(i: number): number {
    let j = i;
    while (this.parent[j]! >= 0) j = this.parent[j]!;
    return -1 - this.parent[j]!;
  }

  /** Position `i` as a board, replayed from its root into `into` (or a new position). */
  position(i: number, into?: Position): Position {
    const r = positionFromFen(this.roots[this.rootOf(i)]!, into);
    if (!r.ok) throw r.error;
    for (const m of this.line(i)) r.value.play(m);
    return r.value;
  }

  /**
   * The stored positions that pass every irreversibility test from `pos` within `plies`
   * plies (the position itself excluded), appended to `out`; returns how many.
   */
  candidates(pos: Position, plies: number, out: Int32Array): number {
    const a = CURRENT;
    writeBoard(pos, a, 0);
    const mat = materialKey(a, 0);
    const castle = pos.castling & 15;
    const turn = pos.turn;
    const b = this.boards;
    let n = 0;
    for (let m = 0; m + 1 < this.materialStart.length; m++) {
      const g0 = this.materialStart[m]!;
      const gm = this.groupMaterial[g0]!;
      if (!materialAllows(mat, gm)) continue;
      const capW = capturesBy(mat, gm, 0);
      const capB = capturesBy(mat, gm, 1);
      const lostW = countIn(mat, 0, 1) - countIn(gm, 0, 1);
      const lostB = countIn(mat, 1, 1) - countIn(gm, 1, 1);
      for (let g = g0; g < this.materialStart[m + 1]!; g++) {
        const p = g * 4;
        const wLo = this.groupPawns[p]!;
        const wHi = this.groupPawns[p + 1]!;
        const bLo = this.groupPawns[p + 2]!;
        const bHi = this.groupPawns[p + 3]!;
        // Pawn moves: a square to fill needs one; a square left needs one unless its pawn was lost.
        const fillW = Math.max(popcount32(wLo & ~a[WP]!) + popcount32(wHi & ~a[WP + 1]!), popcount32(a[WP]! & ~wLo) + popcount32(a[WP + 1]! & ~wHi) - lostW);
        const fillB = Math.max(popcount32(bLo & ~a[BP]!) + popcount32(bHi & ~a[BP + 1]!), popcount32(a[BP]! & ~bLo) + popcount32(a[BP + 1]! & ~bHi) - lostB);
        const mover = turn === 0 ? fillW : fillB;
        const other = turn === 0 ? fillB : fillW;
        if (Math.max(2 * mover - 1, 2 * other) > plies) continue;
        if (!pawnsAllow(a[WP]!, a[WP + 1]!, wLo, wHi, 0, capW) || !pawnsAllow(a[BP]!, a[BP + 1]!, bLo, bHi, 1, capB)) continue;
        for (let k = this.groupStart[g]!; k < this.groupStart[g + 1]!; k++) {
          const i = this.order[k]!;
          const f = this.flags[i]!;
          if (!castlingAllows(castle, f & 15)) continue;
          const need = pliesNeeded(a, 0, b, i * BOARD_WORDS, turn, castle, f >> 4, plies);
          if (need > plies) continue;
          if (this.keyHi[i] === pos.keyHi && this.keyLo[i] === pos.keyLo) continue;
          if (n < out.length) out[n] = i;
          n++;
        }
      }
    }
    return n;
  }
}

const CURRENT = new Int32Array(BOARD_WORDS);

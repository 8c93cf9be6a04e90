/**
 * What can and cannot change between two positions: the irreversible parts of a chess
 * position that decide, before any search, whether a stored position can still be reached.
 *
 * A board is kept as twelve piece bitboards (`BOARD_WORDS` int32 words: white pawn … white
 * king, black pawn … black king, low and high half each), the castling rights and the side to
 * move. From the current board `a` and a stored board `b`, `b` is reachable in `plies` plies
 * only if every test below passes; each is a necessary condition (sound: it never rules out a
 * position that some legal sequence reaches), which test/book-reach.test.ts checks against a
 * brute-force enumeration of every move sequence:
 *
 *   1. Material: nothing is uncaptured. Per colour, pawns can only decrease, and pieces of a
 *      type can only increase by promotions, which each use up one pawn: the sum over knight,
 *      bishop, rook and queen of max(0, b − a) is at most the pawns lost.
 *   2. Castling rights are only lost: b's rights are a subset of a's.
 *   3. Pawns only move forward and change file only by capturing, one file per capture, a
 *      capture also advancing one rank. So the pawns of b can be matched one to one with pawns
 *      of a on the same or a lower rank (White's view), within as many files as ranks advanced,
 *      and the files moved in total cannot exceed the enemy pieces captured between a and b
 *      (each capture removes exactly one enemy piece, and promotions change no count).
 *   4. Moves needed: a move puts one piece on one square and takes it from another (castling
 *      moves two: king and rook). Every square where b has a piece of a colour that a does not
 *      have there must receive a move of that colour; every square where a has one that b does
 *      not must lose it, by a move of that colour or a capture (no more than the pieces that
 *      colour loses). So a colour makes at least max(fill, vacate − lost) moves, one fewer if it
 *      may still castle; with the side to move starting, that bounds the plies from below,
 *      raised to the parity the sides to move demand (b's side to move is a's after an even
 *      number of plies).
 *
 * The tests are cheapest first (material and castling are compared per group of positions,
 * the pawn matching per pawn structure), so that the index (reachIndex.ts) runs the expensive
 * ones on few positions.
 */
import { popcount32 } from '../../core/bitboard.js';
import type { Position } from '../../core/position.js';

/** Int32 words of a board: 12 piece bitboards, low and high half. */
export const BOARD_WORDS = 24;
/** Word offset of a piece's bitboard: piece code (color * 8 + type) → 2 * (color * 6 + type - 1). */
export const wordOf = (color: number, type: number): number => 2 * (color * 6 + type - 1);

/** Copies the piece bitboards of `pos` into `out` at `o`. */
export function writeBoard(pos: Position, out: Int32Array, o: number): void {
  for (let c = 0; c < 2; c++) {
    for (let t = 1; t <= 6; t++) {
      const p = (c << 3) | t;
      const w = o + wordOf(c, t);
      out[w] = pos.bbLo[p]!;
      out[w + 1] = pos.bbHi[p]!;
    }
  }
}

/** Pieces of a type and colour on a board. */
export function countOf(board: Int32Array, o: number, color: number, type: number): number {
  const w = o + wordOf(color, type);
  return popcount32(board[w]!) + popcount32(board[w + 1]!);
}

/**
 * The material signature: pawns, knights, bishops, rooks and queens per colour, four bits each
 * (a count never exceeds 10), as one number below 2^40.
 */
export function materialKey(board: Int32Array, o: number): number {
  let k = 0;
  for (let c = 1; c >= 0; c--) for (let t = 5; t >= 1; t--) k = k * 16 + countOf(board, o, c, t);
  return k;
}

const POW16 = Array.from({ length: 10 }, (_, i) => 16 ** i);

/** The count of `type` (1..5) of `color` in a material key. */
export const countIn = (key: number, color: number, type: number): number => Math.floor(key / POW16[color * 5 + type - 1]!) % 16;

/** Pieces of a colour (king excluded) in a material key. */
function totalIn(key: number, color: number): number {
  let n = 0;
  for (let t = 1; t <= 5; t++) n += countIn(key, color, t);
  return n;
}

/**
 * Test 1: the material of key `b` can follow from that of key `a` (nothing uncaptured,
 * promotions paid for by pawns).
 */
export function materialAllows(a: number, b: number): boolean {
  if (a === b) return true;
  for (let c = 0; c < 2; c++) {
    const pawnsLost = countIn(a, c, 1) - countIn(b, c, 1);
    if (pawnsLost < 0) return false;
    let promoted = 0;
    for (let t = 2; t <= 5; t++) promoted += Math.max(0, countIn(b, c, t) - countIn(a, c, t));
    if (promoted > pawnsLost) return false;
  }
  return true;
}

/** Enemy pieces `color` must have captured between material keys `a` and `b`. */
export const capturesBy = (a: number, b: number, color: number): number => (a === b ? 0 : totalIn(a, 1 - color) - totalIn(b, 1 - color));

/** Test 2: castling rights of `b` are a subset of those of `a`. */
export const castlingAllows = (a: number, b: number): boolean => (b & ~a) === 0;

const FROM = new Int8Array(8);
const TO = new Int8Array(8);
const DP = new Int32Array(256);

/** The squares of a bitboard into `out`; returns how many (at most `out.length`, else -1). */
function squares(lo: number, hi: number, out: Int8Array): number {
  let n = 0;
  for (let half = 0; half < 2; half++) {
    let x = half === 0 ? lo : hi;
    while (x !== 0) {
      if (n === out.length) return -1;
      const b = 31 - Math.clz32(x & -x);
      out[n++] = half * 32 + b;
      x &= x - 1;
    }
  }
  return n;
}

/**
 * Test 3 for one colour: the pawns of `b` (bitboard `bLo`/`bHi`) can come from those of `a`
 * by forward moves, with at most `captures` file changes in all. An assignment problem over
 * at most eight pawns, solved exactly by dynamic programming over subsets of `a`'s pawns.
 */
export function pawnsAllow(aLo: number, aHi: number, bLo: number, bHi: number, color: number, captures: number): boolean {
  if (aLo === bLo && aHi === bHi) return true;
  // A pawn standing on the same square in both can be matched with itself: if a matching pairs
  // it elsewhere, swapping the two partners keeps every move forward (cones compose) and adds
  // no file change (triangle inequality). So only the pawns that differ are matched.
  const sameLo = aLo & bLo;
  const sameHi = aHi & bHi;
  const na = squares(aLo & ~sameLo, aHi & ~sameHi, FROM);
  const nb = squares(bLo & ~sameLo, bHi & ~sameHi, TO);
  // More than eight pawns of a colour is no legal position; no claim is made about it.
  if (na < 0 || nb < 0) return true;
  if (nb > na) return false;
  const full = 1 << na;
  const INF = 1 << 20;
  DP.fill(INF, 0, full);
  DP[0] = 0;
  // DP[mask]: least file changes placing the first popcount(mask) pawns of b on the pawns of a in mask.
  for (let mask = 0; mask < full; mask++) {
    const cost = DP[mask]!;
    if (cost > captures) continue;
    const j = popcount32(mask);
    if (j === nb) return true;
    const to = TO[j]!;
    const toRank = color === 0 ? to >> 3 : 7 - (to >> 3);
    for (let i = 0; i < na; i++) {
      if ((mask & (1 << i)) !== 0) continue;
      const from = FROM[i]!;
      const fromRank = color === 0 ? from >> 3 : 7 - (from >> 3);
      const files = Math.abs((to & 7) - (from & 7));
      if (fromRank > toRank || files > toRank - fromRank) continue;
      const next = mask | (1 << i);
      if (cost + files < DP[next]!) DP[next] = cost + files;
    }
  }
  return false;
}

const IMPOSSIBLE = 1000;

/**
 * Knight moves between two squares on an empty board (breadth-first from every square), made on
 * first use: every process that loads the engine loads this module, and a table built at load
 * time cost tens of milliseconds of its start-up (interpreted code) for a book return few use.
 */
let knightDistance: Uint8Array | undefined;

function knightDistances(): Uint8Array {
  const d = new Uint8Array(64 * 64).fill(255);
  const df = [1, 2, 2, 1, -1, -2, -2, -1];
  const dr = [2, 1, -1, -2, -2, -1, 1, 2];
  const queue = new Uint8Array(64);
  for (let s = 0; s < 64; s++) {
    d[s * 64 + s] = 0;
    queue[0] = s;
    for (let q = 0, n = 1; q < n; q++) {
      const x = queue[q]!;
      for (let j = 0; j < 8; j++) {
        const f = (x & 7) + df[j]!;
        const r = (x >> 3) + dr[j]!;
        if (f < 0 || f > 7 || r < 0 || r > 7) continue;
        const y = r * 8 + f;
        if (d[s * 64 + y] !== 255) continue;
        d[s * 64 + y] = d[s * 64 + x]! + 1;
        queue[n++] = y;
      }
    }
  }
  return d;
}

/**
 * Least moves a piece of `type` and `color` needs from `from` to `to` on an empty board
 * (IMPOSSIBLE when no number of its moves gets there: a bishop changing square colour, a pawn
 * going back or sideways further than it advances).
 */
export function pieceDistance(type: number, color: number, from: number, to: number): number {
  if (from === to) return 0;
  const df = Math.abs((to & 7) - (from & 7));
  const rf = from >> 3;
  const rt = to >> 3;
  const dr = Math.abs(rt - rf);
  switch (type) {
    case 1: {
      const ahead = color === 0 ? rt - rf : rf - rt;
      if (ahead < df || ahead <= 0) return IMPOSSIBLE;
      // From its own second rank a pawn may advance two squares in one move (straight pushes only).
      const second = color === 0 ? rf === 1 : rf === 6;
      return second && ahead - df >= 2 ? ahead - 1 : ahead;
    }
    case 2:
      return (knightDistance ??= knightDistances())[from * 64 + to]!;
    case 3:
      if (((df + dr) & 1) !== 0) return IMPOSSIBLE;
      return df === dr ? 1 : 2;
    case 4:
      return df === 0 || dr === 0 ? 1 : 2;
    case 5:
      return df === 0 || dr === 0 || df === dr ? 1 : 2;
    default:
      return Math.max(df, dr);
  }
}

/**
 * Moves `color` must make between boards `a` and `b` (words at `oa`, `ob`); `castles`: the
 * colour may still castle. Every square where `b` has a piece of the colour that `a` lacks
 * there is filled by the last move of a different piece, which needed at least the distance
 * from the nearest square `a` has such a piece on (or one move, when it may be a promoted
 * pawn). Castling moves king and rook in one move, so with castling open those two count one
 * move per square to fill, less one. And each move vacates one square: squares where `a` has
 * a piece that `b` lacks there are left by a move or lost to a capture.
 */
export function movesToMake(a: Int32Array, oa: number, b: Int32Array, ob: number, color: number, castles: boolean): number {
  let fill = 0;
  let vacate = 0;
  let lost = 0;
  let pawnsLost = 0;
  for (let t = 1; t <= 6; t++) {
    const w = wordOf(color, t);
    const n = popcount32(a[oa + w]!) + popcount32(a[oa + w + 1]!) - popcount32(b[ob + w]!) - popcount32(b[ob + w + 1]!);
    lost += n;
    if (t === 1) pawnsLost = n;
  }
  let castleSquares = 0;
  for (let t = 1; t <= 6; t++) {
    const w = wordOf(color, t);
    const aLo = a[oa + w]!;
    const aHi = a[oa + w + 1]!;
    const bLo = b[ob + w]!;
    const bHi = b[ob + w + 1]!;
    vacate += popcount32(aLo & ~bLo) + popcount32(aHi & ~bHi);
    for (let half = 0; half < 2; half++) {
      let x = half === 0 ? bLo & ~aLo : bHi & ~aHi;
      while (x !== 0) {
        const to = half * 32 + 31 - Math.clz32(x & -x);
        x &= x - 1;
        if (castles && (t === 4 || t === 6)) {
          castleSquares++;
          continue;
        }
        let best = t !== 1 && t !== 6 && pawnsLost > 0 ? 1 : IMPOSSIBLE;
        for (let h = 0; h < 2 && best > 1; h++) {
          let y = h === 0 ? aLo : aHi;
          while (y !== 0) {
            const from = h * 32 + 31 - Math.clz32(y & -y);
            y &= y - 1;
            const d = pieceDistance(t, color, from, to);
            if (d < best) best = d;
          }
        }
        fill += best;
      }
    }
  }
  if (castleSquares > 0) fill += castleSquares - 1;
  return Math.max(fill, vacate - lost - (castles ? 1 : 0));
}

/** Castling bits of each colour (Position's WHITE_OO | WHITE_OOO, BLACK_OO | BLACK_OOO). */
const CASTLING_OF = [3, 12];

/** Plies from move counts: the side to move makes plies 1, 3, 5 …, the other side 2, 4, 6 …, at the parity the turns demand. */
function pliesFor(w: number, k: number, turnA: number, turnB: number): number {
  const mover = turnA === 0 ? w : k;
  const other = turnA === 0 ? k : w;
  let plies = Math.max(2 * mover - 1, 2 * other, 0);
  if ((plies & 1) !== (turnA ^ turnB)) plies++;
  return plies;
}

/** Squares to fill for `color`, less one when it may castle (test 4 without the distances: cheap). */
function quickMoves(a: Int32Array, oa: number, b: Int32Array, ob: number, color: number, castles: boolean): number {
  let fill = 0;
  for (let t = 1; t <= 6; t++) {
    const w = wordOf(color, t);
    fill += popcount32(b[ob + w]! & ~a[oa + w]!) + popcount32(b[ob + w + 1]! & ~a[oa + w + 1]!);
  }
  return castles && fill > 0 ? fill - 1 : fill;
}

/**
 * Test 4: the least number of plies from `a` (side to move `turnA`, castling `castleA`) to
 * `b` (side to move `turnB`) that the moves to make allow, at the parity the turns demand.
 * Past `limit` the answer is only known to exceed it (the cheap bound without distances is
 * tried first).
 */
export function pliesNeeded(a: Int32Array, oa: number, b: Int32Array, ob: number, turnA: number, castleA: number, turnB: number, limit = Infinity): number {
  const castlesW = (castleA & CASTLING_OF[0]!) !== 0;
  const castlesB = (castleA & CASTLING_OF[1]!) !== 0;
  const quick = pliesFor(quickMoves(a, oa, b, ob, 0, castlesW), quickMoves(a, oa, b, ob, 1, castlesB), turnA, turnB);
  if (quick > limit) return quick;
  return pliesFor(movesToMake(a, oa, b, ob, 0, castlesW), movesToMake(a, oa, b, ob, 1, castlesB), turnA, turnB);
}

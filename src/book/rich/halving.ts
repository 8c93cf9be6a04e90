/**
 * make-book's counters of hot positions, recomputed from the book's games. make-book keeps per
 * (position, move) a game count n and a score sum in 16 bits, and when a move's n reaches
 * COUNT_MAX (16384) it halves every move of the position, rounding up (polyglot.md §2.3): the
 * result depends on the order of the games. A build that spilled runs, or a merge of shards,
 * only has raw counts; replaying the games in their order through make-book's rule, for the
 * few positions where a move reached COUNT_MAX, gives exactly the counters a single pass would
 * have. Elsewhere n and sum follow from the raw counts (n = games, sum = 2·wins + draws +
 * unfinished). Browser-safe.
 */
import { COUNT_MAX } from '../polyglot/make.js';
import { Position } from '../../core/position.js';
import { popcount, popcount32 } from '../../core/bitboard.js';
import { BLACK, PAWN, WHITE } from '../../core/types.js';
import type { HotPosition } from './finish.js';
import { RESULT_BLACK, RESULT_UNFINISHED, RESULT_WHITE, replayGame, type GameRecord } from './games.js';

/** The games of a build, in order. */
export interface GameSource {
  /** Whose games (a book's file name), for errors. */
  readonly name: string;
  readonly count: number;
  record(game: number): GameRecord;
  /** The bytes holding the game's codes, and where they start. */
  codes(game: number): { bytes: Uint8Array; offset: number };
  /** The start position of a game set up from a FEN (record.fen). */
  startFen(game: number): string;
  /** Sets `pos` to the game's start position. */
  setStart(game: number, pos: Position): void;
}

/** make-book's counters of a hot position's moves: n and sum per move, in the position's move order. */
export interface HalvedCounters {
  keyHi: number;
  keyLo: number;
  moves: Uint16Array;
  n: Uint16Array;
  sum: Uint16Array;
}

/** Games replayed at a time, one slice's events held in memory (about 4 bytes a game per hot position it passes). */
export const HALVING_SLICE = 1 << 18;

/**
 * Replays every game up to the last ply a hot position was seen at, counting the moves played
 * in hot positions with make-book's rule. Returns the counters in the order of `hot`. The
 * games are replayed a slice at a time and each slice's events counted and dropped, so memory
 * does not grow with the games (ten million games pass a hot position hundreds of millions of
 * times).
 */
export function replayHalving(hot: readonly HotPosition[], games: GameSource, slice = HALVING_SLICE): HalvedCounters[] {
  const count = new HalvingCount(hot);
  const replay = new HalvingReplay(hot, games);
  for (let from = 0; from < games.count; from += slice) count.add(replay.events(from, Math.min(from + slice, games.count)));
  return count.result();
}

/**
 * The moves games [from, to) played in hot positions, in game order: for each hot position (in
 * the order of `hot`), one event per move, `moveIndex << 2 | score` (the move's index in the
 * position's moves; the score from the mover's side, 2 for a win, 1 for a draw or an unfinished
 * game, 0 for a loss). Slices of the games can be replayed on several threads and counted in
 * order by HalvingCount.
 */
export function halvingEvents(hot: readonly HotPosition[], games: GameSource, from: number, to: number): Uint32Array[] {
  return new HalvingReplay(hot, games).events(from, to);
}

/**
 * The replay of slice after slice of the games (halvingEvents), keeping what it learnt of the
 * hot positions (their pieces and pawns, which let a game stop early) from one slice to the next.
 */
export class HalvingReplay {
  private readonly moves: Uint16Array[];
  private readonly index = new Map<string, number>();
  /** A cheap pre-check on the key's low bits before the map lookup, which allocates a string. */
  private readonly seen = new Uint8Array(1 << 16);
  private readonly pieces: Int8Array;
  private readonly distance: Int8Array;
  private met = 0;
  private readonly until: Int32Array;
  private readonly pos = new Position();

  constructor(
    private readonly hot: readonly HotPosition[],
    private readonly games: GameSource,
  ) {
    this.moves = hot.map((h) => Uint16Array.from(h.moves.map((m) => m.move)));
    let limit = 0;
    for (let i = 0; i < hot.length; i++) {
      this.index.set(keyString(hot[i]!.keyHi, hot[i]!.keyLo), i);
      limit = Math.max(limit, hot[i]!.maxPly + 1);
      this.seen[hot[i]!.keyLo & 0xffff] = 1;
    }
    this.pieces = new Int8Array(hot.length).fill(-1);
    this.distance = new Int8Array(hot.length);
    this.until = new Int32Array(33 * DISTANCES).fill(limit);
  }

  /** The events of games [from, to), as halvingEvents gives them. */
  events(from: number, to: number): Uint32Array[] {
    const hot = this.hot;
    if (hot.length === 0) return [];
    const events = hot.map(() => new EventList());
    const { moves, index, seen, pieces, distance, until } = this;
    // No move undoes a capture or a pawn's step, so a hot position H can still come at ply p of a
    // game only if p ≤ H.maxPly (the highest ply any game played from it at), the game still has
    // at least H's pieces and its pawns are no nearer promotion than H's (pawnDistance, which no
    // move increases). Once every hot position has been met (each is in thousands of games, so
    // within the first games), `until[pieces · DISTANCES + distance]` is the ply a game may go on
    // to: most games stop at their first pawn move past the hot positions' pawns.
    let result = 0;
    const visit = (p: Position, m: number, ply: number): boolean => {
      if (ply >= until[pieceCount(p) * DISTANCES + pawnDistance(p)]!) return false;
      const lo = p.keyLo >>> 0;
      if (seen[lo & 0xffff] === 0) return true;
      const i = index.get(keyString(p.keyHi >>> 0, lo));
      if (i === undefined) return true;
      if (pieces[i]! < 0) {
        pieces[i] = pieceCount(p);
        distance[i] = pawnDistance(p);
        if (++this.met === hot.length) {
          until.fill(0);
          for (let h = 0; h < hot.length; h++) {
            for (let c = pieces[h]!; c <= 32; c++) {
              for (let d = distance[h]!; d < DISTANCES; d++) until[c * DISTANCES + d] = Math.max(until[c * DISTANCES + d]!, hot[h]!.maxPly + 1);
            }
          }
        }
      }
      const ms = moves[i]!;
      let j = 0;
      while (j < ms.length && ms[j] !== m) j++;
      if (j === ms.length) return true;
      const score = result === RESULT_UNFINISHED ? 1 : result === RESULT_WHITE ? (p.turn === 0 ? 2 : 0) : result === RESULT_BLACK ? (p.turn === 0 ? 0 : 2) : 1;
      events[i]!.push((j << 2) | score);
      return true;
    };
    for (let g = from; g < to; g++) {
      const rec = this.games.record(g);
      result = rec.result;
      replayGame(this.games, g, rec, this.pos, visit);
    }
    return events.map((e) => e.view());
  }
}

/**
 * make-book's counters from the events of consecutive slices of the games (halvingEvents),
 * added in order: a move's n and sum grow by each event, and when a move's n reaches COUNT_MAX
 * every move of the position is halved, rounding up.
 */
export class HalvingCount {
  private readonly n: Uint16Array[];
  private readonly sum: Uint16Array[];

  constructor(private readonly hot: readonly HotPosition[]) {
    this.n = hot.map((h) => new Uint16Array(h.moves.length));
    this.sum = hot.map((h) => new Uint16Array(h.moves.length));
  }

  /** The next slice's events, one list per hot position. */
  add(slice: readonly Uint32Array[]): void {
    for (let i = 0; i < this.hot.length; i++) {
      const n = this.n[i]!;
      const sum = this.sum[i]!;
      const ev = slice[i]!;
      for (let e = 0; e < ev.length; e++) {
        const j = ev[e]! >>> 2;
        n[j]!++;
        sum[j]! += ev[e]! & 3;
        if (n[j]! >= COUNT_MAX) {
          for (let k = 0; k < n.length; k++) {
            n[k] = (n[k]! + 1) >>> 1;
            sum[k] = (sum[k]! + 1) >>> 1;
          }
        }
      }
    }
  }

  result(): HalvedCounters[] {
    return this.hot.map((h, i) => ({ keyHi: h.keyHi, keyLo: h.keyLo, moves: Uint16Array.from(h.moves.map((m) => m.move)), n: this.n[i]!, sum: this.sum[i]! }));
  }
}

/** make-book's counters from the events of every slice of the games, in order (HalvingCount). */
export function countHalving(hot: readonly HotPosition[], slices: readonly (readonly Uint32Array[])[]): HalvedCounters[] {
  const count = new HalvingCount(hot);
  for (const slice of slices) count.add(slice);
  return count.result();
}

/** A growing list of 32-bit events. */
class EventList {
  private data = new Uint32Array(256);
  private length = 0;

  push(e: number): void {
    if (this.length === this.data.length) {
      const d = new Uint32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = e;
  }

  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

/** Pieces on the board (both colours' occupancy). */
function pieceCount(p: Position): number {
  return popcount(p.bbLo[WHITE * 8]!, p.bbHi[WHITE * 8]!) + popcount(p.bbLo[BLACK * 8]!, p.bbHi[BLACK * 8]!);
}

/** Values of pawnDistance: 0 to 16 pawns × 6 steps. */
const DISTANCES = 97;
/** Ranks 2, 4, 6, 8 of a bitboard half (odd rank indexes) and ranks 3, 4, 7, 8 (bit 1 of the index). */
const RANK_BIT0 = 0xff00ff00 | 0;
const RANK_BIT1 = 0xffff0000 | 0;

/**
 * The steps the pawns on the board have left to promotion, summed over both colours. No move
 * increases it: a push or a pawn capture takes a pawn nearer, and a promotion or a capture of a
 * pawn takes a pawn off the board.
 */
export function pawnDistance(p: Position): number {
  const wl = p.bbLo[WHITE * 8 + PAWN]!;
  const wh = p.bbHi[WHITE * 8 + PAWN]!;
  const bl = p.bbLo[BLACK * 8 + PAWN]!;
  const bh = p.bbHi[BLACK * 8 + PAWN]!;
  // White pawns: 7 − rank index each; black pawns: their rank index.
  return 7 * popcount(wl, wh) - rankSum(wl, wh) + rankSum(bl, bh);
}

/** The sum of the rank indexes (0–7) of a bitboard's squares. */
function rankSum(lo: number, hi: number): number {
  return popcount32(lo & RANK_BIT0) + 2 * popcount32(lo & RANK_BIT1) + 4 * popcount32(hi) + popcount32(hi & RANK_BIT0) + 2 * popcount32(hi & RANK_BIT1);
}

function keyString(hi: number, lo: number): string {
  return hi.toString(16) + ':' + lo.toString(16);
}

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
import { popcount } from '../../core/bitboard.js';
import { BLACK, WHITE } from '../../core/types.js';
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

/**
 * Replays every game up to the last ply a hot position was seen at, counting the moves played
 * in hot positions with make-book's rule. Returns the counters in the order of `hot`.
 */
export function replayHalving(hot: readonly HotPosition[], games: GameSource): HalvedCounters[] {
  const out: HalvedCounters[] = hot.map((h) => ({
    keyHi: h.keyHi,
    keyLo: h.keyLo,
    moves: Uint16Array.from(h.moves.map((m) => m.move)),
    n: new Uint16Array(h.moves.length),
    sum: new Uint16Array(h.moves.length),
  }));
  if (hot.length === 0) return out;
  const index = new Map<string, number>();
  let limit = 0;
  for (let i = 0; i < hot.length; i++) {
    index.set(keyString(hot[i]!.keyHi, hot[i]!.keyLo), i);
    limit = Math.max(limit, hot[i]!.maxPly + 1);
  }
  // A cheap pre-check on the key's low bits before the map lookup, which allocates a string.
  const seen = new Uint8Array(1 << 16);
  for (const h of hot) seen[h.keyLo & 0xffff] = 1;
  // Captures are never undone: once every hot position has been met (each is in thousands of
  // games, so within the first games), a game stops at the first position with fewer pieces
  // than all of them; most games leave the opening's full material within a few plies.
  const pieces = new Int8Array(hot.length).fill(-1);
  let met = 0;
  let fewest = -1;
  const pos = new Position();
  let result = 0;
  const visit = (p: Position, m: number, ply: number): boolean => {
    if (ply >= limit) return false;
    if (fewest >= 0 && pieceCount(p) < fewest) return false;
    const lo = p.keyLo >>> 0;
    if (seen[lo & 0xffff] === 0) return true;
    const i = index.get(keyString(p.keyHi >>> 0, lo));
    if (i === undefined) return true;
    if (pieces[i]! < 0) {
      pieces[i] = pieceCount(p);
      if (++met === hot.length) fewest = Math.min(...pieces);
    }
    const c = out[i]!;
    let j = 0;
    while (j < c.moves.length && c.moves[j] !== m) j++;
    if (j === c.moves.length) return true;
    // Score from the mover's side: 2 for a win, 1 for a draw or an unfinished game, 0 for a loss.
    const score = result === RESULT_UNFINISHED ? 1 : result === RESULT_WHITE ? (p.turn === 0 ? 2 : 0) : result === RESULT_BLACK ? (p.turn === 0 ? 0 : 2) : 1;
    c.n[j]!++;
    c.sum[j]! += score;
    if (c.n[j]! >= COUNT_MAX) {
      for (let k = 0; k < c.moves.length; k++) {
        c.n[k] = (c.n[k]! + 1) >>> 1;
        c.sum[k] = (c.sum[k]! + 1) >>> 1;
      }
    }
    return true;
  };
  for (let g = 0; g < games.count; g++) {
    const rec = games.record(g);
    result = rec.result;
    replayGame(games, g, rec, pos, visit);
  }
  return out;
}

/** Pieces on the board (both colours' occupancy). */
function pieceCount(p: Position): number {
  return popcount(p.bbLo[WHITE * 8]!, p.bbHi[WHITE * 8]!) + popcount(p.bbLo[BLACK * 8]!, p.bbHi[BLACK * 8]!);
}

function keyString(hi: number, lo: number): string {
  return hi.toString(16) + ':' + lo.toString(16);
}

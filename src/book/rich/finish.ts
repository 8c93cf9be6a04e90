/**
 * The end of a book build: merged rows (mergeRuns.ts) grouped by position key and sorted into
 * what the book stores. A position seen once is a *single*: only its key and game go to the
 * single-position index (the game says the rest). Any other position is *stored* with its moves
 * in the order make-book first saw them and, for a split book, their cells. A position where a
 * move reached make-book's COUNT_MAX games is *hot*: make-book halved its counters at moments
 * that depend on the order of the games, so its rows are kept for halving.ts, which replays the
 * games. Browser-safe.
 */
import { COUNT_MAX } from '../polyglot/make.js';
import { repeatsOf, type CellStats, type MoveStats, type StoredPosition } from './positions.js';
import { RunRow } from './runs.js';

/** A source of rows in run order. */
export type { RowSource as RowCursor, SingleSink } from './mergeRuns.js';
import type { RowSource as RowCursor, SingleSink } from './mergeRuns.js';

/** A hot position's moves with their first stamps and the highest ply any was played at. */
export interface HotPosition {
  keyHi: number;
  keyLo: number;
  moves: { move: number; stamp: number }[];
  maxPly: number;
}

export interface FinishSinks {
  /** A position seen in one game only: its key and the game. */
  single: SingleSink;
  stored(p: StoredPosition): void;
}

export interface FinishSummary {
  rows: number;
  singles: number;
  stored: number;
  storedMoves: number;
  hot: HotPosition[];
}

/**
 * Groups the rows of `cursor` by key and hands each position to the sinks. `split`: keep the
 * cells of each move (a book built with --split); otherwise every row has cell 0.
 */
export function finishRows(cursor: RowCursor, split: boolean, sinks: FinishSinks): FinishSummary {
  const summary: FinishSummary = { rows: 0, singles: 0, stored: 0, storedMoves: 0, hot: [] };
  const group: RunRow[] = [];
  const pool: RunRow[] = [];
  if (cursor.takeSingles !== undefined && cursor.sameKey !== undefined) {
    // Singles in bulk, read in place (most positions of a collection: see PlyLog.takeSingles);
    // each other position row by row up to its last.
    const single = sinks.single;
    for (;;) {
      const n = cursor.takeSingles(single);
      summary.rows += n;
      summary.singles += n;
      const first = pool.pop() ?? new RunRow();
      if (!cursor.next(first)) return summary;
      group.length = 0;
      group.push(first);
      while (cursor.sameKey()) {
        const r = pool.pop() ?? new RunRow();
        cursor.next(r);
        group.push(r);
      }
      summary.rows += group.length;
      emitPosition(group, split, sinks, summary);
      for (const r of group) pool.push(r);
    }
  }
  let row = new RunRow();
  let have = cursor.next(row);
  while (have) {
    const hi = row.keyHi;
    const lo = row.keyLo;
    group.length = 0;
    while (have && row.keyHi === hi && row.keyLo === lo) {
      summary.rows++;
      group.push(row);
      row = pool.pop() ?? new RunRow();
      have = cursor.next(row);
    }
    emitPosition(group, split, sinks, summary);
    for (const r of group) pool.push(r);
  }
  return summary;
}

function emitPosition(group: RunRow[], split: boolean, sinks: FinishSinks, summary: FinishSummary): void {
  const first = group[0]!;
  if (group.length === 1 && first.games() === 1 && first.repeats() === 0 && first.weight < 0) {
    sinks.single(first.keyHi, first.keyLo, Math.floor(first.stamp / 65536));
    summary.singles++;
    return;
  }
  // Rows come by move then cell: one MoveStats per move, its stamp the earliest of its cells.
  const moves: (MoveStats & { stamp: number; maxPly: number })[] = [];
  let black = 0;
  for (const r of group) {
    black |= r.black;
    let m = moves.length > 0 ? moves[moves.length - 1]! : undefined;
    if (m === undefined || m.move !== r.move) {
      m = { move: r.move, cell: 0, wins: 0, draws: 0, losses: 0, unfinished: 0, rated: 0, ratingSum: 0, stamp: r.stamp, maxPly: 0 };
      if (split) m.cells = [];
      moves.push(m);
    }
    if (r.weight >= 0) {
      m.weight = Math.min(0xffff, (m.weight ?? 0) + r.weight);
      m.learn = m.learn || r.learn;
    }
    m.wins += r.wins;
    m.draws += r.draws;
    m.losses += r.losses;
    m.unfinished += r.unfinished;
    m.rated += r.rated;
    m.ratingSum += r.ratingSum;
    if (r.repeats() > 0) addRepeats(m, r);
    if (r.stamp < m.stamp) m.stamp = r.stamp;
    if (r.maxPly > m.maxPly) m.maxPly = r.maxPly;
    if (split) {
      const c: CellStats = { cell: r.cell, wins: r.wins, draws: r.draws, losses: r.losses, unfinished: r.unfinished, rated: r.rated, ratingSum: r.ratingSum };
      if (r.repeats() > 0) addRepeats(c, r);
      m.cells!.push(c);
    }
  }
  moves.sort((a, b) => a.stamp - b.stamp);
  let hot = false;
  let maxPly = 0;
  for (const m of moves) {
    // make-book counts every occurrence, repeats included.
    if (m.wins + m.draws + m.losses + m.unfinished + repeatsOf(m) >= COUNT_MAX) hot = true;
    if (m.maxPly > maxPly) maxPly = m.maxPly;
  }
  if (hot) summary.hot.push({ keyHi: first.keyHi, keyLo: first.keyLo, moves: moves.map((m) => ({ move: m.move, stamp: m.stamp })), maxPly });
  sinks.stored({
    keyHi: first.keyHi,
    keyLo: first.keyLo,
    black: black !== 0,
    maxPly,
    // The stamps and plies ride along: the writer reads the statistics only.
    moves,
  });
  summary.stored++;
  summary.storedMoves += moves.length;
}

/** Adds a row's repeats to a move's or cell's. */
function addRepeats(s: CellStats, r: RunRow): void {
  s.repeatWins = (s.repeatWins ?? 0) + r.repeatWins;
  s.repeatDraws = (s.repeatDraws ?? 0) + r.repeatDraws;
  s.repeatLosses = (s.repeatLosses ?? 0) + r.repeatLosses;
  s.repeatUnfinished = (s.repeatUnfinished ?? 0) + r.repeatUnfinished;
}

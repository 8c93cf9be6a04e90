/**
 * A version 2 book back as rows in run order, for what rebuilds it from rows: adding games
 * (book add), merging books, and the Polyglot export of single games. Stored positions give
 * their moves (and cells) with stamps that keep their first-seen order; the single positions,
 * which the book does not list, are found by replaying its games: a ply whose key the
 * single-position index maps to the game being replayed is a candidate, sorted by key in the
 * accumulator (spilled if it does not fit the budget). A candidate whose key is a stored
 * position (the index answers anything for a key outside its set) is dropped in the merge.
 */
import { Position } from '../../core/position.js';
import { PlyLog, MOVER_DRAW, MOVER_LOSS, MOVER_UNFINISHED, MOVER_WIN } from '../rich/plyLog.js';
import { RESULT_DRAW, RESULT_UNFINISHED, RESULT_WHITE, replayGame } from '../rich/games.js';
import { cellPasses, type SplitFilter } from '../rich/splits.js';
import { RunMerger, type RowSource } from '../rich/mergeRuns.js';
import type { StoredPosition } from '../rich/positions.js';
import { RunReader, RunRow } from '../rich/runs.js';
import type { TbkBook } from '../rich/tbkBook.js';
import { GamePlies } from '../rich/repeats.js';
import { TableCursor, spillTable } from './tbkBuild.js';
import type { ScratchFile, ScratchFiles, WorkDir } from './workDir.js';

/** The stored positions of a book in key order. */
export function* storedPositions(book: TbkBook): Generator<StoredPosition> {
  for (let b = 0; b < book.blockCount; b++) yield* book.blockPositions(b);
}

/**
 * The single positions of a book, as rows sorted by key (candidates: see the module comment).
 * Replaying every game is most of the time of adding games to a big book: `onGames(done,
 * total)` is told every 4,096 games and at the end. singlesThreads.ts shares the replay out.
 */
export function singleRows(book: TbkBook, memory: number, work: WorkDir, onGames?: (done: number, total: number) => void): RowSource {
  const games = book.gameReader(1 << 20);
  const held = games !== undefined && holdsSingles(book, memory) ? book.singlesBytes : 0;
  if (held > 0) book.holdSingles();
  const table = new PlyLog(PlyLog.capacityFor(memory - held));
  if (games === undefined) return new TableCursor(table);
  const runs: ScratchFile[] = [];
  replaySingles(book, 0, games.count, table, runs, work, onGames && ((done) => onGames(done, games.count)));
  onGames?.(games.count, games.count);
  if (runs.length === 0) return new TableCursor(table);
  const last = work.create('singles');
  spillTable(table, last);
  runs.push(last);
  return new RunMerger(runs.map((f) => ({ reader: new RunReader((o, n) => f.read(o, n), 0, f.size, f.path, (into, o) => f.readInto(into, o)), gameOffset: 0 })));
}

/**
 * Whether a replay holds the book's single-position index in memory: it looks up every ply
 * there, at random across the index, which through the file's page cache costs a read a lookup
 * once the index outgrows it (on the 389,323 master games, 67 MB of a 143 MB book, those reads
 * were a third of `book add`'s time). Held when it takes at most a quarter of the budget; the
 * rest is left to the logs.
 */
export function holdsSingles(book: TbkBook, memory: number): boolean {
  return book.singlesBytes > 0 && book.singlesBytes <= memory / 4;
}

/**
 * Replays games [from, to) of the book, counting into `table` each ply whose key the
 * single-position index maps to the game replayed; a full table is spilled as a run (appended
 * to `runs`). `onGames(done)` is told the games replayed (from `from`) every 4,096 games.
 */
export function replaySingles(book: TbkBook, from: number, to: number, table: PlyLog, runs: ScratchFile[], files: ScratchFiles, onGames?: (done: number) => void): void {
  const games = book.gameReader(1 << 20)!;
  const pos = new Position();
  let g = 0;
  let result = 0;
  let cell = 0;
  let whiteElo = 0;
  let blackElo = 0;
  const visit = (p: Position, m: number, ply: number): boolean => {
    if (book.singleGame(p.keyHi, p.keyLo) !== g) return true;
    const black = p.turn;
    const res = moverResult(result, black);
    const elo = black ? blackElo : whiteElo;
    if (!table.count(p.keyLo, p.keyHi, black, m, cell, res, elo, g, ply)) {
      const run = files.create('singles');
      spillTable(table, run);
      runs.push(run);
      table.clear();
      table.count(p.keyLo, p.keyHi, black, m, cell, res, elo, g, ply);
    }
    return true;
  };
  for (g = from; g < to; g++) {
    const rec = games.record(g);
    result = rec.result;
    whiteElo = rec.whiteElo;
    blackElo = rec.blackElo;
    cell = book.cellOfGame(rec);
    replayGame(games, g, rec, pos, visit);
    if (onGames !== undefined && ((g - from) & 4095) === 4095) onGames(g + 1 - from);
  }
}

/**
 * Games [from, to) of the book that pass `filter`, replayed to `maxPly` into `table` as a build
 * counts them (book export with another --max-ply or a split filter): the games kept are
 * numbered from 0 in the order met (their stamps' game numbers; a thread's share is shifted by
 * the games kept before it when the shares are merged); a full table is spilled as a run
 * (appended to `runs`). Returns the kept games' numbers in the book. `onGames(done)` is told
 * the games looked at (from `from`) every 4,096 games.
 */
export function replayFiltered(book: TbkBook, from: number, to: number, filter: SplitFilter, maxPly: number, table: PlyLog, runs: ScratchFile[], files: ScratchFiles, onGames?: (done: number) => void): number[] {
  const games = book.gameReader(1 << 20)!;
  const kept: number[] = [];
  const pos = new Position();
  let g = 0;
  let result = 0;
  const visit = (p: Position, m: number, ply: number): boolean => {
    if (ply >= maxPly) return false;
    const black = p.turn;
    const res = moverResult(result, black);
    if (!table.count(p.keyLo, p.keyHi, black, m, 0, res, 0, g, ply)) {
      const run = files.create('export');
      spillTable(table, run);
      runs.push(run);
      table.clear();
      table.count(p.keyLo, p.keyHi, black, m, 0, res, 0, g, ply);
    }
    return true;
  };
  for (let all = from; all < to; all++) {
    if (onGames !== undefined && all > from && ((all - from) & 4095) === 0) onGames(all - from);
    const rec = games.record(all);
    if (!cellPasses(filter, book.cellOfGame(rec))) continue;
    g = kept.length;
    kept.push(all);
    result = rec.result;
    replayGame(games, all, rec, pos, visit);
  }
  return kept;
}

/**
 * Every ply of a book's games counted again, as a build counts them (each game once a position, its
 * repeats apart: repeats.ts), as rows in run order: what `book upgrade` rebuilds a book from when
 * its W/D/L counted a repeated move each time. `onGames(done, total)` as in singleRows.
 */
export function gameRows(book: TbkBook, memory: number, work: WorkDir, onGames?: (done: number, total: number) => void): RowSource {
  const games = book.gameReader(1 << 20);
  const table = new PlyLog(PlyLog.capacityFor(memory));
  if (games === undefined) return new TableCursor(table);
  const runs: ScratchFile[] = [];
  const pos = new Position();
  const plies = new GamePlies();
  const maxPly = book.fields.maxPly;
  let firstBlack = 0;
  const visit = (p: Position, m: number, ply: number): boolean => {
    if (ply >= maxPly) return false;
    if (ply === 0) firstBlack = p.turn;
    plies.push(p.keyLo, p.keyHi, m, p.halfmoves);
    return true;
  };
  for (let g = 0; g < games.count; g++) {
    const rec = games.record(g);
    const cell = book.cellOfGame(rec);
    plies.count = 0;
    replayGame(games, g, rec, pos, visit);
    for (let k = 0; k < plies.count; k++) {
      const black = (firstBlack + k) & 1;
      const res = moverResult(rec.result, black);
      const elo = black ? rec.blackElo : rec.whiteElo;
      const again = plies.repeatAt(k);
      if (!table.count(plies.keysLo[k]!, plies.keysHi[k]!, black, plies.moves[k]!, cell, res, elo, g, k, again)) {
        const run = work.create('recount');
        spillTable(table, run);
        runs.push(run);
        table.clear();
        table.count(plies.keysLo[k]!, plies.keysHi[k]!, black, plies.moves[k]!, cell, res, elo, g, k, again);
      }
    }
    if (onGames !== undefined && (g & 4095) === 4095) onGames(g + 1, games.count);
  }
  onGames?.(games.count, games.count);
  if (runs.length === 0) return new TableCursor(table);
  const last = work.create('recount');
  spillTable(table, last);
  runs.push(last);
  return new RunMerger(runs.map((f) => ({ reader: new RunReader((o, n) => f.read(o, n), 0, f.size, f.path, (into, o) => f.readInto(into, o)), gameOffset: 0 })));
}

/** A game's result (RESULT_*) from the side to move's view (MOVER_*). */
function moverResult(result: number, black: number): number {
  return result === RESULT_UNFINISHED ? MOVER_UNFINISHED : result === RESULT_DRAW ? MOVER_DRAW : (result === RESULT_WHITE) === (black === 0) ? MOVER_WIN : MOVER_LOSS;
}

/**
 * Every row of a book in run order: stored positions (stamps: the move's rank, which keeps
 * first-seen order and comes before any game added later) and single positions, candidates
 * colliding with a stored key dropped.
 */
export class BookRows implements RowSource {
  private readonly stored: Generator<StoredPosition>;
  private readonly pending: RunRow[] = [];
  private single = new RunRow();
  private haveSingle: boolean;
  private nextStored: StoredPosition | undefined;

  constructor(
    book: TbkBook,
    private readonly singles: RowSource,
  ) {
    this.stored = storedPositions(book);
    this.nextStored = this.pullStored();
    this.haveSingle = singles.next(this.single);
  }

  next(row: RunRow): boolean {
    for (;;) {
      if (this.pending.length > 0) {
        row.copyFrom(this.pending.shift()!);
        return true;
      }
      const s = this.nextStored;
      if (s === undefined && !this.haveSingle) return false;
      if (s !== undefined && (!this.haveSingle || this.single.keyHi > s.keyHi || (this.single.keyHi === s.keyHi && this.single.keyLo >= s.keyLo))) {
        // Drop single candidates of this stored key: index collisions.
        while (this.haveSingle && this.single.keyHi === s.keyHi && this.single.keyLo === s.keyLo) this.haveSingle = this.singles.next(this.single);
        this.expand(s);
        this.nextStored = this.pullStored();
        continue;
      }
      row.copyFrom(this.single);
      this.haveSingle = this.singles.next(this.single);
      return true;
    }
  }

  private pullStored(): StoredPosition | undefined {
    const r = this.stored.next();
    return r.done ? undefined : r.value;
  }

  /** A stored position's rows, by move then cell. */
  private expand(p: StoredPosition): void {
    const rows: RunRow[] = [];
    p.moves.forEach((m, rank) => {
      const parts = m.cells !== undefined && m.cells.length > 0 ? m.cells : [m];
      for (const c of parts) {
        const r = new RunRow();
        r.keyHi = p.keyHi;
        r.keyLo = p.keyLo;
        r.black = p.black ? 1 : 0;
        r.move = m.move;
        r.cell = c.cell;
        r.wins = c.wins;
        r.draws = c.draws;
        r.losses = c.losses;
        r.unfinished = c.unfinished;
        r.rated = c.rated;
        r.ratingSum = c.ratingSum;
        r.repeatWins = c.repeatWins ?? 0;
        r.repeatDraws = c.repeatDraws ?? 0;
        r.repeatLosses = c.repeatLosses ?? 0;
        r.repeatUnfinished = c.repeatUnfinished ?? 0;
        r.stamp = rank;
        r.maxPly = p.maxPly;
        if (m.weight !== undefined && c === parts[0]) {
          r.weight = m.weight;
          r.learn = m.learn ?? 0;
        }
        rows.push(r);
      }
    });
    rows.sort((a, b) => a.move - b.move || a.cell - b.cell);
    this.pending.push(...rows);
  }
}

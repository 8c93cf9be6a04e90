/**
 * The Polyglot `.bin` of a version 2 book: its stored positions with make-book's counters
 * (halved where make-book halved them), and, when min-game lets single games through (1 or
 * less), the positions seen in one game only, found by replaying the games. The singles come
 * out of the replay in game order; they are sorted by key in the accumulator, spilled to disk
 * if they do not fit the memory budget, and merged with the stored positions. Both replays (the
 * singles, and another max-ply or a split filter) can run on worker threads (singlesThreads.ts)
 * and give the same .bin.
 */
import type { MakeOptions } from '../polyglot/make.js';
import { PlyLog } from '../rich/plyLog.js';
import type { GameRecord } from '../rich/games.js';
import type { GameSource } from '../rich/halving.js';
import type { SplitFilter } from '../rich/splits.js';
import { BookError } from '../polyglot/select.js';
import { binFromRows } from './binFromRows.js';
import type { RowSource } from '../rich/mergeRuns.js';
import { PolyglotEmitter, type PolyglotMove } from '../rich/polyglotOut.js';
import { ENTRY_SIZE, encodeMove, writeEntry } from '../polyglot/format.js';
import type { Note } from '../rich/notes.js';
import { RunRow } from '../rich/runs.js';
import type { TbkBook } from '../rich/tbkBook.js';
import { Position } from '../../core/position.js';
import { DEFAULT_MEMORY, runMerger } from './tbkBuild.js';
import { BookRows, replayFiltered } from './bookRows.js';
import { filteredRowsThreaded, singleRowsThreaded } from './singlesThreads.js';
import { ScratchFile, WorkDir } from './workDir.js';
import { withKeyProgress } from './tbkCombine.js';

export interface TbkExportOptions extends MakeOptions {
  memory?: number;
  tmpDir?: string;
  /** Moves with a user value get it as their weight, 0 leaving them out, and forbidden moves are left out (not make-book output). */
  userValues?: boolean;
  /** Progress: the book's games replayed (every 4,096 games and at the end). */
  onGames?(done: number, total: number): void;
  /** Progress: the share of the key space written (book keys are spread evenly over it). */
  onKeys?(share: number): void;
  /**
   * Threads that replay the book's games (singlesThreads.ts; default 1): for the single
   * positions (--min-games 1 or less) and for another max-ply or a split filter; the .bin is
   * the same. The halving replay of hot positions stays on one thread.
   */
  threads?: number;
  /** Games a replay thread takes at least (default MIN_GAMES_A_THREAD); tests lower it. */
  replayThreadGames?: number;
  /** Set to the threads that replayed the games, when they were replayed (1: too few games for more). */
  replayed?: { threads: number };
}

/** Writes the book's Polyglot entries, in order, to `sink`; returns the number of entries. */
export async function exportTbkToBin(book: TbkBook, opts: TbkExportOptions, sink: (bytes: Uint8Array) => void): Promise<number> {
  if (opts.userValues) return withUserValues(book, opts, sink, (s) => exportTbkToBin(book, { ...opts, userValues: false }, s));
  const emitter = new PolyglotEmitter(opts, sink);
  // Single games pass make-book's thresholds only when --min-games is 1 or less.
  const work = (opts.minGame ?? 3) <= 1 && book.games !== undefined ? new WorkDir(opts.tmpDir) : undefined;
  try {
    let singles: RowSource = { next: () => false };
    if (work !== undefined) {
      // A book's name is the path it was opened from: the replay's threads open it again.
      const r = await singleRowsThreaded(book, book.name, opts.memory ?? DEFAULT_MEMORY, work, opts.threads ?? 1, opts.onGames, opts.replayThreadGames);
      singles = r.rows;
      if (opts.replayed !== undefined) opts.replayed.threads = r.threads;
    }
    const rows = withKeyProgress(new BookRows(book, singles), opts.onKeys);
    const row = new RunRow();
    let have = rows.next(row);
    while (have) {
      const hi = row.keyHi;
      const lo = row.keyLo;
      const moves: (PolyglotMove & { stamp: number })[] = [];
      let black = false;
      while (have && row.keyHi === hi && row.keyLo === lo) {
        let m = moves.length > 0 && moves[moves.length - 1]!.move === row.move ? moves[moves.length - 1] : undefined;
        if (m === undefined) {
          m = { move: row.move, n: 0, sum: 0, stamp: row.stamp };
          moves.push(m);
        }
        m.n += row.occurrences();
        m.sum += row.polyglotSum();
        if (row.weight >= 0) {
          m.weight = row.weight;
          m.learn = row.learn;
        }
        if (row.stamp < m.stamp) m.stamp = row.stamp;
        black ||= row.black !== 0;
        have = rows.next(row);
      }
      moves.sort((a, b) => a.stamp - b.stamp);
      const halved = book.halvedCounters(hi, lo);
      for (const m of moves) {
        const j = halved === undefined ? -1 : halved.moves.indexOf(m.move);
        if (j >= 0) {
          m.n = halved!.n[j]!;
          m.sum = halved!.sum[j]!;
        }
        // A merge of an imported .bin with a book of games: the move weighs both, the imported
        // weight and make-book's weight of its games (the games would otherwise count for nothing).
        if (m.weight !== undefined && m.n > 0) m.weight = Math.min(0xffff, m.weight + Math.min(m.sum, 0xffff));
      }
      emitter.position(hi, lo, black, moves);
    }
    emitter.flush();
    return emitter.kept;
  } finally {
    work?.remove();
  }
}

/** Some of a book's games, in their order (a split filter's), as a game source. */
class GameSubset implements GameSource {
  constructor(
    private readonly inner: GameSource,
    private readonly games: readonly number[],
  ) {}

  get name(): string {
    return this.inner.name;
  }

  get count(): number {
    return this.games.length;
  }

  record(game: number): GameRecord {
    return this.inner.record(this.games[game]!);
  }

  codes(game: number): { bytes: Uint8Array; offset: number } {
    return this.inner.codes(this.games[game]!);
  }

  startFen(game: number): string {
    return this.inner.startFen(this.games[game]!);
  }

  setStart(game: number, pos: Position): void {
    this.inner.setStart(this.games[game]!, pos);
  }
}

/**
 * The `.bin` make-book would write from the book's games that pass a split filter, counted to
 * `maxPly` (at most the book's): the games are replayed into the accumulator, as a build
 * counts them, and finished by binFromRows (make-book's halving replayed over the same games).
 */
export async function exportFromGames(book: TbkBook, opts: TbkExportOptions & { maxPly: number; filter: SplitFilter }, sink: (bytes: Uint8Array) => void): Promise<number> {
  if (opts.userValues) return withUserValues(book, opts, sink, (s) => exportFromGames(book, { ...opts, userValues: false }, s));
  const games = book.gameReader(1 << 20);
  if (games === undefined) throw new BookError('ERR_BOOK_EXPORT', `${book.name} keeps no games: it cannot be exported with another --max-ply or a split filter`);
  const work = new WorkDir(opts.tmpDir);
  try {
    const memory = opts.memory ?? DEFAULT_MEMORY;
    const onGames = opts.onGames;
    let replayed: RowSource;
    let kept: number[];
    const threaded = await filteredRowsThreaded(book, book.name, { maxPly: opts.maxPly, filter: opts.filter, memory, work, threads: opts.threads ?? 1, onGames, minGames: opts.replayThreadGames });
    if (threaded !== undefined) {
      ({ rows: replayed, kept } = threaded);
      if (opts.replayed !== undefined) opts.replayed.threads = threaded.threads;
    } else {
      const table = new PlyLog(PlyLog.capacityFor(memory));
      const runs: ScratchFile[] = [];
      kept = replayFiltered(book, 0, games.count, opts.filter, opts.maxPly, table, runs, work, onGames && ((done) => onGames(done, games.count)));
      onGames?.(games.count, games.count);
      replayed = runMerger(runs, table);
      if (opts.replayed !== undefined) opts.replayed.threads = 1;
    }
    const rows: RowSource = withKeyProgress(replayed, opts.onKeys);
    return binFromRows(rows, new GameSubset(games, kept), opts, work, sink);
  } finally {
    work.remove();
  }
}

/**
 * `--user-values` over an export's entries, whichever way they were counted (stored counts or
 * the games replayed): a move with a user value weighs its value (1 with --uniform), one set to
 * 0 or forbidden is left out, and a move with a user value that the counts left out (fewer games
 * than --min-games, a position seen in one game, a move added by `book set` that no game
 * played) is written all the same. The entries come in key order, a position's together; the
 * notes are sorted the same way, so the two are merged in one pass. Returns the entries written.
 */
async function withUserValues(book: TbkBook, opts: TbkExportOptions, sink: (bytes: Uint8Array) => void, run: (sink: (bytes: Uint8Array) => void) => Promise<number>): Promise<number> {
  const drop = opts.colour === 'white' ? true : opts.colour === 'black' ? false : undefined;
  const notes = book.notes.all().filter((n) => !n.postBook && (n.userValue >= 0 || n.forbidden) && n.black !== drop);
  let ni = 0;
  let written = 0;
  let out = new Uint8Array(1 << 16);
  let used = 0;
  const put = (hi: number, lo: number, move: number, weight: number, learn: number): void => {
    if (used + ENTRY_SIZE > out.length) {
      sink(out.subarray(0, used));
      out = new Uint8Array(out.length);
      used = 0;
    }
    writeEntry(out, used / ENTRY_SIZE, hi, lo, move, weight, learn);
    used += ENTRY_SIZE;
    written++;
  };
  const valued = (n: Note): boolean => n.userValue > 0 && !n.forbidden;
  const weightOf = (n: Note): number => (opts.uniform === true ? 1 : n.userValue);
  /** One position: its counted entries (move, weight, learn, in the export's order) and its notes. */
  const position = (hi: number, lo: number, entries: [number, number, number][], own: readonly Note[]): void => {
    const byMove = new Map(own.map((n) => [encodeMove(n.move), n] as const));
    const keep: [number, number, number][] = [];
    for (const [move, weight, learn] of entries) {
      const n = byMove.get(move);
      if (n === undefined) {
        keep.push([move, weight, learn]);
        continue;
      }
      byMove.delete(move);
      if (valued(n)) keep.push([move, weightOf(n), learn]);
    }
    for (const [move, n] of byMove) if (valued(n)) keep.push([move, weightOf(n), n.learn]);
    // Stable: equal weights keep the export's order (make-book's first-seen order).
    const order = keep.map((_, i) => i).sort((a, b) => keep[b]![1] - keep[a]![1] || a - b);
    for (const i of order) put(hi, lo, keep[i]![0], keep[i]![1], keep[i]![2]);
  };
  const before = (hi: number, lo: number, n: Note): boolean => (n.keyHi >>> 0 !== hi ? n.keyHi >>> 0 < hi : n.keyLo >>> 0 < lo);
  const notesOf = (hi: number, lo: number): Note[] => {
    const own: Note[] = [];
    while (ni < notes.length && notes[ni]!.keyHi >>> 0 === hi && notes[ni]!.keyLo >>> 0 === lo) own.push(notes[ni++]!);
    return own;
  };
  /** The positions only notes know, up to (not including) the key hi:lo (all of them when undefined). */
  const notesOnly = (hi?: number, lo?: number): void => {
    while (ni < notes.length && (hi === undefined || before(hi, lo!, notes[ni]!))) {
      const h = notes[ni]!.keyHi >>> 0;
      const l = notes[ni]!.keyLo >>> 0;
      position(h, l, [], notesOf(h, l));
    }
  };
  let curHi = -1;
  let curLo = -1;
  let cur: [number, number, number][] = [];
  const finish = (): void => {
    if (curHi < 0) return;
    notesOnly(curHi, curLo);
    position(curHi, curLo, cur, notesOf(curHi, curLo));
    cur = [];
  };
  let rest = new Uint8Array(0);
  await run((bytes) => {
    let b = bytes;
    if (rest.length > 0) {
      b = new Uint8Array(rest.length + bytes.length);
      b.set(rest);
      b.set(bytes, rest.length);
    }
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let o = 0;
    for (; o + ENTRY_SIZE <= b.length; o += ENTRY_SIZE) {
      const hi = dv.getUint32(o);
      const lo = dv.getUint32(o + 4);
      if (hi !== curHi || lo !== curLo) {
        finish();
        curHi = hi;
        curLo = lo;
      }
      cur.push([dv.getUint16(o + 8), dv.getUint16(o + 10), dv.getUint32(o + 12)]);
    }
    rest = b.slice(o);
  });
  finish();
  notesOnly();
  if (used > 0) sink(out.subarray(0, used));
  return written;
}

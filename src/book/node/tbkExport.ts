/**
 * The Polyglot `.bin` of a version 2 book: its stored positions with make-book's counters
 * (halved where make-book halved them), and, when min-game lets single games through (1 or
 * less), the positions seen in one game only, found by replaying the games. The singles come
 * out of the replay in game order; they are sorted by key in the accumulator, spilled to disk
 * if they do not fit the memory budget, and merged with the stored positions.
 */
import type { MakeOptions } from '../polyglot/make.js';
import { EntryTable, MOVER_DRAW, MOVER_LOSS, MOVER_UNFINISHED, MOVER_WIN } from '../rich/entryTable.js';
import type { RowCursor } from '../rich/finish.js';
import { RESULT_DRAW, RESULT_UNFINISHED, RESULT_WHITE, replayCodes } from '../rich/games.js';
import { RunMerger } from '../rich/mergeRuns.js';
import { PolyglotEmitter, type PolyglotMove } from '../rich/polyglotOut.js';
import type { StoredPosition } from '../rich/positions.js';
import { RunReader, RunRow } from '../rich/runs.js';
import type { TbkBook } from '../rich/tbkBook.js';
import { Position } from '../../core/position.js';
import { DEFAULT_MEMORY, TableCursor, spillTable } from './tbkBuild.js';
import { ScratchFile, WorkDir } from './workDir.js';

export interface TbkExportOptions extends MakeOptions {
  memory?: number;
  tmpDir?: string;
}

/** Writes the book's Polyglot entries, in order, to `sink`; returns the number of entries. */
export function exportTbkToBin(book: TbkBook, opts: TbkExportOptions, sink: (bytes: Uint8Array) => void): number {
  const emitter = new PolyglotEmitter(opts, sink);
  const work = (opts.minGame ?? 3) <= 1 && book.games !== undefined && book.section(7) !== undefined ? new WorkDir(opts.tmpDir) : undefined;
  try {
    const singles = work === undefined ? undefined : singleRows(book, opts.memory ?? DEFAULT_MEMORY, work);
    const row = new RunRow();
    let haveSingle = singles?.next(row) ?? false;
    const emitSinglesBefore = (hi: number, lo: number, inclusive: boolean): void => {
      while (haveSingle && (row.keyHi < hi || (row.keyHi === hi && (row.keyLo < lo || (inclusive && row.keyLo === lo))))) {
        const skip = row.keyHi === hi && row.keyLo === lo;
        const h = row.keyHi;
        const l = row.keyLo;
        const moves: PolyglotMove[] = [];
        const black = row.black !== 0;
        while (haveSingle && row.keyHi === h && row.keyLo === l) {
          moves.push({ move: row.move, n: row.games(), sum: 2 * row.wins + row.draws + row.unfinished });
          haveSingle = singles!.next(row);
        }
        // A candidate whose key is a stored position was an index collision: the stored one counts.
        if (!skip) emitter.position(h, l, black, moves);
      }
    };
    for (const p of storedPositions(book)) {
      emitSinglesBefore(p.keyHi, p.keyLo, true);
      emitter.position(p.keyHi, p.keyLo, p.black, polyglotMoves(book, p));
    }
    emitSinglesBefore(0xffffffff, 0xffffffff, true);
    emitter.flush();
    return emitter.kept;
  } finally {
    work?.remove();
  }
}

/** The stored positions of a book in key order. */
export function* storedPositions(book: TbkBook): Generator<StoredPosition> {
  for (let b = 0; b < book.blockCount; b++) yield* book.blockPositions(b);
}

/** A stored position's moves with make-book's counters. */
export function polyglotMoves(book: TbkBook, p: StoredPosition): PolyglotMove[] {
  const entries = book.movesOf(p.keyHi, p.keyLo);
  return p.moves.map((m) => {
    const e = entries.find((x) => x.move === m.move);
    const out: PolyglotMove = { move: m.move, n: e?.pgN ?? m.wins + m.draws + m.losses + m.unfinished, sum: e?.pgSum ?? 2 * m.wins + m.draws + m.unfinished };
    if (m.weight !== undefined) {
      out.weight = m.weight;
      out.learn = m.learn ?? 0;
    }
    return out;
  });
}

/**
 * The single positions of a book as rows sorted by key: every ply of every game whose key the
 * single-position index maps to that game (stored keys slip through only by chance, and the
 * caller drops them).
 */
function singleRows(book: TbkBook, memory: number, work: WorkDir): RowCursor {
  const games = book.gameReader(1 << 20)!;
  const budget = EntryTable.capacityFor(memory);
  let table = new EntryTable(Math.min(budget, 1 << 16));
  const runs: ScratchFile[] = [];
  const pos = new Position();
  let g = 0;
  let result = 0;
  const visit = (p: Position, m: number, ply: number): boolean => {
    const single = book.singleGame(p.keyHi, p.keyLo);
    if (single !== g) return true;
    const black = p.turn;
    const res = result === RESULT_UNFINISHED ? MOVER_UNFINISHED : result === RESULT_DRAW ? MOVER_DRAW : (result === RESULT_WHITE) === (black === 0) ? MOVER_WIN : MOVER_LOSS;
    if (!table.count(p.keyLo, p.keyHi, black, m, 0, res, 0, g, ply)) {
      if (table.capacity < budget) table = table.grown(Math.min(budget, table.capacity * 2));
      else {
        const run = work.create('singles');
        spillTable(table, run);
        runs.push(run);
        table.clear();
      }
      table.count(p.keyLo, p.keyHi, black, m, 0, res, 0, g, ply);
    }
    return true;
  };
  for (g = 0; g < games.count; g++) {
    const rec = games.record(g);
    result = rec.result;
    games.setStart(g, pos);
    const { bytes, offset } = games.codes(g);
    replayCodes(pos, bytes, offset, rec.codes, visit);
  }
  if (runs.length === 0) return new TableCursor(table);
  const last = work.create('singles');
  spillTable(table, last);
  runs.push(last);
  return new RunMerger(runs.map((f) => ({ reader: new RunReader((o, n) => f.read(o, n), 0, f.size, f.path), gameOffset: 0 })));
}


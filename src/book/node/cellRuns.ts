/**
 * Runs that a thread of a rich build spills (tbkRanges.ts), cut into one segment per key cell
 * (RANGE_BITS of positions.ts). Each segment is a run of its own (runs.ts: its first key in
 * full), so the thread that finishes a key range reads its cells of every run without decoding
 * the rest; the ranges are chosen once all the input is read, so the runs cannot be cut by range
 * as they are written.
 */
import { RANGE_BITS } from '../rich/positions.js';
import type { PlyLog } from '../rich/plyLog.js';
import type { RowSource } from '../rich/mergeRuns.js';
import { RunReader, RunRow, RunWriter } from '../rich/runs.js';
import { TableCursor } from './tbkBuild.js';
import { ScratchFile } from './workDir.js';

const CELLS = 2 ** RANGE_BITS;
const SHIFT = 32 - RANGE_BITS;

/** A spilled run: its file and where each cell's segment begins (CELLS + 1 offsets, the last the end). */
export interface CellRun {
  path: string;
  size: number;
  offsets: number[];
}

/** Writes the log's rows, sorted, into `file` as one segment per cell. */
export function spillByCell(log: PlyLog, file: ScratchFile): CellRun {
  const offsets = new Array<number>(CELLS + 1);
  const cursor = new TableCursor(log);
  const row = new RunRow();
  const w = new RunWriter((b) => file.append(b));
  let cell = -1;
  while (cursor.next(row)) {
    const c = row.keyHi >>> SHIFT;
    if (c !== cell) {
      w.restart();
      for (let k = cell + 1; k <= c; k++) offsets[k] = file.size;
      cell = c;
    }
    w.write(row);
  }
  w.drain();
  for (let k = cell + 1; k <= CELLS; k++) offsets[k] = file.size;
  return { path: file.path, size: file.size, offsets };
}

/** The rows of cells [from, to) of a run, segment after segment. */
export class CellRunReader implements RowSource {
  private readonly file: ScratchFile;
  private reader: RunReader | undefined;
  private cell: number;

  constructor(
    private readonly run: CellRun,
    from: number,
    private readonly to: number,
  ) {
    // Every thread reads a segment of every run: held open, they would be threads × runs files.
    this.file = ScratchFile.closed(run.path, run.size, 0);
    this.cell = from;
  }

  next(row: RunRow): boolean {
    for (;;) {
      if (this.reader?.next(row)) return true;
      // The next segment that holds rows.
      const o = this.run.offsets;
      while (this.cell < this.to && o[this.cell] === o[this.cell + 1]) this.cell++;
      if (this.cell >= this.to) return false;
      // One reader for every segment: a run of its own each, read through the same buffer.
      if (this.reader === undefined) {
        const file = this.file;
        this.reader = new RunReader((at, n) => file.read(at, n), o[this.cell]!, o[this.cell + 1]!, this.run.path, (into, at) => file.readInto(into, at));
      }
      else this.reader.seek(o[this.cell]!, o[this.cell + 1]!);
      this.cell++;
    }
  }

  close(): void {
    this.file.close();
  }

}

/** Whether cells [from, to) of the run hold any row. */
export function holdsCells(run: CellRun, from: number, to: number): boolean {
  return run.offsets[from] !== run.offsets[to];
}

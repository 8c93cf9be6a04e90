/**
 * The pieces of a rich build's finish on several threads (src/book/node/tbkRanges.ts): each
 * thread's sorted ply log read in place and merged (LogMerge, src/book/rich/logMerge.ts), and the
 * runs a thread spills cut by key cell (src/book/node/cellRuns.ts). On the real games of the
 * sample, the plies dealt to 1, 2, 3 or 5 logs and merged finish exactly as one log holding them
 * all, over the whole key space and range by range, and a run read cell by cell gives the rows of
 * its cells.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { BookBuilder } from '../src/book/rich/builder.js';
import { finishRows, type FinishSinks, type RowCursor } from '../src/book/rich/finish.js';
import { LogMerge, firstFrom } from '../src/book/rich/logMerge.js';
import { RunMerger } from '../src/book/rich/mergeRuns.js';
import { PlyLog, RECORD_WORDS } from '../src/book/rich/plyLog.js';
import { RANGE_BITS } from '../src/book/rich/positions.js';
import { RunRow } from '../src/book/rich/runs.js';
import { parseSplits } from '../src/book/rich/splits.js';
import { CellRunReader, spillByCell } from '../src/book/node/cellRuns.js';
import { TableCursor } from '../src/book/node/tbkBuild.js';
import { ScratchFile } from '../src/book/node/workDir.js';
import { PgnParser } from '../src/pgn/parser.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const CELL = 2 ** (32 - RANGE_BITS);

/** The sample's plies, split by rating, speed and month (cells in the records), unsorted. */
function samplePlies(): Int32Array {
  const log = new PlyLog(1 << 20);
  const builder = new BookBuilder(log, 1024, parseSplits('rating,speed,month'), { full: () => assert.fail('the log filled'), games: () => {} });
  const parser = new PgnParser(builder);
  parser.begin('sample');
  parser.push(gunzipSync(readFileSync(SAMPLE_GZ)));
  parser.end();
  builder.flushGames();
  return log.records();
}

/** The plies dealt to `k` logs by chunks of 50 games in turn, as a build deals chunks; each log sorted. */
function dealt(plies: Int32Array, k: number): PlyLog[] {
  const logs = Array.from({ length: k }, () => new PlyLog(plies.length / RECORD_WORDS, true));
  for (let r = 0; r < plies.length; r += RECORD_WORDS) {
    const game = plies[r + 4]!;
    const log = logs[Math.floor(game / 50) % k]!;
    log.append(plies.subarray(r, r + RECORD_WORDS), 0, 0);
  }
  for (const l of logs) l.sort();
  return logs;
}

function oneLog(plies: Int32Array): PlyLog {
  const log = new PlyLog(plies.length / RECORD_WORDS);
  log.append(plies, 0, 0);
  log.sort();
  return log;
}

/** Keys' high halves [from, to) of every log, merged. */
function merged(logs: readonly PlyLog[], from = 0, to = 2 ** 32): LogMerge {
  return new LogMerge(
    logs.map((l) => {
      const words = new Int32Array(l.buffer, 0, l.size * RECORD_WORDS);
      return { words, from: firstFrom(words, l.size, from), to: firstFrom(words, l.size, to) };
    }),
  );
}

/** Everything finishRows hands out, in order. */
function finished(cursor: RowCursor): { singles: number[]; stored: string[]; summary: unknown } {
  const singles: number[] = [];
  const stored: string[] = [];
  const sinks: FinishSinks = {
    single: (keyHi, keyLo, game) => singles.push(keyHi, keyLo, game),
    stored: (p) => stored.push(JSON.stringify(p)),
  };
  const summary = finishRows(cursor, true, sinks);
  return { singles, stored, summary };
}

/** Every row of a cursor, read one at a time. */
function rows(cursor: RowCursor): string[] {
  const out: string[] = [];
  const row = new RunRow();
  while (cursor.next(row)) out.push(JSON.stringify(row));
  return out;
}

test('sorted logs merged in place finish as one log holding every ply, whole and by key range', () => {
  const plies = samplePlies();
  const whole = finished(new TableCursor(oneLog(plies)));
  const wholeRows = rows(new TableCursor(oneLog(plies)));
  // Real data: singles and stored positions (popular ones in every log) both occur many times.
  assert.ok(whole.singles.length / 3 > 100_000 && whole.stored.length > 3_000, `${whole.singles.length / 3} singles, ${whole.stored.length} stored`);
  for (const k of [1, 2, 3, 5]) {
    const logs = dealt(plies, k);
    assert.deepEqual(finished(merged(logs)), whole, `${k} logs`);
    assert.deepEqual(rows(merged(logs)), wholeRows, `${k} logs, row by row`);
    // Ranges of whole key cells, as threads finish them: one after the other they are the whole.
    const bounds = [0, 3 * CELL, 97 * CELL, 128 * CELL, 129 * CELL, 255 * CELL, 2 ** 32];
    let singles: number[] = [];
    let stored: string[] = [];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const part = finished(merged(logs, bounds[i], bounds[i + 1]));
      singles = singles.concat(part.singles);
      stored = stored.concat(part.stored);
    }
    assert.deepEqual(singles, whole.singles, `${k} logs by range`);
    assert.deepEqual(stored, whole.stored, `${k} logs by range`);
  }
});

test('a run spilled by key cell reads back any range of cells; with a log, merges into the whole', () => {
  const plies = samplePlies();
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-cellruns-'));
  try {
    const [a, b] = dealt(plies, 2);
    const file = new ScratchFile(join(dir, 'run'));
    const run = spillByCell(a!, file);
    file.close();
    assert.equal(run.offsets.length, 2 ** RANGE_BITS + 1);
    assert.equal(run.offsets[0], 0);
    assert.equal(run.offsets.at(-1), run.size);
    assert.ok(run.offsets.every((o, i) => i === 0 || o >= run.offsets[i - 1]!));
    const aRows = rows(new TableCursor(a!));
    const inCells = (from: number, to: number) => aRows.filter((r) => {
      const hi = (JSON.parse(r) as RunRow).keyHi;
      return hi >= from * CELL && hi < to * CELL;
    });
    for (const [from, to] of [[0, 256], [0, 1], [17, 18], [40, 200], [255, 256], [100, 100]] as const) {
      const reader = new CellRunReader(run, from, to);
      try {
        assert.deepEqual(rows(reader), inCells(from, to), `cells ${from}..${to}`);
      } finally {
        reader.close();
      }
    }
    // The run of one log and the other log in memory: the rows of both logs (the finish of a range after a spill).
    const reader = new CellRunReader(run, 0, 256);
    try {
      const rest = merged([b!]);
      assert.deepEqual(rows(new RunMerger([{ reader, gameOffset: 0 }, { reader: rest, gameOffset: 0 }])), rows(new TableCursor(oneLog(plies))));
    } finally {
      reader.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

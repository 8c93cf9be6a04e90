/**
 * Finishing a build's rows (src/book/rich/finish.ts): a sorted ply log hands its single
 * positions over in bulk (PlyLog.takeSingles) instead of row by row; on the real games of the
 * sample, the bulk path gives exactly what reading the same log row by row gives (the path every
 * other source of rows takes: spilled runs, books), progress reports included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { BookBuilder } from '../src/book/rich/builder.js';
import { finishRows, type FinishSinks, type RowCursor } from '../src/book/rich/finish.js';
import { PlyLog } from '../src/book/rich/plyLog.js';
import { NO_SPLITS, parseSplits } from '../src/book/rich/splits.js';
import { ProgressCursor, TableCursor } from '../src/book/node/tbkBuild.js';
import { PgnParser } from '../src/pgn/parser.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));

/** The sample's plies in one log (it never fills). */
function sampleLog(split = NO_SPLITS): PlyLog {
  const log = new PlyLog(1 << 20);
  const builder = new BookBuilder(log, 1024, split, { full: () => assert.fail('the log filled'), games: () => {} });
  const parser = new PgnParser(builder);
  parser.begin('sample');
  parser.push(gunzipSync(readFileSync(SAMPLE_GZ)));
  parser.end();
  builder.flushGames();
  return log;
}

/** Everything finishRows hands out, in order, and its summary. */
function finished(cursor: RowCursor, split: boolean): { singles: number[]; stored: string[]; summary: unknown } {
  const singles: number[] = [];
  const stored: string[] = [];
  const sinks: FinishSinks = {
    single: (keyHi, keyLo, game) => singles.push(keyHi, keyLo, game),
    stored: (p) => stored.push(JSON.stringify(p)),
  };
  const summary = finishRows(cursor, split, sinks);
  return { singles, stored, summary };
}

/** The same rows, one at a time: a cursor without the bulk methods. */
function rowByRow(log: PlyLog): RowCursor {
  const inner = new TableCursor(log);
  return { next: (row) => inner.next(row) };
}

for (const [name, split] of [['no splits', NO_SPLITS], ['split by rating, speed and month', parseSplits('rating,speed,month')]] as const) {
  test(`singles taken in bulk from the sorted log are the rows read one by one (${name})`, () => {
    const log = sampleLog(split);
    const anySplit = split !== NO_SPLITS;
    const bulk = new TableCursor(log);
    assert.equal(typeof bulk.takeSingles, 'function');
    const a = finished(bulk, anySplit);
    const b = finished(rowByRow(log), anySplit);
    assert.deepEqual(a.summary, b.summary);
    assert.deepEqual(a.stored, b.stored);
    assert.deepEqual(a.singles, b.singles);
    // Real data: most positions are singles, and both kinds occur many times.
    assert.ok(a.singles.length / 3 > 100_000, `${a.singles.length / 3} singles`);
    assert.ok(a.stored.length > 3_000, `${a.stored.length} stored positions`);
  });
}

test('progress through the bulk path counts every ply, as row by row', () => {
  const log = sampleLog();
  const plies = log.size;
  const reports = (cursor: RowCursor): number[][] => {
    const seen: number[][] = [];
    finishRows(new ProgressCursor(cursor, plies, (done, total) => seen.push([done, total])), false, { single: () => {}, stored: () => {} });
    return seen;
  };
  const bulk = reports(new TableCursor(log));
  const slow = reports(rowByRow(log));
  assert.deepEqual(bulk.at(-1), [plies, plies]);
  assert.deepEqual(slow.at(-1), [plies, plies]);
  // Reported along the way, after every 65,536 rows (each row at least one ply), never past the plies.
  assert.ok(bulk.length >= 3, `${bulk.length} reports`);
  bulk.slice(0, -1).forEach(([done], k) => assert.ok(done! >= (k + 1) * 65536 && done! <= plies, `report ${k + 1}: ${done} plies done`));
});

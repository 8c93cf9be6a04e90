/**
 * An import through `tabiya serve` adds to a `.tbk` as `book add --threads N` does: the book's
 * games replayed on `importThreads` threads (singlesThreads.ts), and the book the same as one
 * thread's. Real games: the 2,000-game sample, 1,900 in the book and 100 imported.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { startServer } from '../src/serve/server.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-serve-import-threads-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.env.SOURCE_DATE_EPOCH = '1700000000';
const TOKEN = 'test-token';

const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('latin1').split(/\n\n(?=\[Event )/);
const BASE = join(tmp, 'base.pgn');
const MORE = games.slice(1900).join('\n\n') + '\n';
writeFileSync(BASE, games.slice(0, 1900).join('\n\n') + '\n', 'latin1');

/** Imports MORE into a copy of `base` served with `importThreads`; the job's result and the book's bytes. */
async function importInto(base: string, name: string, importThreads: number): Promise<{ result: { gamesUsed: number; threads: number }; book: Buffer }> {
  const book = join(tmp, name);
  copyFileSync(base, book);
  const server = await startServer({ books: [book], port: 0, host: '127.0.0.1', token: TOKEN, importThreads, replayThreadGames: 100 });
  try {
    const r = await fetch(new URL(`/api/import?book=${name}&name=more.pgn`, server.url), { method: 'POST', headers: { 'content-type': 'application/x-chess-pgn', 'x-tabiya-token': TOKEN }, body: Buffer.from(MORE, 'latin1') });
    assert.equal(r.status, 202, `${r.status} ${await r.text()}`);
    let job: { finished: boolean; error?: string; result?: { gamesUsed: number; threads: number } };
    do {
      await new Promise((f) => setTimeout(f, 50));
      job = (await (await fetch(new URL("/api/import", server.url))).json()) as typeof job;
    } while (!job.finished);
    assert.equal(job.error, undefined);
    const info = spawnSync(process.execPath, [MAIN, 'book', 'info', book, '--json'], { encoding: 'utf8' });
    const runs = (JSON.parse(info.stdout) as { options: { runs: { inputs: string[]; games: number }[] } }).options.runs;
    assert.deepEqual(runs.at(-1)?.inputs, ['more.pgn'], "the book's history names the file imported, not the server's copy of it");
    return { result: job.result!, book: readFileSync(book) };
  } finally {
    await server.close();
  }
}

test('an import replays the book on importThreads threads and writes the book one thread writes', async () => {
  const base = join(tmp, 'base.tbk');
  await buildTbk(base, { inputs: [BASE] });
  const one = await importInto(base, 'one.tbk', 1);
  const two = await importInto(base, 'two.tbk', 2);
  assert.equal(one.result.gamesUsed, 100);
  assert.equal(one.result.threads, 1);
  assert.equal(two.result.threads, 2, 'the import replayed the book on two threads');
  assert.ok(two.book.equals(one.book), 'the same book, byte for byte');
  assert.ok(!one.book.equals(readFileSync(base)), 'the games were added');
});

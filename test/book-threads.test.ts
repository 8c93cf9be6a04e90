/**
 * `--threads N` builds the same book as one thread and reports broken games at the same
 * file:line and game number, whatever the chunking: checked on 2,000 real games with broken
 * games planted across chunk boundaries, two input files, gzip and plain, some games with
 * old Mac line ends (a lone carriage return) and some with comments or variations never
 * closed, whose message names the line they opened on. Both the `.bin` and the `.tbk` builds.
 */
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { makeBook, type MakeBookOptions } from '../src/book/node/makeBook.js';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { lastGameStart } from '../src/book/node/parallel.js';
import type { PgnGameError } from '../src/pgn/visitor.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-threads-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

async function run(inputs: string[], o: Partial<MakeBookOptions>): Promise<{ bytes: Buffer; errors: PgnGameError[]; summary: Awaited<ReturnType<typeof makeBook>> }> {
  const output = join(tmp, 'out.bin');
  const errors: PgnGameError[] = [];
  const summary = await makeBook({ inputs, output, minGame: 1, maxPly: 40, ...o, onError: (e) => errors.push(e) });
  return { bytes: readFileSync(output), errors, summary };
}

test('threads: same book, same error locations, same counts', async () => {
  const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('latin1').split(/\n\n(?=\[Event )/);
  // Break every 97th game in a different way: an illegal move, a missing result, a bad tag;
  // leave every 89th comment open; end every 61st game's lines with a lone carriage return.
  const broken = games.map((g, i) => {
    if (i % 61 === 3) return g.replace(/\n/g, '\r');
    if (i % 89 === 7) return g.replace(/\n1\. /, '\n{ never closed\n1. ');
    if (i % 83 === 11) return g.replace(/\n1\. (\S+) /, '\n1. $1 (1. d4\n');
    if (i % 97 !== 5) return g;
    if (i % 3 === 0) return g.replace(/\n1\. (\S+)/, '\n1. Ke5');
    if (i % 3 === 1) return g.replace(/ (1-0|0-1|1\/2-1\/2)\s*$/, '');
    return g.replace('[Round ', '[Round');
  });
  const a = join(tmp, 'a.pgn');
  const b = join(tmp, 'b.pgn.gz');
  writeFileSync(a, broken.slice(0, 1200).join('\n\n') + '\n', 'latin1');
  writeFileSync(b, gzipSync(Buffer.from(broken.slice(1200).join('\n\n') + '\n', 'latin1')));
  const one = await run([a, b], { threads: 1 });
  assert.ok(one.errors.length >= 10, `${one.errors.length} broken games`);
  assert.ok(one.errors.some((e) => e.file === b && e.game > 100));
  // The comments' messages name their lines in the file, far past the first chunk.
  const opened = one.errors.filter((e) => /comment opened at line \d+/.test(e.message));
  assert.ok(opened.length >= 10 && opened.some((e) => e.line > 10000), opened.map((e) => `${e.line}: ${e.message}`).join('\n'));
  const variations = one.errors.filter((e) => /variation opened at line \d+/.test(e.message));
  assert.ok(variations.length >= 10 && variations.some((e) => e.opened! > 10000 && e.message.includes(`line ${e.opened}`)), variations.map((e) => `${e.line}: ${e.message}`).join('\n'));
  for (const [threads, chunkBytes] of [
    [2, 32 << 10],
    [3, 50 << 10],
    [2, 1 << 20],
  ] as const) {
    const many = await run([a, b], { threads, chunkBytes });
    assert.ok(many.bytes.equals(one.bytes), `${threads} threads, ${chunkBytes} B chunks`);
    assert.deepEqual(many.errors, one.errors);
    assert.deepEqual({ ...many.summary, seconds: 0, threads: 0 }, { ...one.summary, seconds: 0, threads: 0 });
  }
  // The rich build reads in chunks of 1 MiB: the plain file twice is three.
  const twice = join(tmp, 'twice.pgn');
  writeFileSync(twice, Buffer.concat([readFileSync(a), readFileSync(a)]));
  process.env.SOURCE_DATE_EPOCH = '1700000000';
  const rich = async (threads: number): Promise<{ bytes: Buffer; errors: PgnGameError[] }> => {
    const errors: PgnGameError[] = [];
    const output = join(tmp, `rich${threads}.tbk`);
    await buildTbk(output, { inputs: [twice, b], threads, maxPly: 40, onError: (e) => errors.push(e) });
    return { bytes: readFileSync(output), errors };
  };
  const r1 = await rich(1);
  const r2 = await rich(2);
  assert.ok(r1.errors.some((e) => e.file === twice && e.line > 40000 && /comment opened at line/.test(e.message)));
  assert.deepEqual(r2.errors, r1.errors);
  assert.ok(r2.bytes.equals(r1.bytes));
  // Filters are decided per game, so they split across threads too.
  const filter = { minElo: 2500, results: ['1-0', '1/2-1/2'] };
  const f1 = await run([a, b], { filter });
  const f2 = await run([a, b], { filter, threads: 2, chunkBytes: 40 << 10 });
  assert.ok(f1.summary.gamesUsed > 100 && f1.summary.gamesFiltered.elo! > 100, JSON.stringify(f1.summary));
  assert.ok(f2.bytes.equals(f1.bytes));
  assert.deepEqual(f2.summary.gamesFiltered, f1.summary.gamesFiltered);
});

test('chunks are cut where the reader starts a game', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  assert.equal(lastGameStart(enc('[Event "a"]\n1. e4 1-0\n\n[Event "b"]\n1. d4 *\n')), 23);
  assert.equal(lastGameStart(enc('{ comment\n[Event "x"] } 1-0\n')), 10);
  assert.equal(lastGameStart(enc('[Result "1-0"]\n1. e4 1-0\n\n[Result "0-1"]\n1. d4 0-1\n')), 26);
  assert.equal(lastGameStart(enc('1. e4 e5 2. Nf3 Nc6')), -1);
  // Lone CR line ends, with and without Event tags.
  assert.equal(lastGameStart(enc('[Event "a"]\r1. e4 1-0\r\r[Event "b"]\r1. d4 *\r')), 23);
  assert.equal(lastGameStart(enc('[Result "1-0"]\r1. e4 1-0\r\r[Result "0-1"]\r1. d4 0-1\r')), 26);
  assert.equal(lastGameStart(enc('[Event "a"]\r\n1. e4 1-0\r\n\r\n[Event "b"]\r\n1. d4 *\r\n')), 26, 'CRLF as before');
});

test('no thread of a build detaches a buffer (it would slow every typed-array loop after it)', () => {
  // V8 drops its unchecked typed-array accesses in an isolate once one of its buffers is
  // detached (book/sharedBuffers.ts); it says so under --trace-protector-invalidation.
  for (const out of ['t.tbk', 't.bin']) {
    const r = spawnSync(process.execPath, ['--trace-protector-invalidation', MAIN, 'book', 'make', SAMPLE_GZ, '-o', join(tmp, out), '--threads', '2', '--quiet'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /ArrayBufferDetaching/, out);
  }
});

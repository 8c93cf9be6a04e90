/**
 * Crash safety of .tbk writes: a child process learns a long series of games into a book and is
 * killed with SIGKILL at a random moment, three times over. Each time the book must open, its
 * checksum must verify, and it must hold exactly the first k games, k being the learned-games
 * count in its header (compared byte for byte with the same k games learned in memory). The
 * lock left by the killed writer is taken over by the next one. The lock's own cases (a dead
 * owner, a live one, an anonymous lock from an older version) are checked one by one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { makeRichBook } from '../src/book/node/richMake.js';
import { openRichBook, withBookLock } from '../src/book/node/richFile.js';
import { hostTag } from '../src/node/tempFiles.js';
import { learnGameSync, learnInput, type LearnGameWithEvals } from '../src/book/node/richLearn.js';
import { learnInto } from '../src/book/rich/learn.js';
import { loadTable } from '../src/book/rich/load.js';
import { encodeBook } from '../src/book/rich/writer.js';
import type { Position } from '../src/core/position.js';
import { makeFen } from '../src/notation/fen.js';
import { makeUci } from '../src/notation/uci.js';
import { parsePgn } from '../src/pgn/parser.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const CHILD = fileURLToPath(new URL('./support/richLearnChild.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-crash-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

/** The sample's games as engine learn records, the engine playing White in even games, Black in odd ones. */
function learnGames(text: string, count: number): LearnGameWithEvals[] {
  const out: LearnGameWithEvals[] = [];
  let moves: string[] = [];
  let result = '';
  let fen = '';
  parsePgn(text, {
    beginGame() {
      moves = [];
      result = '';
    },
    tag(name, value) {
      if (name === 'Result') result = value;
    },
    endTags(pos: Position) {
      fen = makeFen(pos);
    },
    move(_pos, m, ply) {
      if (ply >= 30) return false;
      moves.push(makeUci(m, false));
      return true;
    },
    endGame() {
      if (out.length < count && (result === '1-0' || result === '0-1' || result === '1/2-1/2')) {
        out.push({ startFen: fen, moves, result, engineColor: out.length % 2, evals: moves.map((_, i) => (i % 3 === 0 ? 10 * i : null)) });
      }
    },
  });
  return out;
}

/** Runs the child on games[from..], kills it after `delayMs` once it has started; resolves when it is gone. */
function runAndKill(book: string, games: LearnGameWithEvals[], delayMs: number): Promise<string> {
  const file = join(tmp, 'games.json');
  writeFileSync(file, JSON.stringify(games));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, book, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (timer === undefined && out.includes('started')) timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`child failed (${code}): ${err}`));
      else resolve(out);
    });
  });
}

test('kill -9 during a long series of learn updates leaves a verified book holding a prefix of them', async (t) => {
  const text = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8');
  const book = join(tmp, 'learn.tbk');
  await makeRichBook(book, { inputs: [writeSample(text)], maxPly: 12 });
  const original = openRichBook(book, { verify: true }).book;
  const games = learnGames(text, 400);
  let done = 0;
  const killedAt: number[] = [];
  for (let round = 0; round < 3 && done < games.length; round++) {
    const delay = 100 + Math.floor(Math.random() * 1200);
    await runAndKill(book, games.slice(done), delay);
    const { book: after, close } = openRichBook(book);
    close();
    const check = after.verify();
    assert.ok(check.ok, check.ok ? '' : check.error.message);
    const k = after.header.learnedGames;
    assert.ok(k >= done && k <= games.length, `learned ${k} after ${done}`);
    // The same first k games learned in memory give the same entries, byte for byte.
    const { table, info } = loadTable(original);
    for (const g of games.slice(0, k)) learnInto(table, learnInput(g), { postBook: 4 });
    const expected = encodeBook(table, info);
    const got = new Uint8Array(readFileSync(book));
    assert.equal(got.length, expected.length, `round ${round}: size with ${k} games`);
    assert.ok(Buffer.from(got.subarray(after.header.entriesOffset)).equals(Buffer.from(expected.subarray(after.header.entriesOffset))), `round ${round}: entries after ${k} games`);
    killedAt.push(k);
    done = k;
  }
  t.diagnostic(`killed after ${killedAt.join(', ')} of ${games.length} updates`);
  assert.ok(killedAt.some((k) => k > 0), `some updates were written before the kills (${killedAt})`);
  // The next writer takes over the dead writer's lock and cleans up after it.
  if (done < games.length) {
    learnGameSync(book, games[done]!, { postBook: 4, timeoutMs: 5000 });
    assert.equal(openRichBook(book, { verify: true }).book.header.learnedGames, done + 1);
  }
  assert.deepEqual(readdirSync(tmp).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')), []);
});

function writeSample(text: string): string {
  const path = join(tmp, 'sample.pgn');
  writeFileSync(path, text);
  return path;
}

test('the book lock: a dead owner or an old anonymous lock is taken over, a live owner is waited for', () => {
  const book = join(tmp, 'locks.tbk');
  const lock = `${book}.lock`;
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  assert.match(dead, /^\d+$/);
  const held = (): boolean => withBookLock(book, () => existsSync(lock), { timeoutMs: 300 });

  // A writer killed while it held the lock, and its temporary files (book's and lock's).
  writeFileSync(lock, `${dead}\n`);
  writeFileSync(join(tmp, `.locks.tbk.tabiya-${dead}-0badf00d.tmp`), 'torn');
  writeFileSync(join(tmp, `.locks.tbk.lock.tabiya-${dead}-0badf00d.tmp`), `${dead}\n`);
  assert.equal(held(), true, 'the lock exists while the change runs');
  assert.deepEqual(readdirSync(tmp).filter((f) => f.includes('locks.tbk')), [], 'lock and temporary files removed');

  // A live owner (this process) is waited for, then named in the error.
  writeFileSync(lock, `${process.pid}\n`);
  assert.throws(held, (e: Error & { code?: string }) => e.code === 'ERR_BOOK_LOCK' && e.message.includes(`locked by process ${process.pid}`));
  // A lock taken on another machine (a file system several machines share): its pid means
  // nothing here, so it is waited for, never taken over, and the error says where it was taken.
  writeFileSync(join(tmp, `.locks.tbk.tabiya-${dead}-0badf00d.tmp`), 'being written elsewhere');
  writeFileSync(lock, `${dead}@other-node.cluster\n`);
  assert.throws(held, (e: Error & { code?: string }) => e.code === 'ERR_BOOK_LOCK' && e.message.includes(`locked by process ${dead} on other-node.cluster`) && e.message.includes('remove the lock if no tabiya runs on other-node.cluster'));
  assert.equal(readFileSync(lock, 'utf8'), `${dead}@other-node.cluster\n`, "another machine's lock is left alone");
  assert.ok(existsSync(join(tmp, `.locks.tbk.tabiya-${dead}-0badf00d.tmp`)), "and so is the file its writer is writing");
  rmSync(join(tmp, `.locks.tbk.tabiya-${dead}-0badf00d.tmp`));
  // This machine's own lock of a dead writer, in the form tabiya writes now, is taken over; the
  // lock a writer takes names its pid and this machine.
  writeFileSync(lock, `${dead}@${hostTag()}\n`);
  assert.equal(withBookLock(book, () => readFileSync(lock, 'utf8'), { timeoutMs: 300 }), `${process.pid}@${hostTag()}\n`);
  // A lock without a pid is someone starting up: waited for while fresh, taken over when old.
  writeFileSync(lock, '');
  assert.throws(held, /locked by process \?/);
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  assert.equal(held(), true);
  assert.equal(existsSync(lock), false);

  // A symlink to the book is the same book: a writer through it waits for the target's lock
  // (each took its own lock before, and a rewrite of the target lost the other's change).
  writeFileSync(book, 'book');
  const link = join(tmp, 'link-to-locks.tbk');
  symlinkSync(book, link);
  writeFileSync(lock, `${process.pid}\n`);
  assert.throws(() => withBookLock(link, () => true, { timeoutMs: 300 }), (e: Error & { code?: string }) => e.code === 'ERR_BOOK_LOCK' && e.message.startsWith(`${link}: locked by process ${process.pid}`));
  rmSync(lock);
  assert.equal(withBookLock(link, () => existsSync(lock), { timeoutMs: 300 }), true, "the target's lock is taken");
  assert.equal(existsSync(`${link}.lock`), false, "no lock of the symlink's own name");
  rmSync(link);
  rmSync(book);

  // A directory under the lock's name is no writer's lock: refused at once, named, and left alone.
  mkdirSync(lock);
  assert.throws(() => withBookLock(book, () => true, { timeoutMs: 300 }), (e: Error & { code?: string }) => e.code === 'ERR_BOOK_LOCK' && e.message === `${book}: its lock ${lock} is not a file; remove it if no tabiya writes the book, and try again`);
  assert.equal(existsSync(lock), true);
  rmdirSync(lock);
});

/**
 * Crash safety of every book write, as a user runs it: `book make` (.bin and .tbk), `book merge`
 * (.bin and .tbk), `book learn`, `book add` and `book set` are killed with SIGKILL at random
 * moments. After each kill the target must be, byte for byte, either the complete old file or
 * the complete new one (the output of the same command run without a kill; SOURCE_DATE_EPOCH
 * makes the .tbk timestamps repeat). `book learn` and `book set` change a book in place
 * (rich/container.ts: notes appended, then the other slot written): a kill between the two
 * leaves the old book followed by bytes no slot names, so for them the target must read as the
 * old or the new book: the same slot in force and the same bytes in each of its sections. The run after the kills takes over a lock a killed writer
 * held and removes the temporary file it left, so the directory then holds no temporary or lock
 * file.
 *
 * Budget: one kill per command in `npm test`, eight (56 in all) in `npm run fuzz`; TABIYA_SEED
 * repeats the kill moments of a failing run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { makeBook } from '../src/book/node/makeBook.js';
import { makeRichBook } from '../src/book/node/richMake.js';
import { readSuperblock, SUPERBLOCK } from '../src/book/rich/container.js';
import { budget, seed } from './support/budget.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-output-crash-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };

/** Runs `tabiya args` to the end. */
function tabiya(args: string[]): void {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, env, encoding: 'utf8' });
  assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
}

/** Runs the command, SIGKILLs it after `delayMs`; resolves with how it ended. */
function runAndKill(args: string[], delayMs: number): Promise<'killed' | 'finished'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: tmp, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0) resolve('finished');
      else reject(new Error(`${args.join(' ')}: exit ${code}: ${stderr}`));
    });
  });
}

/** mulberry32: kill moments that a seed repeats. */
function random(s: number): () => number {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const games = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n\n(?=\[Event )/);
const pgn = (name: string, from: number, to: number): void => writeFileSync(join(tmp, name), games.slice(from, to).join('\n\n') + '\n');
pgn('old.pgn', 0, 150);
pgn('in.pgn', 150, 650);
pgn('more.pgn', 650, 900);
/** The player with most games in more.pgn, who learns. */
const player = (() => {
  const count = new Map<string, number>();
  for (const m of readFileSync(join(tmp, 'more.pgn'), 'utf8').matchAll(/^\[(?:White|Black) "(.*)"\]$/gm)) count.set(m[1]!, (count.get(m[1]!) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1])[0]![0];
})();

interface Scenario {
  name: string;
  target: string;
  /** The book the target holds before the command (built in setup). */
  old: string;
  run: string[];
  /** Keep the new book under this name too (an input of a later scenario). */
  saveAs?: string;
  /** The command changes the book in place: compare books, not files. */
  inPlace?: boolean;
}

/** What a version 2 book reads as: the slot in force and its sections' bytes (undefined: not a book). */
function bookView(file: Buffer): Buffer | undefined {
  const sb = readSuperblock(file.subarray(0, SUPERBLOCK), file.length);
  if (typeof sb === 'string') return undefined;
  const { seq, fileLength, fields, sections } = sb.slot;
  const head = Buffer.from(JSON.stringify({ seq, fileLength, fields, sections }));
  return Buffer.concat([head, ...sections.map((s) => file.subarray(s.offset, s.offset + s.length))]);
}

/** 'old' or 'new' when the target is (or, changed in place, reads as) that book. */
function stateOf(now: Buffer, old: Buffer, fresh: Buffer, inPlace: boolean): 'old' | 'new' | undefined {
  if (now.equals(old)) return 'old';
  if (now.equals(fresh)) return 'new';
  if (!inPlace) return undefined;
  const view = bookView(now);
  if (view === undefined) return undefined;
  if (view.equals(bookView(old)!)) return 'old';
  if (view.equals(bookView(fresh)!)) return 'new';
  return undefined;
}

const scenarios: Scenario[] = [
  { name: 'book make .bin', target: 'make.bin', old: 'old.bin', run: ['book', 'make', 'in.pgn', '-o', 'make.bin', '--quiet'], saveAs: 'a.bin' },
  { name: 'book make .tbk', target: 'make.tbk', old: 'old.tbk', run: ['book', 'make', 'in.pgn', '-o', 'make.tbk', '--quiet'], saveAs: 'a.tbk' },
  { name: 'book merge .bin', target: 'merge.bin', old: 'old.bin', run: ['book', 'merge', 'a.bin', 'b.bin', '-o', 'merge.bin'] },
  { name: 'book merge .tbk', target: 'merge.tbk', old: 'old.tbk', run: ['book', 'merge', 'a.tbk', 'b.tbk', '-o', 'merge.tbk'] },
  { name: 'book learn', target: 'learn.tbk', old: 'a.tbk', run: ['book', 'learn', 'learn.tbk', 'more.pgn', '--player', player, '--quiet'], inPlace: true },
  { name: 'book add', target: 'add.tbk', old: 'old.tbk', run: ['book', 'add', 'add.tbk', 'in.pgn', '--quiet'] },
  { name: 'book set', target: 'set.tbk', old: 'a.tbk', run: ['book', 'set', 'set.tbk', '--moves', 'e4', '--move', 'c5', '--value', '80'], inPlace: true },
];

const KILLS = budget(1, 8);
const SEED = seed(16);

test(`SIGKILL at random moments leaves each book complete, old or new; the next run cleans up (seed ${SEED})`, async (t) => {
  // The old books and the second inputs, built in this process (no process start-up to pay).
  process.env.SOURCE_DATE_EPOCH = env.SOURCE_DATE_EPOCH;
  for (const [src, out] of [['old.pgn', 'old'], ['more.pgn', 'b']]) {
    await makeBook({ inputs: [join(tmp, src)], output: join(tmp, `${out}.bin`), minGame: 3 });
    await makeRichBook(join(tmp, `${out}.tbk`), { inputs: [join(tmp, src)] });
  }
  const rnd = random(SEED);
  const leftovers = (): string[] => readdirSync(tmp).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'));
  for (const s of scenarios) {
    const target = join(tmp, s.target);
    const old = readFileSync(join(tmp, s.old));
    // The reference: the command run to the end, timed to place the kills.
    writeFileSync(target, old);
    const t0 = performance.now();
    tabiya(s.run);
    const ms = performance.now() - t0;
    const fresh = readFileSync(target);
    assert.ok(!fresh.equals(old), `${s.name}: the command changes the book`);
    if (s.saveAs !== undefined) writeFileSync(join(tmp, s.saveAs), fresh);
    const seen = { old: 0, new: 0, finished: 0, tempsLeft: 0, asBook: 0 };
    for (let k = 0; k < KILLS; k++) {
      writeFileSync(target, old);
      // Near the end of a run, where the book is written, or (every other kill) anywhere in it.
      const delay = Math.floor(ms * (k % 2 === 0 ? 0.75 + 0.4 * rnd() : 0.15 + rnd()));
      const how = await runAndKill(s.run, delay);
      const now = readFileSync(target);
      const state = stateOf(now, old, fresh, s.inPlace === true);
      if (state !== undefined && !now.equals(old) && !now.equals(fresh)) seen.asBook++;
      assert.ok(state !== undefined, `${s.name}: killed after ${delay} ms (seed ${SEED}): ${s.target} is neither the old book nor the new one`);
      if (how === 'finished') seen.finished++;
      else seen[state]++;
      if (readdirSync(tmp).some((f) => f.startsWith(`.${s.target}.tabiya-`))) seen.tempsLeft++;
    }
    // What a killed writer left (its temporary file, its lock) is cleaned up by the next run.
    if (leftovers().length > 0) {
      writeFileSync(target, old);
      tabiya(s.run);
      assert.ok(readFileSync(target).equals(fresh), `${s.name}: the run after the kills`);
    }
    assert.deepEqual(leftovers(), [], `${s.name}: no temporary or lock file left`);
    t.diagnostic(`${s.name}: ${KILLS} kills (a run takes ${Math.round(ms)} ms): ${seen.old} left the old book, ${seen.new} the new one, ${seen.finished} finished first; ${seen.tempsLeft} left a temporary file${s.inPlace ? `; ${seen.asBook} equal as books, not as files` : ''}`);
  }
});

test('an in-place change stopped at either of its crash points leaves the old book, and the next run finishes it', () => {
  // The two moments a kill can split `book set` (rich/container.ts), made exactly rather than by
  // luck: the notes appended but the slot not written, and the slot write torn.
  const old = readFileSync(join(tmp, 'a.tbk'));
  const target = join(tmp, 'points.tbk');
  const run = ['book', 'set', 'points.tbk', '--moves', 'e4', '--move', 'c5', '--value', '80'];
  const probe = (): string => {
    const r = spawnSync(process.execPath, [MAIN, 'book', 'probe', 'points.tbk', '--moves', 'e4', '--json'], { cwd: tmp, env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  writeFileSync(target, old);
  const before = probe();
  tabiya(run);
  const fresh = readFileSync(target);
  assert.notEqual(probe(), before, 'the change shows in a probe');
  const sb = readSuperblock(fresh.subarray(0, SUPERBLOCK), fresh.length);
  assert.ok(typeof sb !== 'string');
  const slotAt = sb.which === 'A' ? 64 : 64 + 1024;
  assert.ok(fresh.length > old.length, 'the notes were appended');
  const crashes: [string, Buffer][] = [
    // Notes appended and synced, the slot not yet written: the old slot stays in force.
    ['notes appended', Buffer.concat([old, fresh.subarray(old.length)])],
    // Only the head of the new slot written (its CRC, sequence and length): the CRC fails, so
    // the old slot stays in force.
    ['slot torn', Buffer.concat([fresh.subarray(0, slotAt + 32), old.subarray(slotAt + 32, slotAt + 1024), fresh.subarray(slotAt + 1024)])],
  ];
  for (const [name, bytes] of crashes) {
    assert.ok(!bytes.equals(old) && !bytes.equals(fresh), `${name}: neither file`);
    assert.equal(stateOf(bytes, old, fresh, true), 'old', `${name}: reads as the old book`);
    assert.equal(stateOf(bytes, old, fresh, false), undefined, `${name}: a rename-writer's check would refuse it`);
    writeFileSync(target, bytes);
    assert.equal(probe(), before, `${name}: probes answer from the old book`);
    tabiya(run);
    assert.ok(readFileSync(target).equals(fresh), `${name}: the next run writes the new book byte for byte`);
  }
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readPgn } from './reader.js';
import type { PgnGameError } from './visitor.js';

const dir = mkdtempSync(join(tmpdir(), 'tabiya-reader-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const GAMES = Array.from({ length: 300 }, (_, i) => `[Event "g${i}"]\n[Round "${i}"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ${i % 2 ? '1-0' : '0-1'}\n`).join('\n');

test('several files, plain and gzip, one after another; locations restart per file', async () => {
  const plain = join(dir, 'a.pgn');
  const gz = join(dir, 'b.pgn.gz');
  const disguised = join(dir, 'c.pgn'); // gzip without the .gz name
  writeFileSync(plain, GAMES + '\n[Event "bad"]\n\n1. e4 Ke7 *\n');
  writeFileSync(gz, gzipSync(GAMES + '\n[Event "bad"]\n\n1. e4 Ke7 *\n'));
  writeFileSync(disguised, gzipSync(GAMES));
  const errors: PgnGameError[] = [];
  let plies = 0;
  const progress: number[] = [];
  const s = await readPgn([plain, gz, disguised], { move: () => void plies++, error: (e) => void errors.push(e) }, { onProgress: (p) => progress.push(p.bytes) });
  assert.equal(s.games, 900);
  assert.equal(s.files, 3);
  assert.equal(plies, 900 * 6 + 2); // the broken games reached 1. e4 before their error
  assert.deepEqual(errors.map((e) => [e.file, e.line, e.column, e.game, e.kind]), [
    [plain, 1503, 7, 301, 'illegal-move'],
    [gz, 1503, 7, 301, 'illegal-move'],
  ]);
  assert.ok(progress.length >= 3 && progress.every((b, i) => i === 0 || b >= progress[i - 1]!));
});

test('a damaged .gz: the games before the damage are read, the break is reported', async () => {
  const file = join(dir, 'cut.pgn.gz');
  const whole = gzipSync(GAMES.repeat(20), { level: 1 });
  writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
  const errors: PgnGameError[] = [];
  const s = await readPgn(file, { error: (e) => void errors.push(e) });
  assert.ok(s.games > 100 && s.games < 6000, `${s.games} games`);
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.kind, 'truncated');
  assert.match(errors[0]!.message, /cannot read the rest/);
});

test('stdin ("-")', () => {
  const script = `import { readPgn } from ${JSON.stringify(new URL('./reader.js', import.meta.url).href)};
    const s = await readPgn('-', {}); process.stdout.write(String(s.games));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: gzipSync(GAMES), encoding: 'utf8' });
  assert.equal(r.stdout, '300', r.stderr);
});

test('a missing file fails before anything is read', async () => {
  await assert.rejects(readPgn([join(dir, 'nope.pgn')], {}), /ENOENT/);
});

test('a .gz damaged inside a broken game: that game is reported once, the lost rest as the next game (found by fuzzing)', async () => {
  const file = join(dir, 'broken-then-cut.pgn.gz');
  const text = '[Event "broken"]\n\n1. e4 zz9 ' + 'e5 Nf3 Nc6\n'.repeat(4000) + '*\n';
  const whole = gzipSync(text, { level: 1 });
  writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
  const seen: string[] = [];
  const s = await readPgn(file, { beginGame: (l) => void seen.push(`begin ${l.game}`), error: (e) => void seen.push(`${e.kind} ${e.game}`) });
  assert.deepEqual(seen, ['begin 1', 'unreadable-move 1', 'begin 2', 'truncated 2']);
  assert.equal(s.errors, 2);
});

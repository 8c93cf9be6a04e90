/**
 * `tabiya book …` as a user runs it: exit codes, messages naming the file, outputs that are
 * never half-written, stdin, and polyglot's "last of --only-white/--only-black wins".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const V = fileURLToPath(new URL('../../../shared/docs/polyglot-vectors/', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-book-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function tabiya(args: string[], input?: string | Buffer): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, input, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const vec = (f: string): Buffer => readFileSync(join(V, 'out', f));
/** Nothing but the expected files in the directory (no temporary leftovers). */
const leftovers = (): string[] => readdirSync(tmp).filter((f) => f.includes('.tmp'));

test('make: polyglot options, last of --only-white/--only-black wins, stdin, JSON summary', () => {
  let r = tabiya(['book', 'make', join(V, 'pgn/filters.pgn'), '-o', 'bw.bin', '--min-game', '1', '--only-black', '--only-white', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(tmp, 'bw.bin')), vec('filters_bw.bin'));
  r = tabiya(['book', 'make', '-', '-o', 'main.bin', '--min-game', '1', '--json'], readFileSync(join(V, 'pgn/main.pgn')));
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(tmp, 'main.bin')), vec('main_min1.bin'));
  const s = JSON.parse(r.stdout);
  assert.deepEqual([s.gamesRead, s.gamesSkipped, s.uniqueEntries, s.entriesKept], [9, 0, 48, 38]);
});

test('make: a broken game is skipped and listed with file:line, the rest is used', () => {
  const r = tabiya(['book', 'make', join(V, 'pgn/illegal.pgn'), '-o', 'ill.bin', '--min-game', '1']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /skipped: .*illegal\.pgn:9:13: game 2: illegal-move: illegal move 2\. Ke3/);
  assert.match(r.stdout, /games read\s+1, 1 broken and skipped/);
  assert.ok(readFileSync(join(tmp, 'ill.bin')).length > 0);
});

test('make: unreadable input fails naming the file and leaves the old book untouched', () => {
  copyFileSync(join(V, 'out/main_min1.bin'), join(tmp, 'keep.bin'));
  const damaged = join(tmp, 'damaged.pgn.gz');
  writeFileSync(damaged, readFileSync(SAMPLE_GZ).subarray(0, 40000));
  for (const [input, message] of [
    ['missing.pgn', /missing\.pgn: no such file/],
    [damaged, /damaged\.pgn\.gz: cannot read: gzip: unexpected end of file \(after all 40000 compressed bytes were read\)/],
    [join(V, 'out/main_min1.bin'), /main_min1\.bin: no readable game/],
  ] as const) {
    const r = tabiya(['book', 'make', input, '-o', 'keep.bin', '--quiet']);
    assert.equal(r.code, 1, input);
    assert.match(r.stderr, message);
    assert.deepEqual(readFileSync(join(tmp, 'keep.bin')), vec('main_min1.bin'), 'the old book is untouched');
    assert.deepEqual(leftovers(), []);
  }
});

test('reading: truncated books warn, unsorted books and non-books fail naming the file', () => {
  writeFileSync(join(tmp, 'trunc.bin'), Buffer.concat([vec('main_min1.bin'), Buffer.from('\n')]));
  let r = tabiya(['book', 'probe', 'trunc.bin']);
  assert.equal(r.code, 0);
  assert.match(r.stderr, /warning: trunc\.bin: size 609 is not a multiple of 16/);
  assert.match(r.stdout, /^e4 +e2e4 +4 +44\.4%/m);
  const b = vec('main_min1.bin');
  writeFileSync(join(tmp, 'unsorted.bin'), Buffer.concat([b.subarray(160, 320), b.subarray(0, 160), b.subarray(320)]));
  for (const cmd of [['probe'], ['dump', '--color', 'white'], ['info']]) {
    r = tabiya(['book', ...cmd.slice(0, 1), 'unsorted.bin', ...cmd.slice(1)]);
    assert.equal(r.code, 1, cmd[0]);
    assert.match(r.stderr, /unsorted\.bin: not a Polyglot book, or not sorted: the key of entry 10 /);
  }
  r = tabiya(['book', 'info', join(V, 'pgn/main.pgn')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /main\.pgn: not a Polyglot book \(it looks like a PGN file\)/);
  r = tabiya(['book', 'merge', join(V, 'out/mA.bin'), 'unsorted.bin', '-o', 'merged.bin']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /unsorted\.bin: not a Polyglot book, or not sorted/);
  assert.ok(!existsSync(join(tmp, 'merged.bin')));
  assert.deepEqual(leftovers(), []);
});

test('probe --json, dump to stdout, merge and info', () => {
  let r = tabiya(['book', 'probe', join(V, 'out/main_min1.bin'), '--moves', 'e4 e5 Nf3 Nc6 Bc4 Bc5', '--json']);
  const j = JSON.parse(r.stdout);
  assert.equal(j.key, 'b663577df5f241bb');
  assert.deepEqual(j.moves.map((m: { uci: string; san: string; weight: number }) => [m.uci, m.san, m.weight]), [['e1g1', 'O-O', 2]]);
  r = tabiya(['book', 'dump', 'main_min1.bin', '--color', 'black'].map((a) => (a === 'main_min1.bin' ? join(V, 'out', a) : a)));
  assert.equal(r.stdout, vec('main_min1.dump_black.txt').toString('latin1').replace('"main_min1.bin"', `"${join(V, 'out/main_min1.bin')}"`));
  r = tabiya(['book', 'merge', join(V, 'out/L1.bin'), join(V, 'out/L2.bin'), '-o', 'l12.bin', '--polyglot-compat']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(tmp, 'l12.bin')), vec('L12.bin'));
  r = tabiya(['book', 'info', join(V, 'out/main_min1.bin'), '--exact']);
  assert.equal(r.code, 0);
  assert.ok(r.stdout.endsWith(vec('main_min1.info.txt').toString().split('PolyGlot 2.0.4 by Fabien Letouzey.\n')[2]!));
});

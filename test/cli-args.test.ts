/**
 * Option values as users type them, across commands: what a number is, what a size may be, and
 * lists that name a thing twice. Each refusal is a usage error (exit 2) that names the option,
 * given before anything is read or written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parsePolicy, PolicyError } from '../src/book/select/options.js';
import { ParamSpace } from '../src/tune/space.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

const dir = mkdtempSync(join(tmpdir(), 'tabiya-cli-args-'));
const pgn = join(dir, 'games.pgn');
writeFileSync(pgn, gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n\n(?=\[Event )/).slice(0, 20).join('\n\n') + '\n');
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('--memory past the machine\'s memory is refused, naming the option and the machine\'s size; an existing book is kept', () => {
  const out = join(dir, 'kept.tbk');
  assert.equal(run('book', 'make', pgn, '-o', out, '--quiet').status, 0);
  const before = readFileSync(out);
  for (const [cmd, args] of [
    ['book make', ['book', 'make', pgn, '-o', out, '--force', '--min-games', '1']],
    ['book make -o X.bin', ['book', 'make', pgn, '-o', join(dir, 'never.bin')]],
    ['book export', ['book', 'export', out, '-o', join(dir, 'never.bin'), '--min-games', '1']],
  ] as const) {
    const r = run(...args, '--memory', '100000T');
    assert.equal(r.status, 2, `${cmd}: ${r.stderr}`);
    assert.match(r.stderr, /option --memory: 100000T is more than this machine's memory \(\d+(\.\d)?[GTM]\)/, cmd);
  }
  assert.deepEqual(readFileSync(out), before);
  assert.equal(existsSync(join(dir, 'never.bin')), false);
  // A budget the machine has is taken (a quarter of it, in whole megabytes).
  const quarter = `${Math.floor(totalmem() / 4 / 2 ** 20)}M`;
  const ok = run('book', 'make', pgn, '-o', join(dir, 'quarter.bin'), '--memory', quarter, '--quiet');
  assert.equal(ok.status, 0, ok.stderr);
});

test('--split naming a kind twice is refused, and no book is written', () => {
  const out = join(dir, 'twice.tbk');
  const r = run('book', 'make', pgn, '-o', out, '--split', 'rating,rating');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--split: "rating" is named twice in "rating,rating"/);
  assert.equal(existsSync(out), false);
  assert.equal(run('book', 'make', pgn, '-o', out, '--split', 'rating,speed', '--quiet').status, 0);
});

test('number options read decimal only: 0x10 is not 16, in fractions as in integers', () => {
  for (const args of [
    ['stats', 'sprt', '--wdl', '10,20,10', '--elo1', '0x10'],
    ['stats', 'sprt', '--wdl', '10,20,10', '--alpha', '0b1'],
    ['book', 'make', pgn, '-o', join(dir, 'hex.bin'), '--min-score', '0x10'],
  ]) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /option --[a-z0-9-]+: "0[xb]1\d?" is not a number/);
  }
  // Exponents and signs are decimal notation, and stay accepted.
  const r = run('stats', 'sprt', '--wdl', '10,20,10', '--elo1', '1e1', '--elo0', '-0.5', '--json');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual([JSON.parse(r.stdout).elo0, JSON.parse(r.stdout).elo1], [-0.5, 10]);
  // The book policy's settings, shared with the engine's setoption, read numbers the same way.
  assert.throws(() => parsePolicy({ bookLimit: '0x10' }), (e) => e instanceof PolicyError && /"0x10" is not a number/.test(e.message));
  assert.equal(parsePolicy({ bookLimit: '16' }).bookLimit, 16);
});

test('an integer past 2^53 is refused, not rounded to another one', () => {
  // 2^53 + 1 would be read as 2^53: a limit typed is not the limit searched.
  const r = run('analyse', '--nodes', '9007199254740993');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /option --nodes: 9007199254740993 is too large \(at most 9007199254740991\)/);
  assert.equal(r.stdout, '');
  // An option with a range says the range, not the largest integer.
  const threads = run('book', 'make', pgn, '-o', join(dir, 'threads.bin'), '--threads', '99999999999999999999');
  assert.equal(threads.status, 2, threads.stderr);
  assert.match(threads.stderr, /option --threads: 99999999999999999999 is out of range \(1\.\.64\)/);
});

test('tune fit --group naming a group twice is refused: its values would be stepped twice an epoch', () => {
  const positions = join(dir, 'labelled.epd');
  writeFileSync(positions, 'r1b2rk1/p5b1/1q6/3pnp2/3PpB2/1NP5/PP1QBKP1/R6R b - - c9 "1-0";\n');
  const out = join(dir, 'params.json');
  const r = run('tune', 'fit', positions, '-o', out, '--group', 'pst', 'material', 'pst', '--max-seconds', '1');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /tune fit: parameter group "pst" is named twice/);
  assert.equal(existsSync(out), false);
  // The library refuses it too: a space with a group twice listed its values twice.
  assert.throws(() => new ParamSpace(['pst', 'pst']), /parameter group "pst" is named twice/);
  assert.equal(new ParamSpace(['pst', 'material']).free.length, new Set(new ParamSpace(['pst', 'material']).free).size);
});

/** `npm run bench` as users run it: usage, a wrong name, a missing input, the load average. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('../bench/main.js', import.meta.url));
const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', cwd });

test('bench without a name prints the usage with every benchmark and exits 2', () => {
  const r = run(process.cwd());
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^usage: npm run bench -- <[a-zA-Z|-]+> \[args\]$/m);
  for (const name of ['perft', 'pgn', 'book', 'engine', 'tune', 'tbk', 'serve']) assert.match(r.stderr, new RegExp(`[<|]${name}[|>]`));
});

test('bench with a wrong name says which name is wrong', () => {
  const r = run(process.cwd(), 'perfft');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no benchmark named "perfft"/);
  assert.match(r.stderr, /usage: npm run bench/);
});

test('a missing default input is a message naming the file and the data directory, not a stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-bench-cli-'));
  try {
    // perftMake reads ../shared/data/suites/perft_standard.epd from the working directory.
    const cwd = join(dir, 'clone');
    mkdirSync(cwd);
    const r = run(cwd, 'perftMake', '--seconds', '0.1');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /bench perftMake: ENOENT: .*perft_standard\.epd/);
    assert.match(r.stderr, /\.\.\/shared\/data beside the clone/);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
    assert.match(r.stderr, /load average at the start \d+\.\d\d \d+\.\d\d \d+\.\d\d on \d+ cores/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

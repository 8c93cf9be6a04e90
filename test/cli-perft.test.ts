/** The `tabiya perft` command as users run it: JSON output, divide, suites, bad input. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

test('perft --json prints one JSON object with nodes and nps', () => {
  const r = run('perft', '--depth', '4', '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { nodes: number; nps: number };
  assert.equal(out.nodes, 197281);
  assert.ok(out.nps > 0);
});

test('perft --divide lists every root move', () => {
  const r = run('perft', '--fen', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', '--depth', '2', '--divide', '--json');
  const out = JSON.parse(r.stdout) as { nodes: number; divide: { move: string; nodes: number }[] };
  assert.equal(out.nodes, 2039);
  assert.equal(out.divide.length, 48);
  assert.deepEqual(out.divide.find((d) => d.move === 'e1g1'), { move: 'e1g1', nodes: 43 });
});

test('perft --suite reports every mismatch with file and line, and fails', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-perft-'));
  const file = join(dir, 'suite.epd');
  writeFileSync(file, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\nnot a position\n');
  const r = run('perft', '--suite', file, '--max-depth', '3', '--json');
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 1);
  const out = JSON.parse(r.stdout) as { mismatches: { line: number; depth: number; expected: number; got: number }[]; errors: { line: number }[] };
  assert.deepEqual(out.mismatches.map((m) => [m.line, m.depth, m.expected, m.got]), [[1, 2, 401, 400]]);
  assert.deepEqual(out.errors.map((e) => e.line), [2]);
});

test('perft --suite reports a count that is not a number instead of skipping it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-perft-'));
  const file = join(dir, 'suite.epd');
  writeFileSync(file, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 4OO\n');
  const r = run('perft', '--suite', file, '--max-depth', '3', '--json');
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 1);
  const out = JSON.parse(r.stdout) as { checks: number; errors: { line: number; message: string }[] };
  assert.equal(out.checks, 1);
  assert.deepEqual(out.errors.map((e) => e.line), [1]);
  assert.match(out.errors[0]!.message, /D2 .*"4OO"/);
});

test('perft --suite says unreadable lines on stderr; stdout holds the mismatches and the totals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-perft-'));
  const file = join(dir, 'suite.epd');
  writeFileSync(file, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\nnot a position\n');
  const r = run('perft', '--suite', file, '--max-depth', '3');
  rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^warning: \S*suite\.epd:2: .* \(skipped\)$/m);
  assert.doesNotMatch(r.stdout, /suite\.epd:2:/);
  assert.match(r.stdout, /suite\.epd:1: depth 2: expected 401, got 400/);
  assert.match(r.stdout, /1 positions, 2 counts checked to depth 3: 1 mismatches, 1 unreadable lines/);
});

test('bad input is an explained error with a non-zero exit, not a stack trace', () => {
  for (const args of [['perft', '--fen', '8/8/8 w - -'], ['perft', '--depth', 'x'], ['perft', '--suite', '/nonexistent.epd']]) {
    const r = run(...args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr, /^tabiya: /, args.join(' '));
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, args.join(' '));
  }
});

test("a file that cannot be read is said in plain words, without Node's error code and system call", () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-perft-'));
  try {
    const cases: [string[], string][] = [
      [['perft', '--suite', join(dir, 'nope.epd')], `tabiya: ${join(dir, 'nope.epd')}: cannot read: no such file or directory\n`],
      [['perft', '--suite', dir], `tabiya: ${dir}: cannot read: is a directory, not a file\n`],
      [['epd', dir, '--depth', '1'], `tabiya: ${dir}: cannot read: is a directory, not a file\n`],
      [['book', 'info', join(dir, 'nope.bin')], `tabiya: ${join(dir, 'nope.bin')}: cannot open: no such file or directory\n`],
      [['book', 'reach', dir], `tabiya: ${dir}: cannot read: is a directory, not a file\n`],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      assert.equal(r.status, 1, args.join(' '));
      assert.equal(r.stderr, message, args.join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('perft refuses options of the other mode instead of ignoring them', () => {
  // `--suite X --depth 6` used to check to the default --max-depth 4 without a word.
  for (const [args, message] of [
    [['--suite', 'any.epd', '--depth', '6'], /--depth does not apply to --suite, which checks each position's own D1\.\.Dn counts up to --max-depth/],
    [['--suite', 'any.epd', '--divide'], /--divide does not apply to --suite/],
    [['--suite', 'any.epd', '--no-bulk'], /--no-bulk does not apply to --suite/],
    [['--suite', 'any.epd', '--fen', '8/8/8/8/8/8/8/K1k5 w - - 0 1'], /--fen does not apply to --suite/],
    [['--depth', '2', '--max-depth', '6'], /--max-depth applies to --suite only \(one position: --depth\)/],
  ] as const) {
    const r = run('perft', ...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});

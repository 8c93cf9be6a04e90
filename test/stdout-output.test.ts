/**
 * `-o -`: a command whose output is standard output writes only that output there; its summary
 * (text or --json) goes to stderr, as `book make -o -` and `book export -o -` already did. Before,
 * `pgn filter|clean`, `book merge` and `tune data|label|fit` appended their summary line to the
 * PGN, book or positions they had just written, so `tabiya pgn clean x.pgn -o - > y.pgn` left a
 * broken last game in y.pgn and `book merge a.bin b.bin -o - > c.bin` a book that is no whole
 * number of entries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-stdout-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function tabiya(args: string[]): { code: number; stdout: Buffer; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

const GAMES = ['1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0', '1. d4 d5 2. c4 e6 3. Nc3 Nf6 1/2-1/2', '1. e4 c5 2. Nf3 d6 3. d4 cxd4 0-1']
  .map((moves, i) => `[Event "g${i + 1}"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "A"]\n[Black "B"]\n[Result "${moves.split(' ').pop()}"]\n\n${moves}\n`)
  .join('\n');
writeFileSync(join(tmp, 'games.pgn'), GAMES);

for (const sub of ['filter', 'clean']) {
  for (const json of [false, true]) {
    test(`pgn ${sub} -o -${json ? ' --json' : ''}: stdout is the PGN alone, the summary on stderr`, () => {
      const r = tabiya(['pgn', sub, 'games.pgn', '-o', '-', ...(json ? ['--json'] : [])]);
      assert.equal(r.code, 0, r.stderr);
      const out = r.stdout.toString('utf8');
      assert.doesNotMatch(out, /written|"games"/);
      writeFileSync(join(tmp, `${sub}.pgn`), out);
      const back = tabiya(['pgn', 'stats', `${sub}.pgn`, '--json', '--quiet']);
      assert.equal(back.code, 0, back.stderr);
      const s = JSON.parse(back.stdout.toString('utf8')) as { games: number; errors: number };
      assert.deepEqual([s.games, s.errors], [3, 0]);
      if (json) assert.equal((JSON.parse(r.stderr.trim().split('\n').pop()!) as { written: number }).written, 3);
      else assert.match(r.stderr, /3 .*written to -/);
    });
  }
}

test('book merge -o -: stdout is the merged book, byte for byte, the summary on stderr', () => {
  for (const [name, colour] of [['w.bin', '--only-white'], ['b.bin', '--only-black']]) {
    const r = tabiya(['book', 'make', 'games.pgn', '-o', name, '--min-games', '1', colour!, '--quiet']);
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal(tabiya(['book', 'merge', 'w.bin', 'b.bin', '-o', 'wb.bin']).code, 0);
  const r = tabiya(['book', 'merge', 'w.bin', 'b.bin', '-o', '-']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout, readFileSync(join(tmp, 'wb.bin')));
  assert.match(r.stderr, /wrote standard output|wrote -/);
});

test('tune data -o -: stdout holds the labelled positions only', () => {
  const r = tabiya(['tune', 'data', 'games.pgn', '-o', '-', '--skip-plies', '0', '--min-pieces', '2', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.toString('utf8').trim().split('\n');
  assert.ok(lines.length > 0);
  for (const line of lines) assert.match(line, / c9 "(1-0|0-1|1\/2-1\/2)";$/);
  assert.match(r.stderr, /written/);
});

test('standard output on a full disk (/dev/full): exit 1 and the reason in words, as for a file', { skip: !existsSync('/dev/full') && 'needs /dev/full' }, () => {
  const full = openSync('/dev/full', 'w');
  try {
    for (const args of [['pgn', 'stats', 'games.pgn'], ['pgn', 'clean', 'games.pgn', '-o', '-', '--quiet']]) {
      const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, stdio: ['ignore', full, 'pipe'] });
      assert.equal(r.status, 1, args.join(' '));
      assert.equal(r.stderr.toString('utf8'), 'tabiya: standard output: cannot write: no space left on device\n', args.join(' '));
    }
  } finally {
    closeSync(full);
  }
});

// `-o /dev/stdout` is the same pipe as `-o -` (docs/cli.md: devices and FIFOs are written
// directly): the summary printed after the book went into the pipe behind it, so the reader got
// a book that is no whole number of 16-byte entries, or a PGN whose last game had a summary line.
// Through `| cat` in bash: Node gives a child a socket, not a pipe, for its stdout, and Linux does not
// open a socket through /dev/stdout (ENXIO); a shell's pipe is what a user has.
function piped(args: string[]): { code: number; stdout: Buffer; stderr: string } {
  const quote = (a: string): string => `'${a.replace(/'/g, "'\\''")}'`;
  const r = spawnSync('bash', ['-c', `set -o pipefail; ${[process.execPath, MAIN, ...args].map(quote).join(' ')} | cat`], { cwd: tmp });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

test('-o /dev/stdout into a pipe: stdout is the output alone, the summary on stderr, as with -o -', { skip: !existsSync('/dev/stdout') && 'needs /dev/stdout' }, () => {
  const made = tabiya(['book', 'make', 'games.pgn', '-o', 'all.bin', '--min-games', '1', '--quiet']);
  assert.equal(made.code, 0, made.stderr);
  const book = readFileSync(join(tmp, 'all.bin'));
  for (const json of [false, true]) {
    const r = piped(['book', 'make', 'games.pgn', '-o', '/dev/stdout', '--min-games', '1', '--quiet', ...(json ? ['--json'] : [])]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout, book);
    assert.match(r.stderr, json ? /"entriesKept"/ : /wrote \/dev\/stdout/);
  }
  const clean = piped(['pgn', 'clean', 'games.pgn', '-o', '/dev/stdout']);
  assert.equal(clean.code, 0, clean.stderr);
  assert.doesNotMatch(clean.stdout.toString('utf8'), /written/);
  assert.match(clean.stderr, /3 games written to \/dev\/stdout/);
});

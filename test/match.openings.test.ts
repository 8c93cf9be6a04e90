/**
 * Opening sources through `tabiya match`: a Polyglot book (made by polyglot itself from master
 * games) walked to a ply limit, and an EPD suite read in order from a start index.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DATA, FIXTURES, readGames, runCli } from './matchHelpers/cli.js';

const instant = (name: string): string[] => ['--engine', `name=${name}`, 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`];
const POLYGLOT = '/usr/games/polyglot';
const GAMES = join(DATA, 'games/pgnmentor_players_sample2000.pgn.gz');

test('Polyglot book openings: both games of a pair follow the same book line', { skip: !existsSync(POLYGLOT) && 'polyglot is not installed', timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-book-'));
  try {
    writeFileSync(join(dir, 'games.pgn'), gunzipSync(readFileSync(GAMES)));
    const made = spawnSync(POLYGLOT, ['make-book', '-pgn', join(dir, 'games.pgn'), '-bin', join(dir, 'book.bin'), '-max-ply', '12', '-min-game', '3'], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const pgn = join(dir, 'out.pgn');
    const run = await runCli([
      'match', ...instant('A'), ...instant('B'), '--each', 'tc=5+0.05', '--games', '6', '--repeat', '--maxmoves', '10',
      '--openings', `file=${join(dir, 'book.bin')}`, 'format=polyglot', 'plies=8', '--srand', '11', '--pgnout', pgn, '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const games = readGames(pgn);
    assert.equal(games.length, 6);
    const lines = games.map((g) => g.uci.slice(0, g.comments.filter((c) => c === 'book').length));
    for (const l of lines) assert.ok(l.length >= 1 && l.length <= 8, `book line of ${l.length} plies`);
    for (let i = 0; i < 6; i += 2) {
      assert.deepEqual(lines[i], lines[i + 1]);
      assert.equal(games[i]!.tags.get('White'), games[i + 1]!.tags.get('Black'));
    }
    assert.ok(new Set(lines.map((l) => l.join(' '))).size >= 2, 'the seed picks different lines for different pairs');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('EPD openings in file order from start=3', { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epd-'));
  try {
    const fens = [
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1',
    ];
    writeFileSync(join(dir, 'o.epd'), fens.map((f) => f.split(' ').slice(0, 4).join(' ') + ' c0 "x";').join('\n') + '\n');
    const pgn = join(dir, 'out.pgn');
    const run = await runCli(['match', ...instant('A'), ...instant('B'), '--each', 'tc=5+0.05', '--games', '4', '--repeat', '--maxmoves', '5',
      '--openings', `file=${join(dir, 'o.epd')}`, 'format=epd', 'start=3', '--pgnout', pgn, '--quiet']);
    assert.equal(run.code, 0, run.stderr);
    const got = readGames(pgn).map((g) => g.tags.get('FEN')!.split(' ').slice(0, 4).join(' '));
    const want = [fens[2], fens[2], fens[3], fens[3]].map((f) => f!.split(' ').slice(0, 4).join(' '));
    assert.deepEqual(got, want);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an EPD suite compressed with zstd or bzip2 is read as EPD without format=', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-epdz-'));
  try {
    const fen = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -';
    writeFileSync(join(dir, 'o.epd'), `${fen} c0 "x";\n`);
    for (const [tool, ext] of [['zstd', 'zst'], ['bzip2', 'bz2']] as const) {
      const packed = spawnSync(tool, ['-c', join(dir, 'o.epd')]);
      if (packed.status !== 0) {
        t.diagnostic(`${tool} is not installed`);
        continue;
      }
      writeFileSync(join(dir, `o.epd.${ext}`), packed.stdout);
      const pgn = join(dir, `out-${ext}.pgn`);
      const run = await runCli(['match', ...instant('A'), ...instant('B'), '--each', 'tc=5+0.05', '--games', '2', '--repeat', '--maxmoves', '3',
        '--openings', `file=${join(dir, `o.epd.${ext}`)}`, '--pgnout', pgn, '--quiet']);
      assert.equal(run.code, 0, `.epd.${ext}: ${run.stderr}`);
      for (const g of readGames(pgn)) assert.equal(g.tags.get('FEN')!.split(' ').slice(0, 4).join(' '), fen);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unusable opening files stop the match before it starts, naming the file', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-openings-'));
  try {
    const gz = readFileSync(GAMES);
    writeFileSync(join(dir, 'cut.pgn.gz'), gz.subarray(0, gz.length >> 1));
    writeFileSync(join(dir, 'empty.epd'), '');
    writeFileSync(join(dir, 'junk.epd'), 'not a position\nneither is this\n');
    // Polyglot entries (key, move, weight, learn) read as EPD: binary data.
    const entry = Buffer.from('463b96181691fc9c031c000a00000000', 'hex');
    writeFileSync(join(dir, 'book.bin'), entry);
    // A sorted book whose only key is not the start position's.
    writeFileSync(join(dir, 'elsewhere.bin'), Buffer.from('0000000000000001031c000a00000000', 'hex'));
    const cases: [string[], RegExp][] = [
      [[`file=${join(dir, 'cut.pgn.gz')}`], /cut\.pgn\.gz: damaged gzip data \(unexpected end of file\)/],
      [[`file=${join(dir, 'empty.epd')}`], /empty\.epd holds no usable opening \(it is empty\)/],
      [[`file=${join(dir, 'junk.epd')}`], /junk\.epd holds no usable opening \(2 unusable records\)/],
      [[`file=${join(dir, 'book.bin')}`, 'format=epd'], /book\.bin:1: binary data \(a NUL byte at byte 11\), not EPD text/],
      [[`file=${join(dir, 'elsewhere.bin')}`], /elsewhere\.bin has no move for the start position/],
      [[`file=${dir}`, 'format=epd'], /is a directory/],
      [[`file=${join(dir, 'missing.epd')}`], /missing\.epd: no such file/],
    ];
    for (const [openings, message] of cases) {
      const run = await runCli(['match', ...instant('A'), ...instant('B'), '--each', 'tc=5+0.05', '--games', '2', '--openings', ...openings], { timeoutMs: 20_000 });
      assert.equal(run.code, 1, `${openings.join(' ')}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, message, openings.join(' '));
      assert.doesNotMatch(run.stdout, /Started game/);
      assert.ok(run.stderr.length < 2000, 'no flood of warnings');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--openings policy=: default, encounter and a two-engine round are the schedule\'s rule; round in a round-robin is refused before it starts', { timeout: 60_000 }, async () => {
  const epd = join(DATA, 'books/2moves_v1.epd.gz');
  for (const policy of ['default', 'encounter', 'round']) {
    const run = await runCli(['match', ...instant('A'), ...instant('B'), '--each', 'tc=5+0.05', '--games', '2', '--repeat', '--openings', `file=${epd}`, `policy=${policy}`], { timeoutMs: 20_000 });
    assert.equal(run.code, 0, `${policy}: ${run.stdout}${run.stderr}`);
  }
  const three = await runCli(['match', ...instant('A'), ...instant('B'), ...instant('C'), '--each', 'tc=5+0.05', '--games', '2', '--openings', `file=${epd}`, 'policy=round'], { timeoutMs: 20_000 });
  assert.equal(three.code, 2, three.stdout + three.stderr);
  assert.match(three.stderr, /policy=round .* is not supported: each encounter gets its own openings/);
  assert.doesNotMatch(three.stdout, /Started game/);
  const bad = await runCli(['match', ...instant('A'), ...instant('B'), '--each', 'tc=5+0.05', '--openings', `file=${epd}`, 'policy=sometimes'], { timeoutMs: 20_000 });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /policy=sometimes is not default, encounter or round/);
});

test('a null move in a PGN opening ends the opening there, with a warning naming file, line and game', { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-nullopen-'));
  try {
    const file = join(dir, 'o.pgn');
    writeFileSync(file, '[Event "a"]\n\n1. e4 e5 2. Nf3 -- 3. Bc4 Nc6 *\n');
    const pgn = join(dir, 'out.pgn');
    const run = await runCli(['match', ...instant('A'), ...instant('B'), '--each', 'tc=5+0.05', '--games', '2', '--repeat', '--maxmoves', '5',
      '--openings', `file=${file}`, '--pgnout', pgn, '--quiet']);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stderr.includes(`warning: ${file}:1: game 1: a null move at 2... ends the opening after 3 plies (the moves after it are not played)`), run.stderr);
    for (const g of readGames(pgn)) assert.deepEqual(g.uci.slice(0, 3), ['e2e4', 'e7e5', 'g1f3']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

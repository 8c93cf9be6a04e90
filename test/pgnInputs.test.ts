/**
 * What the PGN commands do with inputs that are not PGN (a directory, a missing file, a
 * Polyglot book, UTF-16 text, damaged or cut gzip), with empty input, and with dates that are
 * not days: a clear error naming the file or the option and a non-zero exit, before any
 * output is written; an empty input is 0 games, said so on stderr, and exit 0.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tabiya-pgn-inputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function tabiya(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', cwd: dir, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Two Polyglot entries (key, move, weight, learn): the kind of file a user passes by mistake. */
function polyglotBook(): Buffer {
  const b = Buffer.alloc(32);
  b.writeBigUInt64BE(0x463b96181691fc9cn, 0);
  b.writeUInt16BE(0x031c, 8);
  b.writeUInt16BE(10, 10);
  b.writeBigUInt64BE(0x463b96181691fc9cn, 16);
  b.writeUInt16BE(0x0b1c, 24);
  b.writeUInt16BE(5, 26);
  return b;
}

const gz = readFileSync(SAMPLE_GZ);
const inputs = {
  directory: join(dir, 'games'),
  missing: join(dir, 'nope.pgn'),
  book: join(dir, 'book.bin'),
  utf16: join(dir, 'utf16.pgn'),
  damagedGzip: join(dir, 'damaged.pgn.gz'),
};
mkdirSync(inputs.directory);
writeFileSync(inputs.book, polyglotBook());
writeFileSync(inputs.utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('[Event "x"]\n\n1. e4 *\n', 'utf16le')]));
const damaged = Buffer.from(gz);
damaged.fill(0xff, 5000, 5008);
writeFileSync(inputs.damagedGzip, damaged);
const why: Record<keyof typeof inputs, RegExp> = {
  directory: /games: is a directory, not PGN text/,
  missing: /nope\.pgn: no such file/,
  book: /book\.bin:1: binary data \(a NUL byte at byte \d+\), not PGN text/,
  utf16: /utf16\.pgn:1: UTF-16 text, not PGN text \(save it as UTF-8\)/,
  damagedGzip: /damaged\.pgn\.gz: damaged gzip data/,
};

test('every PGN command refuses a directory, a missing file, binary data, UTF-16 and damaged gzip, naming the file', () => {
  const out = join(dir, 'out');
  const commands: [string, string[]][] = [
    ['pgn stats', ['pgn', 'stats']],
    ['pgn filter', ['pgn', 'filter', '-o', out]],
    ['pgn clean', ['pgn', 'clean', '-o', out]],
    ['book make', ['book', 'make', '-o', `${out}.bin`]],
    ['tune data', ['tune', 'data', '-o', `${out}.epd`]],
  ];
  for (const [name, args] of commands) {
    for (const [kind, file] of Object.entries(inputs) as [keyof typeof inputs, string][]) {
      const r = tabiya(...args, file, '--quiet');
      assert.equal(r.status, 1, `${name} ${kind}: ${r.stderr}${r.stdout}`);
      assert.match(r.stderr, /^tabiya: /, `${name} ${kind}`);
      assert.match(r.stderr, why[kind], `${name} ${kind}`);
      for (const f of [out, `${out}.bin`, `${out}.epd`]) assert.ok(!existsSync(f), `${name} ${kind}: ${f} written`);
    }
  }
});

test('a gzip file cut short fails the run: stats reports what it read and exits 1, filter and clean write nothing', () => {
  const cut = join(dir, 'cut.pgn.gz');
  writeFileSync(cut, gz.subarray(0, gz.length >> 1));
  const stats = tabiya('pgn', 'stats', cut, '--json', '--quiet');
  assert.equal(stats.status, 1, stats.stderr);
  assert.match(stats.stderr, /tabiya: cannot read the rest of \S*cut\.pgn\.gz: gzip: unexpected end of file/);
  const j = JSON.parse(stats.stdout) as { games: number; unreadable: { name: string }[] };
  assert.ok(j.games > 500 && j.games < 2000, String(j.games));
  assert.equal(j.unreadable.length, 1);
  for (const cmd of ['filter', 'clean']) {
    const out = join(dir, `cut-${cmd}.pgn`);
    const r = tabiya('pgn', cmd, cut, '-o', out, '--quiet');
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`cut\\.pgn\\.gz: gzip: unexpected end of file \\(.*\\); \\S*cut-${cmd}\\.pgn was not written`));
    assert.ok(!existsSync(out));
  }
});

test('an empty input is 0 games: said on stderr, exit 0, an empty output', () => {
  const empty = join(dir, 'empty.pgn');
  writeFileSync(empty, '\n\n');
  const stats = tabiya('pgn', 'stats', empty);
  assert.equal(stats.status, 0, stats.stderr);
  assert.match(stats.stdout, /^games: none in \S*empty\.pgn/);
  assert.match(stats.stderr, /warning: \S*empty\.pgn holds no games/);
  const json = tabiya('pgn', 'stats', empty, '--json');
  assert.equal((JSON.parse(json.stdout) as { games: number }).games, 0);
  for (const cmd of ['filter', 'clean']) {
    const out = join(dir, `empty-${cmd}.pgn`);
    const r = tabiya('pgn', cmd, empty, '-o', out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /warning: \S*empty\.pgn holds no games/);
    assert.equal(readFileSync(out, 'utf8'), '');
  }
});

test('date filters refuse dates that are not days, for pgn filter and book make alike', () => {
  const one = join(dir, 'one.pgn');
  writeFileSync(one, '[Event "x"]\n[Date "2020.01.01"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n');
  const cases: [string, RegExp][] = [
    ['2020.13.45', /month 13 is not 1\.\.12/],
    ['2020.02.30', /day 30 is not 1\.\.29/],
    ['20x0', /"20x0" is not a date YYYY\[\.MM\[\.DD\]\]/],
  ];
  for (const [date, message] of cases) {
    for (const args of [['pgn', 'filter', one, '-o', join(dir, 'f.pgn')], ['book', 'make', one, '-o', join(dir, 'f.bin')], ['book', 'make', one, '-o', join(dir, 'f.tbk')]]) {
      for (const option of ['--date-from', '--date-to']) {
        const r = tabiya(...args, option, date);
        assert.equal(r.status, 2, `${args.slice(0, 2).join(' ')} ${option} ${date}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`^tabiya: ${option}: .*${message.source}`), `${args.join(' ')} ${option} ${date}`);
      }
    }
  }
  const crossed = tabiya('pgn', 'filter', one, '-o', join(dir, 'f.pgn'), '--date-from', '2021', '--date-to', '2020.06');
  assert.equal(crossed.status, 2);
  assert.match(crossed.stderr, /--date-from 2021 is after --date-to 2020\.06/);
  const plies = tabiya('pgn', 'filter', one, '-o', join(dir, 'f.pgn'), '--min-plies', '10', '--max-plies', '5');
  assert.equal(plies.status, 2);
  assert.match(plies.stderr, /--min-plies 10 is above --max-plies 5/);
  assert.ok(!existsSync(join(dir, 'f.pgn')) && !existsSync(join(dir, 'f.bin')) && !existsSync(join(dir, 'f.tbk')));
});

test('book annotate with a gzip file of lines cut short fails and leaves the book as it was', () => {
  const made = tabiya('book', 'make', SAMPLE_GZ, '-o', 'annotated.tbk', '--quiet');
  assert.equal(made.status, 0, made.stderr);
  const before = readFileSync(join(dir, 'annotated.tbk'));
  // Many annotated lines, so that half of the compressed file holds some of them whole.
  const lines = Array.from({ length: 4000 }, (_, i) => `[Event "line ${i}"]\n\n1. e4! ${['e5', 'c5', 'e6', 'c6'][i % 4]}?! 2. Nf3 *\n`).join('\n');
  const packed = gzipSync(lines);
  writeFileSync(join(dir, 'lines-cut.pgn.gz'), packed.subarray(0, packed.length >> 1));
  const r = tabiya('book', 'annotate', 'annotated.tbk', 'lines-cut.pgn.gz', '--quiet');
  assert.equal(r.status, 1, r.stderr + r.stdout);
  assert.match(r.stderr, /tabiya: cannot read the rest of lines-cut\.pgn\.gz: gzip: unexpected end of file .*; annotated\.tbk was not changed/);
  assert.deepEqual(readFileSync(join(dir, 'annotated.tbk')), before, 'the book is untouched');
});

test('a pipe named by its path (bash process substitution) is read whole, as standard input is', () => {
  const file = join(dir, 'two.pgn');
  writeFileSync(file, '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Event "b"]\n[Result "0-1"]\n\n1. d4 d5 0-1\n');
  const cases: [string[], (j: Record<string, number>) => number][] = [
    [['pgn', 'stats', '--json'], (j) => j.games!],
    [['book', 'make', '-o', join(dir, 'piped.bin'), '--json'], (j) => j.gamesRead!],
  ];
  for (const [args, games] of cases) {
    // <(cat …) names a pipe, /dev/fd/63: its first bytes were read apart (a positional read, ESPIPE)
    const r = spawnSync('bash', ['-c', '"$0" "$1" "$2" "$3" <(cat "$4") "${@:5}"', process.execPath, MAIN, args[0]!, args[1]!, file, ...args.slice(2)], { encoding: 'utf8', cwd: dir, timeout: 60_000 });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(games(JSON.parse(r.stdout) as Record<string, number>), 2, `${args.join(' ')}: ${r.stdout}`);
  }
});

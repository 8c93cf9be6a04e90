/**
 * `tabiya book …` as a user runs it: exit codes, messages naming the file, outputs that are
 * never half-written, stdin, and polyglot's "last of --only-white/--only-black wins".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRY_SIZE as BIN_ENTRY, encodeMove, writeEntry } from '../src/book/polyglot/format.js';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';

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
  let r = tabiya(['book', 'make', join(V, 'pgn/filters.pgn'), '-o', 'bw.bin', '--min-games', '1', '--only-black', '--only-white', '--quiet']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(tmp, 'bw.bin')), vec('filters_bw.bin'));
  r = tabiya(['book', 'make', '-', '-o', 'main.bin', '--min-games', '1', '--json'], readFileSync(join(V, 'pgn/main.pgn')));
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(tmp, 'main.bin')), vec('main_min1.bin'));
  const s = JSON.parse(r.stdout);
  assert.deepEqual([s.gamesRead, s.gamesSkipped, s.uniqueEntries, s.entriesKept], [9, 0, 48, 38]);
});

test('make: a broken game is skipped and listed with file:line, the rest is used', () => {
  const r = tabiya(['book', 'make', join(V, 'pgn/illegal.pgn'), '-o', 'ill.bin', '--min-games', '1']);
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
    [join(V, 'out/main_min1.bin'), /main_min1\.bin:1: binary data \(a NUL byte at byte \d+\), not PGN text/],
  ] as const) {
    const r = tabiya(['book', 'make', input, '-o', 'keep.bin', '--quiet']);
    assert.equal(r.code, 1, input);
    assert.match(r.stderr, message);
    assert.deepEqual(readFileSync(join(tmp, 'keep.bin')), vec('main_min1.bin'), 'the old book is untouched');
    assert.deepEqual(leftovers(), []);
  }
});

test('reading: truncated, unsorted books and non-books fail naming the file', () => {
  writeFileSync(join(tmp, 'trunc.bin'), Buffer.concat([vec('main_min1.bin'), Buffer.from('\n')]));
  let r = tabiya(['book', 'probe', 'trunc.bin']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /trunc\.bin: size 609 is not a multiple of 16: a Polyglot book is whole 16-byte entries, so the file is truncated or damaged/);
  assert.equal(r.stdout, '');
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

test('merge of three books: the summary counts every input and every step, not the last step alone', () => {
  const [a, b] = [join(V, 'out/mA.bin'), join(V, 'out/mB.bin')];
  const step = (args: string[]): Record<string, number | number[]> => {
    const r = tabiya(['book', 'merge', ...args, '--json', '--quiet']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const ab = step([a, b, '-o', 'ab.bin']);
  const aba = step(['ab.bin', a, '-o', 'aba1.bin']);
  const all = step([a, b, a, '-o', 'aba.bin']);
  assert.deepEqual(readFileSync(join(tmp, 'aba.bin')), readFileSync(join(tmp, 'aba1.bin')));
  const n = (f: string): number => readFileSync(f).length / 16;
  assert.deepEqual(all.entries, [n(a), n(b), n(a)]);
  assert.equal(all.entriesA, n(a));
  assert.equal(all.entriesB, n(b) + n(a));
  for (const k of ['sharedKeys', 'summed']) assert.equal(all[k], (ab[k] as number) + (aba[k] as number), k);
  assert.ok((ab.summed as number) > 0 && (aba.summed as number) > 0);
  assert.equal(all.written, aba.written);
  const r = tabiya(['book', 'merge', a, b, a, '-o', 'aba.bin', '--quiet']);
  assert.match(r.stdout, new RegExp(`^merged .*: ${n(a)} \\+ ${n(b)} \\+ ${n(a)} entries, ${all.sharedKeys} positions of a later book already in the books before it\n${all.summed} weights added\n`));
});

test('a .bin cut short or extended is refused by every command that reads it (exit 1), naming the file and the byte', () => {
  const b = vec('main_min1.bin');
  writeFileSync(join(tmp, 'short.bin'), b.subarray(0, b.length - 5));
  for (const args of [['probe', 'short.bin'], ['reach', 'short.bin'], ['dump', 'short.bin', '--color', 'white'], ['info', 'short.bin'], ['merge', 'short.bin', join(V, 'out/mA.bin'), '-o', 'sm.bin'], ['import', 'short.bin', '-o', 'short.tbk']]) {
    const r = tabiya(['book', ...args]);
    assert.equal(r.code, 1, args[0]);
    assert.equal(r.stderr, 'tabiya: short.bin: size 603 is not a multiple of 16: a Polyglot book is whole 16-byte entries, so the file is truncated or damaged (11 bytes after entry 36)\n', args[0]);
    assert.equal(r.stdout, '');
  }
  assert.ok(!existsSync(join(tmp, 'sm.bin')) && !existsSync(join(tmp, 'short.tbk')));
});

test('a .bin over 2 GiB: the commands that read a book whole say so naming it (exit 1); probe reads it on disk', () => {
  // Sparse: 3 GiB of zero entries (all one key, so sorted) that take no disk space.
  const big = join(tmp, 'big.bin');
  closeSync(openSync(big, 'w'));
  truncateSync(big, 3 * 2 ** 30);
  try {
    for (const args of [['info', 'big.bin'], ['dump', 'big.bin', '--color', 'white'], ['import', 'big.bin', '-o', 'big.tbk'], ['audit', 'big.bin', '--max-ply', '1']]) {
      const r = tabiya(['book', ...args]);
      assert.equal(r.code, 1, args[0]);
      assert.equal(r.stderr, 'tabiya: big.bin: 3221225472 bytes is too large to read into memory (at most 2 GiB); book probe and book merge read books of any size\n', args[0]);
    }
    const r = tabiya(['book', 'probe', 'big.bin']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /no book moves/);
  } finally {
    rmSync(big);
  }
});

test('make: an input without a game fails (exit 1) and writes nothing; games without a kept move give an empty book and a note', () => {
  writeFileSync(join(tmp, 'empty.pgn'), '');
  writeFileSync(join(tmp, 'comments.pgn'), '{ no games here }\n% an escape line\n; a line comment\n');
  copyFileSync(join(V, 'out/main_min1.bin'), join(tmp, 'old.bin'));
  for (const input of ['empty.pgn', 'comments.pgn']) {
    for (const output of ['new.bin', 'old.bin', 'new.tbk']) {
      for (const threads of ['1', '2']) {
        if (threads === '2' && output.endsWith('.tbk')) continue;
        const r = tabiya(['book', 'make', input, '-o', output, '--threads', threads]);
        assert.equal(r.code, 1, `${input} -> ${output}`);
        assert.equal(r.stderr, `tabiya: ${input}: no game in it (the input is empty or holds only comments)\n`);
        assert.equal(r.stdout, '');
      }
    }
    // One empty input among good ones is still a mistake worth stopping for.
    const r = tabiya(['book', 'make', join(V, 'pgn/main.pgn'), input, '-o', 'new.bin']);
    assert.equal(r.code, 1);
  }
  const r = tabiya(['book', 'make', '-', '-o', 'new.bin'], '');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /-: no game in it/);
  assert.ok(!existsSync(join(tmp, 'new.bin')) && !existsSync(join(tmp, 'new.tbk')));
  assert.deepEqual(readFileSync(join(tmp, 'old.bin')), vec('main_min1.bin'), 'the old book is untouched');
  assert.deepEqual(leftovers(), []);
  // Games were read, but no move passed the thresholds: the empty book is the truthful answer.
  const none = tabiya(['book', 'make', join(V, 'pgn/main.pgn'), '-o', 'none.bin', '--min-games', '100']);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stderr, /note: none\.bin is empty: no move of the 9 games passed --min-games 100, with a draw or a win for the side that played it\n/);
  // Only the thresholds given are named (it named --min-score and --only-white/--only-black
  // when neither was given).
  const shaped = tabiya(['book', 'make', join(V, 'pgn/main.pgn'), '-o', 'none.bin', '--min-games', '100', '--min-score', '60', '--only-black', '--quiet']);
  assert.equal(shaped.code, 0, shaped.stderr);
  assert.match(shaped.stderr, /passed --min-games 100, --min-score 60 and --only-black, with a draw/);
  assert.equal(readFileSync(join(tmp, 'none.bin')).length, 0);
  const filtered = tabiya(['book', 'make', join(V, 'pgn/main.pgn'), '-o', 'none.bin', '--player', 'nobody at all', '--quiet']);
  assert.equal(filtered.code, 0);
  assert.match(filtered.stderr, /note: none\.bin is empty: no game passed the game filters/);
  const probe = tabiya(['book', 'probe', 'none.bin']);
  assert.equal(probe.code, 0);
  assert.match(probe.stderr, /warning: none\.bin: the book is empty \(0 entries\)/);
});

test('help: `help A B` shows the help of A B at any depth; defaults shown are the ones that apply', () => {
  const make = tabiya(['help', 'book', 'make']);
  assert.equal(make.code, 0);
  assert.match(make.stdout, /^Usage: tabiya book make \[options\] <pgn\.\.\.>/);
  assert.equal(make.stdout, tabiya(['book', 'make', '--help']).stdout);
  const flat = (text: string): string => text.replace(/\s+/g, ' ');
  assert.ok(flat(make.stdout).includes('--min-games <n> drop moves played in fewer than n games (default: 3 for a .bin; a .tbk keeps every move)'));
  assert.doesNotMatch(make.stdout, /--min-game </);
  assert.match(tabiya(['book', 'help', 'export']).stdout, /^Usage: tabiya book export /);
  assert.match(tabiya(['help', 'stats', 'sprt']).stdout, /^Usage: tabiya stats sprt /);
  assert.match(tabiya(['help', 'book']).stdout, /^Usage: tabiya book \[options\] \[command\]/);
  assert.match(tabiya(['help', 'perft']).stdout, /^Usage: tabiya perft /);
  const probe = tabiya(['help', 'book', 'probe']).stdout;
  assert.ok(flat(probe).includes('--book-threshold <n> .tbk, PolyGlot: per mille; moves whose share is not above it are never played (default 5)'));
  assert.ok(flat(probe).includes('--book-limit <n> .tbk, Terra: least fixed Win% of a move played from game statistics (default 33)'));
  assert.doesNotMatch(probe, /treshold/);
  const unknown = tabiya(['help', 'book', 'nosuch']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command 'nosuch'/);
});

test('probe: the moves --min-weight leaves out are counted, not hidden behind "no book moves"', () => {
  const start = unwrap(positionFromFen(STARTING_FEN));
  const entry = (uci: string, weight: number): Uint8Array => {
    const b = new Uint8Array(BIN_ENTRY);
    writeEntry(b, 0, start.keyHi, start.keyLo, encodeMove(unwrap(parseUci(start, uci))), weight, 0);
    return b;
  };
  // Entries of one key are kept in the order written; a probe sorts them by weight.
  const zeros = join(tmp, 'zeros.bin');
  writeFileSync(zeros, Buffer.concat([entry('d2d4', 0), entry('e2e4', 0)]));
  let r = tabiya(['book', 'probe', zeros]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\nno book moves\n2 moves of weight below 1 not shown \(--min-weight 0 shows them\)\n$/);
  assert.equal(JSON.parse(tabiya(['book', 'probe', zeros, '--json']).stdout).hidden, 2);
  r = tabiya(['book', 'probe', zeros, '--min-weight', '0']);
  assert.match(r.stdout, /\ne4 +e2e4 +0 +0\.0%\n/);
  assert.ok(!r.stdout.includes('not shown'));
  const mixed = join(tmp, 'mixed.bin');
  writeFileSync(mixed, Buffer.concat([entry('e2e4', 5), entry('d2d4', 0)]));
  r = tabiya(['book', 'probe', mixed]);
  assert.match(r.stdout, /\n1 move of weight below 1 not shown \(--min-weight 0 shows it\)\nmove .*\ne4 +e2e4 +5 +100\.0%\n$/);
  assert.equal(JSON.parse(tabiya(['book', 'probe', mixed, '--json']).stdout).hidden, 1);
});

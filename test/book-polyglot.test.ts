/**
 * Oracle tests against the real PolyGlot (Debian's /usr/games/polyglot, installed by .ci/run):
 * make-book on 2,000 real games with several option sets (single-threaded and threaded),
 * merge-book (gnuchess-book.test.ts checks dump-book and info-book). Skipped when the binary is
 * missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { makeBook, type MakeBookOptions } from '../src/book/node/makeBook.js';
import { mergeFiles } from '../src/book/node/mergeFiles.js';

const POLYGLOT = '/usr/games/polyglot';
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const VECTORS = fileURLToPath(new URL('../../../shared/docs/polyglot-vectors/pgn/', import.meta.url));
const skip = existsSync(POLYGLOT) ? false : 'polyglot is not installed (apt-get install polyglot)';

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-polyglot-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const sample = join(tmp, 'sample.pgn');
if (!skip) writeFileSync(sample, gunzipSync(readFileSync(SAMPLE_GZ)));

/** Runs polyglot in the temporary directory; it exits 0 even on failure, so check its output. */
function polyglot(args: string[], done = /(all done!|done!)\s*$/): void {
  const r = spawnSync(POLYGLOT, args, { cwd: tmp, encoding: 'utf8' });
  assert.match(r.stdout, done, `polyglot ${args.join(' ')}: ${r.stdout.slice(-300)}`);
  assert.doesNotMatch(r.stdout, /tellusererror/);
}

function theirs(pgn: string, args: string[]): Uint8Array {
  const out = join(tmp, 'theirs.bin');
  rmSync(out, { force: true });
  polyglot(['make-book', '-pgn', pgn, '-bin', out, ...args]);
  return new Uint8Array(readFileSync(out));
}

async function ours(inputs: string[], o: Partial<MakeBookOptions>): Promise<Uint8Array> {
  const output = join(tmp, 'ours.bin');
  const errors: string[] = [];
  await makeBook({ inputs, output, ...o, onError: (e) => errors.push(`${e.line}: ${e.message}`) });
  assert.deepEqual(errors, []);
  return new Uint8Array(readFileSync(output));
}

const OPTION_SETS: [string[], Partial<MakeBookOptions>][] = [
  [[], {}],
  [['-min-game', '1'], { minGame: 1 }],
  [['-max-ply', '16', '-min-game', '5', '-only-white'], { maxPly: 16, minGame: 5, colour: 'white' }],
  [['-max-ply', '30', '-min-game', '2', '-min-score', '50', '-only-black'], { maxPly: 30, minGame: 2, minScore: 50, colour: 'black' }],
  [['-uniform', '-min-game', '2', '-max-ply', '40'], { uniform: true, minGame: 2, maxPly: 40 }],
];

test('make-book on 2,000 real games, five option sets: cmp-equal, single-threaded and with 2 threads', { skip }, async () => {
  for (const [args, o] of OPTION_SETS) {
    const expected = theirs(sample, args);
    assert.ok(expected.length > 0, args.join(' '));
    assert.deepEqual(await ours([SAMPLE_GZ], o), expected, `polyglot make-book ${args.join(' ')}`);
    assert.deepEqual(await ours([sample], { ...o, threads: 2, chunkBytes: 64 << 10 }), expected, `--threads 2 ${args.join(' ')}`);
  }
});

test('several inputs read as one stream equal polyglot on their concatenation', { skip }, async () => {
  const text = readFileSync(sample, 'latin1');
  const cut = text.indexOf('[Event ', text.length >> 1);
  const a = join(tmp, 'a.pgn');
  const b = join(tmp, 'b.pgn');
  writeFileSync(a, text.slice(0, cut), 'latin1');
  writeFileSync(b, text.slice(cut), 'latin1');
  assert.deepEqual(await ours([a, b], { minGame: 1 }), theirs(sample, ['-min-game', '1']));
  assert.deepEqual(await ours([a, b], { minGame: 1, threads: 3, chunkBytes: 100 << 10 }), theirs(sample, ['-min-game', '1']));
});

test('where polyglot is strict about spelling, we equal polyglot on the spelling it accepts', { skip }, async () => {
  const table: [string, (s: string) => string][] = [
    ['syntax', (s) => s.replace('4. 0-0', '4. O-O')],
    ['odd_ep', (s) => s.replace('exd6e.p.', 'exd6')],
    ['odd_ep2', (s) => s.replace('exd6 e.p.', 'exd6')],
    ['odd_half', (s) => s.replace('\u00bd-\u00bd', '1/2-1/2')],
    ['odd_nag_after_variation', (s) => s.replace(' $2', '')],
    ['odd_eof_in_comment', (s) => s + '\n'],
    ['odd_bom', (s) => s.replace(/^\uFEFF/, '')],
    ['odd_nullmove', (s) => s.replace('1. e4 -- 2. d4 1-0', '1. e4 1-0')],
  ];
  for (const [name, normalise] of table) {
    const original = join(VECTORS, `${name}.pgn`);
    const text = readFileSync(original, 'utf8');
    const fixed = join(tmp, `${name}.pgn`);
    writeFileSync(fixed, normalise(text));
    assert.notEqual(normalise(text), text, name);
    assert.deepEqual(await ours([original], { minGame: 1 }), theirs(fixed, ['-min-game', '1']), name);
  }
});

test('merge equals merge-book on books without overflow', { skip }, async () => {
  const white = join(tmp, 'w.bin');
  const black = join(tmp, 'b.bin');
  const deep = join(tmp, 'deep.bin');
  polyglot(['make-book', '-pgn', sample, '-bin', white, '-only-white', '-max-ply', '16', '-min-game', '2']);
  polyglot(['make-book', '-pgn', sample, '-bin', black, '-only-black', '-max-ply', '16', '-min-game', '2']);
  polyglot(['make-book', '-pgn', sample, '-bin', deep, '-max-ply', '40', '-min-game', '1']);
  for (const [a, b] of [
    [white, black],
    [black, white],
    [white, deep],
    [deep, white],
  ] as const) {
    polyglot(['merge-book', '-in1', a, '-in2', b, '-out', join(tmp, 'pm.bin')]);
    const r = mergeFiles([a, b], join(tmp, 'om.bin'));
    assert.equal(r.stats.overflowed, 0);
    assert.ok(r.stats.sharedKeys > 0 || a === white || a === black);
    assert.deepEqual(readFileSync(join(tmp, 'om.bin')), readFileSync(join(tmp, 'pm.bin')), `${a} + ${b}`);
  }
});

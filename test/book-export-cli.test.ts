/**
 * `tabiya book export` takes every option of `book make` that shapes a `.bin`: a `.tbk` made
 * from real games and exported with the same options as a direct build gives the same bytes as
 * `tabiya book make -o X.bin` and as `polyglot make-book` (Debian's /usr/games/polyglot; that
 * comparison is skipped, saying so, when it is missing).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const POLYGLOT = '/usr/games/polyglot';
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-export-cli-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function tabiya(args: string[]): void {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8' });
  assert.equal(r.status, 0, `tabiya ${args.join(' ')}: ${r.stderr}`);
}

/** polyglot make-book with our options in its spelling; it exits 0 even on failure, so check its output. */
function polyglot(pgn: string, options: string[], out: string): Buffer {
  const spelling: Record<string, string> = { '--max-ply': '-max-ply', '--min-games': '-min-game', '--min-score': '-min-score', '--only-white': '-only-white', '--only-black': '-only-black', '--uniform': '-uniform' };
  const r = spawnSync(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', out, ...options.map((o) => spelling[o] ?? o)], { cwd: tmp, encoding: 'utf8' });
  assert.match(r.stdout, /all done!\s*$/, r.stdout.slice(-300));
  return readFileSync(out);
}

/**
 * make-book's option sets, as a user would give them to both commands. Three depths (make-book's
 * 1,024, 16 and 30), each a .tbk of its own: a depth more would be one more build of the sample
 * down the same code, and no other case.
 */
const SETS: string[][] = [
  [],
  ['--min-games', '1'],
  ['--max-ply', '16', '--min-games', '5', '--only-white'],
  ['--max-ply', '30', '--min-games', '2', '--min-score', '50', '--only-black'],
  ['--uniform', '--min-games', '2', '--max-ply', '30'],
  ['--only-black', '--only-white', '--max-ply', '16', '--min-score', '40'],
];

test("book export with book make's options gives book make's .bin, byte for byte, on 2,000 real games", { timeout: 300_000 }, (t) => {
  const sample = join(tmp, 'sample.pgn');
  writeFileSync(sample, gunzipSync(readFileSync(SAMPLE_GZ)));
  const havePolyglot = existsSync(POLYGLOT);
  const made = new Set<string>();
  for (const [k, set] of SETS.entries()) {
    const at = set.indexOf('--max-ply');
    const maxPly = at >= 0 ? set[at + 1]! : '1024';
    // One .tbk per max-ply: make-book's other options shape only the export.
    const tbk = `p${maxPly}.tbk`;
    if (!made.has(tbk)) {
      tabiya(['book', 'make', SAMPLE_GZ, '-o', tbk, '--max-ply', maxPly, '--quiet']);
      made.add(tbk);
    }
    tabiya(['book', 'make', SAMPLE_GZ, '-o', `direct${k}.bin`, ...set, '--quiet']);
    tabiya(['book', 'export', tbk, '-o', `export${k}.bin`, ...set]);
    const direct = readFileSync(join(tmp, `direct${k}.bin`));
    assert.ok(direct.length > 0, set.join(' '));
    assert.deepEqual(readFileSync(join(tmp, `export${k}.bin`)), direct, `export ${set.join(' ')}`);
    if (havePolyglot) assert.deepEqual(polyglot(sample, set, join(tmp, `polyglot${k}.bin`)), direct, `polyglot make-book ${set.join(' ')}`);
  }
  if (!havePolyglot) t.diagnostic('polyglot is not installed (apt-get install polyglot): compared with tabiya book make only');
});

/** The (move, weight) entries of a .bin for the position after the given UCI moves. */
async function entriesAfter(bin: Buffer, uci: string): Promise<string[]> {
  const { positionFromFen, STARTING_FEN } = await import('../src/notation/fen.js');
  const { parseUci } = await import('../src/notation/uci.js');
  const pos = positionFromFen(STARTING_FEN);
  assert.ok(pos.ok);
  for (const u of uci.split(' ').filter((w) => w !== '')) {
    const m = parseUci(pos.value, u);
    assert.ok(m.ok);
    pos.value.play(m.value);
  }
  const files = 'abcdefgh';
  const out: string[] = [];
  for (let o = 0; o < bin.length; o += 16) {
    if (bin.readUInt32BE(o) !== pos.value.keyHi >>> 0 || bin.readUInt32BE(o + 4) !== pos.value.keyLo >>> 0) continue;
    const m = bin.readUInt16BE(o + 8);
    out.push(`${files[(m >> 6) & 7]}${((m >> 9) & 7) + 1}${files[m & 7]}${((m >> 3) & 7) + 1} ${bin.readUInt16BE(o + 10)}`);
  }
  return out;
}

test('book export --user-values: every user value counts, whatever the counts left out and however the export counts', async () => {
  const pgn = join(tmp, 'uv.pgn');
  const game = (moves: string, result: string): string => `[White "a"]\n[Black "b"]\n[Result "${result}"]\n\n${moves} ${result}\n\n`;
  writeFileSync(pgn, game('1. e4 e5 2. Nf3 Nc6', '0-1').repeat(3) + game('1. e4 c5 2. Nf3', '0-1') + game('1. d4 d5', '1/2-1/2'));
  tabiya(['book', 'make', pgn, '-o', 'uv.tbk', '--max-ply', '4', '--quiet']);
  tabiya(['book', 'set', 'uv.tbk', '--moves', 'e2e4', '--move', 'c7c5', '--value', '50']); // one game: under --min-games 3
  tabiya(['book', 'set', 'uv.tbk', '--moves', 'e2e4', '--move', 'a7a6', '--value', '40']); // no game: added by set
  tabiya(['book', 'set', 'uv.tbk', '--moves', 'e2e4 c7c5', '--move', 'g1f3', '--value', '80']); // a position seen in one game
  tabiya(['book', 'set', 'uv.tbk', '--moves', 'e2e4 e7e5 g1f3', '--move', 'b8c6', '--value', '?']); // 0: left out
  tabiya(['book', 'export', 'uv.tbk', '-o', 'uv.bin', '--user-values']);
  const bin = readFileSync(join(tmp, 'uv.bin'));
  assert.deepEqual(await entriesAfter(bin, 'e2e4'), ['c7c5 50', 'a7a6 40', 'e7e5 6']);
  assert.deepEqual(await entriesAfter(bin, 'e2e4 c7c5'), ['g1f3 80']);
  assert.deepEqual(await entriesAfter(bin, 'e2e4 e7e5 g1f3'), []);
  // A smaller --max-ply is counted from the games: the user values count the same.
  tabiya(['book', 'export', 'uv.tbk', '-o', 'uv3.bin', '--user-values', '--max-ply', '3']);
  const bin3 = readFileSync(join(tmp, 'uv3.bin'));
  assert.deepEqual(await entriesAfter(bin3, 'e2e4'), ['c7c5 50', 'a7a6 40', 'e7e5 6']);
  assert.deepEqual(await entriesAfter(bin3, 'e2e4 c7c5'), ['g1f3 80']);
  // Keys stay sorted.
  for (const b of [bin, bin3]) for (let o = 16; o < b.length; o += 16) assert.ok(b.readBigUInt64BE(o - 16) <= b.readBigUInt64BE(o));
});

test('a .tbk merged from an imported .bin and a book of games weighs both in its export and its probe', async () => {
  const game = (moves: string, result: string): string => `[White "a"]\n[Black "b"]\n[Result "${result}"]\n\n${moves} ${result}\n\n`;
  writeFileSync(join(tmp, 'ga.pgn'), game('1. e4 e5 2. Nf3', '1-0').repeat(3) + game('1. d4 d5', '1/2-1/2'));
  writeFileSync(join(tmp, 'gb.pgn'), game('1. e4 e5 2. Nf3', '1-0').repeat(2) + game('1. e4 c5', '0-1'));
  tabiya(['book', 'make', 'ga.pgn', '-o', 'ga.tbk', '--quiet']);
  tabiya(['book', 'make', 'gb.pgn', '-o', 'gb.bin', '--min-games', '1', '--quiet']);
  tabiya(['book', 'import', 'gb.bin', '-o', 'gb.tbk']);
  tabiya(['book', 'merge', 'ga.tbk', 'gb.tbk', '-o', 'gab.tbk']);
  tabiya(['book', 'export', 'gab.tbk', '-o', 'gab.bin', '--min-games', '1']);
  const bin = readFileSync(join(tmp, 'gab.bin'));
  // e4: 3 wins (weight 6) from ga's games and 2 wins + 1 loss (weight 4) from gb's .bin.
  assert.deepEqual(await entriesAfter(bin, ''), ['e2e4 10', 'd2d4 1']);
  assert.deepEqual(await entriesAfter(bin, 'e2e4'), ['c7c5 2']);
  assert.deepEqual(await entriesAfter(bin, 'e2e4 e7e5'), ['g1f3 10']);
  const r = spawnSync(process.execPath, [MAIN, 'book', 'probe', 'gab.tbk', '--json'], { cwd: tmp, encoding: 'utf8' });
  const moves = (JSON.parse(r.stdout) as { moves: { uci: string; weight: number }[] }).moves;
  assert.equal(moves.find((m) => m.uci === 'e2e4')!.weight, 10, 'the policies see the weight the export writes');
});

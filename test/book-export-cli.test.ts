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

/** make-book's option sets, as a user would give them to both commands. */
const SETS: string[][] = [
  [],
  ['--min-games', '1'],
  ['--max-ply', '16', '--min-games', '5', '--only-white'],
  ['--max-ply', '30', '--min-games', '2', '--min-score', '50', '--only-black'],
  ['--uniform', '--min-games', '2', '--max-ply', '40'],
  ['--only-black', '--only-white', '--max-ply', '20', '--min-score', '40'],
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

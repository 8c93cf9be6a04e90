/**
 * What the writer produces must be readable by the tools people use: pgn-extract replays it
 * with the same main lines, and `polyglot make-book` builds from it the very book it builds
 * from the original games. Skipped when the binaries are not installed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { gameTag, readGames } from '../src/pgn/game.js';
import { writeGames } from '../src/pgn/writer.js';
import { rng } from './support/rng.js';
import { randomGame } from './pgnTrees.js';

const PGN_EXTRACT = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((p) => existsSync(p));
const POLYGLOT = ['/usr/games/polyglot', '/usr/bin/polyglot'].find((p) => existsSync(p));
const sample = gunzipSync(readFileSync(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url))).toString('utf8');
const original = sample.split(/\n\n(?=\[Event )/).slice(0, 300).join('\n\n') + '\n';

function withDir(f: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-pgn-'));
  try {
    f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('pgn-extract reads what the writer writes, with the same main lines', { skip: PGN_EXTRACT === undefined && 'pgn-extract not installed' }, () => {
  withDir((dir) => {
    const rand = rng(3);
    const games = [...readGames(original).games, ...Array.from({ length: 40 }, () => randomGame(rand))];
    writeFileSync(join(dir, 'in.pgn'), writeGames(games));
    const run = spawnSync(PGN_EXTRACT!, ['-s', '--plycount', '-o', join(dir, 'out.pgn'), join(dir, 'in.pgn')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    // pgn-extract's only complaints about these games are results that contradict a checkmate.
    const complaints = run.stderr.split('\n').filter((l) => l.trim() !== '' && !/inconsistent with checkmate|^File .*Line number|^\S.* - .*\d{4}/.test(l));
    assert.deepEqual(complaints, []);
    const back = readGames(readFileSync(join(dir, 'out.pgn')));
    assert.equal(back.games.length, games.length);
    back.games.forEach((g, i) => assert.equal(Number(gameTag(g, 'PlyCount')), games[i]!.moves.length, `game ${i + 1}`));
  });
});

function makeBook(dir: string, name: string, pgn: string): Buffer {
  const file = join(dir, `${name}.pgn`);
  writeFileSync(file, pgn);
  const run = spawnSync(POLYGLOT!, ['make-book', '-pgn', file, '-bin', join(dir, `${name}.bin`), '-min-game', '1'], { encoding: 'utf8' });
  // polyglot exits 0 even on fatal errors; success is its last line.
  assert.match(run.stdout, /all done!/, run.stdout);
  return readFileSync(join(dir, `${name}.bin`));
}

test('polyglot make-book builds the same book from written games as from the originals', { skip: POLYGLOT === undefined && 'polyglot not installed' }, () => {
  withDir((dir) => {
    const games = readGames(original).games;
    const fromOriginal = makeBook(dir, 'original', original);
    assert.ok(fromOriginal.length > 16 * 1000);
    assert.deepEqual(makeBook(dir, 'written', writeGames(games)), fromOriginal);
    // Comments, NAGs and variations (which polyglot skips) must not disturb its reading either.
    const rand = rng(17);
    const rich = Array.from({ length: 60 }, () => randomGame(rand)).filter((g) => gameTag(g, 'FEN') === undefined);
    assert.ok(rich.length > 10);
    assert.deepEqual(makeBook(dir, 'rich', writeGames(rich)), makeBook(dir, 'stripped', writeGames(rich, { comments: false, nags: false, variations: false })));
  });
});

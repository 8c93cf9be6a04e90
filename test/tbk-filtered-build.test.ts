/**
 * A `.tbk` built from one player's games of a large file (`book make --player`, or any filter
 * that keeps few games) passes its own checksums: a chunk of the input in which no game is kept
 * (most of them, for one player among thousands) adds nothing to the games' CRC-32, instead of
 * resetting it to 0 as Node's zlib.crc32 does for an array over an empty ArrayBuffer, which left
 * every such book refused as damaged ("section games fails its checksum").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { crc32 } from '../src/book/rich/format.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-filtered-build-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function tabiya(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8' });
}

test('fastCrc32 of no bytes leaves the CRC as it was, whatever buffer holds them', () => {
  const c = crc32(new TextEncoder().encode('1. e4 e5'));
  for (const empty of [new Uint8Array(0), new Uint8Array(new ArrayBuffer(0)), new Uint8Array(8).slice(0, 0), new Uint8Array(8).subarray(3, 3)]) {
    assert.equal(fastCrc32(empty, c) >>> 0, c >>> 0);
  }
  const bytes = new TextEncoder().encode(' 2. Nf3 Nc6');
  assert.equal(fastCrc32(bytes, c) >>> 0, crc32(bytes, c) >>> 0);
});

test('a book of one player\'s games from a file of several chunks passes its checksums', () => {
  // The player's game first, then 1.7 MB of games without them: the chunks after the first
  // (1 MiB each) keep no game.
  const sample = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8');
  assert.ok(!sample.toLowerCase().includes('zzplayer'));
  const mine = '[Event "Club"]\n[White "Zzplayer, Ann"]\n[Black "Other"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n';
  const pgn = join(tmp, 'games.pgn');
  writeFileSync(pgn, mine + sample);
  const book = join(tmp, 'mine.tbk');
  const made = tabiya('book', 'make', pgn, '--player', 'zzplayer', '-o', book, '--quiet');
  assert.equal(made.status, 0, made.stderr);
  const info = tabiya('book', 'info', book);
  assert.equal(info.status, 0, info.stdout + info.stderr);
  assert.match(info.stdout, /checksums ok/);
  const probe = tabiya('book', 'probe', book, '--moves', 'e4 e5 Nf3 Nc6', '--json');
  assert.equal(probe.status, 0, probe.stderr);
  const moves = (JSON.parse(probe.stdout) as { moves: { san: string; wins: number }[] }).moves;
  assert.deepEqual(moves.map((m) => [m.san, m.wins]), [['Bb5', 1]]);
});

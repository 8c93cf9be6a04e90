/**
 * Sharded builds as a cluster runs them (`book make --shard I/N`, one job per shard, then
 * `book merge`): a file cut into more byte ranges than it has games still gives every shard a
 * part and the single build's book.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-shards-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };

/** Runs the CLI; a hang (a shard that never finishes) fails the test instead of stalling it. */
function tabiya(...args: string[]): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [MAIN, ...args], { cwd: tmp, encoding: 'utf8', env, timeout: 120_000 });
}

function sampleGames(n: number): string[] {
  return gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8').split(/\n(?=\[Event )/).slice(0, n).map((g) => `${g.trim()}\n\n`);
}

test('more byte-range shards than games: every shard finishes, the empty ones are empty parts, the merge is the single build', () => {
  // Three games, the last one long, in 8 byte ranges: several cuts fall inside the last game,
  // where no game starts after them (the search for the next game start used to loop forever).
  const games = sampleGames(40).sort((a, b) => a.length - b.length);
  writeFileSync(join(tmp, 'three.pgn'), [games[0]!, games[1]!, games.at(-1)!].join(''));
  assert.equal(tabiya('book', 'make', 'three.pgn', '-o', 'single.tbk').status, 0);
  const empty: number[] = [];
  for (let i = 0; i < 8; i++) {
    const r = tabiya('book', 'make', 'three.pgn', '--shard', `${i}/8`, '-o', `part-${i}.tbk`);
    assert.equal(r.status, 0, `shard ${i}/8: status ${r.status} ${r.signal ?? ''} ${r.stderr}`);
    if (/^games read +0$/m.test(r.stdout)) {
      empty.push(i);
      assert.match(r.stderr, new RegExp(`^note: shard ${i}/8 of three\\.pgn holds no game .*an empty part, which the merge takes$`, 'm'));
    }
  }
  assert.ok(empty.length >= 3, `empty shards: ${empty.join(' ')}`);
  const m = tabiya('book', 'merge', ...[...Array(8).keys()].map((i) => `part-${i}.tbk`), '-o', 'merged.tbk');
  assert.equal(m.status, 0, m.stderr);
  assert.ok(readFileSync(join(tmp, 'merged.tbk')).equals(readFileSync(join(tmp, 'single.tbk'))), 'the merged shards differ from the single build');
});

/**
 * The Slurm recipe of examples/slurm, end to end on a throwaway one-node Slurm cluster
 * (test/support/slurmCluster.ts; skipped with a message where slurm-wlm and munge are not
 * installed): submit.sh submits an array job of shard builds and a merge job that depends on it,
 * the merged book is the book of a single build of the same games (see sameBook), and a failing
 * shard cancels the merge instead of leaving it pending.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { slurmMissing, startSlurmCluster, type SlurmCluster } from './support/slurmCluster.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SUBMIT = fileURLToPath(new URL('../../examples/slurm/submit.sh', import.meta.url));
const GAMES_GZ = fileURLToPath(new URL('../../data/masters-2550.pgn.gz', import.meta.url));

// ------------------------------------------------------------------------------------------------
// The commands under test: the recipe runs `$TABIYA book make INPUT... --shard I/N MAKE_OPTS -o
// part-I.tbk` per array task and `$TABIYA book merge part-0.tbk ... MERGE_OPTS -o BOOK` once; the
// partial books merge into exactly the book a single build writes (docs/rich-books.md, Shards).
const MAKE_OPTS = '--max-ply 40';
const MERGE_OPTS = '--min-games 3';
/** The oracle: one build of every input with the same options. */
const singleBuild = (inputs: string[], out: string): string[] => ['book', 'make', ...inputs, '--max-ply', '40', '--min-games', '3', '--quiet', '-o', out];
/** The merged book is the single build's, byte for byte. */
const sameBook = (merged: Buffer, single: Buffer): boolean => merged.equals(single);
const WRAPPER = `#!/usr/bin/env bash
exec "${process.execPath}" "${MAIN}" "$@"
`;
// ------------------------------------------------------------------------------------------------

const skip = slurmMissing();
const tmp = mkdtempSync(join(tmpdir(), 'tabiya-slurm-recipe-'));
const TABIYA = join(tmp, 'tabiya');
let cluster: SlurmCluster | undefined;

/** The first n games of the bundled collection (read as far as needed). */
async function firstGames(n: number): Promise<string[]> {
  let text = '';
  const gunzip = createReadStream(GAMES_GZ).pipe(createGunzip());
  for await (const chunk of gunzip) {
    text += (chunk as Buffer).toString('utf8');
    if (text.split('\n[Event ').length > n + 1) break;
  }
  gunzip.destroy();
  return text.split(/\n(?=\[Event )/).slice(0, n).map((g) => `${g.trim()}\n\n`);
}

/** Job ids from submit.sh's output ("shards job 7", "merge job 8"). */
function jobIds(stdout: string): { shards: string; merge: string } {
  const shards = /^shards job (\d+)$/m.exec(stdout)?.[1];
  const merge = /^merge job (\d+)$/m.exec(stdout)?.[1];
  assert.ok(shards !== undefined && merge !== undefined, `submit.sh printed no job ids: ${stdout}`);
  return { shards, merge };
}

before(async () => {
  if (skip) return;
  writeFileSync(TABIYA, WRAPPER, { mode: 0o755 });
  cluster = await startSlurmCluster();
});

after(async () => {
  await cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

test('submit.sh: an array job of 3 shards and a dependent merge give the book of a single build', { skip, timeout: 90_000 }, async () => {
  // Four inputs over three shards, so a shard gets more than one input.
  const games = await firstGames(240);
  const inputs = [0, 1, 2, 3].map((k) => join(tmp, `games-${k}.pgn`));
  inputs.forEach((file, k) => writeFileSync(file, games.filter((_, g) => g % 4 === k).join('')));
  const single = spawnSync(process.execPath, [MAIN, ...singleBuild(inputs, join(tmp, 'single.bin'))], { encoding: 'utf8' });
  assert.equal(single.status, 0, single.stderr);

  const r = await cluster!.run(`${SUBMIT} -n 3 -o book.bin -m '${MAKE_OPTS}' -M '${MERGE_OPTS}' ${inputs.join(' ')}`, { cwd: tmp, env: { TABIYA } });
  assert.equal(r.code, 0, r.stderr);
  const ids = jobIds(r.stdout);
  const states = await cluster!.waitForJobs([ids.shards, ids.merge]);
  assert.deepEqual(Object.fromEntries(states), {
    [`${ids.shards}_0`]: 'COMPLETED',
    [`${ids.shards}_1`]: 'COMPLETED',
    [`${ids.shards}_2`]: 'COMPLETED',
    [ids.merge]: 'COMPLETED',
  }, cluster!.logs());

  const work = join(tmp, 'book.bin.parts');
  for (const i of [0, 1, 2]) {
    assert.ok(existsSync(join(work, `part-${i}.tbk`)), `part-${i}.tbk`);
    assert.match(readFileSync(join(work, `logs/shard-${i}.out`), 'utf8'), new RegExp(`^shard ${i}/3 on `, 'm'));
  }
  assert.match(readFileSync(join(work, 'logs/merge.out'), 'utf8'), /^merge of 3 parts on /m);
  const book = readFileSync(join(tmp, 'book.bin'));
  const expected = readFileSync(join(tmp, 'single.bin'));
  assert.ok(expected.length >= 100 * 16, `the single build has ${expected.length / 16} entries`);
  assert.ok(sameBook(book, expected), `the merged book (${book.length} bytes) is not the single build's (${expected.length} bytes)`);
});

test('submit.sh: one plain PGN cut into 3 byte ranges, merged into a .tbk, is the single build', { skip, timeout: 90_000 }, async () => {
  const games = await firstGames(300);
  const input = join(tmp, 'all.pgn');
  writeFileSync(input, games.join(''));
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000' };
  const single = spawnSync(process.execPath, [MAIN, 'book', 'make', input, '--max-ply', '40', '--quiet', '-o', join(tmp, 'single.tbk')], { encoding: 'utf8', env });
  assert.equal(single.status, 0, single.stderr);
  const r = await cluster!.run(`${SUBMIT} -n 3 -o book.tbk -w parts-tbk -m '${MAKE_OPTS}' ${input}`, { cwd: tmp, env: { TABIYA, SOURCE_DATE_EPOCH: '1700000000' } });
  assert.equal(r.code, 0, r.stderr);
  const ids = jobIds(r.stdout);
  const states = await cluster!.waitForJobs([ids.shards, ids.merge]);
  assert.ok([...states.values()].every((s) => s === 'COMPLETED'), cluster!.logs());
  assert.ok(readFileSync(join(tmp, 'book.tbk')).equals(readFileSync(join(tmp, 'single.tbk'))), 'the merged shards differ from the single build');
});

test('submit.sh: a failing shard cancels the merge, and no book is written', { skip, timeout: 60_000 }, async () => {
  const good = join(tmp, 'games-0.pgn');
  const bad = join(tmp, 'not-a-game.pgn');
  writeFileSync(bad, 'this is not PGN\n');
  const r = await cluster!.run(`${SUBMIT} -n 2 -o failed.bin -w parts-failed ${good} ${bad}`, { cwd: tmp, env: { TABIYA } });
  assert.equal(r.code, 0, r.stderr);
  const ids = jobIds(r.stdout);
  const states = await cluster!.waitForJobs([ids.shards, ids.merge]);
  assert.ok([...states].some(([id, s]) => id.startsWith(`${ids.shards}_`) && s === 'FAILED'), JSON.stringify([...states]));
  assert.equal(states.get(ids.merge), 'CANCELLED', JSON.stringify([...states]));
  assert.equal(existsSync(join(tmp, 'failed.bin')), false);
  assert.match(readFileSync(join(tmp, 'parts-failed/logs/shard-1.out'), 'utf8'), /not-a-game\.pgn/);
});

test('submit.sh refuses a missing input or a missing option before submitting anything', () => {
  for (const [args, code, message] of [
    ['-n 2 -o b.bin', 2, /usage: submit\.sh/],
    ['-n 0 -o b.bin x.pgn', 2, /usage: submit\.sh/],
    ['-n 2 -o b.bin missing.pgn', 1, /missing\.pgn: no such readable file/],
  ] as const) {
    const r = spawnSync('bash', ['-c', `${SUBMIT} ${args}`], { cwd: tmp, encoding: 'utf8' });
    assert.equal(r.status, code, args);
    assert.match(r.stderr, message);
  }
});

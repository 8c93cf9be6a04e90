/**
 * Sharded builds as a cluster runs them (`book make --shard I/N`, one job per shard, then
 * `book merge`): a file cut into more byte ranges than it has games still gives every shard a
 * part and the single build's book; a shard rebuilt with other options or from an input that
 * changed in between is refused by the merge, naming what differs; a build on another machine
 * that shares `--tmp-dir` leaves a running build's scratch directory alone.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { WorkDir, hostTag } from '../src/book/node/workDir.js';

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

test('a shard rebuilt with other options, or from an input that changed, is refused by the merge naming what differs', () => {
  writeFileSync(join(tmp, 'games.pgn'), sampleGames(300).join(''));
  const base = ['--max-ply', '30', '--split', 'rating'];
  const shard = (i: number, out: string, ...extra: string[]): void => {
    const r = tabiya('book', 'make', 'games.pgn', '--shard', `${i}/3`, ...base, ...extra, '-o', out);
    assert.equal(r.status, 0, r.stderr);
  };
  for (const i of [0, 1, 2]) shard(i, `p-${i}.tbk`);
  for (const out of ['ok.tbk', 'ok.bin']) assert.equal(tabiya('book', 'merge', 'p-0.tbk', 'p-1.tbk', 'p-2.tbk', '-o', out).status, 0, out);
  const cases: [string[], RegExp][] = [
    [['--min-elo', '2500'], /its game filters: \{"minElo":2500,"tags":\[\]\}, p-0\.tbk's: \{\}/],
    [['--min-games', '3'], /its --min-games: 3, p-0\.tbk's: 0/],
    [['--max-ply', '20'], /its --max-ply: 20, p-0\.tbk's: 30/],
    [['--split', 'rating,speed'], /its --split: \{"rating":true,"speed":true,"month":false\}, p-0\.tbk's: \{"rating":true,"speed":false,"month":false\}/],
  ];
  for (const [extra, why] of cases) {
    shard(1, 'other.tbk', ...extra);
    for (const out of ['bad.tbk', 'bad.bin']) {
      const r = tabiya('book', 'merge', 'p-0.tbk', 'other.tbk', 'p-2.tbk', '-o', out);
      assert.equal(r.status, 1, `${extra.join(' ')} -o ${out}: ${r.stderr}`);
      assert.match(r.stderr, /^tabiya: other\.tbk: shard 1\/3 of another build than p-0\.tbk \(shard 0\/3\): /, extra.join(' '));
      assert.match(r.stderr, why, `${extra.join(' ')} -o ${out}`);
    }
  }
  // The file grew (more games appended) before shard 2 ran: its byte ranges are cut elsewhere.
  appendFileSync(join(tmp, 'games.pgn'), sampleGames(310).slice(300).join(''));
  shard(2, 'grown.tbk');
  const r = tabiya('book', 'merge', 'p-0.tbk', 'p-1.tbk', 'grown.tbk', '-o', 'bad.tbk');
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /grown\.tbk: shard 2\/3 of another build than p-0\.tbk \(shard 0\/3\): its inputs' sizes in bytes \(an input changed between the shards' builds\)/);
});

test('--min-games on the shards or on the merge: the merged .tbk and .bin are the single build with that --min-games, byte for byte', () => {
  writeFileSync(join(tmp, 'cut.pgn'), sampleGames(400).join(''));
  const build = (out: string, ...extra: string[]): Buffer => {
    const r = tabiya('book', 'make', 'cut.pgn', '--max-ply', '30', ...extra, '-o', out);
    assert.equal(r.status, 0, r.stderr);
    return readFileSync(join(tmp, out));
  };
  const merge = (out: string, parts: string, ...extra: string[]): { book: Buffer; json: { minGames: number } } => {
    const r = tabiya('book', 'merge', ...[0, 1, 2].map((i) => `${parts}-${i}.tbk`), ...extra, '--json', '-o', out);
    assert.equal(r.status, 0, r.stderr);
    return { book: readFileSync(join(tmp, out)), json: JSON.parse(r.stdout) as { minGames: number } };
  };
  for (const i of [0, 1, 2]) {
    build(`raw-${i}.tbk`, '--shard', `${i}/3`);
    build(`cut3-${i}.tbk`, '--shard', `${i}/3`, '--min-games', '3');
  }
  const single3 = build('single3.tbk', '--min-games', '3');
  assert.ok(single3.length < build('single-all.tbk').length, 'the cut leaves moves out');
  // The shards' own --min-games is the merge's when none is given to it (the Slurm recipe's -m).
  const a = merge('a.tbk', 'cut3');
  assert.equal(a.json.minGames, 3);
  assert.ok(a.book.equals(single3), 'shards built with --min-games 3, merged: not the single build with --min-games 3');
  // The cut given to the merge alone (the recipe's -M): the book records it as the single build does.
  const b = merge('b.tbk', 'raw', '--min-games', '3');
  assert.ok(b.book.equals(single3), 'shards merged with --min-games 3: not the single build with --min-games 3');
  // Into a .bin: the shards' --min-games, else make-book's 3.
  const c = merge('c.bin', 'cut3');
  assert.ok(c.book.equals(build('single3.bin', '--min-games', '3')));
  for (const i of [0, 1, 2]) build(`cut5-${i}.tbk`, '--shard', `${i}/3`, '--min-games', '5');
  const d = merge('d.bin', 'cut5');
  assert.equal(d.json.minGames, 5);
  assert.ok(d.book.equals(build('single5.bin', '--min-games', '5')), 'shards built with --min-games 5, merged into a .bin: not the single build\'s .bin');
  assert.ok(merge('e.bin', 'raw').book.equals(build('single-default.bin')), 'raw shards into a .bin: make-book\'s default 3');
});

/** Another machine, as far as process ids and the host name go: new pid and UTS namespaces (root only). */
const otherMachine = ((): string | false => {
  if (process.getuid?.() !== 0) return 'needs root, for unshare(1) to make a pid and a UTS namespace';
  const r = spawnSync('unshare', ['-p', '-u', '-f', '--mount-proc', 'true'], { encoding: 'utf8' });
  return r.status === 0 ? false : `unshare(1) cannot make namespaces here: ${r.error?.message ?? r.stderr.trim()}`;
})();

test('a build on another machine sharing --tmp-dir leaves the scratch directory of a running build alone', { skip: otherMachine }, () => {
  const shared = join(tmp, 'shared-scratch');
  mkdirSync(shared);
  writeFileSync(join(tmp, 'few.pgn'), sampleGames(20).join(''));
  // A running build here: this process, alive, with its scratch directory in the shared place.
  const running = new WorkDir(shared);
  // A dead build of this machine: its directory is swept, as before.
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  const stale = join(shared, `tabiya-build-${dead}@${hostTag()}-AbC123`);
  mkdirSync(stale);
  try {
    // Another node of the cluster, where this process's id means nothing (or another process).
    const script = `hostname other-node && exec "${process.execPath}" "${MAIN}" book make few.pgn --tmp-dir shared-scratch --memory 1M -o other.tbk`;
    const r = spawnSync('unshare', ['-p', '-u', '-f', '--mount-proc', 'sh', '-c', script], { cwd: tmp, encoding: 'utf8', env, timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(existsSync(running.path), `the other machine's build removed ${running.path}, which a live build on this machine is using`);
    assert.ok(existsSync(stale), "the other machine's build removed this machine's leftover, which it cannot tell dead");
    // The next build here removes the leftover of this machine's dead build, and not the live one.
    assert.equal(tabiya('book', 'make', 'few.pgn', '--tmp-dir', 'shared-scratch', '-o', 'here.tbk').status, 0);
    assert.ok(!existsSync(stale), 'the leftover of a dead build of this machine is removed');
    assert.ok(existsSync(running.path));
  } finally {
    running.remove();
  }
});

test("a byte-range shard names a broken game by the file's own line, and its game number as the shard's", () => {
  // 200 games, one broken in the second half and one with a comment never closed.
  const games = sampleGames(200);
  games[150] = games[150]!.replace(/\n1\. /, '\n1. Kx9 ');
  games[199] = games[199]!.replace(/\n1\. /, '\n1. {never closed ');
  const text = games.join('');
  writeFileSync(join(tmp, 'broken.pgn'), text);
  const lineOf = (needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;
  const single = tabiya('book', 'make', 'broken.pgn', '-o', 'broken-single.tbk');
  assert.equal(single.status, 0, single.stderr);
  assert.match(single.stderr, new RegExp(`skipped: broken\\.pgn:${lineOf('1. Kx9')}:4: game 151: `));
  for (const threads of ['1', '2']) {
    const shard = tabiya('book', 'make', 'broken.pgn', '--shard', '1/2', '--threads', threads, '-o', `broken-1-${threads}.tbk`);
    assert.equal(shard.status, 0, shard.stderr);
    const first = new RegExp(`skipped: broken\\.pgn:${lineOf('1. Kx9')}:4: game (\\d+) of shard 1/2 from byte (\\d+): unreadable-move`).exec(shard.stderr);
    assert.ok(first, shard.stderr);
    // The game number counts from the range's start, which the message names.
    const start = Number(first[2]);
    assert.equal(Number(first[1]), text.slice(start, text.indexOf('1. Kx9')).split(/\n(?=\[Event )/).length);
    const opened = lineOf('{never closed');
    assert.match(shard.stderr, new RegExp(`skipped: broken\\.pgn:\\d+:\\d+: game \\d+ of shard 1/2 from byte ${start}: \\S+: .*line ${opened}\\b`));
  }
});

/**
 * The byte ranges of a sharded build (`book make FILE --shard I/N`, src/book/node/shards.ts) on
 * files as they come: LF, CRLF and lone-CR line ends, few games for many shards, a last game
 * longer than a shard. Every range starts at a game (or the file's start) and ends where the
 * next one starts, the ranges cover the file, and together they read every game once. The cut
 * used to be searched for past the end of the file forever when none followed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { rangeSource, type ShardInputs } from '../src/book/node/shards.js';
import { readPgn } from '../src/pgn/reader.js';

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SHARDS = new URL('../src/book/node/shards.js', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'tabiya-pgn-shards-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SHORT = '[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n';
const LONG =
  '[Event "b"]\n[White "Müller"]\n[Result "1/2-1/2"]\n\n' +
  '1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5\n' +
  '9. Bxe7 Qxe7 10. Nxd5 exd5 11. Rc1 Be6 12. Qa4 c5 13. Qa3 Rc8 14. Bb5 a6 15. dxc5 bxc5 1/2-1/2\n\n';

function eol(text: string, ends: string): string {
  return text.replace(/\n/g, ends);
}

/**
 * Every shard of `file` for 2 to 5 shards (`[count - 2][index]`), worked out in a child process:
 * a search for the cut that never ends (as it once did) fails the test instead of hanging it.
 */
function shardsOf(file: string): ShardInputs[][] {
  const script = `import { shardInputs } from ${JSON.stringify(SHARDS)};
    const all = [];
    for (let count = 2; count <= 5; count++) all.push(Array.from({ length: count }, (_, index) => shardInputs([process.argv[1]], { index, count })));
    console.log(JSON.stringify(all));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, `shards of ${file}: ${r.error?.message ?? r.stderr}`);
  return JSON.parse(r.stdout) as ShardInputs[][];
}

async function gamesOf(file: string, start: number, end: number): Promise<string[]> {
  const events: string[] = [];
  const s = await readPgn([rangeSource(file, start, end)], { tag: (n, v) => void (n === 'Event' && events.push(v)), error: (e) => assert.fail(e.message) });
  assert.equal(s.errors, 0);
  return events;
}

test('shards of a plain PGN cover it and read each game once, whatever the line ends, also when the cut falls in the last game', async () => {
  for (const [label, ends] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']] as const) {
    for (const [shape, text] of [
      ['short then long', SHORT + LONG],
      ['one game', LONG],
      ['six games', SHORT + LONG + SHORT + LONG + SHORT + LONG],
    ] as const) {
      const file = join(dir, `${label}-${shape.replace(/ /g, '-')}.pgn`);
      const bytes = Buffer.from(eol(text, ends));
      writeFileSync(file, bytes);
      const all = await gamesOf(file, 0, bytes.length);
      const shards = shardsOf(file);
      for (let count = 2; count <= 5; count++) {
        const read: string[] = [];
        let at = 0;
        for (let index = 0; index < count; index++) {
          const s = shards[count - 2]![index]!;
          assert.equal(s.kind, 'range');
          if (s.kind !== 'range') continue;
          assert.equal(s.start, at, `${label}, ${shape}: shard ${index}/${count} starts where the one before ended`);
          assert.ok(s.end >= s.start && s.end <= bytes.length);
          assert.ok(s.start === 0 || s.start === bytes.length || bytes[s.start] === 0x5b, `${label}, ${shape}: shard ${index}/${count} starts at a game`);
          read.push(...(await gamesOf(file, s.start, s.end)));
          at = s.end;
        }
        assert.equal(at, bytes.length, `${label}, ${shape}: ${count} shards cover the file`);
        assert.deepEqual(read, all, `${label}, ${shape}: ${count} shards read every game once`);
      }
    }
  }
  // Lone-CR files are cut at their games too, not read whole by the first shard.
  const s = shardsOf(join(dir, 'CR-six-games.pgn'))[0]![1]!;
  assert.ok(s.kind === 'range' && s.start > 0 && s.end > s.start, 'the second half of a CR file has games');
});

test('book make --shard 1/2 of a two-game file ends, writes an empty part, and the merged shards are the single build', () => {
  const file = join(dir, 'two.pgn');
  writeFileSync(file, SHORT + LONG);
  const run = (...args: string[]): void => {
    const r = spawnSync(process.execPath, [MAIN, ...args, '--quiet'], { encoding: 'utf8', cwd: dir, timeout: 100_000, env: { ...process.env, SOURCE_DATE_EPOCH: '1700000000' } });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  };
  run('book', 'make', file, '-o', 'whole.tbk');
  run('book', 'make', file, '-o', 'p0.tbk', '--shard', '0/2');
  run('book', 'make', file, '-o', 'p1.tbk', '--shard', '1/2');
  run('book', 'merge', 'p0.tbk', 'p1.tbk', '-o', 'merged.tbk');
  assert.ok(readFileSync(join(dir, 'merged.tbk')).equals(readFileSync(join(dir, 'whole.tbk'))), 'the merged shards are the single build');
});

/**
 * `npm run gen:games` (scripts/gen-games.ts): a few thousand generated games read back with no
 * error by tabiya and by pgn-extract, every Lichess header present and well formed, ratings,
 * time controls, terminations and clocks spread as designed, the opening names those Lichess
 * would give, results that agree with the final position, and the same file for the same seed
 * whatever the number of threads.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Board } from '../src/board.js';
import { findProgram } from '../src/pgn/decompressProgram.js';
import { speedOf, TIME_CONTROLS } from '../scripts/genGames/lichess.js';

const GEN = fileURLToPath(new URL('../scripts/gen-games.js', import.meta.url));
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SHARED = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const SOURCE = join(SHARED, 'games/pgnmentor_players_sample2000.pgn.gz');
const PGN_EXTRACT = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((p) => existsSync(p));
const ZSTD = findProgram('zstd');
const GAMES = 3000;
const dir = mkdtempSync(join(tmpdir(), 'tabiya-gen-games-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function generate(out: string, ...args: string[]): void {
  const r = spawnSync(process.execPath, [GEN, '--games', String(GAMES), '--source', SOURCE, '--out', out, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`${GAMES} games, \\d+ MB of PGN, to .* games/s`));
}

// The main file: zstd when the program is there (as the benchmarks use), else gzip.
const file = join(dir, ZSTD ? 'games.pgn.zst' : 'games.pgn.gz');
generate(file, '--seed', '7');
const text = ZSTD ? spawnSync(ZSTD, ['-dcq', file], { maxBuffer: 1 << 30 }).stdout.toString('utf8') : gunzipSync(readFileSync(file)).toString('utf8');
const games = text
  .trimEnd()
  .split(/\n\n(?=\[Event )/)
  .map((g) => {
    const [head, moves] = g.split('\n\n') as [string, string];
    const tags = [...head.matchAll(/^\[(\w+) "(.*)"\]$/gm)].map((m) => [m[1]!, m[2]!] as const);
    return { tags: new Map(tags), names: tags.map(([n]) => n), moves };
  });
const tag = (g: (typeof games)[number], name: string): string => g.tags.get(name)!;
const share = (f: (g: (typeof games)[number]) => boolean, among = games): number => among.filter(f).length / among.length;

test('tabiya reads every generated game back, with no error', () => {
  assert.equal(games.length, GAMES);
  const r = spawnSync(process.execPath, [MAIN, 'pgn', 'stats', file, '--json', '--quiet'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout) as { games: number; errors: number; resultTagMismatches: number; setupGames: number };
  assert.deepEqual([s.games, s.errors, s.resultTagMismatches, s.setupGames], [GAMES, 0, 0, 0]);
});

test('pgn-extract reads every generated game, without a complaint', { skip: !PGN_EXTRACT && 'pgn-extract not installed' }, () => {
  const plain = join(dir, 'plain.pgn');
  generate(plain, '--seed', '7');
  assert.equal(readFileSync(plain, 'utf8'), text, 'the same games whatever the compression');
  const out = join(dir, 'extracted.pgn');
  const r = spawnSync(PGN_EXTRACT!, ['-s', '--plycount', '-o', out, plain], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const complaints = r.stderr.split(/[\r\n]/).filter((l) => l.trim() !== '' && !/^Games: \d+$/.test(l.trim()));
  assert.deepEqual(complaints, []);
  const plies = [...readFileSync(out, 'utf8').matchAll(/^\[PlyCount "(\d+)"\]$/gm)].map((m) => Number(m[1]));
  assert.equal(plies.length, GAMES);
  // pgn-extract's ply counts are those of the movetext (move numbers and clock comments aside).
  plies.forEach((n, i) => assert.equal(n, moveTokens(games[i]!.moves).length, `game ${i + 1}`));
});

const LICHESS_TAGS = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'UTCDate', 'UTCTime', 'WhiteElo', 'BlackElo', 'WhiteRatingDiff', 'BlackRatingDiff', 'ECO', 'Opening', 'TimeControl', 'Termination'];

test('every game has the Lichess headers, in Lichess order and form', () => {
  const sites = new Set<string>();
  for (const g of games) {
    assert.deepEqual(g.names, LICHESS_TAGS);
    assert.match(tag(g, 'Site'), /^https:\/\/lichess\.org\/[A-Za-z0-9]{8}$/);
    sites.add(tag(g, 'Site'));
    assert.match(tag(g, 'UTCDate'), /^2024\.01\.(0[1-9]|[12]\d|3[01])$/);
    assert.equal(tag(g, 'Date'), tag(g, 'UTCDate'));
    assert.equal(tag(g, 'Round'), '-');
    assert.match(tag(g, 'UTCTime'), /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    assert.match(tag(g, 'White'), /^[A-Za-z0-9_]{2,30}$/);
    assert.match(tag(g, 'WhiteRatingDiff'), /^[+-]\d+$/);
    assert.match(tag(g, 'BlackRatingDiff'), /^[+-]\d+$/);
    assert.match(tag(g, 'ECO'), /^[A-E]\d\d$/);
    assert.match(g.moves, new RegExp(` ${tag(g, 'Result').replaceAll('/', '\\/')}$`));
  }
  assert.equal(sites.size, GAMES, 'game ids are unique');
  // In time order, as in a monthly dump.
  const times = games.map((g) => `${tag(g, 'UTCDate')} ${tag(g, 'UTCTime')}`);
  assert.deepEqual(times, [...times].sort());
});

test('ratings: 600-3200, most 1200-2000, the two players close, winners gain', () => {
  const elos = games.flatMap((g) => [Number(tag(g, 'WhiteElo')), Number(tag(g, 'BlackElo'))]);
  assert.ok(elos.every((e) => e >= 600 && e <= 3200));
  const middle = elos.filter((e) => e >= 1200 && e <= 2000).length / elos.length;
  assert.ok(middle > 0.68 && middle < 0.84, `${middle} rated 1200-2000`);
  assert.ok(Math.min(...elos) < 1000 && Math.max(...elos) > 2300, 'the tails are there');
  const gaps = games.map((g) => Math.abs(Number(tag(g, 'WhiteElo')) - Number(tag(g, 'BlackElo')))).sort((a, b) => a - b);
  assert.ok(gaps[GAMES >> 1]! < 150 && gaps[Math.floor(GAMES * 0.9)]! < 300, `median gap ${gaps[GAMES >> 1]}`);
  for (const g of games) {
    const [w, b] = [Number(tag(g, 'WhiteRatingDiff')), Number(tag(g, 'BlackRatingDiff'))];
    if (tag(g, 'Result') === '1-0') assert.ok(w >= 0 && b <= 0);
    if (tag(g, 'Result') === '0-1') assert.ok(w <= 0 && b >= 0);
  }
  // The stronger player wins more often.
  const decided = games.filter((g) => tag(g, 'Result') !== '1/2-1/2' && Math.abs(Number(tag(g, 'WhiteElo')) - Number(tag(g, 'BlackElo'))) >= 100);
  const favourite = share((g) => (tag(g, 'Result') === '1-0') === Number(tag(g, 'WhiteElo')) > Number(tag(g, 'BlackElo')), decided);
  assert.ok(favourite > 0.6, `favourites win ${favourite}`);
});

test('time controls and speeds in the designed shares; the Event names the speed', () => {
  const total = TIME_CONTROLS.reduce((s, t) => s + t.share, 0);
  for (const t of TIME_CONTROLS) {
    const got = share((g) => tag(g, 'TimeControl') === t.tag);
    const want = t.share / total;
    assert.ok(Math.abs(got - want) < 0.015 + want * 0.25, `${t.tag}: ${got} against ${want}`);
  }
  for (const g of games) {
    const tc = tag(g, 'TimeControl');
    const speed = tc === '-' ? 'Correspondence' : speedOf(...(tc.split('+').map(Number) as [number, number]));
    assert.match(tag(g, 'Event'), new RegExp(`^Rated ${speed} (game|tournament https://lichess\\.org/tournament/[A-Za-z0-9]{8})$`));
  }
  const bullet = share((g) => /Bullet/.test(tag(g, 'Event')));
  const blitz = share((g) => /Blitz/.test(tag(g, 'Event')));
  assert.ok(bullet > 0.22 && bullet < 0.36 && blitz > 0.38 && blitz < 0.52, `bullet ${bullet}, blitz ${blitz}`);
});

test('terminations, results and clocks as designed', () => {
  const forfeit = share((g) => tag(g, 'Termination') === 'Time forfeit');
  assert.ok(forfeit > 0.25 && forfeit < 0.35, `time forfeits ${forfeit}`);
  assert.ok(games.every((g) => ['Normal', 'Time forfeit'].includes(tag(g, 'Termination'))));
  const draws = share((g) => tag(g, 'Result') === '1/2-1/2');
  assert.ok(draws > 0.02 && draws < 0.09, `draws ${draws}`);
  const timed = games.filter((g) => tag(g, 'TimeControl') !== '-');
  const clocked = share((g) => g.moves.includes('[%clk '), timed);
  assert.ok(clocked > 0.8 && clocked < 0.9, `clocks in ${clocked} of timed games`);
  assert.ok(games.filter((g) => tag(g, 'TimeControl') === '-').every((g) => !g.moves.includes('%clk')));
  for (const g of timed.filter((x) => x.moves.includes('%clk'))) {
    const base = Number(tag(g, 'TimeControl').split('+')[0]);
    const clocks = [...g.moves.matchAll(/\{ \[%clk (\d+):(\d\d):(\d\d)\] \}/g)].map((m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
    assert.equal(clocks.length, moveTokens(g.moves).length, 'one clock per move');
    assert.equal(clocks[0], base);
    assert.ok(clocks.every((c) => c >= 0 && c <= base + 3600));
  }
});

test('results agree with the final position; ECO and Opening are the last named position', () => {
  const named = new Map<string, [string, string]>();
  for (const f of readdirSync(join(SHARED, 'openings')).filter((n) => n.endsWith('.tsv'))) {
    for (const line of readFileSync(join(SHARED, 'openings', f), 'utf8').split('\n').slice(1)) {
      const [eco, name, pgn] = line.split('\t');
      if (!pgn) continue;
      const board = new Board();
      for (const san of moveTokens(pgn)) board.push(san);
      named.set(position(board), [eco!, name!]);
    }
  }
  let mates = 0;
  for (const g of games.slice(0, 600)) {
    const board = new Board();
    let opening: [string, string] = ['?', '?'];
    for (const san of moveTokens(g.moves)) {
      board.push(san);
      opening = named.get(position(board)) ?? opening;
    }
    assert.deepEqual([tag(g, 'ECO'), tag(g, 'Opening')], opening, tag(g, 'Site'));
    if (board.isCheckmate()) {
      mates++;
      assert.equal(tag(g, 'Result'), board.fen().split(' ')[1] === 'w' ? '0-1' : '1-0');
    }
    if (board.isStalemate()) assert.equal(tag(g, 'Result'), '1/2-1/2');
  }
  assert.ok(mates > 0, 'some games end in checkmate');
});

test('the same seed gives the same file with one thread or two; another seed another file', () => {
  const one = join(dir, 'one.pgn');
  const two = join(dir, 'two.pgn');
  const other = join(dir, 'other.pgn');
  generate(one, '--seed', '11', '--threads', '1');
  generate(two, '--seed', '11', '--threads', '2');
  generate(other, '--seed', '12', '--threads', '2');
  assert.ok(readFileSync(one).equals(readFileSync(two)));
  assert.ok(!readFileSync(one).equals(readFileSync(other)));
  // The moves are recombined: even from 2,000 source games most of 3,000 games differ from
  // each other (the short games lost on time early are the usual repeats).
  const movetexts = new Set(readFileSync(one, 'utf8').split('\n').filter((l) => l.startsWith('1. ')).map((l) => moveTokens(l).join(' ')));
  assert.ok(movetexts.size > GAMES * 0.85, `${movetexts.size} distinct move sequences`);
});

/** The SAN moves of a movetext line (move numbers, clock comments and the result left out). */
function moveTokens(movetext: string): string[] {
  return movetext
    .replace(/\{[^}]*\}/g, ' ')
    .split(/\s+/)
    .filter((t) => t !== '' && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
}

/** A position without its move counters, as opening names are matched. */
function position(board: Board): string {
  return board.fen().split(' ').slice(0, 4).join(' ');
}

test('bad arguments: a message and the usage, exit 2; --help prints the usage', () => {
  for (const [args, message] of [
    [['--games', 'x', '--out', join(dir, 'x.pgn')], /--games: "x" is not a number/],
    [['--games', '10'], /--out FILE is required/],
    [['--bogus'], /Unknown option '--bogus'/],
  ] as const) {
    const r = spawnSync(process.execPath, [GEN, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /^usage: npm run gen:games/m);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
  const help = spawnSync(process.execPath, [GEN, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: npm run gen:games -- --games N --out FILE/);
});

test('a missing --source or --openings is said as such, exit 2, and leaves no temporary file', () => {
  const out = join(dir, 'missing-input.pgn');
  for (const [args, message] of [
    [['--source', join(dir, 'nope.pgn.gz')], /--source: .*nope\.pgn\.gz: no such file/],
    [['--openings', join(dir, 'no-openings')], /--openings: .*no-openings: no such directory/],
    [['--openings', SOURCE], /--openings: .* is not a directory/],
  ] as const) {
    const r = spawnSync(process.execPath, [GEN, '--games', '10', '--out', out, '--source', SOURCE, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('missing-input')), [], 'no output, no temporary file');
  }
});

test('stopped by SIGTERM while it works: exit 143 and no temporary file left beside the output', async () => {
  const out = join(dir, 'stopped.pgn');
  const child = spawn(process.execPath, [GEN, '--games', '10000000', '--source', SOURCE, '--out', out], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  // The temporary file is made before the source is read; stop the run once it is there.
  const temp = `${out}.${child.pid}.tmp`;
  while (!existsSync(temp) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGTERM');
  const [code] = await exited;
  assert.equal(code, 143);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('stopped')), [], 'no output, no temporary file');
});

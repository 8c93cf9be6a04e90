/**
 * `tabiya pgn stats|filter|clean` end to end on the real sample, against counts made
 * independently (regular expressions over the raw text, pgn-extract's PlyCount sum).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { readGames } from '../src/pgn/game.js';

const PGN_EXTRACT = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((p) => existsSync(p));

const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const text = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8');
const raw = text.trim().split(/\n\n(?=\[Event )/);
const dir = mkdtempSync(join(tmpdir(), 'tabiya-pgn-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function tabiya(...args: string[]): { status: number | null; json: Record<string, unknown>; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  let json: Record<string, unknown> = {};
  if (args.includes('--json')) json = JSON.parse(r.stdout) as Record<string, unknown>;
  return { status: r.status, json, stdout: r.stdout, stderr: r.stderr };
}

const tag = (g: string, name: string): string | undefined => new RegExp(`^\\[${name} "(.*)"\\]$`, 'm').exec(g)?.[1];
const count = (f: (g: string) => boolean): number => raw.filter(f).length;

test('pgn stats: counts of the sample (plies as pgn-extract --plycount sums them)', () => {
  const r = tabiya('pgn', 'stats', SAMPLE_GZ, '--json', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.games, 2000);
  assert.equal(r.json.errors, 0);
  assert.deepEqual(r.json.results, { '1-0': 747, '0-1': 499, '1/2-1/2': 754, '*': 0 });
  assert.equal((r.json.plies as { total: number }).total, 164_877);
  assert.equal(r.json.bothRated, count((g) => /^\d+$/.test(tag(g, 'WhiteElo') ?? '') && /^\d+$/.test(tag(g, 'BlackElo') ?? '')));
});

test('pgn stats: broken games are counted by kind, located, and --strict fails', () => {
  const file = join(dir, 'broken.pgn');
  writeFileSync(file, `${raw[0]}\n\n[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n\n${raw[1]}\n\n[Event "cut"]\n\n1. d4 (1. c4\n`);
  const r = tabiya('pgn', 'stats', file, '--json', '--quiet');
  assert.equal(r.status, 0);
  assert.equal(r.json.games, 2);
  assert.equal(r.json.errors, 2);
  assert.deepEqual(r.json.errorsByKind, { 'illegal-move': 1, truncated: 1 });
  const first = (r.json.firstErrors as { file: string; game: number; kind: string; message: string }[])[0]!;
  assert.equal(first.game, 2);
  assert.match(first.message, /Ke3/);
  assert.equal(tabiya('pgn', 'stats', file, '--strict', '--quiet').status, 1);
  assert.equal(tabiya('pgn', 'stats', join(dir, 'missing.pgn')).status, 1);
});

test('pgn stats: games whose [Result] tag and movetext disagree are named by file and line, the first --errors N', () => {
  const file = join(dir, 'mismatch.pgn');
  // Games 2, 4, 6 and 8 (each four lines long) carry a [Result] their movetext contradicts.
  const games = Array.from({ length: 8 }, (_, i) => `[Event "g${i + 1}"]\n[Result "${i % 2 === 1 ? '1-0' : '0-1'}"]\n\n1. e4 e5 0-1\n`);
  writeFileSync(file, games.join('\n'));
  const r = tabiya('pgn', 'stats', file, '--json', '--quiet', '--errors', '3');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.resultTagMismatches, 4);
  assert.deepEqual(r.json.firstResultTagMismatches, [
    { file, line: 6, game: 2, tag: '1-0', movetext: '0-1' },
    { file, line: 16, game: 4, tag: '1-0', movetext: '0-1' },
    { file, line: 26, game: 6, tag: '1-0', movetext: '0-1' },
  ]);
  const t = tabiya('pgn', 'stats', file, '--quiet', '--errors', '3');
  assert.match(t.stdout, /4 games whose \[Result\] tag differs from the movetext/);
  assert.ok(t.stdout.includes(`  ${file}:6: game 2: [Result "1-0"] but the movetext ends 0-1\n`), t.stdout);
  assert.ok(t.stdout.includes(`  ${file}:26: game 6: [Result "1-0"] but the movetext ends 0-1\n`), t.stdout);
  assert.ok(!t.stdout.includes(':36: game 8'), t.stdout);
  assert.match(t.stdout, /^ {2}and 1 more \(--errors N lists more\)$/m);
});

test('pgn filter: each condition selects what an independent count selects', () => {
  const run = (...cond: string[]): number => {
    const out = join(dir, 'f.pgn');
    const r = tabiya('pgn', 'filter', SAMPLE_GZ, '-o', out, '--json', '--quiet', ...cond);
    assert.equal(r.status, 0, r.stderr);
    const games = readGames(readFileSync(out)).games.length;
    assert.equal(games, r.json.written);
    return games;
  };
  const elo = (g: string, n: string): number => Number(tag(g, n) || NaN);
  assert.equal(run('--min-elo', '2600'), count((g) => elo(g, 'WhiteElo') >= 2600 && elo(g, 'BlackElo') >= 2600));
  assert.equal(run('--player', 'carlsen'), count((g) => /carlsen/i.test(`${tag(g, 'White')}|${tag(g, 'Black')}`)));
  // One player's games with one colour (pgn-extract's -Tw and -Tb).
  const asWhite = run('--white', 'carlsen');
  assert.equal(asWhite, count((g) => /carlsen/i.test(tag(g, 'White') ?? '')));
  assert.ok(asWhite > 0);
  assert.equal(run('--black', 'Carlsen', '--black', 'kasparov'), count((g) => /carlsen|kasparov/i.test(tag(g, 'Black') ?? '')));
  assert.equal(run('--white', 'carlsen', '--black', 'carlsen'), 0);
  assert.equal(run('--result', '0-1', '--result', '1-0'), count((g) => tag(g, 'Result') !== '1/2-1/2'));
  assert.equal(run('--tag', 'ECO=B90'), count((g) => tag(g, 'ECO') === 'B90'));
  assert.equal(run('--date-from', '1990', '--date-to', '1999.12.31'), count((g) => /^199\d/.test(tag(g, 'Date') ?? '')));
  assert.equal(run('--min-plies', '100'), count((g) => (g.split('\n\n')[1]!.match(/[A-Za-z][^\s.]*/g) ?? []).length >= 100));
  assert.equal(run('--from-start'), 2000);
});

test('pgn filter --position selects the games pgn-extract -x selects (the position reached in any move order)', { skip: PGN_EXTRACT === undefined && 'pgn-extract not installed' }, () => {
  const lines: [string, string][] = [
    ['1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *', 'rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6'],
    ['1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 *', 'rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4'],
  ];
  const plain = join(dir, 'sample.pgn');
  writeFileSync(plain, text);
  for (const [moves, fen] of lines) {
    const line = join(dir, 'line.txt');
    writeFileSync(line, `${moves}\n`);
    const theirs = join(dir, 'x.pgn');
    const pe = spawnSync(PGN_EXTRACT!, [`-x${line}`, '-s', '-o', theirs, plain], { encoding: 'utf8' });
    assert.equal(pe.status, 0, pe.stderr);
    const ours = join(dir, 'position.pgn');
    const r = tabiya('pgn', 'filter', SAMPLE_GZ, '-o', ours, '--position', fen, '--json', '--quiet');
    assert.equal(r.status, 0, r.stderr);
    const sites = (f: string): string[] => readGames(readFileSync(f)).games.map((g) => g.tags.map(([n, v]) => `${n}=${v}`).join('|'));
    const expected = sites(theirs);
    assert.ok(expected.length > 50, moves);
    assert.deepEqual(sites(ours), expected, moves);
    assert.equal((r.json.rejected as { position: number }).position, 2000 - expected.length);
  }
  const bad = tabiya('pgn', 'filter', SAMPLE_GZ, '-o', join(dir, 'bad.pgn'), '--position', '8/8/8 w');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--position: "8\/8\/8 w" is not a FEN: board field/);
});

test('pgn filter --dedupe keeps one of each identical game, also across files; output is the input text', () => {
  const out = join(dir, 'dedupe.pgn');
  const r = tabiya('pgn', 'filter', SAMPLE_GZ, SAMPLE_GZ, '-o', out, '--dedupe', '--json', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  const distinct = new Set(raw.map((g) => g.split('\n\n')[1])).size;
  assert.equal(r.json.written, distinct);
  assert.equal((r.json.rejected as { duplicate: number }).duplicate, 4000 - distinct);
  const written = readFileSync(out, 'utf8').trim().split(/\n\n(?=\[Event )/);
  assert.deepEqual(written.slice(0, 10), raw.slice(0, 10));
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.tmp-')), []);
});

test('pgn filter drops a game broken after a null move, and --dedupe tells games apart after one', () => {
  const input = join(dir, 'nulls.pgn');
  const games = ['1. e4 -- 2. d4 -- 3. c4 *', '1. e4 -- 2. Nf3 -- 3. Bc4 *', '1. e4 -- 2. d4 -- 3. Ke7 *'];
  writeFileSync(input, games.map((g, i) => `[Event "${i + 1}"]\n\n${g}\n\n`).join(''));
  for (const extra of [[], ['--dedupe']]) {
    const r = tabiya('pgn', 'filter', input, '-o', join(dir, 'nulls.out.pgn'), '--json', '--quiet', ...extra);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((r.json.brokenGames as { game: number; kind: string; line: number }[]).map((e) => [e.game, e.kind, e.line]), [[3, 'illegal-move', 11]], extra.join(' '));
    assert.equal(r.json.written, 2, extra.join(' '));
  }
});

test('pgn filter copies a CRLF file as it stands: no condition gives the input back, blank lines included', () => {
  const input = join(dir, 'crlf.pgn');
  const crlf = raw.slice(0, 20).map((g) => g.replace(/\n/g, '\r\n') + '\r\n\r\n').join('');
  writeFileSync(input, crlf);
  const out = join(dir, 'crlf.out.pgn');
  const r = tabiya('pgn', 'filter', input, '-o', out, '--json', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.written, 20);
  assert.equal(readFileSync(out, 'utf8'), crlf);
});

test('pgn filter copies a lone-CR file as it stands: the blank lines between games are CR too, not LF', () => {
  const input = join(dir, 'cr.pgn');
  // The last game is movetext alone on one line: it has no line end of its own to copy.
  const cr = raw.slice(0, 5).map((g) => g.replace(/\n/g, '\r') + '\r\r').join('') + '1. e4 e5 *\r\r';
  writeFileSync(input, cr);
  const out = join(dir, 'cr.out.pgn');
  const r = tabiya('pgn', 'filter', input, '-o', out, '--json', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.written, 6);
  const got = readFileSync(out, 'utf8');
  assert.ok(!got.includes('\n'), 'no LF in a CR file');
  assert.equal(got, cr);
});

test('pgn clean: standard re-export of valid games, broken ones listed', () => {
  const input = join(dir, 'dirty.pgn');
  writeFileSync(input, `[Event "x"]\n\n1.e4 {c} e5 $1 2.Ng1f3 (2. d4) Nc6 3. Bc4 Nf6 4. 0-0?? *\n\n${raw[2]}\n\n1. e4 e5 2. Ke3 *\n`);
  const out = join(dir, 'clean.pgn');
  const r = tabiya('pgn', 'clean', input, '-o', out, '--json', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json.written, 2);
  assert.deepEqual((r.json.brokenGames as { game: number; kind: string }[]).map((e) => [e.game, e.kind]), [[3, 'illegal-move']]);
  const cleaned = readFileSync(out, 'utf8');
  const games = cleaned.split(/\n\n(?=\[Event )/);
  assert.equal(
    games[0],
    '[Event "x"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *',
  );
  const sans = (t: string): string[][] => readGames(t).games.map((g) => g.moves.map((n) => n.san));
  assert.deepEqual(sans(games[1]!), sans(raw[2]!));
});

test('pgn clean: a game set up from a FEN gets SetUp "1" before the FEN tag, as pgn-extract -C -N -V writes it', () => {
  const input = join(dir, 'setup.pgn');
  writeFileSync(input, '[Event "a"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]\n[Annotator "z"]\n\n1. Kd2 *\n\n[Event "b"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K3 b - - 0 1"]\n\n1... Kd7 *\n\n[Event "c"]\n\n1. e4 *\n');
  const out = join(dir, 'setup-clean.pgn');
  const r = tabiya('pgn', 'clean', input, '-o', out, '--quiet');
  assert.equal(r.status, 0, r.stderr);
  const tags = readGames(readFileSync(out, 'utf8')).games.map((g) => g.tags.slice(7).map(([n, v]) => `${n}=${v}`));
  assert.deepEqual(tags, [['SetUp=1', 'FEN=4k3/8/8/8/8/8/8/4K3 w - - 0 1', 'Annotator=z'], ['SetUp=1', 'FEN=4k3/8/8/8/8/8/8/4K3 b - - 0 1'], []]);
});

test('pgn filter and clean list the first --errors N broken games (default 20), then one line for the rest', () => {
  const input = join(dir, 'many-broken.pgn');
  const broken = Array.from({ length: 25 }, (_, i) => `[Event "b${i + 1}"]\n\n1. e4 e5 2. Ke3 *\n`);
  writeFileSync(input, `${raw[0]}\n\n${broken.join('\n')}`);
  for (const [command, verb] of [['filter', 'skipped'], ['clean', 'dropped']] as const) {
    const lines = (r: { stderr: string }): string[] => r.stderr.split('\n').filter((l) => l.startsWith(verb));
    let r = tabiya('pgn', command, input, '-o', join(dir, `${command}-out.pgn`), '--force');
    assert.equal(r.status, 0, r.stderr);
    let listed = lines(r);
    assert.equal(listed.length, 21, r.stderr);
    assert.match(listed[0]!, new RegExp(`^${verb}: .*many-broken\\.pgn:\\d+:\\d+: game 2: illegal-move: illegal move 2\\. Ke3`));
    assert.equal(listed[20], `${verb} 5 more broken games (--errors N lists more)`);
    r = tabiya('pgn', command, input, '-o', join(dir, `${command}-out.pgn`), '--force', '--errors', '30');
    listed = lines(r);
    assert.equal(listed.length, 25);
    assert.ok(listed.every((l) => l.startsWith(`${verb}: `)));
    // --json keeps stderr free of the list and gives the broken games in the report.
    r = tabiya('pgn', command, input, '-o', join(dir, `${command}-out.pgn`), '--force', '--json', '--quiet');
    assert.equal(lines(r).length, 0);
    assert.equal((r.json.brokenGames as unknown[]).length, 25);
  }
});

test('pgn stats says "1 game", not "1 games"', () => {
  const file = join(dir, 'one-mismatch.pgn');
  writeFileSync(file, '[White "a"]\n[Black "b"]\n[Result "1-0"]\n[WhiteElo "2000"]\n[BlackElo "2100"]\n\n1. e4 e5 0-1\n');
  const r = tabiya('pgn', 'stats', file, '--quiet');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /; 1 game whose \[Result\] tag differs from the movetext$/m);
  assert.match(r.stdout, /both players rated in 1 game\)/);
  assert.doesNotMatch(r.stdout, /\b1 games\b/);
});

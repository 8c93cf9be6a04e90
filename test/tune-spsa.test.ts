/**
 * `tabiya tune spsa` as a user runs it, with real engines: Stockfish's Skill Level, whose best
 * value is known (the highest), climbs; a run stopped by Ctrl-C resumes from its state; an
 * engine that crashes costs its pair; mistakes are refused before anything is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { MAIN } from './engineProcess.js';
import { FIXTURES } from './matchHelpers/cli.js';

const UHO = fileURLToPath(new URL('../../../shared/data/books/UHO_4060_v4.epd.gz', import.meta.url));
const STOCKFISH = ['--engine', 'cmd=/usr/games/stockfish', 'option.Threads=1', 'option.Hash=8'];
const dir = mkdtempSync(join(tmpdir(), 'tabiya-spsa-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
/**
 * The suite the runs draw their openings from: UHO's first 2,000 positions, gzipped as UHO is.
 * Every run reads and checks its whole suite before it plays or refuses anything, which for UHO's
 * 241,670 positions is about 3 s of processor time a run, and these tests start some twenty runs;
 * the openings drawn are UHO's all the same.
 */
const SUITE = join(dir, 'uho-2000.epd.gz');
writeFileSync(SUITE, gzipSync(gunzipSync(readFileSync(UHO)).toString('utf8').split('\n').slice(0, 2000).join('\n') + '\n'));

function run(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [MAIN, 'tune', 'spsa', ...args], { encoding: 'utf8' });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

interface StateFile {
  format: string;
  theta: Record<string, number>;
  values: Record<string, number>;
  nextStep: number;
  finished: number;
  dropped: number;
  penta: number[];
  history: number[][];
}
const readState = (path: string): StateFile => JSON.parse(readFileSync(path, 'utf8')) as StateFile;
const leftovers = (): string[] => readdirSync(dir).filter((f) => /\.tmp|~/.test(f));

test('tune spsa: Stockfish at Skill Level 2 against itself a little stronger and weaker: the level climbs', () => {
  const out = join(dir, 'skill.json');
  const r = run(...STOCKFISH, '--param', 'Skill Level=2,0,20,3,0.01', '--pairs', '24', '--nodes', '1000', '--openings', SUITE, '--concurrency', '2', '-o', out, '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { engine: string; finished: number; theta: Record<string, number>; values: Record<string, number>; penta: number[] };
  assert.match(j.engine, /^Stockfish/);
  assert.equal(j.finished, 24);
  assert.equal(j.penta.reduce((a, b) => a + b, 0), 24);
  // The stronger side wins nearly every pair, so each step moves θ toward it: up.
  assert.ok(j.theta['Skill Level']! > 3.2, `Skill Level 2 -> ${j.theta['Skill Level']}`);
  assert.equal(j.values['Skill Level'], Math.round(j.theta['Skill Level']!));
  const s = readState(out);
  assert.equal(s.format, 'tabiya-spsa');
  assert.equal(s.nextStep, 25);
  assert.deepEqual(s.theta, j.theta);
  // History: [pairs finished, θ] rising from the start.
  assert.deepEqual(s.history.map((h) => h[0]), Array.from({ length: 24 }, (_, i) => i + 1));
  assert.ok(s.history.at(-1)![1]! > s.history[0]![1]!);
  assert.deepEqual(leftovers(), []);
});

/** The θ+ side's pentanomial counts from the games of a --pgnout file (pgn-extract reads it first: an independent parser). */
function pentaOfPgn(path: string): { penta: number[]; rounds: Map<string, number> } {
  const r = spawnSync('/usr/games/pgn-extract', ['--quiet', '-s', path], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '', 'pgn-extract finds nothing wrong');
  const games = r.stdout.split(/(?=\[Event )/).filter((g) => g.startsWith('[Event'));
  const tag = (g: string, t: string): string => new RegExp(`\\[${t} "([^"]*)"\\]`).exec(g)?.[1] ?? '';
  const plus = new Map<string, number>();
  const rounds = new Map<string, number>();
  for (const g of games) {
    const round = tag(g, 'Round');
    const result = tag(g, 'Result');
    const plusWhite = tag(g, 'White').endsWith('+');
    const pts = result === '1/2-1/2' ? 0.5 : (result === '1-0') === plusWhite ? 1 : 0;
    plus.set(round, (plus.get(round) ?? 0) + pts);
    rounds.set(round, (rounds.get(round) ?? 0) + 1);
  }
  const penta = [0, 0, 0, 0, 0];
  for (const p of plus.values()) penta[p * 2]!++;
  return { penta, rounds };
}

test('tune spsa: a run stopped by Ctrl-C keeps its state and games, --resume finishes it, and a changed command is refused', async () => {
  const out = join(dir, 'resume.json');
  const pgn = join(dir, 'resume.pgn');
  // A copy of the suite, changed at the end: a resume checks its content, not only its name.
  const suite = join(dir, 'suite.epd.gz');
  copyFileSync(SUITE, suite);
  const args = [...STOCKFISH, '--param', 'Skill Level=10,0,20,2', '--pairs', '8', '--nodes', '3000', '--openings', suite, '-o', out, '--pgnout', pgn];
  const child = spawn(process.execPath, [MAIN, 'tune', 'spsa', ...args, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  // Interrupt once three pairs are in the state file.
  await new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      try {
        if (existsSync(out) && readState(out).finished >= 3) {
          clearInterval(poll);
          // A second run of the same state meanwhile is refused: both would count into it.
          const twice = run(...args, '--resume');
          assert.equal(twice.code, 1);
          assert.match(twice.err, /resume\.json: locked by process \d+ .*another run of this state is going on/);
          child.kill('SIGINT');
          resolve();
        }
      } catch {
        // The state is replaced by a rename: a read never sees half a file, but may race the first write.
      }
    }, 50);
    child.on('exit', () => {
      clearInterval(poll);
      reject(new Error(`finished before the interrupt: ${err}`));
    });
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  assert.equal(code, 130, err);
  const cut = readState(out);
  assert.ok(cut.finished >= 3 && cut.nextStep <= 8, `stopped at ${cut.nextStep}`);
  assert.deepEqual(leftovers(), []);
  // The PGN holds the two games of every pair the state counts, and their results are its pentanomial.
  assert.deepEqual(pentaOfPgn(pgn).penta, cut.penta);

  const again = run(...args);
  assert.equal(again.code, 1);
  assert.match(again.err, /resume\.json exists: give --resume to continue its run, or --force/);
  const changed = run(...args.map((a) => (a === '8' ? '20' : a)), '--resume');
  assert.equal(changed.code, 1);
  assert.match(changed.err, /is a run with --pairs 8.*give the same command to resume it/);
  assert.equal(readState(out).nextStep, cut.nextStep, 'a refused resume leaves the state alone');

  // A PGN that lost games the state counts is refused; a torn tail (a pair written, its state
  // not yet saved, when the run was killed) is cut off.
  const games = readFileSync(pgn, 'utf8');
  writeFileSync(pgn, games.slice(0, games.length - 40));
  const short = run(...args, '--resume');
  assert.equal(short.code, 1);
  assert.match(short.err, /resume\.pgn holds \d+ bytes, but the state counts pairs whose games end at byte \d+/);
  // Without its --pgnout the games from here on would be lost while the state names the PGN as holding them all.
  const noPgn = run(...args.slice(0, -2), '--resume');
  assert.equal(noPgn.code, 1);
  assert.match(noPgn.err, /resume\.json is a run with --pgnout \S*resume\.pgn; give the same command to resume it/);
  assert.equal(readState(out).nextStep, cut.nextStep, 'a refused resume leaves the state alone');
  writeFileSync(pgn, games + '[Event "torn"]\n[Site "?"]\n\n1. e4 e5 2. Nf3');

  const resumed = run(...args, '--resume', '--json');
  assert.equal(resumed.code, 0, resumed.err);
  const end = readState(out);
  assert.equal(end.nextStep, 9);
  assert.ok(end.finished >= cut.finished + 8 - cut.nextStep + 1);
  assert.equal(end.penta.reduce((a, b) => a + b, 0), end.finished - end.dropped);
  const kept = pentaOfPgn(pgn);
  assert.deepEqual(kept.penta, end.penta);
  assert.equal(kept.rounds.size, end.finished);
  assert.ok([...kept.rounds.values()].every((n) => n === 2), 'two games a pair, no torn game');
  assert.ok(readFileSync(pgn, 'utf8').startsWith(games), 'the games before the stop are kept as they were');
  const done = run(...args, '--resume');
  assert.equal(done.code, 2);
  assert.match(done.err, /run is complete \(8 pairs\)/);
  writeFileSync(suite, gzipSync(gunzipSync(readFileSync(SUITE)).toString('utf8').split('\n').slice(1).join('\n')));
  const otherSuite = run(...args, '--resume');
  assert.equal(otherSuite.code, 1);
  assert.match(otherSuite.err, /is a run with openings \S*suite\.\S+ as they were then \(the file has changed since\)/);

  // --status shows a state without playing: the same numbers, and how far θ moved in units of C.
  const status = run('-o', out, '--status', '--json');
  assert.equal(status.code, 0, status.err);
  const shown = JSON.parse(status.out) as { finished: number; penta: number[]; theta: Record<string, number>; values: Record<string, number>; pgn: string };
  assert.deepEqual([shown.finished, shown.penta, shown.theta, shown.values, shown.pgn], [end.finished, end.penta, end.theta, end.values, pgn]);
  const text = run('-o', out, '--status');
  const moved = ((end.theta['Skill Level']! - 10) / 2).toFixed(2);
  assert.match(text.out, new RegExp(`^Skill Level +10 -> +${end.theta['Skill Level']!.toFixed(2)} +\\(${end.values['Skill Level']}\\) +[+-]${moved.replace('-', '')} C$`, 'm'));
  assert.match(text.out, /^pairs +8 of 8 played \(complete\)/m);
  const notState = join(dir, 'not-state.json');
  writeFileSync(notState, '{"format": "something else"}');
  const refused = run('-o', notState, '--status');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /--status: .*not-state\.json: not a tune spsa state/);
});

test('tune spsa: an engine that crashes costs the pair it crashed in, is restarted, and the run goes on; a run of nothing but crashes fails', () => {
  const out = join(dir, 'crash.json');
  // Each process dies at its 50th search; games end as draws after 20 moves each.
  const crasher = (n: number): string[] => ['--engine', 'name=Crasher', 'cmd=node', `arg=${join(FIXTURES, 'crash.mjs')}`, `arg=${n}`, '--param', 'Skill Level', '--pairs', '6', '--nodes', '100', '--maxmoves', '20', '--openings', SUITE];
  const r = run(...crasher(50), '-o', out, '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { finished: number; dropped: number; restarts: number; penta: number[] };
  assert.equal(j.finished, 6);
  assert.ok(j.dropped >= 1 && j.dropped < 6, r.err);
  assert.ok(j.restarts >= 1);
  assert.equal(j.penta.reduce((a, b) => a + b, 0), 6 - j.dropped);
  // Two drawn games a pair (--maxmoves): one point each side.
  assert.equal(j.penta[2], 6 - j.dropped);
  assert.match(r.err, /pair \d+ dropped: game \d+: (White|Black) disconnects \(Crasher[+-] \(pid \d+\) exited with code 3/);
  const all = run(...crasher(5), '-o', join(dir, 'crash-all.json'));
  assert.equal(all.code, 1);
  assert.match(all.err, /every pair this run played was dropped on an engine fault/);
});

test('tune spsa: an option the engine lacks, one that is not a number, a bad range or a missing suite is refused before anything is written', () => {
  const out = join(dir, 'refused.json');
  const base = [...STOCKFISH, '--pairs', '4', '--nodes', '100', '--openings', SUITE, '-o', out];
  const unknown = run(...base, '--param', 'rfpMargin');
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /--param rfpMargin: the engine has no such option \(its spin options: .*Skill Level/);
  const check = run(...base, '--param', 'Ponder');
  assert.equal(check.code, 2);
  assert.match(check.err, /option Ponder is a check, not a spin/);
  const range = run(...base, '--param', 'Skill Level=5,0,40');
  assert.equal(range.code, 2);
  assert.match(range.err, /0\.\.40 leaves the engine's range 0\.\.20/);
  const twice = run(...base, '--param', 'Skill Level', 'skill level');
  assert.equal(twice.code, 2);
  assert.match(twice.err, /given twice/);
  const suite = run(...base.map((a) => (a === SUITE ? join(dir, 'none.epd') : a)), '--param', 'Skill Level');
  assert.equal(suite.code, 1);
  assert.match(suite.err, /none\.epd: no such file/);
  // The suite is read last: a mistake in the command is said without reading it (a big suite
  // takes seconds), here one that cannot be read at all.
  const garbage = join(dir, 'garbage.epd');
  writeFileSync(garbage, 'this is not an EPD line\n');
  const withGarbage = base.map((a) => (a === SUITE ? garbage : a));
  const badParam = run(...withGarbage, '--param', 'rfpMargin');
  assert.equal(badParam.code, 2, badParam.err);
  assert.match(badParam.err, /--param rfpMargin: the engine has no such option/);
  const badPairs = run(...withGarbage.map((a) => (a === '4' ? '0' : a)), '--param', 'Skill Level');
  assert.equal(badPairs.code, 2, badPairs.err);
  assert.match(badPairs.err, /--pairs/);
  assert.match(run(...withGarbage, '--param', 'Skill Level').err, /garbage\.epd/, 'and the suite is checked when the command is right');
  assert.equal(existsSync(out), false);
  writeFileSync(join(dir, 'x.json'), 'not a state');
  const bad = run(...base.map((a) => (a === out ? join(dir, 'x.json') : a)), '--param', 'Skill Level', '--resume');
  assert.equal(bad.code, 1);
  assert.match(bad.err, /x\.json: not a tune spsa state/);
  // Without --resume, a file that is not a saved run is not offered --resume.
  const taken = run(...base.map((a) => (a === out ? join(dir, 'x.json') : a)), '--param', 'Skill Level');
  assert.equal(taken.code, 1);
  assert.match(taken.err, /x\.json exists and is not a saved tune spsa run: give another -o, or --force/);
  assert.equal(readFileSync(join(dir, 'x.json'), 'utf8'), 'not a state');
  assert.deepEqual(leftovers(), []);
});

test('tune spsa: without --engine it tunes tabiya itself, whose search parameters `uci --tunable` lists', () => {
  const out = join(dir, 'tabiya.json');
  // tabiya compiles its WebAssembly as it starts, which a loaded machine can take past the default 10 s.
  const r = run('--param', 'rfpMargin', '--param', 'lmrBase=80,40,160,10,0.01', '--pairs', '4', '--nodes', '500', '--concurrency', '2', '--openings', SUITE, '-o', out, '--json', '--startup-ms', '600000');
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.err, /warning/);
  const j = JSON.parse(r.out) as { engine: string; finished: number; values: Record<string, number> };
  assert.match(j.engine, /^tabiya/);
  assert.equal(j.finished, 4);
  assert.deepEqual(Object.keys(j.values), ['rfpMargin', 'lmrBase']);
  const s = JSON.parse(readFileSync(out, 'utf8')) as { identity: { params: { name: string; start: number; min: number; max: number; cEnd: number }[] } };
  // rfpMargin's start and range are the engine's option: 75, 30..150, C a twentieth of the range.
  assert.deepEqual(s.identity.params.map((p) => [p.name, p.start, p.min, p.max, p.cEnd]), [['rfpMargin', 75, 30, 150, 6], ['lmrBase', 80, 40, 160, 10]]);
});

test('--startup-ms is how long an engine may take to answer "uci", as in tabiya match', () => {
  const out = join(dir, 'mute.json');
  const r = run('--engine', 'name=Mute', 'cmd=node', `arg=${join(FIXTURES, 'nouciok.mjs')}`, '--param', 'Skill Level', '--pairs', '2', '--nodes', '100', '--openings', SUITE, '-o', out, '--startup-ms', '300');
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, /^tabiya: tune spsa: Mute: no answer to "uci" \(uciok\) within 300 ms/m);
  assert.equal(existsSync(out), false);
  assert.match(run('--param', 'x', '--openings', SUITE, '-o', out, '--startup-ms', '0').err, /--startup-ms: 0 is out of range/);
});

test('--json gives each parameter\'s start and the option words of a verification match, as the text does (docs/tuning.md)', () => {
  const out = join(dir, 'json.json');
  const r = run('--param', 'rfpMargin', '--pairs', '1', '--nodes', '200', '--maxmoves', '4', '--openings', SUITE, '-o', out, '--json', '--quiet');
  assert.equal(r.code, 0, r.err);
  const status = run('-o', out, '--status', '--json');
  assert.equal(status.code, 0, status.err);
  for (const text of [r.out, status.out]) {
    const j = JSON.parse(text) as { start: Record<string, number>; theta: Record<string, number>; values: Record<string, number>; options: string[] };
    assert.equal(typeof j.start.rfpMargin, 'number');
    assert.equal(typeof j.theta.rfpMargin, 'number');
    assert.deepEqual(j.options, [`option.rfpMargin=${j.values.rfpMargin}`]);
  }
  assert.match(run('-o', out, '--status').out, new RegExp(`^options  option\\.rfpMargin=${(JSON.parse(status.out) as { values: Record<string, number> }).values.rfpMargin}$`, 'm'));
});

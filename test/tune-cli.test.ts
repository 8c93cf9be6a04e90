/**
 * `tabiya tune` as a user runs it: data from games, fit with a plot, loss of the result, and
 * the engine loading the fitted file through the EvalParams option. Small real inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { EngineProcess, MAIN } from './engineProcess.js';
import { FIXTURES } from './matchHelpers/cli.js';
import { sprtLine } from '../src/cli/commands/tuneVerify.js';
import { sprt } from '../src/stats/sprt.js';
import { Engine } from '../src/engine/engine.js';
import { resetWeights, weightsToJson } from '../src/engine/evalParams.js';
import { EngineConfigurator } from '../src/engine/host.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { makeFen, positionFromFen } from '../src/notation/fen.js';
import { parseLabeled } from '../src/tune/labels.js';
import { formatParams, readParamsFile, type ParamsTable } from '../src/tune/paramsFile.js';
import { QuietResolver, RESOLVED } from '../src/tune/resolve.js';

const SHARED = new URL('../../../shared/data/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'tabiya-tune-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

test('tune data: labelled quiet positions from real games, broken games skipped and counted', () => {
  const text = gunzipSync(readFileSync(new URL('games/pgnmentor_players_sample2000.pgn.gz', SHARED))).toString('utf8');
  const games = text.split(/\n(?=\[Event )/).slice(0, 40);
  games.splice(3, 0, '[Event "broken"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxf7+ Kxf7 4. Kxe8 1-0\n');
  // The tag says Black won, the movetext that White did: no label to trust.
  const conflict = '[Event "conflict"]\n[Result "0-1"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3 Bc5 5. O-O d6 6. c3 O-O 7. Re1 a6 8. Bb3 Ba7 9. h3 h6 10. Nbd2 Re8 11. Nf1 Be6 1-0\n';
  games.splice(5, 0, conflict);
  const pgn = join(dir, 'games.pgn');
  writeFileSync(pgn, games.join('\n'));
  const out = join(dir, 'data.epd');
  const r = run('tune', 'data', pgn, '-o', out, '--per-game', '5', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { games: number; bad: number; written: number; resultConflict: number };
  assert.equal(j.bad, 1);
  assert.equal(j.games, 41);
  assert.equal(j.resultConflict, 1);
  assert.match(r.err, /games\.pgn:\d+: game 4: .*\(game skipped\)/);
  // The game with a contradicted result is named too, as pgn-extract names it.
  assert.match(r.err, /^warning: \S*games\.pgn:\d+: game 6: \[Result "0-1"\] but the movetext ends 1-0 \(game skipped\)$/m);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines.length, j.written);
  assert.ok(j.written > 100);
  for (const l of lines) assert.match(l, /^\S+ [wb] \S+ \S+ c9 "(1-0|0-1|1\/2-1\/2)";$/);
  // Nothing to learn from: an error, and no file.
  const none = join(dir, 'none.epd');
  const empty = join(dir, 'empty.pgn');
  writeFileSync(empty, '% nothing but a comment\n');
  const e = run('tune', 'data', empty, '-o', none);
  assert.equal(e.code, 1);
  assert.match(e.err, /tune data: no readable game in \S*empty\.pgn \(empty, or only comments\); \S*none\.epd was not written/);
  const short = join(dir, 'short.pgn');
  writeFileSync(short, '[Result "1-0"]\n\n1. e4 e5 1-0\n');
  const s2 = run('tune', 'data', short, '-o', none);
  assert.equal(s2.code, 1);
  assert.match(s2.err, /tune data: 1 game read but no position to write \(1 without a candidate position after ply 16\)/);
  // Games that were all skipped for their result: the reason is theirs, not --skip-plies's.
  const only = join(dir, 'only-conflict.pgn');
  writeFileSync(only, conflict + '\n' + conflict.replace(/0-1/, '*').replace(/ 1-0\n$/, ' *\n'));
  const o = run('tune', 'data', only, '-o', none);
  assert.equal(o.code, 1);
  assert.match(o.err, /^warning: \S*only-conflict\.pgn:1: game 1: \[Result "0-1"\] but the movetext ends 1-0 \(game skipped\)$/m);
  assert.match(o.err, /tune data: 2 games read but no position to write \(1 unfinished, 1 whose \[Result\] tag and movetext disagree\); \S*none\.epd was not written/);
  // Gzip cut off: what was read before the damage is said, and nothing is written.
  const cut = join(dir, 'cut.pgn.gz');
  writeFileSync(cut, readFileSync(new URL('games/pgnmentor_players_sample2000.pgn.gz', SHARED)).subarray(0, 200_000));
  const c = run('tune', 'data', cut, '-o', none);
  assert.equal(c.code, 1);
  assert.match(c.err, /cannot read the rest of \S*cut\.pgn\.gz: .*; \d+ games read before that \(\d+ positions\); \S*none\.epd was not written/);
  assert.ok(!existsSync(none));
});

test('tune fit and tune loss: bad lines named and skipped, params file, plot, lower loss on the held-out part', () => {
  const text = gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8');
  const lines = text.split('\n', 2500);
  lines.splice(10, 0, '8/8/8/8 w - - c9 "1-0";'); // line 11
  lines.splice(20, 0, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -'); // line 21
  const data = join(dir, 'train.epd');
  writeFileSync(data, lines.join('\n') + '\n');
  const params = join(dir, 'params.json');
  const plot = join(dir, 'loss.svg');
  const fit = run('tune', 'fit', data, '-o', params, '--epochs', '30', '--plot', plot, '--validation', '0.2', '--seed', '3', '--threads', '2', '--json');
  assert.equal(fit.code, 0, fit.err);
  assert.match(fit.err, /train\.epd:11: .*\(skipped\)/);
  assert.match(fit.err, /train\.epd:21: no result label.*\(skipped\)/);
  const j = JSON.parse(fit.out) as { k: number; positions: { bad: number; train: number; validation: number }; start: { train: number; validation: number }; end: { train: number; validation: number }; curve: unknown[] };
  assert.equal(j.positions.bad, 2);
  assert.ok(j.k > 0.3 && j.k < 3, `K ${j.k}`);
  assert.ok(j.end.train < j.start.train);
  assert.equal(j.curve.length, 31);
  assert.match(readFileSync(plot, 'utf8'), /^<svg[\s\S]*validation[\s\S]*<\/svg>\n$/);
  const table = JSON.parse(readFileSync(params, 'utf8')) as Record<string, [number, number][]>;
  assert.equal(table['material']!.length, 5);
  // The loss command on the fit's held-out part, with the fit's K: the fitted weights are no worse there.
  const loss = (p?: string): { k: number; loss: number; positions: number } => {
    const r = run('tune', 'loss', data, '--part', 'validation', '--validation', '0.2', '--seed', '3', '--k', String(j.k), '--threads', '1', '--json', ...(p ? ['--params', p] : []));
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out) as { k: number; loss: number; positions: number };
  };
  const before = loss();
  const after = loss(params);
  assert.equal(before.positions, j.positions.validation);
  assert.ok(Math.abs(before.loss - j.start.validation) < 1e-9, `${before.loss} vs ${j.start.validation}`);
  assert.ok(Math.abs(after.loss - j.end.validation) < 1e-9);
  assert.ok(after.loss <= before.loss);
  // --quiet hides the lines naming the skipped ones, but the summary still counts them.
  const quiet = run('tune', 'fit', data, '-o', params, '--epochs', '2', '--threads', '1', '--quiet');
  assert.equal(quiet.code, 0, quiet.err);
  assert.doesNotMatch(quiet.err, /skipped/);
  assert.match(quiet.out, /^positions +\d+ training, \d+ validation \(2502 lines, 2\d{3} positions used, .*skipped: 2 unreadable, /m);
  const bad = run('tune', 'fit', data, '-o', params, '--method', 'gradient');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--method gradient is not one of adam, adagrad, local, anneal, genetic/);
});

test('tune wdl: the model fitted to real results predicts them better than guessing, range by range', () => {
  const r = run('tune', 'wdl', new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED).pathname, '--limit', '20000', '--threads', '1', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as {
    model: { a0: number; a1: number; b0: number; b1: number };
    nll: number;
    baseline: number;
    builtIn: { nll: number };
    positions: number;
    calibration: { from: number; positions: number; observed: number[]; predicted: number[] }[];
  };
  assert.ok(j.positions > 19900);
  assert.ok(j.nll < j.baseline - 0.05, `${j.nll} vs ${j.baseline}`);
  // A fit on a sample lands near the model in the source (fitted on all 561k positions).
  assert.ok(Math.abs(j.model.a0 - 137.9) < 25 && Math.abs(j.model.b0 - 79.5) < 25, JSON.stringify(j.model));
  assert.ok(j.builtIn.nll < j.nll + 0.01, 'the built-in model is about as good on this sample');
  // Where most positions are, predicted shares are within a few points of the observed ones.
  for (const row of j.calibration.filter((c) => c.positions > 1500)) {
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(row.observed[k]! - row.predicted[k]!) < 0.07, JSON.stringify(row));
  }
});

test('tune wdl (and fit, loss, label: one reader) takes labelled positions compressed with zstd or bzip2, as the plain ones', () => {
  const lines = gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).subarray(0, 40_000);
  const plain = join(dir, 'wdl.epd');
  writeFileSync(plain, lines.subarray(0, lines.lastIndexOf(10) + 1));
  const want = run('tune', 'wdl', plain, '--threads', '1', '--json');
  assert.equal(want.code, 0, want.err);
  for (const program of ['zstd', 'bzip2']) {
    const packed = spawnSync(program, ['-c', plain]);
    if (packed.error) continue; // not installed
    const file = `${plain}.${program}`;
    writeFileSync(file, packed.stdout);
    // Before, only gzip was decompressed: "binary data (a NUL byte at byte 10), not labelled positions".
    const r = run('tune', 'wdl', file, '--threads', '1', '--json');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, want.out, program);
  }
});

test('tune verify: the tuned engine against the default at fixed nodes, with Elo and SPRT; bad input refused', () => {
  const params = join(dir, 'verify-params.json');
  writeFileSync(params, JSON.stringify({ material: [[90, 140], [320, 300], [350, 320], [480, 540], [990, 980]] }));
  const openings = join(dir, 'openings.epd');
  writeFileSync(openings, 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\nrnbqkb1r/pppp1ppp/5n2/4p3/2P5/2N5/PP1PPPPP/R1BQKBNR w KQkq - 2 3\n');
  const r = run('tune', 'verify', params, '--games', '4', '--nodes', '1500', '--concurrency', '2', '--openings', openings, '--quiet', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { games: number; wins: number; draws: number; losses: number; tc: string; stopped: string; sprt: { llr: number } | null; command: string };
  assert.equal(j.games, 4);
  assert.equal(j.wins + j.draws + j.losses, 4);
  assert.equal(j.tc, 'nodes=1500');
  assert.equal(j.stopped, 'completed');
  assert.ok(j.sprt && Number.isFinite(j.sprt.llr));
  assert.match(j.command, /option\.EvalParams=\S*verify-params\.json .*--each tc=inf nodes=1500 --games 4 --repeat/);
  const odd = run('tune', 'verify', params, '--nodes', '100', '--games', '3');
  assert.equal(odd.code, 2);
  assert.match(odd.err, /--games 3: games are played in colour-swapped pairs/);
  const both = run('tune', 'verify', params, '--nodes', '100', '--tc', '1+0.01');
  assert.equal(both.code, 2);
  assert.match(both.err, /--tc and --nodes exclude each other/);
  const missing = run('tune', 'verify', join(dir, 'nope.json'), '--nodes', '100');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /nope\.json/);
});

test('tune verify stopped by a signal to it alone: the match stops, its engines end, and the games played are reported', { timeout: 120_000 }, async () => {
  const params = join(dir, 'verify-signal.json');
  writeFileSync(params, '{}');
  const pgn = join(dir, 'verify-signal.pgn');
  const child = spawn(process.execPath, [MAIN, 'tune', 'verify', params, '--games', '200', '--nodes', '1000', '--pgnout', pgn, '--quiet', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const closed = new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  // Two games written: the match is under way.
  for (let i = 0; i < 600 && !(existsSync(pgn) && (readFileSync(pgn, 'utf8').match(/\[Event /g) ?? []).length >= 2); i++) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGTERM');
  assert.equal(await closed, 143, err);
  const j = JSON.parse(out) as { games: number; stopped: string };
  assert.equal(j.stopped, 'interrupted');
  assert.ok(j.games >= 2 && j.games < 200, `${j.games} games`);
  assert.match(err, /the match was interrupted after \d+ games/);
  // Nothing of the match is left running: the PGN stops growing.
  const size = readFileSync(pgn).length;
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(readFileSync(pgn).length, size, 'no game was added after verify ended');
  assert.equal(spawnSync('pgrep', ['-f', pgn]).status, 1, 'no process names the PGN');
});

test('tune verify: without --openings the games open with the first 16 plies of the bundled master games, from any directory', () => {
  const params = join(dir, 'verify-default.json');
  writeFileSync(params, JSON.stringify({ material: [[90, 140], [320, 300], [350, 320], [480, 540], [990, 980]] }));
  const pgn = join(dir, 'verify-default.pgn');
  const r = spawnSync(process.execPath, [MAIN, 'tune', 'verify', params, '--games', '2', '--nodes', '1000', '--pgnout', pgn, '--quiet', '--json'], { encoding: 'utf8', cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { games: number; command: string };
  assert.equal(j.games, 2);
  assert.match(j.command, /--openings file=\S*data\/masters-2550\.pgn\.gz format=pgn plies=16 order=random/);
  // Both games of the pair: the start position, the same 16 book plies, then the engines' own moves.
  const games = readFileSync(pgn, 'utf8').split(/(?=\[Event )/).filter((g) => g.startsWith('[Event'));
  assert.equal(games.length, 2);
  const books = games.map((g) => {
    assert.doesNotMatch(g, /\[FEN /);
    const plies = [...g.split(/\n\n/)[1]!.matchAll(/([A-Za-z][\w+#=-]*) \{([^}]*)\}/g)];
    assert.ok(plies.length > 16, 'the engines played on');
    assert.ok(plies.slice(0, 16).every((m) => m[2] === 'book') && plies[16]![2] !== 'book');
    return plies.slice(0, 16).map((m) => m[1]).join(' ');
  });
  assert.equal(books[0], books[1]);
});

test("tune verify's SPRT line: an LLR the match could not compute (null in its JSON) is said so, not NaN or a crash; noise is 0", () => {
  // What \`tabiya match --json\` gives for counts whose LLR cannot be computed (src/stats/sprt.ts).
  const st = sprt([9e15, 0, 9e15], { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05, model: 'cutechess' });
  assert.ok(Number.isNaN(st.llr) && st.note !== undefined, 'counts whose LLR cannot be computed');
  const base = { elo0: 0, elo1: 10, lower: st.lower, upper: st.upper, decision: null };
  const line = sprtLine({ ...base, llr: null, llrNote: st.note });
  assert.equal(line, 'SPRT         elo0=0 elo1=10: LLR - (cannot be computed, see the warning) (-2.94, 2.94) no decision yet');
  assert.doesNotMatch(sprtLine({ ...base, llr: NaN }), /NaN/);
  assert.equal(sprtLine({ ...base, llr: -1e-9 }), 'SPRT         elo0=0 elo1=10: LLR 0.00 (-2.94, 2.94) no decision yet');
  assert.equal(sprtLine({ ...base, llr: 1.234, decision: null }), 'SPRT         elo0=0 elo1=10: LLR 1.23 (-2.94, 2.94) no decision yet');
  assert.equal(sprtLine(undefined), 'SPRT         -');
});

test('tune verify: a bad --tc or --sprt is a usage error before any match starts', () => {
  const params = join(dir, 'verify-usage.json');
  writeFileSync(params, JSON.stringify({ tempo: [[20, 10]] }));
  const cases: [string[], RegExp][] = [
    [['--tc', 'fast'], /tune verify: --tc: time control "fast"/],
    [['--tc', 'inf'], /--tc inf never ends a search/],
    [['--sprt', 'elo0=5', 'elo1=1'], /--sprt: elo0 \(5\) must be smaller than elo1 \(1\)/],
    [['--sprt', 'alhpa=0.1'], /--sprt: "alhpa=0\.1" is not one of/],
    [['--sprt', 'alpha=2'], /alpha \(2\) must be between 0 and 1/],
  ];
  for (const [args, message] of cases) {
    const r = run('tune', 'verify', params, ...args, '--games', '2');
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message, args.join(' '));
    assert.doesNotMatch(r.err, /tabiya match/, 'refused before the match command is printed');
  }
});

test('the engine loads a params file through setoption EvalParams, and reports a bad one', async () => {
  const params = join(dir, 'tempo.json');
  writeFileSync(params, JSON.stringify({ tempo: [[100, 100]], material: [[100, 100], [300, 300], [300, 300], [500, 500], [900, 900]] }));
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{"material": [[1, 2]]}');
  const e = new EngineProcess('uci');
  const depth1 = async (): Promise<number> => {
    const done = e.expect(/^bestmove/);
    e.send('go depth 1');
    await done;
    const info = e.lines.map((l) => l.text).filter((l) => l.startsWith('info depth 1 ')).pop()!;
    return Number(/score cp (-?\d+)/.exec(info)![1]);
  };
  try {
    const ok = e.expect(/^uciok/);
    e.send('uci');
    await ok;
    e.send('position startpos');
    const plain = await depth1();
    e.send(`setoption name EvalParams value ${params}`);
    assert.notEqual(await depth1(), plain);
    const reported = e.expect(/^info string EvalParams/);
    e.send(`setoption name EvalParams value ${broken}`);
    assert.match(await reported, /broken\.json: group "material" must have 5 \[mg, eg\] pairs; the built-in weights stay/);
    assert.equal(await depth1(), plain);
  } finally {
    await e.quit();
  }
});

test('tune fit and tune loss refuse settings under which they would do nothing, and binary data', () => {
  const lines = gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8').split('\n').slice(0, 200);
  const positions = join(dir, 'few.epd');
  writeFileSync(positions, lines.join('\n') + '\n');
  const out = join(dir, 'nothing.json');
  const cases: [string[], number, RegExp][] = [
    [['tune', 'fit', positions, '-o', out, '--max-seconds', '0'], 2, /--max-seconds: must be above 0/],
    [['tune', 'fit', positions, '-o', out, '--rate', '0'], 2, /--rate: must be above 0/],
    [['tune', 'loss', positions, '--part', 'validation', '--validation', '0'], 2, /--part validation needs a --validation share above 0/],
    // Early stopping with no held-out loss to watch: the option did nothing, in silence.
    [['tune', 'fit', positions, '-o', out, '--patience', '5', '--validation', '0'], 2, /--patience needs a held-out part to watch \(--validation above 0\)/],
    [['tune', 'fit', positions, '-o', out, '--patience', '5', '--validation', '0.001', '--threads', '1'], 1, /--patience: the validation part of \S*few\.epd holds no position \(200 in all\)/],
    [['tune', 'loss', positions, '--part', 'validation', '--validation', '0.001', '--threads', '1'], 1, /the validation part of \S*few\.epd holds no position \(200 in all\)/],
    // Blending evaluations into the targets needs evaluations: without any, the fit would be the results' alone.
    [['tune', 'fit', positions, '-o', out, '--lambda', '0.5', '--threads', '1'], 1, /few\.epd: --lambda 0\.5 needs positions with another engine's evaluation \(an EPD "ce" operation\); none of the 200 positions has one/],
    [['tune', 'loss', positions, '--lambda', '1.5'], 2, /--lambda/],
  ];
  for (const [args, code, message] of cases) {
    const r = run(...args, '--quiet');
    assert.equal(r.code, code, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message, args.join(' '));
  }
  const bin = join(dir, 'book.bin');
  writeFileSync(bin, Buffer.from('463b96181691fc9c031c000a00000000', 'hex'));
  const r = run('tune', 'loss', bin, '--threads', '1');
  assert.equal(r.code, 1);
  assert.match(r.err, /book\.bin:1: binary data \(a NUL byte at byte 11\), not labelled positions/);
  assert.ok(!existsSync(out));
});

const STOCKFISH = '/usr/games/stockfish';
const NO_STOCKFISH = !existsSync(STOCKFISH) && `${STOCKFISH} is not installed`;
const SF = ['--engine', `cmd=${STOCKFISH}`, 'option.Hash=16', 'option.Threads=1'];

/**
 * Stockfish itself, one process, the commands `tune label` sends it: a search of fixed nodes
 * with one thread is reproducible, so its scores are the labels, exactly. Each search's score
 * is its last exact one (the last bound when none), as ce: cp as it is, mate N as ±(32000 − |N|).
 * Stockfish quits at the end of its input and stops the search running then, so a last search
 * whose result is not read follows the real ones (`go` first waits for the search before it).
 */
function stockfishCe(fens: string[], nodes: number): number[] {
  const input = ['uci', 'setoption name Threads value 1', 'setoption name Hash value 16', 'isready', 'ucinewgame', 'isready', ...fens.flatMap((f) => [`position fen ${f}`, `go nodes ${nodes}`]), 'position startpos', 'go depth 1', ''].join('\n');
  const r = spawnSync(STOCKFISH, { input, encoding: 'utf8' });
  const searches = r.stdout.split(/^bestmove.*$/m).slice(0, fens.length);
  assert.equal(searches.length, fens.length, r.stdout.slice(-500));
  return searches.map((s) => {
    const scores = [...s.matchAll(/^info .*\bscore (cp|mate) (-?\d+)( lowerbound| upperbound)?/gm)];
    const exact = scores.filter((m) => m[3] === undefined);
    const m = (exact.length > 0 ? exact : scores).at(-1)!;
    const v = Number(m[2]);
    return m[1] === 'cp' ? v : v > 0 ? 32000 - v : -32000 - v;
  });
}

test('tune label: Stockfish\'s scores as ce, in the input order, equal to its own searches; a bad line named and skipped', { skip: NO_STOCKFISH, timeout: 60_000 }, () => {
  const good = gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8').split('\n').slice(0, 30);
  good.push(
    '6k1/5ppp/8/8/8/8/8/R5K1 w - - c9 "1-0";', // White mates in 1: 31999
    '7k/8/5QK1/8/8/8/8/8 b - - c9 "1-0"; ce 12;', // Black is mated in 1: -31999, the old ce replaced
    'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 [0.0]', // White is mated: -32000, before the FEN's result
  );
  const lines = [...good];
  lines.splice(10, 0, '8/8/8/8 w - - c9 "1-0";'); // line 12, after the comment
  const input = join(dir, 'unlabelled.epd');
  writeFileSync(input, ['# positions to label', ...lines, ''].join('\n'));
  const out = join(dir, 'labelled.epd');
  const r = run('tune', 'label', input, '-o', out, ...SF, '--nodes', '2000', '--json');
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /unlabelled\.epd:12: board field "8\/8\/8\/8" has 4 ranks; 8 are required \(skipped\)/);
  const j = JSON.parse(r.out) as { lines: number; labelled: number; unreadable: number; noScore: number; faults: number; mates: number; engine: string; limit: string };
  assert.deepEqual({ ...j, engine: undefined }, { ...j, engine: undefined, lines: 34, labelled: 33, unreadable: 1, noScore: 0, faults: 0, mates: 3, limit: '2000 nodes' });
  assert.match(j.engine, /^Stockfish/);

  const written = readFileSync(out, 'utf8').split('\n');
  assert.equal(written.pop(), '');
  assert.equal(written.length, good.length);
  const ces = written.map((w, i) => {
    const m = /^(.*) ce (-?\d+);( \[[0-9.]+\])?$/.exec(w);
    assert.ok(m, w);
    assert.equal(`${m[1]}${m[3] ?? ''}`, good[i]!.replace(/ ce 12;$/, ''), `line ${i}: the input line, in order, with its ce`);
    return Number(m[2]);
  });
  assert.deepEqual(ces.slice(-3), [31999, -31999, -32000]);
  const fens = good.map((l) => {
    const f = l.split(' ');
    return /^\d+$/.test(f[4]!) ? f.slice(0, 6).join(' ') : `${f.slice(0, 4).join(' ')} 0 1`;
  });
  assert.deepEqual(ces, stockfishCe(fens, 2000));
  for (const side of ['w', 'b']) {
    const mine = ces.slice(0, 30).filter((_, i) => fens[i]!.split(' ')[1] === side);
    assert.ok(mine.some((v) => v > 0) && mine.some((v) => v < 0), `${side} to move: scores of both signs (${mine.join(' ')})`);
  }

  // Labelled again, the ce is replaced, not added: the same file.
  const again = join(dir, 'relabelled.epd');
  assert.equal(run('tune', 'label', out, '-o', again, ...SF, '--nodes', '2000', '--quiet').code, 0);
  assert.equal(readFileSync(again, 'utf8'), readFileSync(out, 'utf8'));

  // Two engines at once: the same lines in the same order. Which engine searches which position
  // depends on timing, and a score on what the same engine searched before, so each engine's
  // input is logged (a shell `tee` in front of Stockfish) and replayed: every label must be what
  // Stockfish gives for that position after the searches its own engine made before it.
  const two = join(dir, 'two.epd');
  const logs = join(dir, 'two-logs');
  mkdirSync(logs);
  const teed = ['--engine', 'name=Stockfish', 'cmd=/bin/sh', 'arg=-c', `arg=tee "$0/in.$$" | exec ${STOCKFISH}`, `arg=${logs}`, 'option.Hash=16', 'option.Threads=1'];
  const r2 = run('tune', 'label', input, '-o', two, ...teed, '--nodes', '2000', '--concurrency', '2', '--json');
  assert.equal(r2.code, 0, r2.err);
  assert.equal((JSON.parse(r2.out) as { labelled: number }).labelled, 33);
  const twoLines = readFileSync(two, 'utf8').split('\n');
  twoLines.pop();
  assert.deepEqual(twoLines.map((w) => w.replace(/ ce -?\d+;/, '')), written.map((w) => w.replace(/ ce -?\d+;/, '')));
  const twoCes = twoLines.map((w) => Number(/ ce (-?\d+);/.exec(w)![1]));
  assert.deepEqual(twoCes.slice(-3), [31999, -31999, -32000]);
  const replayed = new Map<string, number>();
  const inputs = readdirSync(logs);
  assert.equal(inputs.length, 2, 'two engines started');
  for (const f of inputs) {
    const sent = readFileSync(join(logs, f), 'utf8');
    const searched = [...sent.matchAll(/^position fen (.*)$/gm)].map((m) => m[1]!);
    assert.ok(searched.length > 0 && /^ucinewgame$/m.test(sent), `${f}: ${sent.slice(0, 300)}`);
    stockfishCe(searched, 2000).forEach((ce, k) => replayed.set(searched[k]!, ce));
  }
  assert.deepEqual(twoCes, fens.map((f) => replayed.get(f)));
  // What tune fit --lambda reads: every position it keeps carries its evaluation.
  const loss = run('tune', 'loss', out, '--lambda', '1', '--threads', '1', '--json');
  assert.equal(loss.code, 0, loss.err);
  const l = JSON.parse(loss.out) as { loss: number; counts: { traced: number }; labels: { labelled: number; labelK: number } };
  assert.ok(l.counts.traced >= 28, `${l.counts.traced} positions traced`);
  assert.equal(l.labels.labelled, l.counts.traced);
  assert.ok(l.labels.labelK > 0 && Number.isFinite(l.loss));
});

test('tune label: an engine that crashes costs the position it crashed on, is restarted, and the job goes on', () => {
  const input = join(dir, 'crash.epd');
  const lines = gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8').split('\n').slice(0, 6);
  writeFileSync(input, lines.join('\n') + '\n');
  const out = join(dir, 'crash-out.epd');
  // The scripted engine exits during its third search, every time it is started.
  const r = run('tune', 'label', input, '-o', out, '--engine', 'name=Crasher', 'cmd=node', `arg=${join(FIXTURES, 'crash.mjs')}`, 'arg=3', '--nodes', '100', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { labelled: number; faults: number; restarts: number; engine: string };
  assert.deepEqual([j.labelled, j.faults, j.restarts, j.engine], [4, 2, 2, 'Crasher']);
  for (const n of [3, 6]) assert.match(r.err, new RegExp(`crash\\.epd:${n}: Crasher \\(pid \\d+\\) exited with code 3 \\(last output: .*\\); engine restarted \\(skipped\\)`));
  assert.equal(readFileSync(out, 'utf8'), [0, 1, 3, 4].map((i) => `${lines[i]} ce -30;\n`).join(''));
});

test('tune label refuses what it cannot do, before writing anything', () => {
  const input = join(dir, 'refused.epd');
  writeFileSync(input, gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8').split('\n').slice(0, 5).join('\n') + '\n');
  const out = join(dir, 'refused-out.epd');
  const cases: [string[], number, RegExp][] = [
    [['tune', 'label', input, '-o', out], 2, /required option '--engine <key=value\.\.\.>' not specified/],
    [['tune', 'label', input, '-o', out, '--engine', 'cmd=fairymax', 'proto=xboard'], 2, /tune label: --engine proto=xboard: labelling reads the scores of UCI's info lines; give a UCI engine/],
    [['tune', 'label', input, '-o', out, '--engine', `cmd=${STOCKFISH}`, 'nodes=100'], 2, /--engine nodes=: the search is set by --nodes, --depth or --movetime/],
    [['tune', 'label', input, '-o', out, '--engine', 'Hash=16'], 2, /--engine: unknown key "Hash"/],
    [['tune', 'label', input, '-o', out, '--engine', `cmd=${STOCKFISH}`, '--nodes', '100', '--depth', '3'], 2, /--nodes and --depth exclude each other/],
    [['tune', 'label', input, '-o', out, '--engine', `cmd=${STOCKFISH}`, '--concurrency', '0'], 2, /--concurrency: 0 is out of range/],
    [['tune', 'label', input, '-o', input, '--engine', `cmd=${STOCKFISH}`], 1, /refused\.epd is also an input: write to another file/],
    [['tune', 'label', join(dir, 'missing.epd'), '-o', out, '--engine', `cmd=${STOCKFISH}`], 1, /missing\.epd: cannot read/],
    [['tune', 'label', input, '-o', out, '--engine', `cmd=${join(dir, 'no-such-engine')}`], 1, /tune label: cannot start \S*no-such-engine: spawn \S*no-such-engine ENOENT/],
  ];
  for (const [args, code, message] of cases) {
    const r = run(...args, '--quiet');
    assert.equal(r.code, code, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, message, args.join(' '));
  }
  assert.ok(!existsSync(out));
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('tune label: Ctrl-C ends the engine and removes the temporary output', { skip: NO_STOCKFISH, timeout: 60_000 }, async () => {
  const input = join(dir, 'interrupted.epd');
  writeFileSync(input, gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8').split('\n').slice(0, 50).join('\n') + '\n');
  const out = join(dir, 'interrupted-out.epd');
  const child = spawn(process.execPath, [MAIN, 'tune', 'label', input, '-o', out, ...SF, '--nodes', '5000000', '--quiet'], { stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
  const temp = new RegExp(`^\\.interrupted-out\\.epd\\.tabiya-${child.pid}@[A-Za-z0-9._-]+-[0-9a-f]{8}\\.tmp$`);
  const engines = (): number[] => spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '').map(Number);
  for (let i = 0; i < 500 && !(readdirSync(dir).some((f) => temp.test(f)) && engines().length > 0); i++) await new Promise((w) => setTimeout(w, 20));
  const searching = engines();
  assert.equal(searching.length, 1, 'one engine searching');
  assert.ok(readdirSync(dir).some((f) => temp.test(f)), 'the output is written to a temporary file');
  child.kill('SIGINT');
  assert.equal(await exited, 'SIGINT');
  assert.deepEqual(readdirSync(dir).filter((f) => temp.test(f)), []);
  assert.ok(!existsSync(out));
  // Gone, or a zombie nobody has reaped yet (its parent, the command, is dead).
  const alive = (pid: number): boolean => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };
  // A hang bound, not a speed: a left engine is still there at the end of it.
  for (const deadline = Date.now() + 30_000; alive(searching[0]!) && Date.now() < deadline; ) await new Promise((w) => setTimeout(w, 20));
  assert.ok(!alive(searching[0]!), 'the engine is gone');
});

/**
 * `tabiya tune fit` on 3,000 shared positions, started and waited for until it says the line
 * said just before the epochs start (its stderr so far: `err()`).
 */
async function fitUntilEpochs(out: string, ...args: string[]): Promise<{ child: ChildProcess; err: () => string; stdout: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const data = join(dir, 'fit-signal.epd');
  if (!existsSync(data)) writeFileSync(data, gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8').split('\n').slice(0, 3000).join('\n') + '\n');
  const child = spawn(process.execPath, [MAIN, 'tune', 'fit', data, '-o', out, '--threads', '1', '--max-seconds', '3600', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('close', (code, signal) => done({ code, signal })));
  await new Promise<void>((ready) =>
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (/values tuned\n/.test(err)) ready();
    }),
  );
  return { child, err: () => err, stdout: () => stdout, exited };
}

test('tune fit on one thread stops on Ctrl-C after the epoch in progress and writes the best weights so far', { timeout: 120_000 }, async () => {
  const data = join(dir, 'fit-signal.epd');
  const out = join(dir, 'fit-signal.json');
  // The line said just before the epochs start.
  const fit = await fitUntilEpochs(out, '--epochs', '100000000', '--json');
  const { child, exited } = fit;
  child.kill('SIGINT');
  // With one thread no epoch gave the event loop a turn: the signal waited for the whole budget
  // (an hour here). Then it ended the process with nothing written: a long fit was lost to a key
  // press. The kill is a hang bound, far above a loaded machine's delay.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const end = await exited;
  clearTimeout(timer);
  const err = fit.err();
  const stdout = fit.stdout();
  assert.deepEqual(end, { code: 130, signal: null }, err);
  assert.match(err, /Interrupting the fit: the best weights so far are written/);
  const j = JSON.parse(stdout) as { interrupted: boolean; epochs: number; bestEpoch: number; end: { validation: number } };
  assert.equal(j.interrupted, true);
  assert.ok(j.epochs < 100000000 && j.bestEpoch <= j.epochs);
  // The file is the fit's best weights: a params file the engine reads, with the reported loss.
  assert.ok(Object.keys(readParamsFile(out)).length > 0);
  const loss = run('tune', 'loss', data, '--params', out, '--part', 'validation', '--k', String((JSON.parse(stdout) as { k: number }).k), '--threads', '1', '--json');
  assert.equal(loss.code, 0, loss.err);
  assert.equal((JSON.parse(loss.out) as { loss: number }).loss, j.end.validation);
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('fit-signal.json.tabiya-')), [], 'no temporary file');
});

test('tune fit: a second stop signal after Ctrl-C ends it at once, with nothing written, its status the second signal\'s', { timeout: 120_000 }, async () => {
  const out = join(dir, 'fit-twice.json');
  // Local search: K, the columns and each sweep run without a turn of the event loop, so both
  // signals, sent together, are handled in the same turn. Two signals of one kind sent together
  // may reach the process as one (a pending signal is not queued twice): SIGINT, then SIGTERM.
  const { child, err, exited } = await fitUntilEpochs(out, '--method', 'local', '--epochs', '100000');
  child.kill('SIGINT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const end = await exited;
  clearTimeout(timer);
  // The second signal was raised again, and came back only after the weights had been written.
  assert.deepEqual(end, { code: 143, signal: null }, err());
  assert.equal(existsSync(out), false, 'nothing written');
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('fit-twice.json')), [], 'no temporary file');
});

test('tune loss is the mean squared error of the engine\'s own evaluations of the quiet positions, its integer truncations included', (t) => {
  t.after(() => resetWeights());
  const text = gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8');
  // Ten pieces or more: no special endgame evaluator, which the tuner leaves out.
  const lines = text.split('\n', 600).filter((l) => l.split(' ')[0]!.replace(/[^a-z]/gi, '').length >= 10);
  const data = join(dir, 'exact.epd');
  writeFileSync(data, lines.join('\n') + '\n');
  // The leaves of the engine's quiescence search, found with the built-in weights as tune loss finds them.
  const resolver = new QuietResolver();
  const leaves: { fen: string; result: number }[] = [];
  for (const l of lines) {
    const lab = parseLabeled(l);
    assert.ok(lab.ok);
    const p = positionFromFen(lab.value.fen);
    assert.ok(p.ok);
    assert.equal(resolver.resolve(p.value), RESOLVED);
    leaves.push({ fen: makeFen(p.value), result: lab.value.result / 2 });
  }
  const table = weightsToJson() as ParamsTable;
  const params = join(dir, 'exact.json');
  writeFileSync(params, formatParams({ 'mobility.knight': table['mobility.knight']!.map(([mg, eg]) => [mg + 3, eg - 2]) }));
  const K = 1.17;
  for (const file of [undefined, params]) {
    // The engine loads the file as `setoption name EvalParams` does and evaluates each leaf.
    const engine = new Engine({ hashMB: 1, wasm: wasmCoreModule() });
    assert.deepEqual(new EngineConfigurator(engine, undefined, readParamsFile).apply({ evalParams: file ?? '' }), []);
    let sum = 0;
    for (const { fen, result } of leaves) {
      const p = positionFromFen(fen);
      assert.ok(p.ok);
      const v = engine.wasm!.evaluate(p.value);
      const white = p.value.turn === 0 ? v : -v;
      sum += (result - 1 / (1 + Math.pow(10, (-K * white) / 400))) ** 2;
    }
    for (const threads of ['1', '2']) {
      const r = run('tune', 'loss', data, '--k', String(K), '--threads', threads, '--json', ...(file ? ['--params', file] : []));
      assert.equal(r.code, 0, r.err);
      const j = JSON.parse(r.out) as { loss: number; positions: number };
      assert.equal(j.positions, leaves.length);
      assert.ok(Math.abs(j.loss - sum / leaves.length) < 1e-12, `${file ?? 'built-in'}, ${threads} thread(s): ${j.loss} vs ${sum / leaves.length}`);
    }
  }
});

test('tune fit with nothing held out (--validation 0) shows no validation column or loss, rather than dashes', () => {
  const lines = gunzipSync(readFileSync(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED))).toString('utf8').split('\n').slice(0, 300);
  const positions = join(dir, 'all-train.epd');
  writeFileSync(positions, lines.join('\n') + '\n');
  const r = run('tune', 'fit', positions, '-o', join(dir, 'all-train.json'), '--validation', '0', '--epochs', '2', '--threads', '1', '--quiet');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^epoch {3}seconds {2}train$/m);
  assert.match(r.out, /^ {4}2 +\d+\.\d {2}\d\.\d{6}$/m);
  assert.match(r.out, /^training loss {4}\d\.\d{6} -> \d\.\d{6}/m);
  assert.doesNotMatch(r.out, /validation loss|-> -/);
  assert.match(r.out, /^positions {8}300 training, 0 validation/m);
});

/**
 * Fault tolerance with tiny scripted engines (test/fixtures/engines): one that crashes, one that
 * hangs, one that plays an illegal move, one that prints garbage and one that thinks until
 * stopped. Each loses its games with the reason in the PGN, is restarted when it must be, and
 * the match goes on to the end; no engine outlives the runner. An engine that cannot start at
 * all (no such command, exits at once, never answers `uci`) stops the match before it begins.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, processesMatching, readGames, runCli } from './matchHelpers/cli.js';

// Every engine started here carries this marker as its last argument, so the leak checks see
// only this file's engines, not those of other match tests running at the same time.
const MARKER = `tabiya-fault-test-${process.pid}`;
const engine = (name: string, file: string, ...args: string[]): string[] => [
  '--engine', `name=${name}`, 'cmd=node', `arg=${join(FIXTURES, file)}`, ...[...args, MARKER].map((a) => `arg=${a}`),
];

test('a gauntlet against misbehaving engines completes, with every fault in the PGN', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-faults-'));
  const pgn = join(dir, 'faults.pgn');
  try {
    const run = await runCli([
      'match',
      ...engine('Good', 'instant.mjs', 'Instant'),
      ...engine('Crasher', 'crash.mjs', '3'),
      ...engine('Hanger', 'hang.mjs', '3'),
      ...engine('Cheater', 'illegal.mjs', '2'),
      ...engine('Noisy', 'garbage.mjs', '2'),
      ...engine('Slowpoke', 'slow.mjs', '2'),
      '--tournament', 'gauntlet', '--games', '2', '--repeat', '--concurrency', '2',
      '--each', 'tc=2+0.05',
      // No engine here fails its handshake: a generous limit, so that a loaded machine starting
      // several node processes at once does not turn one into a fault.
      '--startup-ms', '20000', '--stall-ms', '300', '--maxmoves', '30',
      '--pgnout', pgn, '--json',
    ], { timeoutMs: 85_000 });
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as { games: number; stopped: string; players: { name: string; losses: number; faults: Record<string, number> }[] };
    assert.equal(summary.stopped, 'completed');
    assert.equal(summary.games, 10);
    const games = readGames(pgn);
    assert.equal(games.length, 10);
    const of = (name: string) => games.filter((g) => g.tags.get('White') === name || g.tags.get('Black') === name);
    const color = (g: (typeof games)[0], name: string) => (g.tags.get('White') === name ? 'White' : 'Black');
    const last = (g: (typeof games)[0]) => g.comments.at(-1) ?? '';
    const expectations: [string, (name: string) => RegExp, string][] = [
      ['Crasher', (c) => new RegExp(`${c} disconnects`), 'abandoned'],
      ['Hanger', (c) => new RegExp(`${c} loses on time.*no move after stop`), 'time forfeit'],
      ['Cheater', (c) => new RegExp(`${c} makes an illegal move: e1e8`), 'illegal move'],
      ['Noisy', (c) => new RegExp(`${c} makes an illegal move: Nf3\\?\\?`), 'illegal move'],
      ['Slowpoke', (c) => new RegExp(`${c} loses on time: \\d+ ms used`), 'time forfeit'],
    ];
    for (const [name, reason, termination] of expectations) {
      const gs = of(name);
      assert.equal(gs.length, 2, name);
      for (const g of gs) {
        assert.match(last(g), reason(color(g, name)), `${name}: ${last(g)}`);
        assert.equal(g.tags.get('Termination'), termination, name);
        assert.equal(g.result, color(g, name) === 'White' ? '0-1' : '1-0', name);
      }
      assert.equal(summary.players.find((p) => p.name === name)!.losses, 2, name);
    }
    const faults = Object.fromEntries(summary.players.map((p) => [p.name, p.faults]));
    assert.equal(faults.Crasher!.disconnect, 2);
    assert.equal(faults.Hanger!.time, 2);
    assert.equal(faults.Cheater!.illegal, 2);
    assert.equal(faults.Good!.time + faults.Good!.disconnect + faults.Good!.stall + faults.Good!.illegal, 0);
    assert.deepEqual(processesMatching(MARKER), [], 'no scripted engine is left running');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the output of an engine quoted in the reason of a fault is printable and short in the PGN (no ANSI colour, no 400-character line)', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-noisy-'));
  const pgn = join(dir, 'noisy.pgn');
  try {
    const run = await runCli([
      'match', ...engine('Good', 'instant.mjs', 'Instant'), ...engine('Noisy', 'noisy-crash.mjs', '2'),
      '--each', 'tc=5+0.05', '--games', '1', '--startup-ms', '20000', '--pgnout', pgn, '--quiet',
    ], { timeoutMs: 50_000 });
    assert.equal(run.code, 0, run.stderr);
    const text = readFileSync(pgn, 'utf8');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\x00-\x08\x0b-\x1f\x7f]/, 'no control character but newline and tab');
    assert.deepEqual(text.split('\n').filter((l) => l.length > 255), [], 'no line over the 255 characters PGN allows');
    const games = readGames(pgn);
    assert.equal(games.length, 1);
    const last = games[0]!.comments.at(-1) ?? '';
    assert.match(last, /Black disconnects: Noisy \(pid \d+\) exited with code 3/);
    assert.match(last, /info string x{188}\.\.\. \(\d+ characters\)/);
    assert.match(last, /stderr: E{200}\.\.\. \(\d+ characters\)/);
    assert.deepEqual(processesMatching(MARKER), [], 'no scripted engine is left running');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an engine that cannot start stops the match before any game, naming the engine and its command', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-startup-'));
  try {
    // The handshake deadline is short only for the engine that never answers: the others must
    // start in time on a loaded machine.
    const cases: [string, string[], string, RegExp][] = [
      ['no such command', ['--engine', 'name=Ghost', `cmd=${join(dir, 'no-such-engine')}`], '20000', /engine Ghost did not start \(command: \S*no-such-engine\): .*ENOENT \(no such command\)/],
      ['exits at once', ['--engine', 'name=Quitter', 'cmd=node', `arg=${join(dir, 'missing.mjs')}`, `arg=${MARKER}`], '20000', /engine Quitter did not start \(command: node \S*missing\.mjs \S+\): Quitter \(pid \d+\) exited with code 1/],
      ['never answers uci', engine('Mute', 'nouciok.mjs'), '3000', /engine Mute did not start \(command: node \S*nouciok\.mjs \S+\): no answer to "uci" \(uciok\) within 3000 ms/],
    ];
    for (const [what, bad, startupMs, message] of cases) {
      const pgn = join(dir, 'games.pgn');
      const run = await runCli(['match', ...engine('Good', 'instant.mjs', 'Instant'), ...bad, '--each', 'tc=2+0.05', '--games', '4', '--startup-ms', startupMs, '--pgnout', pgn], { timeoutMs: 40_000 });
      assert.equal(run.code, 1, `${what}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, message, what);
      assert.doesNotMatch(run.stdout, /Started game|Finished match/, what);
      assert.ok(!existsSync(pgn) && !existsSync(`${pgn}.journal`), `${what}: no PGN or journal written`);
      assert.deepEqual(processesMatching(MARKER), [], `${what}: no engine left running`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a match without a time control, or too large to plan, is refused before any engine starts', async () => {
  const run = await runCli(['match', ...engine('A', 'instant.mjs', 'A'), ...engine('B', 'instant.mjs', 'B'), '--games', '2'], { timeoutMs: 20_000 });
  assert.equal(run.code, 2, run.stdout);
  assert.match(run.stderr, /^tabiya: match: engine 1: invalid or missing time control: give tc=, st=, nodes= or depth=/);
  const inf = await runCli(['match', ...engine('A', 'instant.mjs', 'A'), ...engine('B', 'instant.mjs', 'B'), '--each', 'tc=inf', '--games', '2'], { timeoutMs: 20_000 });
  assert.equal(inf.code, 2);
  assert.match(inf.stderr, /tc=inf needs nodes= or depth=/);
  const huge = await runCli(['match', ...engine('A', 'instant.mjs', 'A'), ...engine('B', 'instant.mjs', 'B'), '--each', 'st=1', '--games', '100000000'], { timeoutMs: 20_000 });
  assert.equal(huge.code, 2);
  assert.match(huge.stderr, /100,000,000 games planned; a match plays at most 10,000,000/);
});

test('killing the runner mid-game leaves no engine behind', { timeout: 30_000 }, async () => {
  const run = await runCli(
    ['match', ...engine('Good', 'instant.mjs', 'Instant'), ...engine('Hanger', 'hang.mjs', '1'), '--each', 'tc=60', '--games', '2', '--concurrency', '2'],
    { onStdout: (out) => out.includes('Started game 2'), signal: 'SIGTERM', timeoutMs: 25_000 },
  );
  // SIGTERM is handled like Ctrl-C: games stop, engines are shut down, the report is printed;
  // the status is 128 + 15, as for a process it killed (130 is Ctrl-C's).
  assert.equal(run.code, 143, run.stderr);
  assert.match(run.stdout, /Match interrupted after 0 games/);
  assert.deepEqual(processesMatching(MARKER), []);
});

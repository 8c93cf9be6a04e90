import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeSpawner, fakeSpec, type FakeScript } from '../../test/matchHelpers/fakeEngine.js';
import type { EngineSpec } from './engineSpec.js';
import type { GameRecord } from './game.js';
import { DEFAULT_TIMEOUTS } from './player.js';
import { EngineStartError, runMatch, startEngines, type MatchPlan } from './runner.js';
import { buildSchedule, type ScheduledGame } from './schedule.js';

// The match's own limits: none of them may expire in a test on a correct engine, however loaded
// the machine; a test that wants one to expire shortens that one where only a misbehaving engine meets it.
const TIMEOUTS = DEFAULT_TIMEOUTS;
/** A start-up limit short enough to wait out three times over in a test. */
const SHORT_STARTUP = { ...TIMEOUTS, startupMs: 200 };

function plan(names: string[], over: Partial<MatchPlan> & { games?: number; repeat?: number } = {}): MatchPlan {
  const repeat = over.repeat ?? 2;
  return {
    engines: names.map((n) => fakeSpec(n, { infinite: false, baseMs: 2000, incMs: 0 })),
    schedule: buildSchedule({ players: names.length, tournament: 'round-robin', games: over.games ?? 4, rounds: 1, repeat, noswap: false, seeds: 1 }),
    rules: { maxMoves: 10 },
    concurrency: 2,
    waitMs: 0,
    recover: true,
    timeouts: TIMEOUTS,
    repeat,
    ...over,
  };
}

test('every scheduled game is played once; engines are reused, colours alternate in pairs', async () => {
  const spawn = fakeSpawner({});
  const ended: [GameRecord, ScheduledGame][] = [];
  const out = await runMatch(plan(['A', 'B'], { games: 6 }), spawn, { onGameEnd: (r, g) => void ended.push([r, g]) });
  assert.equal(out.stopped, 'completed');
  assert.equal(out.board.games, 6);
  assert.deepEqual(ended.map(([, g]) => g.number).sort(), [1, 2, 3, 4, 5, 6]);
  for (const [r, g] of ended) assert.equal(r.white, g.white === 0 ? 'A' : 'B');
  // Two games at a time need two processes per engine, no more.
  assert.equal(spawn.spawned.length, 4);
  const e = out.board.encounter(0, 1);
  assert.equal(e.wdl.wins + e.wdl.draws + e.wdl.losses, 6);
  assert.equal(e.penta.reduce((a, b) => a + b, 0), 3);
});

test('a crashing engine is replaced and the match goes on', async () => {
  const spawn = fakeSpawner({ B: (): FakeScript => ({ go: (n) => (n === 2 ? { do: 'crash' } : { do: 'move' }) }) });
  const ended: GameRecord[] = [];
  const out = await runMatch(plan(['A', 'B'], { games: 4, concurrency: 1 }), spawn, { onGameEnd: (r) => void ended.push(r) });
  assert.equal(out.board.games, 4);
  assert.ok(ended.every((r) => r.reason.endsWith('disconnects')));
  assert.equal(out.board.players[1]!.faults.disconnect, 4);
  assert.equal(spawn.spawned.filter((s) => s.name === 'B').length, 4);
});

test('without recovery the match stops after a crash', async () => {
  const spawn = fakeSpawner({ B: (): FakeScript => ({ go: () => ({ do: 'crash' }) }) });
  const out = await runMatch(plan(['A', 'B'], { games: 8, concurrency: 1, recover: false }), spawn);
  assert.equal(out.stopped, 'fault');
  assert.equal(out.board.games, 1);
  assert.match(out.message!, /recovery is off/);
});

test('without recovery a crash lets the games in progress finish, and starts no new one', async () => {
  // The first search any B process gets crashes it; the other game of the two in flight plays on.
  let crashed = false;
  const b: FakeScript = {
    go: () => {
      if (crashed) return { do: 'delay', ms: 2 };
      crashed = true;
      return { do: 'crash' };
    },
  };
  const ended: GameRecord[] = [];
  const out = await runMatch(plan(['A', 'B'], { games: 8, concurrency: 2, recover: false }), fakeSpawner({ B: b }), { onGameEnd: (r) => void ended.push(r) });
  assert.equal(out.stopped, 'fault');
  assert.match(out.message!, /recovery is off/);
  assert.equal(out.board.games, 2);
  assert.deepEqual(ended.map((r) => r.termination === 'abandoned').sort(), [false, true]);
});

test('an engine that never finishes its handshake is a start-up error: no game is played, the other engine is shut down', async () => {
  // A is spawned as B is given up on, so the short limit cannot catch A however slow the machine:
  // A's uciok is queued before the timers that expire B's limit are looked at again.
  let bGivenUp!: () => void;
  const bKilled = new Promise<void>((resolve) => (bGivenUp = resolve));
  const fakes = fakeSpawner({ B: { mute: true } });
  const spawn = Object.assign(
    async (spec: EngineSpec) => {
      if (spec.name === 'A') await bKilled;
      const t = await fakes(spec);
      if (spec.name === 'B') {
        const kill = t.kill.bind(t);
        t.kill = () => {
          kill();
          bGivenUp();
        };
      }
      return t;
    },
    { spawned: fakes.spawned },
  );
  const ended: GameRecord[] = [];
  const started: number[] = [];
  await assert.rejects(
    runMatch(plan(['A', 'B'], { games: 10, concurrency: 1, timeouts: SHORT_STARTUP }), spawn, { onGameStart: (g) => void started.push(g.number), onGameEnd: (r) => void ended.push(r) }),
    (e: unknown) => {
      assert.ok(e instanceof EngineStartError);
      assert.deepEqual(e.failures.map((f) => f.engine), ['B']);
      assert.match(e.message, /^engine B did not start \(command: fake\): no answer to "uci" \(uciok\) within 200 ms/);
      return true;
    },
  );
  assert.deepEqual([started.length, ended.length], [0, 0]);
  assert.deepEqual(spawn.spawned.map((s) => s.name).sort(), ['A', 'B']);
  assert.ok(spawn.spawned.every((s) => !s.t.alive));
});

test('an engine that cannot be restarted mid-match loses its games, and the match stops after 3 such failures', async () => {
  let launches = 0;
  // The first process crashes in its first search; every later one never answers "uci".
  const spawn = fakeSpawner({ B: (): FakeScript => (launches++ === 0 ? { go: () => ({ do: 'crash' }) } : { mute: true }) });
  const ended: GameRecord[] = [];
  // The first processes start under the match's own limits; only the restarts meet the short one.
  const p = plan(['A', 'B'], { games: 10, concurrency: 1, timeouts: SHORT_STARTUP });
  p.started = await startEngines(p.engines, p.schedule, spawn, TIMEOUTS);
  const out = await runMatch(p, spawn, { onGameEnd: (r) => void ended.push(r) });
  assert.equal(out.stopped, 'fault');
  assert.deepEqual(ended.map((r) => r.termination), ['abandoned', 'stalled connection', 'stalled connection']);
  for (const r of ended) assert.equal(r.result, r.white === 'B' ? '0-1' : '1-0');
  assert.match(out.message!, /B failed to start 3 times in a row/);
});

test('engines started ahead by startEngines are the first pool: no extra process', async () => {
  const spawn = fakeSpawner({});
  const p = plan(['A', 'B'], { games: 2, concurrency: 1 });
  p.started = await startEngines(p.engines, p.schedule, spawn, TIMEOUTS);
  assert.equal(spawn.spawned.length, 2);
  const out = await runMatch(p, spawn);
  assert.equal(out.board.games, 2);
  assert.equal(spawn.spawned.length, 2);
});

test('SPRT: the match stops once a bound is crossed', async () => {
  // B always plays an illegal move: A wins every game.
  const spawn = fakeSpawner({ B: { go: () => ({ do: 'send', move: 'a1a1' }) } });
  const out = await runMatch(plan(['A', 'B'], { games: 200, sprt: { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'logistic' } }), spawn);
  assert.equal(out.stopped, 'sprt');
  assert.equal(out.sprt?.decision, 'H1');
  assert.ok(out.board.games < 200);
});

test('an interrupt stops the match; unfinished games are not counted', async () => {
  const spawn = fakeSpawner({ A: { go: () => ({ do: 'delay', ms: 3 }) } });
  const ac = new AbortController();
  const ended: GameRecord[] = [];
  // The interrupt comes as the first game ends, while the other game of the two in flight is being played.
  const onGameEnd = (r: GameRecord): void => {
    ended.push(r);
    ac.abort();
  };
  const out = await runMatch(plan(['A', 'B'], { games: 100 }), spawn, { onGameEnd }, ac.signal);
  assert.equal(out.stopped, 'interrupted');
  assert.ok(ended.length >= 1 && ended.length <= 2, `${ended.length} games ended`);
  assert.equal(out.board.games, ended.length);
  assert.ok(ended.every((r) => r.result !== '*'));
  assert.ok(spawn.spawned.every((s) => !s.t.alive));
});

test('resume: games already done are booked, not played', async () => {
  const spawn = fakeSpawner({});
  const done = new Map([[1, { result: '1-0' as const }], [2, { result: '1-0' as const }]]);
  const played: number[] = [];
  const out = await runMatch(plan(['A', 'B'], { games: 4, done }), spawn, { onGameEnd: (_r, g) => void played.push(g.number) });
  assert.deepEqual(played.sort(), [3, 4]);
  assert.equal(out.board.games, 4);
  // Game 1: A (White) won, game 2: B (White) won: the first pair scores 1 for A, and both pairs count.
  const e = out.board.encounter(0, 1);
  assert.equal(e.penta.reduce((a, b) => a + b, 0), 2);
  assert.ok(e.penta[2] >= 1);
  assert.ok(e.wl >= 1);
});

test('three engines: a round-robin gives every engine its games', async () => {
  const out = await runMatch(plan(['A', 'B', 'C'], { games: 2 }), fakeSpawner({}));
  assert.equal(out.board.games, 6);
  for (const p of out.board.players) assert.equal(p.wins + p.draws + p.losses, 4);
});

test('restart=on gives every game fresh processes', async () => {
  const spawn = fakeSpawner({});
  const p = plan(['A', 'B'], { games: 4, concurrency: 1 });
  p.engines = p.engines.map((e) => ({ ...e, restart: 'on' as const }));
  const out = await runMatch(p, spawn);
  assert.equal(out.board.games, 4);
  assert.equal(spawn.spawned.length, 8);
  assert.ok(spawn.spawned.every((s) => !s.t.alive));
});

test('option warnings name the engine as the match does, not by its id name (two builds of one engine)', async () => {
  const p = plan(['new', 'base'], { games: 2 });
  p.engines[1]!.options = [['Hash', '999'], ['Skil Level', '3']];
  const warnings: string[] = [];
  const out = await runMatch(p, fakeSpawner({}), { onWarning: (w) => void warnings.push(w) });
  assert.equal(out.stopped, 'completed');
  // Both fakes call themselves "Fake": only the match's name says which one was misconfigured.
  assert.deepEqual(warnings.sort(), ['base (Fake) has no option "Skil Level"', 'base (Fake) option "Hash": 999 is outside 1..64']);
});

test('an xboard engine that refuses sd (Phalanx): refused when depth= is its only limit, a warning beside a clock', async () => {
  // Before, the refusal went unnoticed: with depth= alone each search ran until --move-ms.
  const depthOnly = plan(['P', 'S'], { games: 2 });
  depthOnly.engines = [fakeSpec('P', { depth: 3 }, 'xboard'), fakeSpec('S', { depth: 3 }, 'xboard')];
  const spawn = fakeSpawner({ P: { xboard: true, noDepth: true }, S: { xboard: true } });
  await assert.rejects(runMatch(depthOnly, spawn, {}), (e: unknown) => {
    assert.ok(e instanceof EngineStartError);
    assert.deepEqual(e.failures.map((f) => f.engine), ['P']);
    assert.match(e.message, /depth=3 needs the xboard command sd, which this engine refuses \(Illegal move: sd 3\); give it tc= or st= instead/);
    return true;
  });
  assert.ok(spawn.spawned.every((s) => !s.t.alive));

  const clocked = plan(['P', 'S'], { games: 2 });
  clocked.engines = [fakeSpec('P', { depth: 3, infinite: false, baseMs: 2000 }, 'xboard'), fakeSpec('S', { depth: 3, infinite: false, baseMs: 2000 }, 'xboard')];
  const warnings: string[] = [];
  const out = await runMatch(clocked, fakeSpawner({ P: { xboard: true, noDepth: true }, S: { xboard: true } }), { onWarning: (w) => void warnings.push(w) });
  assert.equal(out.stopped, 'completed');
  assert.deepEqual(warnings, ['P refuses "sd 3" (Illegal move: sd 3): depth=3 has no effect on it, its clock alone ends its searches']);
});

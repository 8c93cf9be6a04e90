import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeSpawner, fakeSpec, FakeTransport, type FakeScript } from '../../test/matchHelpers/fakeEngine.js';
import type { Position } from '../core/position.js';
import { DEFAULT_TIMEOUTS, type SpawnEngine } from '../match/player.js';
import { makeFen } from '../notation/fen.js';
import { UciClient } from '../protocol/uci/client.js';
import { ceOfScore, labelPositions, searchFen, type LabelResult } from './engineLabel.js';
import { readText } from './dataset.js';

const SHARED = new URL('../../../../shared/data/', import.meta.url);

/** The score a UCI client keeps for a search that printed `lines`, as ce. */
async function ceAfter(lines: string[]): Promise<number | undefined> {
  const c = new UciClient(() => {});
  const started = c.start();
  c.received('uciok');
  await started;
  const reply = c.go({ fen: '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1', moves: [] }, { nodes: 1000 });
  for (const l of lines) c.received(l);
  c.received('bestmove e2e4');
  const score = (await reply).info.score;
  return score === undefined ? undefined : ceOfScore(score);
}

test('ce from a search: centipawns as they are, mates as ±(32000 − N), the last exact score over bounds', async () => {
  assert.equal(ceOfScore({ kind: 'cp', value: 35 }), 35);
  assert.equal(ceOfScore({ kind: 'cp', value: -120 }), -120);
  assert.equal(ceOfScore({ kind: 'cp', value: 40000 }), 32000, 'kept within what labels.ts reads');
  assert.equal(ceOfScore({ kind: 'mate', value: 3 }), 31997, 'the side to move mates in 3');
  assert.equal(ceOfScore({ kind: 'mate', value: -2 }), -31998, 'the side to move is mated in 2');
  assert.equal(ceOfScore({ kind: 'mate', value: 0 }), -32000, 'mated on the board');
  const cases: [string[], number | undefined][] = [
    [['info depth 1 score cp 12 nodes 20 pv e2e4', 'info depth 2 score cp -40 nodes 90 pv e2e4'], -40],
    // A bound after an exact score does not replace it; a later exact score does.
    [['info depth 9 score cp 50', 'info depth 10 score cp 80 lowerbound', 'info depth 10 score cp 61', 'info depth 11 score cp 95 lowerbound'], 61],
    [['info depth 9 score cp 30 upperbound', 'info depth 9 score cp 20 upperbound'], 20],
    [['info depth 5 score cp 300', 'info depth 6 score mate 2 pv e2e4'], 31998],
    [['info depth 3 score mate -1'], -31999],
    // Secondary lines (multipv 2) are not the position's score.
    [['info depth 4 multipv 1 score cp 15', 'info depth 4 multipv 2 score cp -200'], 15],
    [['info depth 1 nodes 10', 'info string no score here'], undefined],
  ];
  for (const [lines, ce] of cases) assert.equal(await ceAfter(lines), ce, lines.join(' | '));
});

test('the position a line asks to search: four fields (with a FEN\'s own counters), legal, standard chess', () => {
  const ok: [string, string][] = [
    ['r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 c9 "1-0"; ce -35;', 'r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 0 1'],
    ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 7 [1.0]', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 7'],
    ['8/8/4k3/8/8/4K3/4P3/8 w - -', '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1'],
  ];
  for (const [line, fen] of ok) assert.deepEqual(searchFen(line), { ok: true, value: fen }, line);
  const bad: [string, RegExp][] = [
    ['8/8/8/8 w - - c9 "1-0";', /4 ranks/],
    ['8/8/4k3/8/8/4K3/4P3/8 w -', /3 field\(s\), 4 are needed/],
    ['8/8/4k3/8/8/4K3/4P3/8 w c9 "1-0";', /castling field "c9"/],
    // The side not to move in check.
    ['4k3/8/8/8/8/8/4R3/4K3 w - - c9 "1-0";', /the side not to move \(Black\) is in check/],
    ['bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', /Chess960/],
  ];
  for (const [line, why] of bad) {
    const r = searchFen(line);
    assert.ok(!r.ok, line);
    assert.match(r.error.message, why, line);
  }
});

/** Forty real positions, and a score the scripted engines give each (its number of pieces, signed by the side to move). */
function positions(): string[] {
  const lines = readText(new URL('tuning/pgnmentor_quiet_labeled.epd.gz', SHARED).pathname).split('\n').slice(0, 40);
  return lines.map((l) => {
    const fen = searchFen(l);
    assert.ok(fen.ok, l);
    return fen.value;
  });
}
const scoreOf = (fen: string): number => (fen.split(' ')[1] === 'w' ? 1 : -1) * fen.split(' ')[0]!.replace(/[^a-zA-Z]/g, '').length;
const scored: FakeScript = { go: (_n: number, pos: Position) => ({ do: 'score', cp: scoreOf(makeFen(pos)) }) };

/** Labels `fens`; the results must come in the input order, and the count of searches grow by one each time. */
async function label(fens: string[], spawn: SpawnEngine, concurrency: number, timeouts = DEFAULT_TIMEOUTS): Promise<{ results: LabelResult[]; warnings: string[]; run: Awaited<ReturnType<typeof labelPositions>> }> {
  const results: LabelResult[] = [];
  const searched: number[] = [];
  const warnings: string[] = [];
  const run = await labelPositions(fens, {
    spec: { ...fakeSpec('Fake', { nodes: 1000, infinite: false }), options: [['Hash', '8'], ['Hashh', '64']] },
    spawn,
    timeouts,
    limits: { nodes: 1000 },
    concurrency,
    onResult: (i, r) => {
      assert.equal(i, results.length, 'in the input order');
      results.push(r);
    },
    onSearched: (n) => searched.push(n),
    onWarning: (w) => warnings.push(w),
  });
  assert.deepEqual(searched, fens.map((_, i) => i + 1));
  return { results, warnings, run };
}

test('engines in parallel share the positions, each told ucinewgame once, and the results come in the input order', async () => {
  const fens = positions();
  const expected = fens.map((f): LabelResult => ({ kind: 'score', score: { kind: 'cp', value: scoreOf(f) } }));
  for (const concurrency of [1, 3]) {
    const spawn = fakeSpawner({ Fake: scored });
    const { results, warnings, run } = await label(fens, spawn, concurrency);
    assert.deepEqual(results, expected, `concurrency ${concurrency}`);
    assert.deepEqual(warnings, ['Fake has no option "Hashh"'], 'said once, whatever the number of engines');
    assert.equal(run.engineName, 'Fake');
    assert.equal(run.restarts, 0);
    assert.equal(spawn.spawned.length, concurrency);
    const searched: string[] = [];
    for (const { t } of spawn.spawned) {
      assert.equal(t.sent.filter((l) => l === 'ucinewgame').length, 1, 'one new game per engine, not per position');
      assert.ok(t.sent.includes('setoption name Hash value 8'));
      assert.ok(t.sent.filter((l) => l === 'go nodes 1000').length > 0, 'every engine takes a share');
      searched.push(...t.sent.filter((l) => l.startsWith('position ')));
      assert.equal(t.sent.at(-1), 'quit');
    }
    assert.deepEqual(searched.sort(), fens.map((f) => `position fen ${f}`).sort());
  }
});

test('an engine that dies or stalls on a position costs that position only: it is replaced and the job goes on, in order', async () => {
  const fens = positions().slice(0, 12);
  // Board and side: the engine's FEN drops an en-passant square no capture can use.
  const at = (i: number): string => fens[i]!.split(' ').slice(0, 2).join(' ');
  const script: FakeScript = {
    go: (_n, pos) => {
      const fen = makeFen(pos);
      const key = fen.split(' ').slice(0, 2).join(' ');
      if (key === at(3)) return { do: 'crash' };
      if (key === at(7)) return { do: 'hang' };
      if (key === at(9)) return { do: 'send', move: '0000' };
      return { do: 'score', cp: scoreOf(fen) };
    },
  };
  const spawn = fakeSpawner({ Fake: () => script });
  const timeouts = { ...DEFAULT_TIMEOUTS, untimedMoveMs: 60, stopWaitMs: 30 };
  // While one engine stalls on the eighth position, the other searches the rest: their results wait.
  const { results, run } = await label(fens, spawn, 2, timeouts);
  assert.equal(run.restarts, 2);
  assert.equal(spawn.spawned.length, 4);
  assert.equal(spawn.spawned.filter(({ t }) => t.alive).length, 0, 'every engine ended');
  const crash = results[3]!;
  const hang = results[7]!;
  assert.ok(crash.kind === 'fault' && /exited with code 3/.test(crash.message), JSON.stringify(crash));
  assert.ok(hang.kind === 'fault' && /^Fake: no result 60 ms into the search, nor 30 ms after stop \(last output: .*\)$/.test(hang.message), JSON.stringify(hang));
  assert.deepEqual(results[9], { kind: 'none' });
  for (const i of [0, 1, 2, 4, 5, 6, 8, 10, 11]) assert.deepEqual(results[i], { kind: 'score', score: { kind: 'cp', value: scoreOf(fens[i]!) } }, `position ${i}`);
});

test('an engine that cannot be started ends the job, at the start or after a fault', async () => {
  const fens = positions().slice(0, 6);
  const never: SpawnEngine = () => Promise.reject(new Error('spawn fake ENOENT'));
  await assert.rejects(label(fens, never, 2), /^EngineFault: cannot start fake: spawn fake ENOENT$/);
  const mute = fakeSpawner({ Fake: { mute: true } });
  await assert.rejects(label(fens, mute, 1, { ...DEFAULT_TIMEOUTS, startupMs: 30 }), /Fake: no answer to "uci" \(uciok\) within 30 ms/);
  assert.equal(mute.spawned[0]!.t.alive, false);
  // A first engine that crashes on its third search, and no second one.
  let launches = 0;
  const once: SpawnEngine = () => {
    if (launches++ > 0) return Promise.reject(new Error('spawn fake EAGAIN'));
    return Promise.resolve(new FakeTransport({ go: (n, pos) => (n === 3 ? { do: 'crash' } : { do: 'score', cp: scoreOf(makeFen(pos)) }) }));
  };
  const seen: number[] = [];
  await assert.rejects(
    labelPositions(fens, { spec: fakeSpec('Fake'), spawn: once, timeouts: DEFAULT_TIMEOUTS, limits: { nodes: 1000 }, onResult: (i) => seen.push(i) }),
    /cannot start fake: spawn fake EAGAIN/,
  );
  assert.deepEqual(seen, [0, 1, 2], 'the results before the fault were handed over');
});

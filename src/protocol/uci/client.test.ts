import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineClosedError } from '../engineClient.js';
import { UciClient, goCommand, positionCommand } from './client.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const LIMITS = { moves: 0, baseMs: 1000, incMs: 10, movetimeMs: 0, depth: 0, nodes: 0, infinite: false };

/** A scripted transport in the style of python-chess's MockTransport: what was sent, and lines to answer. */
function mock(): { sent: string[]; client: UciClient; feed(...lines: string[]): void } {
  const sent: string[] = [];
  const client = new UciClient((l) => sent.push(l));
  return { sent, client, feed: (...lines) => lines.forEach((l) => client.received(l)) };
}

async function started(): Promise<ReturnType<typeof mock>> {
  const m = mock();
  const p = m.client.start();
  m.feed(
    'id name Mock 1.0',
    'id author Someone',
    'option name Hash type spin default 16 min 1 max 1024',
    'option name Skill Level type spin default 20 min 0 max 20',
    'option name Threads type spin default 1 min 1 max 8',
    'option name Style type combo default Normal var Solid var Normal var Risky',
    'option name Clear Hash type button',
    'option name Ponder type check default false',
    'option name UCI_Chess960 type check default false',
    'option name EvalFile type string default <empty>',
    'uciok',
  );
  await p;
  return m;
}

test('handshake records the name and the options', async () => {
  const m = await started();
  assert.deepEqual(m.sent, ['uci']);
  assert.equal(m.client.engineName, 'Mock 1.0');
  assert.equal(m.client.options.get('skill level')?.max, 20);
  assert.deepEqual(m.client.options.get('style')?.vars, ['Solid', 'Normal', 'Risky']);
  assert.equal(m.client.options.get('evalfile')?.default, '');
  assert.equal(m.client.status, 'idle');
});

test('options: Threads first, names with spaces, validation warnings, buttons and empty strings', async () => {
  const m = await started();
  m.sent.length = 0;
  const warnings = m.client.setOptions([
    ['Hash', '64'],
    ['Skill Level', '5'],
    ['Threads', '2'],
    ['Hash', '99999'],
    ['Style', 'risky'],
    ['Nope', '1'],
    ['Clear Hash', 'true'],
    ['Ponder', 'maybe'],
    ['EvalFile', ''],
  ]);
  assert.deepEqual(m.sent, [
    'setoption name Threads value 2',
    'setoption name Hash value 64',
    'setoption name Skill Level value 5',
    'setoption name Style value Risky',
    'setoption name Clear Hash',
    'setoption name EvalFile value ',
  ]);
  assert.equal(warnings.length, 3);
  assert.match(warnings.join('\n'), /99999 is outside 1\.\.1024/);
  assert.match(warnings.join('\n'), /no option "Nope"/);
  assert.match(warnings.join('\n'), /"maybe" is not true or false/);
});

test('a search sends the full move list and returns the last exact score of the main line', async () => {
  const m = await started();
  const ready = m.client.newGame({ fen: START, chess960: false, limits: LIMITS });
  assert.deepEqual(m.sent.slice(-2), ['ucinewgame', 'isready']);
  m.feed('readyok');
  await ready;
  m.sent.length = 0;
  const reply = m.client.go({ fen: START, moves: ['e2e4', 'e7e5'] }, { wtime: 1000, btime: 900, winc: 10, binc: 10 });
  assert.deepEqual(m.sent, ['position startpos moves e2e4 e7e5', 'go wtime 1000 btime 900 winc 10 binc 10']);
  assert.equal(m.client.status, 'searching');
  m.feed(
    'info depth 5 seldepth 7 multipv 1 score cp 31 nodes 1000 nps 50000 time 20 pv g1f3 b8c6',
    'info depth 6 multipv 2 score cp -50 pv d2d4',
    'info depth 6 multipv 1 score cp 45 lowerbound nodes 2000',
    'info string score cp 999 is just text',
    'info depth 6 currmove g1f3 currmovenumber 1',
    'bestmove g1f3 ponder b8c6',
  );
  const r = await reply;
  assert.equal(r.kind, 'move');
  if (r.kind !== 'move') return;
  assert.equal(r.move, 'g1f3');
  assert.equal(r.ponder, 'b8c6');
  assert.deepEqual(r.info.score, { kind: 'cp', value: 31 });
  assert.equal(r.info.depth, 6);
  assert.equal(r.info.nodes, 2000);
  assert.deepEqual(r.info.pv, ['g1f3', 'b8c6']);
  assert.equal(m.client.status, 'idle');
});

test('a bound score is used only when no exact one came', async () => {
  const m = await started();
  const reply = m.client.go({ fen: START, moves: [] }, { movetime: 100 });
  m.feed('info depth 1 score cp 20 upperbound', 'info depth 2 score mate -3', 'bestmove e2e4');
  const r = await reply;
  assert.ok(r.kind === 'move');
  assert.deepEqual(r.info.score, { kind: 'mate', value: -3 });
  const reply2 = m.client.go({ fen: START, moves: [] }, { movetime: 100 });
  m.feed('info depth 1 score cp 20 upperbound', 'bestmove (none)');
  const r2 = await reply2;
  assert.ok(r2.kind === 'move');
  assert.equal(r2.move, '(none)');
  assert.deepEqual(r2.info.score, { kind: 'cp', value: 20, bound: 'upper' });
});

test('isready is answered during a search; stop is sent only while searching', async () => {
  const m = await started();
  const reply = m.client.go({ fen: START, moves: [] }, { infinite: true });
  const ready = m.client.isReady();
  m.feed('readyok');
  await ready;
  m.sent.length = 0;
  m.client.stop();
  m.feed('bestmove d2d4');
  await reply;
  m.client.stop();
  assert.deepEqual(m.sent, ['isready', 'stop'].slice(1));
});

test('a closed connection rejects every pending request', async () => {
  const m = await started();
  const reply = m.client.go({ fen: START, moves: [] }, { depth: 3 });
  const ready = m.client.isReady();
  m.client.closed('exit code 3');
  await assert.rejects(reply, EngineClosedError);
  await assert.rejects(ready, EngineClosedError);
  await assert.rejects(m.client.go({ fen: START, moves: [] }, { depth: 1 }), /exit code 3/);
});

test('a handshake cut short rejects', async () => {
  const m = mock();
  const p = m.client.start();
  m.feed('id name Half');
  m.client.closed();
  await assert.rejects(p, EngineClosedError);
});

test('go and position commands', () => {
  const rows: [Parameters<typeof goCommand>[0], string][] = [
    [{ wtime: 60000, btime: 59000, movestogo: 40 }, 'go wtime 60000 btime 59000 movestogo 40'],
    [{ wtime: -5, btime: 10 }, 'go wtime 0 btime 10'],
    [{ movetime: 500 }, 'go movetime 500'],
    [{ depth: 8, nodes: 10000 }, 'go depth 8 nodes 10000'],
    [{ depth: 5, wtime: 100, btime: 100, winc: 0 }, 'go depth 5 wtime 100 btime 100'],
    [{}, 'go infinite'],
  ];
  for (const [l, s] of rows) assert.equal(goCommand(l), s);
  assert.equal(positionCommand({ fen: START, moves: [] }), 'position startpos');
  assert.equal(positionCommand({ fen: '8/8/8/8/8/8/8/K6k w - - 0 1', moves: ['a1a2'] }), 'position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2');
  assert.equal(positionCommand({ fen: START, moves: [], chess960: true }), `position fen ${START}`);
});

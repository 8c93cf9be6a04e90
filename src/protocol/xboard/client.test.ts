import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EngineNotice, GameLimits } from '../engineClient.js';
import { XboardClient } from './client.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const TC: GameLimits = { moves: 0, baseMs: 10_000, incMs: 100, movetimeMs: 0, depth: 0, nodes: 0, infinite: false };

function mock(featureTimeoutMs = 2000): { sent: string[]; client: XboardClient; feed(...lines: string[]): void } {
  const sent: string[] = [];
  const client = new XboardClient((l) => sent.push(l), { featureTimeoutMs });
  return { sent, client, feed: (...lines) => lines.forEach((l) => client.received(l)) };
}

async function started(features: string): Promise<ReturnType<typeof mock>> {
  const m = mock();
  const p = m.client.start();
  m.feed(features, 'feature done=1');
  await p;
  m.sent.length = 0;
  return m;
}

test('feature negotiation: accepted/rejected per feature, done=0 waits for done=1', async () => {
  const m = mock(20);
  const p = m.client.start();
  m.feed('feature done=0', 'feature myname="Fancy Engine 2" ping=1 setboard=1 sigint=1 sigterm=0 reuse=0 egt="syzygy"');
  // The protocol-1 timer is off after done=0: the handshake is still pending after it would have fired.
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(m.client.status, 'starting');
  m.feed('feature option="Resign Threshold -spin 800 200 1200" option="Style -combo Solid /// *Normal /// Risky" done=1');
  await p;
  assert.deepEqual(m.sent, [
    'xboard',
    'protover 2',
    'accepted done',
    'accepted myname',
    'accepted ping',
    'accepted setboard',
    'rejected sigint',
    'accepted sigterm',
    'accepted reuse',
    'rejected egt',
    'accepted option',
    'accepted option',
    'accepted done',
  ]);
  assert.equal(m.client.engineName, 'Fancy Engine 2');
  assert.equal(m.client.wantsRestart, true);
  assert.deepEqual(m.client.options.get('resign threshold'), { name: 'Resign Threshold', type: 'spin', default: '800', min: 200, max: 1200 });
  assert.deepEqual(m.client.options.get('style')?.vars, ['Solid', 'Normal', 'Risky']);
  assert.equal(m.client.options.get('style')?.default, 'Normal');
});

test('by default the client waits 8 s for features, as cutechess-cli: an engine that answers protover after 3 s is still protocol 2', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const sent: string[] = [];
  const client = new XboardClient((l) => sent.push(l));
  const p = client.start();
  t.mock.timers.tick(3000);
  assert.equal(client.status, 'starting', 'not yet taken for a protocol-1 engine');
  client.received('feature ping=1 setboard=1 usermove=1 done=1');
  await p;
  assert.equal(client.status, 'idle');
  t.mock.timers.tick(8000);
  assert.deepEqual(sent.slice(-4), ['accepted ping', 'accepted setboard', 'accepted usermove', 'accepted done']);
});

test('a protocol-1 engine (no features) is accepted after the feature timeout', async () => {
  const m = mock(10);
  await m.client.start();
  assert.equal(m.client.status, 'idle');
  assert.equal(await m.client.isReady(), undefined);
});

test('features announced after the timer (GNU Chess writes them only once it reads another command): the game set-up waits for done=1, then pings', async () => {
  const m = mock(10);
  await m.client.start();
  m.sent.length = 0;
  let ready = false;
  const p = m.client.newGame({ fen: START, chess960: false, limits: TC }).then(() => {
    ready = true;
  });
  m.feed('Chess', 'feature done=0', 'feature myname="GNU Chess" ping=1 setboard=1 time=1 usermove=1');
  // Well past the short wait of an engine without ping: still announcing features, so not ready.
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(ready, false, 'a search must not start while the engine is still announcing features');
  m.feed('feature variants="normal" done=1');
  await new Promise((r) => setImmediate(r));
  assert.equal(m.sent.at(-1), 'ping 1', 'ping, now that the engine has said it takes it');
  m.feed('pong 1');
  await p;
  assert.equal(ready, true);
  assert.deepEqual(m.sent.slice(0, 6), ['new', 'force', 'level 0 0:10 0.1', 'post', 'easy', 'accepted done']);
  // Moves now go out as the late features asked.
  m.sent.length = 0;
  void m.client.go({ fen: START, moves: ['e2e4'] }, { wtime: 10_000, btime: 10_000 });
  assert.deepEqual(m.sent, ['usermove e2e4', 'time 1000', 'otim 1000', 'go']);
});

test('an engine closing while its late features are pending fails the game set-up', async () => {
  const m = mock(10);
  await m.client.start();
  const p = m.client.newGame({ fen: START, chess960: false, limits: TC });
  m.feed('feature done=0');
  await new Promise((r) => setTimeout(r, 300));
  m.client.closed('gone');
  await assert.rejects(p, /gone/);
});

test('a game: setboard, level, go for the first move, then time/otim and the opponent move', async () => {
  const m = await started('feature ping=1 setboard=1 usermove=1 time=1');
  const fen = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
  const ready = m.client.newGame({ fen, chess960: false, limits: TC });
  assert.deepEqual(m.sent, ['new', 'force', `setboard ${fen}`, 'level 0 0:10 0.1', 'post', 'easy', 'ping 1']);
  m.feed('pong 1');
  await ready;
  m.sent.length = 0;
  // The engine plays Black here: White's first move comes first.
  let r = m.client.go({ fen, moves: ['g1f3'] }, { wtime: 9870, btime: 10100 });
  assert.deepEqual(m.sent, ['usermove g1f3', 'time 1010', 'otim 987', 'go']);
  m.feed('  9   -15    120   40000 Nc6 d4', 'move b8c6');
  let reply = await r;
  assert.deepEqual(reply, { kind: 'move', move: 'b8c6', info: { depth: 9, score: { kind: 'cp', value: -15 }, timeMs: 1200, nodes: 40000, pv: ['Nc6', 'd4'] } });
  m.sent.length = 0;
  r = m.client.go({ fen, moves: ['g1f3', 'b8c6', 'f1b5'] }, { wtime: 9000, btime: 8000 });
  assert.deepEqual(m.sent, ['time 800', 'otim 900', 'usermove f1b5']);
  m.feed('1. ... a7a6');
  reply = await r;
  assert.equal(reply.kind === 'move' && reply.move, 'a7a6');
  m.sent.length = 0;
  m.client.gameOver('1/2-1/2', 'Draw by adjudication');
  assert.deepEqual(m.sent, ['force', 'result 1/2-1/2 {Draw by adjudication}']);
});

test('without setboard the position is entered in edit mode, after a dummy move when Black is to move', async () => {
  const m = await started('feature ping=0 setboard=0');
  const fen = '4k3/8/8/8/8/8/4P3/4K2R b K - 0 1';
  await m.client.newGame({ fen, chess960: false, limits: { ...TC, baseMs: 90_000, incMs: 0, moves: 40 } });
  assert.deepEqual(m.sent, ['new', 'force', 'b2b3', 'edit', '#', 'Ke1', 'Rh1', 'Pe2', 'c', 'Ke8', '.', 'level 40 1:30 0', 'post', 'easy']);
});

test('SAN engines get SAN moves; st, sd and the nps trick', async () => {
  const m = await started('feature san=1 nps=1');
  await m.client.newGame({ fen: START, chess960: false, limits: { ...TC, baseMs: 0, incMs: 0, movetimeMs: 2500, depth: 6, nodes: 5000 } });
  assert.deepEqual(m.sent.slice(2, 6), ['st 2.5', 'sd 6', 'st 1', 'nps 5000']);
  m.sent.length = 0;
  void m.client.go({ fen: START, moves: ['e2e4', 'e7e5', 'g1f3'] }, { movetime: 2500 });
  assert.deepEqual(m.sent, ['e4', 'e5', 'Nf3', 'go']);
});

test('resign, result claims and illegal-move complaints end a search; outside one they are notices', async () => {
  const m = await started('feature ping=1');
  const notices: EngineNotice[] = [];
  m.client.onNotice = (n) => notices.push(n);
  let r = m.client.go({ fen: START, moves: [] }, { wtime: 1000, btime: 1000 });
  m.feed('resign');
  assert.equal((await r).kind, 'resign');
  r = m.client.go({ fen: START, moves: ['e2e4', 'e7e5'] }, { wtime: 1000, btime: 1000 });
  m.feed('1-0 {White mates}');
  const c = await r;
  assert.deepEqual(c.kind === 'claim' && [c.result, c.comment], ['1-0', 'White mates']);
  r = m.client.go({ fen: START, moves: ['e2e4', 'e7e5', 'd2d4', 'd7d5'] }, { wtime: 1000, btime: 1000 });
  m.feed('Illegal move (not legal now): d7d5');
  assert.equal((await r).kind, 'rejected');
  m.feed('0-1 {Black mates}', 'offer draw', 'tellusers hello', 'Error (unknown command): foo');
  assert.deepEqual(notices, [{ kind: 'claim', result: '0-1', text: '0-1 {Black mates}' }]);
});

test('pong answers its ping and earlier ones; closing rejects what is pending', async () => {
  const m = await started('feature ping=1');
  const a = m.client.isReady();
  const b = m.client.isReady();
  m.feed('pong 2');
  await Promise.all([a, b]);
  const c = m.client.isReady();
  const d = m.client.go({ fen: START, moves: [] }, { wtime: 1000, btime: 1000 });
  m.client.closed('gone');
  await assert.rejects(c, /gone/);
  await assert.rejects(d, /gone/);
});

test('stop sends "?" only while searching', async () => {
  const m = await started('feature ping=0');
  m.client.stop();
  void m.client.go({ fen: START, moves: [] }, { wtime: 1000, btime: 1000 });
  m.sent.length = 0;
  m.client.stop();
  assert.deepEqual(m.sent, ['?']);
});

test('Chess960: variant fischerandom, castling sent as O-O / O-O-O (CECP), not king-takes-rook; the variants feature is read', async () => {
  const m = await started('feature ping=1 setboard=1 usermove=1 time=1 variants="normal,fischerandom"');
  assert.equal(m.client.supportsVariant('fischerandom'), true);
  const fen = 'nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w KQkq - 0 1';
  const ready = m.client.newGame({ fen, chess960: true, limits: TC });
  assert.deepEqual(m.sent.slice(0, 4), ['new', 'variant fischerandom', 'force', `setboard ${fen}`]);
  m.feed('pong 1');
  await ready;
  m.sent.length = 0;
  // The engine plays Black: White castles queenside with the king staying on c1 (c1b1 in UCI_Chess960).
  const r = m.client.go({ fen, moves: ['c1b1'] }, { wtime: 9000, btime: 9000 });
  assert.deepEqual(m.sent, ['usermove O-O-O', 'time 900', 'otim 900', 'go']);
  m.feed('move O-O');
  assert.deepEqual(await r, { kind: 'move', move: 'O-O', info: {} });
  m.sent.length = 0;
  const r2 = m.client.go({ fen, moves: ['c1b1', 'c8g8', 'g2g3'] }, { wtime: 9000, btime: 9000 });
  assert.deepEqual(m.sent, ['time 900', 'otim 900', 'usermove g2g3']);
  m.feed('move a8b6');
  await r2;
  // No variants feature: every variant is assumed (as xboard does); a list without it: not played.
  assert.equal((await started('feature ping=1')).client.supportsVariant('fischerandom'), true);
  assert.equal((await started('feature variants="normal,nocastle"')).client.supportsVariant('fischerandom'), false);
});

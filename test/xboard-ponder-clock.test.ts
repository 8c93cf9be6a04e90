/**
 * xboard pondering (`hard`): the search started on the expected reply is the engine's next
 * move, planned before XBoard sends that move's `time` and kept at the ponder hit. It must be
 * planned on the clock the engine will have then (what a UCI GUI sends with `go ponder`): the
 * last `time` less the thinking time of the move just made, plus the increment, plus the next
 * period's time after the last move of a `level` period, and with the reply counted in
 * `movestogo`. The thinking time is real time here, so the clock is checked within the time
 * the test took, not at a value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XboardServer } from '../src/protocol/xboard/server.js';
import { ScriptedHost } from './support/scriptedHost.js';

function ponderSession(): { host: ScriptedHost; send: (...lines: string[]) => string[] } {
  const host = new ScriptedHost('replace');
  host.ponderReplies = true;
  const out: string[] = [];
  const server = new XboardServer((l) => out.push(l), host);
  return {
    host,
    send(...lines) {
      const from = out.length;
      for (const l of lines) server.receive(l);
      return out.slice(from);
    },
  };
}

test('xboard ponder: the search on the expected reply plans on the clock after the move, with the increment, and counts the reply', () => {
  const { host, send } = ponderSession();
  send('new', 'hard', 'level 40 1 5', 'time 6000', 'otim 6000');
  const before = Date.now();
  send('go');
  host.tick();
  const thought = Date.now() - before;
  assert.equal(host.gos.length, 2, 'a ponder search after the move');
  const first = host.gos[0]!.limits;
  const ponder = host.gos[1]!.limits;
  assert.deepEqual([first.wtime, first.movestogo], [60000, 40]);
  assert.equal(ponder.ponder, true);
  // 60 s less the move's thinking time plus the 5 s increment (it was 60 s: the clock before the move).
  assert.ok(ponder.wtime! <= 65000 && ponder.wtime! >= 65000 - thought, `wtime ${ponder.wtime} after ${thought} ms`);
  assert.equal(ponder.btime, 60000);
  // White's second move: 39 to go in the period (it was 40, the reply not counted).
  assert.equal(ponder.movestogo, 39);
});

test('xboard ponder: after the last move of a period the next period time is on the clock', () => {
  const { host, send } = ponderSession();
  send('new', 'hard', 'level 2 1 0', 'time 6000', 'otim 6000', 'go');
  host.tick();
  // The expected reply is played: a ponder hit, and the search goes on as White's second move.
  const reply = host.gos[1]!.moves.at(-1)!;
  assert.equal(host.gos[1]!.limits.movestogo, 1);
  send('time 3000', 'otim 5000');
  const before = Date.now();
  send(`usermove ${reply}`);
  assert.ok(host.calls.includes('ponderhit'));
  host.tick();
  const thought = Date.now() - before;
  // White's second move ended the period of 2 moves: a minute more, and 2 moves to go.
  const next = host.gos[2]!.limits;
  assert.equal(next.ponder, true);
  assert.equal(next.movestogo, 2);
  assert.ok(next.wtime! <= 90000 && next.wtime! >= 90000 - thought, `wtime ${next.wtime} after ${thought} ms`);
  assert.equal(next.btime, 50000);
});

/**
 * `tabiya xboard` as a real process: a game as XBoard plays it, move-now, analysis mode,
 * pondering, and the result command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';
import { EngineProcess } from './engineProcess.js';

test('xboard process: a short game, ping, move now, analyze, hard, result, quit', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('xboard');
  t.after(() => e.kill());
  e.send('xboard');
  e.send('protover 2');
  assert.match(await e.expect(/^feature /), /done=1$/);
  e.send('new');
  e.send('level 0 0:10 0.1');
  e.send('post');
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const user of ['e2e4', 'g1f3', 'f1c4']) {
    e.send('time 1000');
    e.send('otim 1000');
    pos.play(unwrap(parseUci(pos, user)));
    e.send(`usermove ${user}`);
    const reply = (await e.expect(/^move /)).slice(5);
    const m = parseUci(pos, reply);
    assert.ok(m.ok, `reply ${reply}`);
    pos.play(m.value);
  }
  e.send('ping 11');
  assert.equal(await e.expect(/^pong /), 'pong 11');

  // Move now: '?' ends a long search at once with a legal move.
  e.send('st 30');
  e.send('usermove d2d3');
  pos.play(unwrap(parseUci(pos, 'd2d3')));
  await e.expect(/^\d+ -?\d+ \d+ \d+ /);
  e.send('?');
  const now = (await e.expect(/^move /, 3000)).slice(5);
  assert.ok(parseUci(pos, now).ok, now);

  // Analysis: thinking lines until exit, no move.
  e.send('force');
  e.send('analyze');
  await e.expect(/^6 -?\d+ \d+ \d+ /);
  e.send('exit');
  e.send('ping 12');
  assert.equal(await e.expect(/^pong /), 'pong 12');

  // Pondering on: the engine thinks on the expected reply and still answers ping.
  e.send('new');
  e.send('hard');
  e.send('st 1');
  e.send('usermove e2e4');
  const ponderReply = (await e.expect(/^move /, 5000)).slice(5);
  e.send('ping 13');
  assert.equal(await e.expect(/^pong /), 'pong 13');
  assert.ok(ponderReply.length >= 4);
  e.send('result 1/2-1/2 {agreed}');
  e.send('ping 14');
  assert.equal(await e.expect(/^pong /), 'pong 14');
  assert.equal(await e.quit(), 0);
});

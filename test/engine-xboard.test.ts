/**
 * `tabiya xboard` as a real process: a game as XBoard plays it, move-now, analysis mode,
 * pondering, and the result command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';
import { EngineProcess, pipeInto } from './engineProcess.js';

test('xboard process: a short game, ping, move now, analyze, hard, result, quit', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('xboard');
  t.after(() => e.kill());
  e.send('xboard');
  e.send('protover 2');
  // done=0 first: the search thread is still starting; done=1 once it can search (CECP).
  await e.expect(/^feature done=1$/);
  const features = e.lines.filter((l) => l.text.startsWith('feature ')).map((l) => l.text);
  assert.equal(features.length, 3);
  assert.equal(features[0], 'feature done=0');
  assert.match(features[1]!, /^feature myname=.* setboard=1 /);
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

  // Move now: '?' ends a long search with a legal move. The search is set for 10 minutes, far
  // past expect's hang bound, so only the '?' can bring its move in time.
  e.send('st 600');
  e.send('usermove d2d3');
  pos.play(unwrap(parseUci(pos, 'd2d3')));
  await e.expect(/^\d+ -?\d+ \d+ \d+ /);
  e.send('?');
  const now = (await e.expect(/^move /)).slice(5);
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
  const ponderReply = (await e.expect(/^move /)).slice(5);
  e.send('ping 13');
  assert.equal(await e.expect(/^pong /), 'pong 13');
  assert.ok(ponderReply.length >= 4);
  // Its thinking lines start with the reply it expects, which is not on the GUI's board, in
  // parentheses as PolyGlot shows it.
  const ponderLine = await e.expect(/^\d+ -?\d+ \d+ \d+ /);
  assert.match(ponderLine, /^\d+ -?\d+ \d+ \d+ \([a-h][1-8][a-h][1-8][qrbn]?\) [a-h][1-8][a-h][1-8]/);
  e.send('result 1/2-1/2 {agreed}');
  e.send('ping 14');
  assert.equal(await e.expect(/^pong /), 'pong 14');
  assert.equal(await e.quit(), 0);
});

/** The lines of `out` that are not the feature list or thinking output. */
const answers = (out: string[]): string[] => out.filter((l) => !l.startsWith('feature ') && !/^\d+ -?\d+ \d+ \d+ /.test(l));

test('xboard piped in: a search started before the end of the input plays its move; analysis is ended; then exit 0', { timeout: 120000 }, async () => {
  const r = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'sd 6', 'go']);
  assert.equal(r.code, 0);
  const move = answers(r.out);
  assert.equal(move.length, 1, move.join(' | '));
  assert.ok(parseUci(unwrap(positionFromFen(STARTING_FEN)), move[0]!.replace(/^move /, '')).ok, move[0]);
  assert.ok(r.out.some((l) => l.startsWith('6 ')), 'the search reached depth 6');

  const a = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'force', 'usermove e2e4', 'post', 'analyze']);
  assert.deepEqual([answers(a.out), a.code], [[], 0]);

  // Pondering after the move is not started once the input has ended; pings come after the move.
  const p = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'hard', 'sd 4', 'usermove e2e4', 'ping 5']);
  assert.deepEqual(answers(p.out).map((l) => l.split(' ')[0]), ['move', 'pong']);
  assert.equal(p.code, 0);
});

test('pong comes before the replies to what followed its ping (CECP: pong N marks that all before ping N is done)', { timeout: 60000 }, async () => {
  const r = await pipeInto('xboard', ['xboard', 'protover 2', 'ping 1', 'usermove e2e5', 'ping 2']);
  assert.deepEqual(answers(r.out), ['pong 1', 'Illegal move: e2e5', 'pong 2']);
  const claim = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'force', 'setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', 'ping 1', 'go', 'ping 2']);
  assert.deepEqual(answers(claim.out), ['pong 1', '1/2-1/2 {Stalemate}', 'pong 2']);
  // The same for UCI's isready.
  const uci = await pipeInto('uci', ['uci', 'isready', 'foo']);
  assert.deepEqual(uci.out.filter((l) => !/^(id|option) /.test(l)), ['uciok', 'readyok', 'info string unknown command: foo']);
});

test('xboard piped in: quit in the middle ends at once and nothing after it is read', { timeout: 60000 }, async () => {
  const r = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'sd 60', 'go', 'quit', 'ping 1']);
  assert.deepEqual([answers(r.out), r.code], [[], 0]);
  // A ping before quit is answered.
  const pinged = await pipeInto('xboard', ['xboard', 'protover 2', 'ping 7', 'quit', 'ping 8']);
  assert.deepEqual([answers(pinged.out).filter((l) => l.startsWith('pong')), pinged.code], [['pong 7'], 0]);
});

test('xboard: bad numbers are answered with Error (bad argument) and the engine goes on', { timeout: 60000 }, async () => {
  const r = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'sd abc', 'st -1', 'level 40 x 0', 'time zz', 'memory 0', 'sd 3', 'go']);
  const a = answers(r.out);
  assert.deepEqual(
    a.slice(0, 5).map((l) => /^Error \(bad argument: .*\): (.*)$/.exec(l)?.[1]),
    ['sd abc', 'st -1', 'level 40 x 0', 'time zz', 'memory 0'],
  );
  assert.match(a[5]!, /^move /);
  assert.equal(r.code, 0);
});

test('xboard: memory above the largest hash table is used up to it, and nothing pops up in the GUI', { timeout: 60000 }, async () => {
  // XBoard sends memory before every game: a telluser here would be a dialog each time.
  const r = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'memory 5000', 'ping 1', 'sd 3', 'go']);
  const a = answers(r.out);
  assert.deepEqual(a.filter((l) => /^(telluser|tellusererror|Error)/.test(l)), []);
  assert.equal(a[0], 'pong 1');
  assert.match(a[1]!, /^move /);
});

test('xboard: exit right after a move in analysis mode ends the analysis that move started; the next go plays', { timeout: 60000 }, async () => {
  // The move stops one analysis and starts the next while the first is still winding down;
  // exit must stop the second, or it runs for ever and the go after it never starts.
  const r = await pipeInto('xboard', ['xboard', 'protover 2', 'new', 'force', 'analyze', 'usermove e2e4', 'exit', 'sd 3', 'go'], 30000);
  assert.deepEqual(answers(r.out).map((l) => l.split(' ')[0]), ['move']);
});

test('xboard: cores reaches the search threads (what needs one thread says so at once)', { timeout: 60000 }, async () => {
  // BookReturn works on one search thread only, and the engine tells the user when there are
  // more: the telluser shows that cores 2 gave the engine two.
  const r = await pipeInto('xboard', ['xboard', 'protover 2', 'option BookReturn=1', 'cores 2', 'ping 1', 'cores 1', 'sd 3', 'go']);
  const a = answers(r.out);
  assert.match(a[0]!, /^telluser BookReturn: works with one search thread; with Threads 2 /);
  assert.equal(a[1], 'pong 1');
  assert.match(a[2]!, /^move /);
  assert.equal(r.code, 0);
});

/**
 * `tabiya uci` as a real process, driven by a scripted client: the search runs on a worker
 * thread, so isready, stop and ponderhit are answered while it searches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { makeUci, parseUci } from '../src/notation/uci.js';
import { legalMoves } from '../src/core/movegen.js';
import { EngineProcess, MAIN, pipeInto } from './engineProcess.js';

const STOCKFISH = '/usr/games/stockfish';

const legalFromStart = (moves: string[], best: string): boolean => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const m of moves) pos.play(unwrap(parseUci(pos, m)));
  return parseUci(pos, best).ok;
};

test('uci process: handshake, every go mode, isready during search, stop, ponderhit, quit', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  e.send('uci');
  await e.expect(/^uciok$/);
  e.send('setoption name Hash value 32');
  e.send('setoption name Move Overhead value 20');
  e.send('isready');
  await e.expect(/^readyok$/);
  e.send('ucinewgame');
  e.send('position startpos moves e2e4 e7e5');

  // Bounded searches end by themselves with a legal move.
  for (const go of ['go depth 5', 'go nodes 20000', 'go movetime 150', 'go wtime 3000 btime 3000 winc 50 binc 50', 'go wtime 800 btime 900 movestogo 2', 'go mate 3 movetime 300']) {
    e.send(go);
    const best = await e.expect(/^bestmove /);
    assert.ok(legalFromStart(['e2e4', 'e7e5'], best.split(' ')[1]!), `${go}: ${best}`);
  }

  // go infinite: keeps searching until stop; isready is answered meanwhile (readyok comes while no
  // bestmove has). Three times over: each stop ends its search and the engine answers the next go.
  // A stop not read during the search (only after it, which go infinite never reaches) leaves the
  // bestmove to expect's hang bound; that the search stops within a few hundred nodes of the
  // stop is test/engine-search.test.ts's, where the stop comes at a known point of the search.
  for (let i = 0; i < 3; i++) {
    const from = e.lines.length;
    e.send('go infinite');
    await e.expect(/^info depth 6 /);
    e.send('isready');
    await e.expect(/^readyok$/);
    assert.ok(!e.since(from).some((l) => l.startsWith('bestmove ')), `go infinite answered before stop: ${e.since(from).join(' | ')}`);
    e.send('stop');
    const best = await e.expect(/^bestmove /);
    assert.ok(legalFromStart(['e2e4', 'e7e5'], best.split(' ')[1]!), best);
  }

  // Pondering: no bestmove until ponderhit, then a timed search.
  e.send('position startpos moves e2e4 e7e5 g1f3');
  const pondering = e.lines.length;
  e.send('go ponder wtime 2000 btime 2000 winc 0 binc 0');
  await e.expect(/^info depth 4 /);
  e.send('isready');
  await e.expect(/^readyok$/);
  assert.ok(!e.since(pondering).some((l) => l.startsWith('bestmove ')), 'go ponder answered before ponderhit');
  e.send('ponderhit');
  const afterHit = await e.expect(/^bestmove /);
  assert.ok(legalFromStart(['e2e4', 'e7e5', 'g1f3'], afterHit.split(' ')[1]!));
  e.send('go ponder wtime 2000 btime 2000');
  await e.expect(/^info depth 3 /);
  e.send('stop');
  await e.expect(/^bestmove /);

  // MultiPV lines and a mate on the board.
  e.send('setoption name MultiPV value 3');
  e.send('position startpos');
  e.send('go depth 4');
  await e.expect(/^bestmove /);
  assert.ok(e.lines.some((l) => / multipv 3 /.test(l.text)));
  e.send('position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1');
  e.send('go movetime 100');
  assert.equal(await e.expect(/^bestmove /), 'bestmove (none)');

  assert.equal(await e.quit(), 0);
});

test('uci process: quit during a search ends the process', { timeout: 30000 }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  e.send('uci');
  await e.expect(/^uciok$/);
  e.send('position startpos');
  e.send('go infinite');
  await e.expect(/^info depth 3 /);
  assert.equal(await e.quit(), 0);
});

test('uci process: Threads 2 (Lazy SMP helpers) searches, stops and keeps answering', { timeout: 30000 }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  e.send('uci');
  await e.expect(/^uciok$/);
  e.send('setoption name Threads value 2');
  e.send('isready');
  await e.expect(/^readyok$/);
  e.send('position startpos moves d2d4');
  e.send('go depth 9');
  const best = await e.expect(/^bestmove /);
  assert.ok(legalFromStart(['d2d4'], best.split(' ')[1]!), best);
  e.send('go infinite');
  await e.expect(/^info depth 6 /);
  const searching = e.lines.length;
  e.send('isready');
  await e.expect(/^readyok$/);
  assert.ok(!e.since(searching).some((l) => l.startsWith('bestmove ')), 'go infinite answered before stop');
  e.send('stop');
  await e.expect(/^bestmove /);
  // A new size of the shared table reaches both threads; then a timed search ends by its clock.
  e.send('setoption name Hash value 64');
  e.send('isready');
  await e.expect(/^readyok$/);
  e.send('go movetime 300');
  const timed = await e.expect(/^bestmove /);
  assert.ok(legalFromStart(['d2d4'], timed.split(' ')[1]!), timed);
  e.send('setoption name Threads value 1');
  e.send('go depth 4');
  await e.expect(/^bestmove /);
  assert.equal(await e.quit(), 0);
});

/**
 * A hang bound for an answer that waits for a new hash table to be made and cleared (256 MB,
 * then 1 GB): well under a second on an idle machine, seconds on a loaded one (3.7 s for the
 * 1 GB table at a load of 15 on 2 cores; past expect's 10 s beside other tests). Not a speed:
 * nothing is judged by how much of it an answer takes.
 */
const TABLE_BOUND_MS = 60_000;

test('uci process: Hash N costs N once, not twice (the TypeScript table of a one-thread search stays untouched)', { timeout: 4 * TABLE_BOUND_MS }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  const rss = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${e.child.pid}/status`, 'utf8'))![1]) / 1024;
  e.send('uci');
  await e.expect(/^uciok$/);
  e.send('isready');
  await e.expect(/^readyok$/);
  const base = rss();
  const hash = 256; // a power of two: the tables round down to one
  e.send(`setoption name Hash value ${hash}`);
  for (let game = 0; game < 2; game++) {
    e.send('ucinewgame');
    e.send('position startpos moves e2e4');
    e.send('go depth 8');
    await e.expect(/^bestmove /, TABLE_BOUND_MS);
  }
  e.send('isready');
  await e.expect(/^readyok$/, TABLE_BOUND_MS);
  const grown = rss() - base;
  // The core's table is there (written by clearing it), and the other one is not.
  assert.ok(grown > hash * 0.9 && grown < hash * 1.5, `resident memory grew by ${grown.toFixed(0)} MB with Hash ${hash}`);
  // Beyond the core's limit the engine says what the search gets; readyok waits until the
  // search thread has the new tables.
  e.send('setoption name Hash value 2048');
  e.send('isready');
  await e.expect(/^readyok$/, TABLE_BOUND_MS);
  const note = e.lastIndex(/^info string Hash 2048 MB: the search uses 1024 MB of it/);
  assert.ok(note >= 0 && note < e.lastIndex(/^readyok$/), 'the note on the hash size comes before readyok');
  e.send('go depth 4');
  await e.expect(/^bestmove /);
  assert.equal(await e.quit(), 0);
});

/** The lines of `out` that are answers (not option lists or search progress). */
const answers = (out: string[]): string[] => out.filter((l) => !l.startsWith('option name ') && !l.startsWith('info depth '));

test('uci piped in: every command before the end of the input is answered, bestmove included, then exit 0 (as Stockfish)', { timeout: 120000 }, async () => {
  const r = await pipeInto('uci', ['uci', 'isready', 'position startpos', 'go depth 10']);
  assert.deepEqual([answers(r.out).slice(2), r.code], [['uciok', 'readyok', answers(r.out).at(-1)], 0]);
  assert.ok(legalFromStart([], answers(r.out).at(-1)!.split(' ')[1]!), answers(r.out).join(' | '));
  assert.ok(r.out.some((l) => l.startsWith('info depth 10 ')), 'the search reached its depth');

  // Searches that would never end by themselves are stopped at the end of the input, and answer.
  for (const go of ['go infinite', 'go ponder wtime 60000 btime 60000', 'go mate 40']) {
    const u = await pipeInto('uci', ['position startpos moves e2e4', go]);
    assert.equal(u.code, 0, go);
    assert.match(answers(u.out).at(-1)!, /^bestmove [a-h][1-8][a-h][1-8]/, go);
  }
  // A go during a search waits for it, and so do the commands after it: the second search is
  // from the position given after the first go; isready is answered during the second search.
  const two = await pipeInto('uci', ['position startpos', 'go depth 6', 'position startpos moves d2d4', 'go depth 5', 'isready']);
  const a = answers(two.out);
  assert.deepEqual(a.map((l) => l.split(' ')[0]), ['bestmove', 'readyok', 'bestmove']);
  assert.ok(legalFromStart(['d2d4'], a[2]!.split(' ')[1]!), a[2]);
});

test('uci: a position set up with more than 256 legal moves (twenty queens) is searched, searchmoves included', { timeout: 120000 }, async () => {
  // 259 legal moves (chessops counts the same): more than the 256 the search's lists once held.
  const fen = 'BQQQQQQB/Q6Q/Q6Q/Q6Q/Q6Q/QQ4QQ/pp3Q2/kBQQQK1Q w - - 0 1';
  const moves = legalMoves(unwrap(positionFromFen(fen))).map((m) => makeUci(m));
  assert.equal(moves.length, 259);
  const r = await pipeInto('uci', ['uci', `position fen ${fen}`, 'go depth 4']);
  assert.equal(r.code, 0, r.out.join('\n'));
  assert.equal(answers(r.out).at(-1), 'bestmove b1a2', 'Bxa2 mates');
  assert.ok(r.out.some((l) => /^info depth 4 .*score mate 1 /.test(l)), r.out.join('\n'));
  // 256 other moves, then the mate: a filter that held 256 moves dropped it.
  const list = [...moves.filter((m) => m !== 'b1a2').slice(0, 256), 'b1a2'];
  const f = await pipeInto('uci', ['uci', `position fen ${fen}`, `go depth 2 searchmoves ${list.join(' ')}`]);
  assert.equal(answers(f.out).at(-1), 'bestmove b1a2', 'the 257th move of searchmoves is searched');
});

test('uci piped in: quit in the middle stops the search at once and nothing after it is read', { timeout: 60000 }, async () => {
  const r = await pipeInto('uci', ['uci', 'position startpos', 'go depth 60', 'quit', 'isready', 'go depth 1']);
  const a = answers(r.out);
  assert.equal(r.code, 0);
  assert.deepEqual(a.slice(2).map((l) => l.split(' ')[0]), ['uciok', 'bestmove'], a.join(' | '));
  assert.ok(!r.out.some((l) => l.startsWith('info depth 30 ')), 'the depth-60 search was stopped early');
  // An isready before quit is answered, as Stockfish answers it, even while the engine starts.
  const ready = await pipeInto('uci', ['uci', 'setoption name Hash value 32', 'isready', 'quit']);
  assert.deepEqual(answers(ready.out).slice(-2), ['uciok', 'readyok']);
  // Also one queued behind a go that waits for the running search: the go is dropped, the isready answered.
  const queued = await pipeInto('uci', ['uci', 'position startpos', 'go depth 60', 'go depth 1', 'isready', 'quit']);
  assert.equal(queued.code, 0);
  assert.deepEqual(answers(queued.out).slice(2).map((l) => l.split(' ')[0]).sort(), ['bestmove', 'readyok', 'uciok'], queued.out.join(' | '));
});

test('uci: go with a bad number starts no search and says why; isready and a good go still work', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  e.send('position startpos');
  for (const [go, why] of [
    ['go depth abc', 'go depth: "abc" is not a whole number of plies, at least 1'],
    ['go depth -3', 'go depth: "-3" is not a whole number of plies, at least 1'],
    ['go nodes -1', 'go nodes: "-1" is not a whole number of nodes, at least 1'],
    ['go movetime x', 'go movetime: "x" is not a whole number of milliseconds, at least 1'],
  ] as const) {
    const from = e.lines.length;
    e.send(go);
    await e.expect(/^info string go: no search started$/);
    assert.deepEqual(e.lines.slice(from).map((l) => l.text), [`info string ${why}`, 'info string go: no search started']);
    e.send('isready');
    await e.expect(/^readyok$/);
    assert.ok(!e.lines.some((l) => /^(bestmove|info depth)/.test(l.text)), `${go}: no search ran`);
  }
  e.send('go depth 3');
  assert.ok(legalFromStart([], (await e.expect(/^bestmove /)).split(' ')[1]!));
  assert.equal(await e.quit(), 0);
});

test('uci: position with an illegal move leaves the engine where Stockfish is after the same command', { timeout: 60000, skip: !existsSync(STOCKFISH) && `${STOCKFISH} is not installed` }, async () => {
  const commands = ['position startpos moves e2e4 e7e6 e1e8 d2d4', 'position startpos moves g1f3 d7d5 g2g3 c8g4 f1g2 g4f3 e1g1 f3g2 zz a2a3', 'position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 moves e1c1 e8e7 a1a7'];
  for (const command of commands) {
    const ours = await pipeInto('uci', [command, 'd']);
    const fen = ours.out.find((l) => l.startsWith('info string fen '))!.slice('info string fen '.length);
    assert.match(ours.out.find((l) => l.startsWith('info string position: '))!, /^info string position: move \d+ of \d+, (illegal|unreadable UCI) move "/);
    const sf = spawnSync(STOCKFISH, { input: `${command}\nd\nquit\n`, encoding: 'utf8' });
    const theirs = /^Fen: (.*)$/m.exec(sf.stdout)![1]!;
    assert.equal(fen, theirs, command);
  }
});

test('uci: a GUI that closes the engine\'s output ends it with exit code 1 and one line on stderr, not a stack trace', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  let stderr = '';
  e.child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  e.send('uci');
  await e.expect(/^uciok$/);
  e.child.stdout.destroy();
  const exited = new Promise<number | null>((resolve) => e.child.on('exit', resolve));
  e.send('position startpos');
  e.send('go depth 30');
  assert.equal(await exited, 1);
  assert.equal(stderr, 'tabiya: cannot write to the GUI: broken pipe (the reader closed it); the engine stops\n');
});

test('uci: output to a full device ends the engine with exit code 1 and the reason in words', { skip: existsSync('/dev/full') ? false : 'no /dev/full', timeout: 60000 }, () => {
  const full = openSync('/dev/full', 'w');
  try {
    const r = spawnSync(process.execPath, [MAIN, 'uci'], { input: 'uci\nisready\ngo depth 5\n', stdio: ['pipe', full, 'pipe'], encoding: 'utf8', timeout: 30000 });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, 'tabiya: cannot write to the GUI: no space left on device; the engine stops\n');
  } finally {
    closeSync(full);
  }
});

test('go nodes below one iteration still completes depth 1 and answers its best move, as Stockfish does', () => {
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  const answer = (go: string): { info: string; best: string } => {
    const r = spawnSync(process.execPath, [MAIN, 'uci'], { input: `position fen ${fen}\n${go}\n`, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const info = r.stdout.split('\n').filter((l) => l.startsWith('info depth ')).at(-1) ?? '';
    return { info: info.replace(/ nps \d+| time \d+/g, ''), best: /^bestmove (\S+)/m.exec(r.stdout)?.[1] ?? '' };
  };
  const one = answer('go nodes 1');
  assert.match(one.info, /^info depth 1 /);
  assert.deepEqual(one, answer('go depth 1'));
});

test('go nodes N stops at N nodes, not at the next check of the limits', () => {
  for (const n of [1000, 5000, 20000, 100000]) {
    const r = spawnSync(process.execPath, [MAIN, 'uci'], { input: `position startpos\ngo nodes ${n}\n`, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const last = r.stdout.split('\n').filter((l) => l.startsWith('info depth ')).at(-1) ?? '';
    const nodes = Number(/ nodes (\d+)/.exec(last)?.[1]);
    // The nodes a stopped search still enters on its way out: a few, not the 511 of a check interval.
    assert.ok(nodes >= n && nodes <= n + 8, `go nodes ${n}: ${last}`);
    assert.match(r.stdout, /^bestmove \S+/m);
  }
});

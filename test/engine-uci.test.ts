/**
 * `tabiya uci` as a real process, driven by a scripted client: the search runs on a worker
 * thread, so isready, stop and ponderhit are answered while it searches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';
import { EngineProcess } from './engineProcess.js';

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

  // go infinite: keeps searching until stop; isready is answered meanwhile.
  e.send('go infinite');
  await e.expect(/^info depth 6 /);
  const ready = e.send('isready');
  await e.expect(/^readyok$/, 2000);
  assert.ok(Number.isNaN(e.arrival(/^bestmove /)) || e.arrival(/^bestmove /) < ready, 'no bestmove before stop');
  const stopLatencies: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) {
      e.send('go infinite');
      await e.expect(/^info depth 5 /);
    }
    const sent = e.send('stop');
    await e.expect(/^bestmove /);
    stopLatencies.push(e.arrival(/^bestmove /) - sent);
  }
  stopLatencies.sort((a, b) => a - b);
  // The best of three shows stop is read mid-search (the 50 ms the protocol needs); the worst
  // bounds scheduling noise on a loaded machine.
  const shown = `stop answered in ${stopLatencies.map((x) => x.toFixed(1)).join(', ')} ms`;
  assert.ok(stopLatencies[0]! < 50, shown);
  assert.ok(stopLatencies[2]! < 500, shown);

  // Pondering: no bestmove until ponderhit, then a timed search.
  e.send('position startpos moves e2e4 e7e5 g1f3');
  e.send('go ponder wtime 2000 btime 2000 winc 0 binc 0');
  await e.expect(/^info depth 4 /);
  e.send('isready');
  await e.expect(/^readyok$/);
  e.send('ponderhit');
  const afterHit = await e.expect(/^bestmove /, 5000);
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
  e.send('isready');
  await e.expect(/^readyok$/, 2000);
  e.send('stop');
  await e.expect(/^bestmove /, 2000);
  e.send('setoption name Threads value 1');
  e.send('go depth 4');
  await e.expect(/^bestmove /);
  assert.equal(await e.quit(), 0);
});

test('uci process: Hash N costs N once, not twice (the TypeScript table of a one-thread search stays untouched)', { timeout: 30000 }, async (t) => {
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
    await e.expect(/^bestmove /);
  }
  e.send('isready');
  await e.expect(/^readyok$/);
  const grown = rss() - base;
  // The core's table is there (written by clearing it), and the other one is not.
  assert.ok(grown > hash * 0.9 && grown < hash * 1.5, `resident memory grew by ${grown.toFixed(0)} MB with Hash ${hash}`);
  // Beyond the core's limit the engine says what a one-thread search gets; readyok waits until
  // the search thread has the new tables.
  e.send('setoption name Hash value 1024');
  e.send('isready');
  await e.expect(/^readyok$/);
  const note = e.arrival(/^info string Hash 1024 MB: a one-thread search uses 512 MB of it/);
  assert.ok(note < e.arrival(/^readyok$/), 'the note on the hash size comes before readyok');
  e.send('go depth 4');
  await e.expect(/^bestmove /);
  assert.equal(await e.quit(), 0);
});

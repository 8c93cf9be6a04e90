/**
 * `tabiya uci` and `tabiya xboard` as real processes with a constructed `.tbk`: the policy
 * options choosing the book move, BookDepth and Terra's limits leaving the book, bad option
 * values reported, and book learning rewriting the file after a finished game (UCI at the next
 * ucinewgame and at quit, xboard at result); xboard's `bk` and `hint` reading the book.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRichBook } from '../src/book/node/richFile.js';
import { makeUci } from '../src/notation/uci.js';
import { EngineProcess } from './engineProcess.js';
import { positionAfter, tbkBytes, type BookRow } from './support/tbk.js';

/** White's book walks into the fool's mate: 1.f3 e5 2.g4?? Qh4#. */
const ROWS: BookRow[] = [
  { line: '', move: 'f2f3', wdl: [10, 0, 0] },
  { line: '', move: 'e2e4', wdl: [1, 0, 0] },
  { line: 'f2f3 e7e5', move: 'g2g4', wdl: [10, 0, 0] },
  { line: 'f2f3 e7e5', move: 'b1c3', wdl: [1, 0, 0] },
];

/** The engine's own results (dynamic W/D/L) of a book move, read from the file. */
function ownStats(path: string, line: string, move: string): number[] {
  const opened = openRichBook(path, { verify: true });
  try {
    const pos = positionAfter(line);
    const m = opened.book.probe(pos).find((x) => makeUci(x.move, false) === move);
    return m ? [m.dynWins, m.dynDraws, m.dynLosses] : [];
  } finally {
    opened.close();
  }
}

/** xboard `bk`: the lines up to the empty line that ends the answer. */
async function bk(e: EngineProcess): Promise<string[]> {
  const from = e.lines.length;
  e.send('bk');
  await e.expect(/^$/);
  const lines = e.lines.slice(from).map((l) => l.text);
  return lines.slice(0, lines.indexOf(''));
}

/**
 * Waits until `check` holds (the book as learning writes it, which may come after the engine has
 * answered). `ms` is a hang bound, far above what a loaded machine needs: only a change that
 * never comes reaches it.
 */
async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met in ${ms / 1000} s (hang bound)`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends go and returns the bestmove, and whether the engine searched (info lines) first. */
async function go(e: EngineProcess, cmd = 'go depth 4'): Promise<{ move: string; searched: boolean }> {
  const from = e.lines.length;
  e.send(cmd);
  const best = await e.expect(/^bestmove /);
  const searched = e.lines.slice(from).some((l) => l.text.startsWith('info depth'));
  return { move: best.split(' ')[1]!, searched };
}

test('uci: book policy options, BookDepth, Terra limits, leaving the book, learning at ucinewgame and quit', { timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-uci-book-'));
  const e = new EngineProcess('uci');
  t.after(() => {
    e.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const path = join(dir, 'fool.tbk');
  writeFileSync(path, tbkBytes(ROWS));
  e.send('uci');
  await e.expect(/^uciok$/);
  for (const name of ['BookPolicy', 'RandomType', 'BookLimit', 'MinBookGames', 'MinTerraGames', 'TerraLimit', 'UserGroupPercent', 'PostBook', 'BookThreshold', 'BookLearning']) {
    assert.ok(e.lines.some((l) => l.text.startsWith(`option name ${name} type `)), name);
  }
  assert.ok(e.lines.some((l) => l.text === 'option name BookPolicy type combo default terra var terra var polyglot-best var polyglot-weighted var gnu-best var gnu-worst var gnu-random var uniform'));
  for (const o of [`BookFile value ${path}`, 'OwnBook value true', 'BookLearning value true', 'BookPolicy value gnu-worst']) e.send(`setoption name ${o}`);
  e.send('isready');
  await e.expect(/^readyok$/);
  e.send('ucinewgame');
  e.send('position startpos');
  assert.deepEqual(await go(e), { move: 'e2e4', searched: false }, 'gnu-worst: the smallest weight');
  e.send('setoption name BookPolicy value gnu-best');
  assert.deepEqual(await go(e), { move: 'f2f3', searched: false }, 'gnu-best: the largest weight');
  e.send('position startpos moves f2f3 e7e5');
  assert.deepEqual(await go(e), { move: 'g2g4', searched: false });
  // The opponent mates: the GUI shows the final position; learning waits for ucinewgame.
  e.send('position startpos moves f2f3 e7e5 g2g4 d8h4');
  e.send('isready');
  await e.expect(/^readyok$/);
  assert.deepEqual(ownStats(path, '', 'f2f3'), [0, 0, 0]);
  e.send('ucinewgame');
  await until(() => ownStats(path, '', 'f2f3')[2] === 1);
  assert.deepEqual(ownStats(path, 'f2f3 e7e5', 'g2g4'), [0, 0, 1]);
  assert.deepEqual(ownStats(path, '', 'e2e4'), [0, 0, 0], 'a move the engine did not play learns nothing');

  // BookDepth 2: the third ply is searched although the position is in the book.
  e.send('setoption name BookDepth value 2');
  e.send('position startpos moves f2f3 e7e5');
  assert.equal((await go(e, 'go depth 3')).searched, true);
  e.send('setoption name BookDepth value 0');
  // Leaving the book: a position it does not hold.
  e.send('position startpos moves d2d4');
  assert.equal((await go(e, 'go depth 3')).searched, true);

  // Terra: 1.f3 has 10 games (≥ MinBookGames 4), 1.e4 one; MinBookGames 20 leaves nothing to play.
  e.send('setoption name BookPolicy value terra');
  e.send('position startpos');
  assert.deepEqual(await go(e), { move: 'f2f3', searched: false });
  e.send('setoption name MinBookGames value 20');
  assert.equal((await go(e, 'go depth 3')).searched, true);
  e.send('setoption name MinBookGames value 4');
  e.send('setoption name BookLimit value 200');
  assert.match(await e.expect(/^info string option /), /BookLimit: "200" is not a whole number from 0 to 100; not changed/);

  // A second game, learned at quit: the process ends only after the book is written.
  e.send('ucinewgame');
  e.send('position startpos');
  assert.deepEqual(await go(e), { move: 'f2f3', searched: false });
  e.send('position startpos moves f2f3 e7e5');
  assert.deepEqual(await go(e), { move: 'g2g4', searched: false });
  e.send('position startpos moves f2f3 e7e5 g2g4 d8h4');
  assert.equal(await e.quit(), 0);
  assert.deepEqual(ownStats(path, '', 'f2f3'), [0, 0, 2]);
  assert.deepEqual(ownStats(path, 'f2f3 e7e5', 'g2g4'), [0, 0, 2]);
});

test('uci: a GUI that never sends ucinewgame: each finished game is learned when the next one is set up', { timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-uci-nonew-'));
  const e = new EngineProcess('uci');
  t.after(() => {
    e.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const path = join(dir, 'fool.tbk');
  writeFileSync(path, tbkBytes(ROWS));
  e.send('uci');
  await e.expect(/^uciok$/);
  for (const o of [`BookFile value ${path}`, 'OwnBook value true', 'BookLearning value true', 'BookPolicy value gnu-best']) e.send(`setoption name ${o}`);
  for (let game = 0; game < 3; game++) {
    e.send('position startpos');
    assert.deepEqual(await go(e), { move: 'f2f3', searched: false });
    e.send('position startpos moves f2f3 e7e5');
    assert.deepEqual(await go(e), { move: 'g2g4', searched: false });
    e.send('position startpos moves f2f3 e7e5 g2g4 d8h4');
    // The same finished game shown again (a GUI's last look at it) is not another game.
    e.send('position startpos moves f2f3 e7e5 g2g4 d8h4');
  }
  assert.equal(await e.quit(), 0);
  assert.deepEqual(ownStats(path, '', 'f2f3'), [0, 0, 3], 'three games, three losses');
  assert.deepEqual(ownStats(path, 'f2f3 e7e5', 'g2g4'), [0, 0, 3]);
});

test('uci: BookLearning with a Polyglot .bin says that such a book does not learn', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  e.send('uci');
  await e.expect(/^uciok$/);
  const bin = new URL('../../data/tabiya.bin', import.meta.url).pathname;
  e.send(`setoption name BookFile value ${bin}`);
  e.send('setoption name BookLearning value true');
  e.send('isready');
  await e.expect(/^readyok$/);
  assert.deepEqual(
    e.lines.filter((l) => l.text.startsWith('info string')).map((l) => l.text),
    [`info string BookLearning: ${bin} is a Polyglot book, which keeps no learning; only a .tbk book learns (make one from the games with tabiya book make -o NAME.tbk)`],
  );
});

test('uci: BookReturn with Threads above 1 says that it steers only on one thread', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('uci');
  t.after(() => e.kill());
  e.send('uci');
  await e.expect(/^uciok$/);
  // No book: setting BookReturn with one would index it into the user's cache directory.
  e.send('setoption name Threads value 2');
  e.send('setoption name BookReturn value true');
  e.send('isready');
  await e.expect(/^readyok$/);
  // Back to one thread: nothing to say; the option works again.
  e.send('setoption name Threads value 1');
  e.send('isready');
  await e.expect(/^readyok$/);
  const said = e.lines.filter((l) => l.text.startsWith('info string')).map((l) => l.text);
  assert.deepEqual(said, ['info string BookReturn: works with one search thread; with Threads 2 the engine does not steer back into the book (set Threads 1 for it)']);
});

test('xboard: book options as features, the policy choosing, learning at result', { timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-xboard-book-'));
  const e = new EngineProcess('xboard');
  t.after(() => {
    e.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const path = join(dir, 'fool.tbk');
  writeFileSync(path, tbkBytes(ROWS));
  e.send('xboard');
  e.send('protover 2');
  const features = await e.expect(/^feature myname=/);
  assert.match(features, /option="BookPolicy -combo \*terra \/\/\/ polyglot-best \/\/\/ /);
  assert.match(features, /option="MinTerraGames -spin 3 1 1000000000"/);
  assert.match(features, /option="BookLearning -check 0"/);
  for (const o of [`BookFile=${path}`, 'OwnBook=1', 'BookLearning=1', 'BookPolicy=gnu-worst']) e.send(`option ${o}`);
  e.send('option BookLimit=lots');
  assert.match(await e.expect(/^Error /), /BookLimit: "lots" is not a number/);
  assert.deepEqual(await bk(e), [' e4  play   100%  1 game, 100% (+1 =0 -0)', ' f3  play     0%  10 games, 100% (+10 =0 -0)'], 'gnu-worst plays the smallest weight');
  e.send('hint');
  assert.equal(await e.expect(/^Hint: /), 'Hint: e2e4');
  e.send('new');
  e.send('sd 4');
  e.send('go');
  assert.equal(await e.expect(/^move /), 'move e2e4');
  e.send('new');
  e.send('option BookPolicy=gnu-best');
  e.send('sd 4');
  e.send('go');
  assert.equal(await e.expect(/^move /), 'move f2f3');
  e.send('usermove e7e5');
  assert.equal(await e.expect(/^move /), 'move g2g4');
  e.send('usermove d8h4');
  assert.match(await e.expect(/^0-1 /), /Black mates/);
  e.send('force');
  e.send('result 0-1 {Black mates}');
  await until(() => ownStats(path, 'f2f3 e7e5', 'g2g4')[2] === 1);
  // bk reads the file as learning left it: the engine's own loss with 1.f3 shows.
  e.send('new');
  e.send('force');
  assert.deepEqual(await bk(e), [' f3  play   100%  10 games, 100% (+10 =0 -0)  own 1 game 0%', ' e4  play     0%  1 game, 100% (+1 =0 -0)']);
  e.send('usermove b2b3');
  assert.deepEqual(await bk(e), [' no book moves in this position']);
  assert.equal(await e.quit(), 0);
  assert.deepEqual(ownStats(path, '', 'f2f3'), [0, 0, 1]);
  assert.deepEqual(ownStats(path, 'f2f3 e7e5', 'g2g4'), [0, 0, 1]);
  assert.deepEqual(ownStats(path, '', 'e2e4'), [0, 0, 0], 'the first game had no result: nothing learned');
});

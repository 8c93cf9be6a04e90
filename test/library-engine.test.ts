/**
 * The engine from Node code, as the README shows it: its example, type-checked strictly and run
 * in a project with the package installed, starts `tabiya uci` through the package root's
 * `openEngine` and prints a legal reply; mistakes are errors before anything is sent; any UCI
 * engine (Stockfish) runs the same way; `tabiya/engine`'s BrowserEngine, which needs Web
 * Workers, points a Node caller to that route.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Board } from '../src/board.js';
import { BrowserEngine } from '../src/engine/browserEngine.js';
import { openEngine } from '../src/node/openEngine.js';
import { liveEngineCount } from '../src/node/engineProcess.js';

const STOCKFISH = '/usr/games/stockfish';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

test("the README's engine in Node: type-checks, runs and answers with a legal move", () => {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8');
  const code = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('openEngine('));
  assert.ok(code !== undefined, 'README: the Node engine example');
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-node-engine-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO, join(dir, 'node_modules', 'tabiya'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'engine.ts'), code);
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
      '--types', 'node', '--typeRoots', join(REPO, 'node_modules/@types'), 'engine.ts'], { cwd: dir, encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    const r = spawnSync(process.execPath, ['engine.js'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const board = new Board();
    board.push('e2e4');
    board.push('e7e5');
    const [move] = r.stdout.trim().split(' ');
    assert.ok(board.moves().some((m) => m.uci === move), `a legal move after 1. e4 e5: ${r.stdout}`);
    assert.match(r.stdout, /\{ kind: 'cp', value: -?\d+ \} \[/, 'the score and the line');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('openEngine: mistakes are errors before anything is sent; the engine goes on after them; quit ends the process', async () => {
  const engine = await openEngine();
  try {
    assert.match(engine.name ?? '', /^tabiya /);
    await assert.rejects(engine.go({ moves: ['e4', 'e4'] }, { depth: 1 }), /^RangeError: move 2: illegal move "e4" in position rnbqkbnr\/pppppppp\/8\/8\/4P3\/8\/PPPP1PPP\/RNBQKBNR b KQkq - 0 1/);
    await assert.rejects(engine.go({ fen: '8/8/8/8/8/8/8/8 w - - 0 1' }, { depth: 1 }), /king/i);
    await assert.rejects(engine.setOptions({ Hashh: 16 }), /has no option "Hashh" \(it offers Hash, /);
    // All or none: a bad value after a good one sends neither.
    await assert.rejects(engine.setOptions({ MultiPV: 3, Hash: -5 }), /option "Hash": -5 is outside 1\.\.\d+/);
    const one = await engine.go({ fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' }, { depth: 4 });
    assert.equal(one.move, 'a1a8', 'mate in one, and one line only (MultiPV was not set)');
    assert.deepEqual(one.info.score, { kind: 'mate', value: 1 });
    // SAN and UCI moves alike; a search without limits runs until stop.
    const running = engine.go({ moves: ['d4', 'g8f6', 'c2c4'] });
    await new Promise((r) => setTimeout(r, 300));
    engine.stop();
    const stopped = await running;
    const board = new Board();
    for (const m of ['d4', 'g8f6', 'c2c4']) board.push(m);
    assert.ok(board.moves().some((m) => m.uci === stopped.move), stopped.move);
    await engine.newGame();
  } finally {
    await engine.quit();
  }
  assert.equal(liveEngineCount(), 0, 'no engine process left');
  await assert.rejects(openEngine({ cmd: '/nonexistent/engine' }), /^Error: cannot start the engine \/nonexistent\/engine: spawn \/nonexistent\/engine ENOENT/);
  await assert.rejects(openEngine({ cmd: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], startupMs: 500 }), /did not finish the UCI handshake \(uciok\) within 500 ms/);
  assert.equal(liveEngineCount(), 0, 'a silent engine is killed');
});

test('openEngine runs any UCI engine: Stockfish', { skip: !existsSync(STOCKFISH) && `${STOCKFISH} is not installed` }, async () => {
  const sf = await openEngine({ cmd: STOCKFISH, options: { Threads: 1, Hash: 16 } });
  try {
    assert.match(sf.name ?? '', /^Stockfish/);
    const r = await sf.go({ fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' }, { depth: 6 });
    assert.equal(r.move, 'a1a8');
    assert.deepEqual(r.info.score, { kind: 'mate', value: 1 });
  } finally {
    await sf.quit();
  }
});

test('openEngine sends what UCI asks: options once checked, UCI_Chess960 before a Chess960 position, moves in UCI', async () => {
  // An engine that writes down every line it is sent and answers with its first legal-looking move.
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-uci-transcript-'));
  const log = join(dir, 'received.txt');
  const script = `
    const fs = require('node:fs');
    require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
      fs.appendFileSync(${JSON.stringify(log)}, l + '\\n');
      if (l === 'uci') console.log('id name Scribe\\noption name Hash type spin default 16 min 1 max 64\\noption name UCI_Chess960 type check default false\\nuciok');
      else if (l === 'isready') console.log('readyok');
      else if (l.startsWith('go')) console.log('info depth 1 score cp 12 pv b1h1\\nbestmove b1h1');
      else if (l === 'quit') process.exit(0);
    });`;
  const engine = await openEngine({ cmd: process.execPath, args: ['-e', script], options: { hash: 32 } });
  try {
    await assert.rejects(engine.setOptions({ Hash: 65 }), /option "Hash": 65 is outside 1\.\.64/);
    const r = await engine.go({ fen: 'rk5r/pp6/8/8/8/8/PP6/RK5R w HAha - 0 1', moves: ['O-O', 'a7a6'] }, { depth: 1 });
    assert.equal(r.move, 'b1h1');
    assert.deepEqual(r.info.score, { kind: 'cp', value: 12 });
  } finally {
    await engine.quit();
  }
  try {
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [
      'uci',
      'setoption name Hash value 32',
      'isready',
      'setoption name UCI_Chess960 value true',
      // Castling in Chess960 UCI: the king takes its own rook.
      'position fen rk5r/pp6/8/8/8/8/PP6/RK5R w HAha - 0 1 moves b1h1 a7a6',
      'go depth 1',
      'quit',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('BrowserEngine in Node names the route that works there', async () => {
  const e = new BrowserEngine({ assets: 'http://127.0.0.1/vendor/' });
  await assert.rejects(e.search({ depth: 1 }), /needs Web Workers \(a browser\); in Node, use the package root's openEngine/);
});

/**
 * The engine's search (Engine over the WebAssembly core, src/engine/wasmSearch.ts): no core is
 * a clear error; a new game and a resized table search as a fresh engine does; game history
 * (repetitions), searchmoves, the mate limit, other evaluation weights, book-aware search,
 * MultiPV and Skill Level; Threads 2 without the shared build; stop and ponderhit from another
 * thread. The node-for-node guard is the bench signature (test/engine-cli.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { legalMoves } from '../src/core/movegen.js';
import { BENCH_POSITIONS } from '../src/engine/bench.js';
import type { BookProbe } from '../src/engine/bookProbe.js';
import { Engine, type SearchInfo } from '../src/engine/engine.js';
import { resetWeights, weightsFromJson, weightsToJson } from '../src/engine/evalParams.js';
import { SIG_PONDER, SIG_SIZE, SIG_STOP } from '../src/engine/signals.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { makeFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';

const engine = (hashMB = 16): Engine => new Engine({ hashMB, wasm: wasmCoreModule() });

/** The parts of a search that do not depend on the clock. */
const summary = (r: { bestMove: number; score: number; depth: number; nodes: number; pv: number[] }): unknown => [r.bestMove, r.score, r.depth, r.nodes, r.pv];

test('engine: without a WebAssembly core, a clear error', () => {
  assert.throws(() => new Engine({ hashMB: 1 }), /no WebAssembly core given.*npm run build/);
});

test('engine: after newGame, and with a table resized (larger, then smaller), it searches as a fresh engine', () => {
  const fresh = engine(4);
  fresh.setPosition(BENCH_POSITIONS[1]);
  const want = summary(fresh.go({ depth: 9 }));
  // The smaller table reuses the larger one's memory: it must be as empty as a new one.
  const resized = engine(16);
  resized.resizeHash(64);
  resized.resizeHash(4);
  resized.setPosition(BENCH_POSITIONS[1]);
  assert.deepEqual(summary(resized.go({ depth: 9 })), want, 'after resizeHash 64, 4');
  // A warm table and histories make the same search cheaper; newGame forgets them.
  const warm = resized.go({ depth: 9 });
  assert.ok(warm.nodes < (want as number[])[3]!, `warm: ${warm.nodes} nodes`);
  resized.newGame();
  assert.deepEqual(summary(resized.go({ depth: 9 })), want, 'after newGame');
});

test('engine: game history (a repetition is a draw), searchmoves, mate limit', () => {
  const e = engine(8);
  // Knights out and back: the start position came twice already; f6g8 brings it a third time.
  const moves = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1'];
  e.setPosition(undefined, moves);
  const back = parseUci(e.pos, 'f6g8');
  assert.ok(back.ok);
  const repeated = e.go({ depth: 8, searchmoves: [back.value] });
  assert.deepEqual([repeated.bestMove, repeated.score, repeated.pv.length], [back.value, 0, 1], 'with the history, f6g8 repeats the position: a draw at once');
  // The same position without its history: f6g8 is an ordinary move, searched on (its score
  // may still happen to be 0, so the line's length tells).
  e.setPosition(makeFen(e.pos));
  const plain = e.go({ depth: 8, searchmoves: [back.value] });
  assert.ok(plain.pv.length > 1, `without the history, no draw: a line of ${plain.pv.length} moves`);
  e.setPosition();
  const search = ['e2e4', 'h2h4', 'b1c3'].map((m) => {
    const r = parseUci(e.pos, m);
    assert.ok(r.ok);
    return r.value;
  });
  const r = e.go({ depth: 7, searchmoves: search });
  assert.ok(search.includes(r.bestMove) && r.pv[0] === r.bestMove);
  // Back-rank mate in one: `go mate 1` ends at the iteration that finds it.
  e.setPosition('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1');
  const m = e.go({ mate: 1 });
  assert.ok(m.depth < 10 && m.score > 31000, `depth ${m.depth}, score ${m.score}`);
  assert.equal(m.pv.length, 1);
});

test('engine: other evaluation weights change the search, the defaults bring it back; book-aware search', () => {
  const e = engine(8);
  const fen = BENCH_POSITIONS[3];
  e.setPosition(fen);
  const base = summary(e.go({ depth: 8 }));
  const saved = weightsToJson();
  try {
    const w = weightsToJson();
    w['tempo'] = [[40, 20]];
    w['bishopPair'] = [[10, 90]];
    weightsFromJson(w);
    e.newGame();
    assert.notDeepEqual(summary(e.go({ depth: 8 })), base, 'other weights, another search');
  } finally {
    resetWeights();
    weightsFromJson(saved);
  }
  e.newGame();
  assert.deepEqual(summary(e.go({ depth: 8 })), base, 'weights back');
  // A book that knows every position after the root: deepening stops at bookMinDepth.
  let asked = 0;
  e.book = { knowsWell: () => ++asked > 0, choose: () => 0, avoided: () => [] } as unknown as BookProbe;
  e.settings.bookAwareSearch = true;
  const r = e.go({ depth: 10 });
  assert.deepEqual([r.reason, r.depth], ['book-pv', 4]);
  assert.ok(asked >= 1);
});

test('engine: MultiPV and Skill Level; Threads 2 without the shared build searches alone in the core', () => {
  const e = engine(8);
  e.setPosition(BENCH_POSITIONS[4]);
  e.settings.multiPV = 3;
  for (const depth of [7, 8]) {
    const lines = e.go({ depth }).lines ?? [];
    assert.equal(lines.length, 3, `MultiPV 3, depth ${depth}`);
    assert.equal(new Set(lines.map((l) => l.move)).size, 3, 'three different moves');
    assert.ok(lines.every((l, k) => l.pv[0] === l.move && (k === 0 || l.score <= lines[k - 1]!.score)), 'best first');
  }
  e.settings.multiPV = 1;
  assert.equal(e.go({ depth: 7 }).lines, undefined, 'MultiPV 1 again');
  e.settings.skill = { level: 5, elo: 0, random: () => 0.5 };
  assert.equal(e.go({ depth: 7 }).lines?.length, 4, 'Skill Level 5 searches four lines to choose from');
  e.settings.skill = { level: 20, elo: 0 };
  // No shared memory (EngineOptions.smp): the main thread searches as Threads 1, in the core;
  // a helper does nothing.
  e.newGame();
  const one = e.go({ depth: 6 });
  e.newGame();
  const p = e.go({ depth: 6 }, undefined, { threads: 2, helper: false });
  assert.equal(e.lastCore, 'wasm');
  assert.deepEqual([p.nodes, p.bestMove, p.pv], [one.nodes, one.bestMove, one.pv]);
  const h = e.go({ depth: 6 }, undefined, { threads: 2, helper: true });
  assert.deepEqual([h.bestMove, h.nodes, e.lastCore], [0, 0, 'none']);
});

/**
 * A thread that writes `value` at `slot` of the signal array after `ms`, and the time it did so
 * (Date.now(), the same clock in every thread) in `when`: the main thread's own timing starts only
 * when it hears the thread is online, which on a loaded machine can be late.
 */
function signalLater(signals: Int32Array, slot: number, value: number, ms: number): { worker: Worker; when: Float64Array } {
  const when = new Float64Array(new SharedArrayBuffer(8));
  const code = `
    const { workerData: { buffer, when, slot, value, ms } } = require('node:worker_threads');
    const s = new Int32Array(buffer);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    new Float64Array(when)[0] = Date.now();
    Atomics.store(s, slot, value);
    Atomics.notify(s, 0);`;
  return { worker: new Worker(code, { eval: true, workerData: { buffer: signals.buffer, when: when.buffer, slot, value, ms } }), when };
}

test('engine: stop and ponderhit from another thread', async () => {
  const signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  const engine = new Engine({ hashMB: 8, signals, wasm: wasmCoreModule() });
  engine.setPosition(BENCH_POSITIONS[1]);
  engine.go({ depth: 3 }); // instantiate and warm up before timing

  // go infinite: runs until stopped, and not long after.
  const stopper = signalLater(signals, SIG_STOP, 1, 300);
  await new Promise((r) => stopper.worker.once('online', r));
  const r = engine.go({ infinite: true });
  const ended = Date.now();
  assert.equal(engine.lastCore, 'wasm');
  assert.equal(Atomics.load(signals, SIG_STOP), 1, 'the search ran until the stop');
  assert.ok(r.bestMove !== 0 && ended >= stopper.when[0]! && ended - stopper.when[0]! < 1000, `stopped ${ended - stopper.when[0]!} ms after the stop`);
  await new Promise((res) => stopper.worker.once('exit', res));

  // go ponder with a 200 ms movetime: the clock starts at ponderhit, 300 ms in.
  Atomics.store(signals, SIG_STOP, 0);
  Atomics.store(signals, SIG_PONDER, 1);
  const hitter = signalLater(signals, SIG_PONDER, 0, 300);
  await new Promise((res) => hitter.worker.once('online', res));
  const infos: SearchInfo[] = [];
  const p = engine.go({ ponder: true, movetime: 200 }, (i) => infos.push(i));
  const afterHit = Date.now() - hitter.when[0]!;
  assert.equal(engine.lastCore, 'wasm');
  assert.ok(hitter.when[0]! > 0, 'the search pondered until the ponderhit');
  assert.ok(p.bestMove !== 0 && p.ponderMove !== 0, 'best and ponder moves');
  // The search takes the movetime less the move overhead (10 ms by default, timeman.ts); Date.now()
  // is in whole milliseconds, so 190 ms may read as 189.
  assert.ok(afterHit >= 189 && afterHit < 1500, `the 200 ms search ended ${afterHit} ms after the ponderhit`);
  assert.ok(infos.length >= 5, `${infos.length} info lines`);
  assert.ok(infos.every((i, k) => i.pv.length > 0 && (k === 0 || i.depth >= infos[k - 1]!.depth)));
  await new Promise((res) => hitter.worker.once('exit', res));
});

test('engine: pondering on a book position answers the book move at the ponderhit, without a search', async () => {
  const signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  const engine = new Engine({ hashMB: 8, signals, wasm: wasmCoreModule() });
  engine.setPosition(BENCH_POSITIONS[1]);
  engine.go({ depth: 3 }); // warm up before timing
  const move = legalMoves(engine.pos)[0]!;
  engine.book = { choose: () => move, avoided: () => [], knowsWell: () => false } as unknown as BookProbe;
  engine.settings.ownBook = true;
  Atomics.store(signals, SIG_STOP, 0);
  Atomics.store(signals, SIG_PONDER, 1);
  const hitter = signalLater(signals, SIG_PONDER, 0, 300);
  await new Promise((res) => hitter.worker.once('online', res));
  const r = engine.go({ ponder: true, wtime: 60_000, btime: 60_000 });
  const afterHit = Date.now() - hitter.when[0]!;
  assert.ok(hitter.when[0]! > 0, 'no answer before the ponderhit');
  assert.deepEqual([r.bestMove, r.reason], [move, 'book']);
  // Until 2026-12-06 the ponder search went on after the ponderhit, on the clock (3.3 s of 60 s).
  assert.ok(afterHit < 200, `answered ${afterHit} ms after the ponderhit`);
  await new Promise((res) => hitter.worker.once('exit', res));
});

/**
 * The engine searching in the WebAssembly core (Engine with `wasm`, src/engine/wasmSearch.ts)
 * against the engine searching in TypeScript: which core ran (Engine.lastCore), the same node
 * counts, moves, scores, PVs and info lines for depth- and node-limited searches in a row (hash
 * and histories kept), with game history, searchmoves, the mate limit, book-aware search and
 * other evaluation weights; stop and ponderhit from another thread; and the requests that run
 * the TypeScript search instead (MultiPV, Skill Level, parallel search, no module).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { runBench, BENCH_POSITIONS } from '../src/engine/bench.js';
import type { BookProbe } from '../src/engine/bookProbe.js';
import { Engine, type SearchInfo, type SearchResult } from '../src/engine/engine.js';
import { resetWeights, weightsFromJson, weightsToJson } from '../src/engine/eval/params.js';
import type { GoLimits } from '../src/engine/search/limits.js';
import { SIG_PONDER, SIG_SIZE, SIG_STOP } from '../src/engine/search/thread.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { parseUci } from '../src/notation/uci.js';

const pair = (hashMB = 16): { ts: Engine; wasm: Engine } => ({ ts: new Engine({ hashMB }), wasm: new Engine({ hashMB, wasm: wasmCoreModule() }) });

/**
 * The parts of a result and its info lines that must not depend on the core (not the times).
 * Aspiration bound lines are left out: they are sent only once a search has run 2 s, so on a
 * busy machine the slower TypeScript search sends some that the core, done sooner, does not.
 */
function summary(r: SearchResult, infos: SearchInfo[]): unknown {
  return {
    result: [r.bestMove, r.ponderMove, r.score, r.depth, r.seldepth, r.nodes, r.pv, r.lines, r.reason],
    infos: infos.filter((i) => i.bound === undefined).map((i) => [i.depth, i.seldepth, i.multipv, i.score, i.mate, i.nodes, i.pv]),
  };
}

/** Runs `limits` on both engines (same position); checks the cores that ran and that they agree. */
function both(e: { ts: Engine; wasm: Engine }, limits: GoLimits, core: 'wasm' | 'ts' = 'wasm', where = ''): SearchResult {
  const ti: SearchInfo[] = [];
  const wi: SearchInfo[] = [];
  const t = e.ts.go(limits, (i) => ti.push(i));
  const w = e.wasm.go(limits, (i) => wi.push(i));
  assert.equal(e.ts.lastCore, 'ts');
  assert.equal(e.wasm.lastCore, core, `${where}: the core that searched`);
  assert.deepEqual(summary(w, wi), summary(t, ti), where);
  return w;
}

test('engine in the wasm core: the nodes, moves, scores, PVs and info lines of the TypeScript search', () => {
  const e = pair();
  let nodes = 0;
  BENCH_POSITIONS.slice(0, 10).forEach((fen, i) => {
    e.ts.setPosition(fen);
    e.wasm.setPosition(fen);
    nodes += both(e, { depth: 8 }, 'wasm', `position ${i}, depth 8`).nodes;
    nodes += both(e, { nodes: 25_000 }, 'wasm', `position ${i}, 25,000 nodes`).nodes;
  });
  assert.ok(nodes > 200_000);
  e.ts.newGame();
  e.wasm.newGame();
  e.ts.setPosition(BENCH_POSITIONS[1]);
  e.wasm.setPosition(BENCH_POSITIONS[1]);
  both(e, { depth: 9 }, 'wasm', 'after newGame');
  e.ts.resizeHash(1);
  e.wasm.resizeHash(1);
  both(e, { depth: 9 }, 'wasm', 'after resizeHash');
  // Larger, then smaller again: the core's smaller table reuses the larger one's memory.
  e.wasm.resizeHash(64);
  e.wasm.resizeHash(4);
  e.ts.resizeHash(4);
  both(e, { depth: 9 }, 'wasm', 'after resizeHash 64, 4');
});

test('engine in the wasm core: game history (repetitions), searchmoves, mate limit', () => {
  const e = pair(8);
  // Knights out and back: the start position came twice already, f6g8 brings it a third time.
  const moves = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1'];
  e.ts.setPosition(undefined, moves);
  e.wasm.setPosition(undefined, moves);
  both(e, { depth: 8 }, 'wasm', 'with history');
  const search = ['a7a6', 'h7h5', 'b8c6'].map((m) => {
    const r = parseUci(e.ts.pos, m);
    assert.ok(r.ok);
    return r.value;
  });
  const r = both(e, { depth: 7, searchmoves: search }, 'wasm', 'searchmoves');
  assert.ok(search.includes(r.bestMove));
  // Back-rank mate in one: `go mate 1` ends at the iteration that finds it.
  for (const x of [e.ts, e.wasm]) x.setPosition('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1');
  const m = both(e, { mate: 1 }, 'wasm', 'go mate 1');
  assert.ok(m.depth < 10 && m.score > 31000, `depth ${m.depth}, score ${m.score}`);
});

test('engine in the wasm core: book-aware search and other evaluation weights', () => {
  const e = pair(8);
  const saved = weightsToJson();
  try {
    const w = weightsToJson();
    w['tempo'] = [[40, 20]];
    w['bishopPair'] = [[10, 90]];
    weightsFromJson(w);
    for (const fen of BENCH_POSITIONS.slice(2, 5)) {
      e.ts.setPosition(fen);
      e.wasm.setPosition(fen);
      both(e, { depth: 8 }, 'wasm', `other weights, ${fen}`);
    }
  } finally {
    resetWeights();
    weightsFromJson(saved);
  }
  both(e, { depth: 8 }, 'wasm', 'weights back');
  // A book that knows every position after the root: deepening stops at bookMinDepth.
  let asked = 0;
  const book = { knowsWell: () => ++asked > 0, choose: () => 0, avoided: () => [] } as unknown as BookProbe;
  for (const x of [e.ts, e.wasm]) {
    x.book = book;
    x.settings.bookAwareSearch = true;
  }
  const r = both(e, { depth: 10 }, 'wasm', 'book-aware search');
  assert.deepEqual([r.reason, r.depth], ['book-pv', 4]);
  assert.ok(asked >= 2);
});

test('engine in the wasm core: MultiPV and Skill Level; Threads 2 without the shared build searches alone in the core', () => {
  const e = pair(8);
  for (const x of [e.ts, e.wasm]) x.setPosition(BENCH_POSITIONS[4]);
  e.ts.settings.multiPV = e.wasm.settings.multiPV = 3;
  assert.equal(both(e, { depth: 7 }, 'wasm', 'MultiPV 3').lines?.length, 3);
  assert.equal(both(e, { depth: 8, movetime: 60_000 }, 'wasm', 'MultiPV 3, deeper, keeping the hash').lines?.length, 3);
  e.ts.settings.multiPV = e.wasm.settings.multiPV = 1;
  both(e, { depth: 7 }, 'wasm', 'MultiPV 1 again');
  for (const x of [e.ts, e.wasm]) x.settings.skill = { level: 5, elo: 0, random: () => 0.5 };
  assert.equal(both(e, { depth: 7 }, 'wasm', 'Skill Level 5').lines?.length, 4);
  for (const x of [e.ts, e.wasm]) x.settings.skill = { level: 3, elo: 1500, random: () => 0.9 };
  both(e, { movetime: 60_000 }, 'wasm', 'UCI_Elo 1500');
  for (const x of [e.ts, e.wasm]) x.settings.skill = { level: 20, elo: 0 };
  // No shared memory (EngineOptions.smp): the main thread searches as Threads 1, in the core;
  // a helper does nothing.
  for (const x of [e.ts, e.wasm]) x.newGame();
  const one = e.wasm.go({ depth: 6 });
  e.wasm.newGame();
  const p = e.wasm.go({ depth: 6 }, undefined, { threads: 2, helper: false });
  assert.equal(e.wasm.lastCore, 'wasm');
  assert.deepEqual([p.nodes, p.bestMove, p.pv], [one.nodes, one.bestMove, one.pv]);
  const h = e.wasm.go({ depth: 6 }, undefined, { threads: 2, helper: true });
  assert.deepEqual([h.bestMove, h.nodes, e.wasm.lastCore], [0, 0, 'none']);
  assert.equal(e.ts.wasm, null);
});

test('bench in the wasm core: the signature of the TypeScript search', () => {
  const w = runBench(5, undefined, false, wasmCoreModule());
  const t = runBench(5);
  assert.deepEqual(
    w.positions.map((p) => [p.nodes, p.bestMove]),
    t.positions.map((p) => [p.nodes, p.bestMove]),
  );
});

/** A thread that writes `value` at `slot` of the signal array after `ms`. */
function signalLater(signals: Int32Array, slot: number, value: number, ms: number): Worker {
  const code = `
    const { workerData: { buffer, slot, value, ms } } = require('node:worker_threads');
    const s = new Int32Array(buffer);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    Atomics.store(s, slot, value);
    Atomics.notify(s, 0);`;
  return new Worker(code, { eval: true, workerData: { buffer: signals.buffer, slot, value, ms } });
}

test('engine in the wasm core: stop and ponderhit from another thread', async () => {
  const signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  const engine = new Engine({ hashMB: 8, signals, wasm: wasmCoreModule() });
  engine.setPosition(BENCH_POSITIONS[1]);
  engine.go({ depth: 3 }); // instantiate and warm up before timing

  // go infinite: runs until stopped.
  const stopper = signalLater(signals, SIG_STOP, 1, 300);
  await new Promise((r) => stopper.once('online', r));
  let t0 = Date.now();
  const r = engine.go({ infinite: true });
  const took = Date.now() - t0;
  assert.equal(engine.lastCore, 'wasm');
  assert.ok(r.bestMove !== 0 && took >= 250 && took < 1500, `stopped after ${took} ms`);
  await new Promise((res) => stopper.once('exit', res));

  // go ponder with a 200 ms movetime: the clock starts at ponderhit, 300 ms in.
  Atomics.store(signals, SIG_STOP, 0);
  Atomics.store(signals, SIG_PONDER, 1);
  const hitter = signalLater(signals, SIG_PONDER, 0, 300);
  await new Promise((res) => hitter.once('online', res));
  t0 = Date.now();
  const infos: SearchInfo[] = [];
  const p = engine.go({ ponder: true, movetime: 200 }, (i) => infos.push(i));
  const pondered = Date.now() - t0;
  assert.equal(engine.lastCore, 'wasm');
  assert.ok(p.bestMove !== 0 && p.ponderMove !== 0, 'best and ponder moves');
  assert.ok(pondered >= 400 && pondered < 2000, `ponder + 200 ms took ${pondered} ms`);
  assert.ok(infos.length >= 5, `${infos.length} info lines`);
  assert.ok(infos.every((i, k) => i.pv.length > 0 && (k === 0 || i.depth >= infos[k - 1]!.depth)));
  await new Promise((res) => hitter.once('exit', res));
});

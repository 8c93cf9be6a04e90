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
 * How long a test waits for a step that takes milliseconds (a worker's cue, a search ending):
 * only a step that would wait forever reaches it, and the test then fails saying which.
 */
const HANG_MS = 30_000;
/** The core checks its stop and ponder signals every 512 nodes (CHECK_INTERVAL, src/wasm/search/limits.ts). */
const CHECK_INTERVAL = 512;
/** A node limit many times what the searches below need: a search that misses its stop ends here instead of never. */
const BACKSTOP_NODES = 3_000_000;

/**
 * A thread that writes `value` at `slot` of the signal array when cued. `cue()` is called by the
 * searching thread (in an info callback, during the search) and returns once the value is
 * written, so the search goes on only with the signal raised: what the search does next does not
 * depend on how soon the machine runs the other thread. `finish()` (after the search) tells
 * whether the cue came and whether the search ended only by a backstop: a stop the thread writes
 * when the search has not ended HANG_MS after the signal. With `lateMs`, the thread writes that
 * long after the cue and `cue()` returns at once: a signal that comes while the engine waits.
 */
function signalOnCue(signals: Int32Array, slot: number, value: number, lateMs = 0): { online: Promise<unknown>; cue: () => void; finish: () => Promise<{ cued: boolean; backstop: boolean }> } {
  const control = new Int32Array(new SharedArrayBuffer(12)); // cue, done, what happened
  const code = `
    const { workerData: { buffer, control, slot, value, stop, hang, late } } = require('node:worker_threads');
    const s = new Int32Array(buffer);
    const c = new Int32Array(control);
    if (Atomics.wait(c, 0, 0, hang) === 'timed-out') Atomics.or(c, 2, 1);
    if (late > 0) Atomics.wait(c, 1, 0, late);
    Atomics.store(s, slot, value);
    Atomics.notify(s, slot);
    if (Atomics.wait(c, 1, 0, hang) === 'timed-out') {
      Atomics.or(c, 2, 2);
      Atomics.store(s, stop, 1);
      Atomics.notify(s, stop);
    }`;
  const worker = new Worker(code, { eval: true, workerData: { buffer: signals.buffer, control: control.buffer, slot, value, stop: SIG_STOP, hang: HANG_MS, late: lateMs } });
  const exited = new Promise((res) => worker.once('exit', res));
  return {
    online: new Promise((res) => worker.once('online', res)),
    cue: () => {
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      if (lateMs > 0) return;
      for (let old = Atomics.load(signals, slot); old !== value; old = Atomics.load(signals, slot)) {
        if (Atomics.wait(signals, slot, old, HANG_MS) === 'timed-out') throw new Error(`the signalling thread did not write ${value} at ${slot} in ${HANG_MS / 1000} s (hang bound)`);
      }
    },
    finish: async () => {
      Atomics.store(control, 1, 1);
      Atomics.notify(control, 1);
      await exited;
      const how = Atomics.load(control, 2);
      return { cued: (how & 1) === 0, backstop: (how & 2) !== 0 };
    },
  };
}

test('engine: stop and ponderhit from another thread', async () => {
  const signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  const engine = new Engine({ hashMB: 8, signals, wasm: wasmCoreModule() });
  engine.setPosition(BENCH_POSITIONS[1]);

  // go infinite: runs until stopped, and stops at the first check of its signals after the stop
  // (not at the node backstop, which a search that misses the stop reaches).
  const stopper = signalOnCue(signals, SIG_STOP, 1);
  await stopper.online;
  let atStop: SearchInfo | undefined;
  const r = engine.go({ infinite: true, nodes: BACKSTOP_NODES }, (i) => {
    if (atStop === undefined && i.depth >= 7 && i.bound === undefined) {
      atStop = i;
      stopper.cue();
    }
  });
  assert.deepEqual(await stopper.finish(), { cued: true, backstop: false }, 'the search ran until the stop, and ended at it');
  assert.equal(engine.lastCore, 'wasm');
  assert.ok(atStop !== undefined && r.bestMove !== 0);
  assert.ok(r.nodes - atStop.nodes <= CHECK_INTERVAL, `${r.nodes - atStop.nodes} nodes searched after the stop (${r.nodes} in all), more than the ${CHECK_INTERVAL} between two checks`);
  // The iteration the stop interrupts counts when its first move has a score (iterate.ts); no later one.
  assert.ok(r.depth <= atStop.depth + 1, `depth ${r.depth} reached after the stop at depth ${atStop.depth}`);

  // go ponder with a 200 ms movetime: pondering knows no clock, so the search goes on past 200 ms
  // until the ponderhit; the clock starts at the ponderhit, and the search then ends by it.
  const movetime = 200;
  const overhead = 10; // Move Overhead's default (timeman.ts takes it off the movetime)
  Atomics.store(signals, SIG_STOP, 0);
  Atomics.store(signals, SIG_PONDER, 1);
  const hitter = signalOnCue(signals, SIG_PONDER, 0);
  await hitter.online;
  const infos: SearchInfo[] = [];
  let atHit: SearchInfo | undefined;
  const p = engine.go({ ponder: true, movetime }, (i) => {
    infos.push(i);
    if (atHit === undefined && i.time >= 2 * movetime) {
      atHit = i;
      hitter.cue();
    }
  });
  const how = await hitter.finish();
  assert.ok(how.cued && atHit !== undefined, `the ponder search ended before the ponderhit, after ${infos.at(-1)?.time} ms, as if its movetime ran while it pondered`);
  assert.equal(how.backstop, false, 'the search did not end by its clock after the ponderhit');
  assert.equal(engine.lastCore, 'wasm');
  assert.ok(p.bestMove !== 0 && p.ponderMove !== 0, 'best and ponder moves');
  // Both times are on the search's own clock (ms since go); the ponderhit is seen after atHit.time.
  assert.ok(p.time - atHit.time >= movetime - overhead, `the search ended ${p.time - atHit.time} ms after the ponderhit, before its ${movetime} ms movetime less ${overhead}`);
  assert.ok(infos.length >= 5, `${infos.length} info lines`);
  assert.ok(infos.every((i, k) => i.pv.length > 0 && (k === 0 || i.depth >= infos[k - 1]!.depth)));
});

test('engine: pondering on a book position answers the book move at the ponderhit, without a search', async () => {
  const signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  const engine = new Engine({ hashMB: 8, signals, wasm: wasmCoreModule() });
  engine.setPosition(BENCH_POSITIONS[1]);
  const move = legalMoves(engine.pos)[0]!;
  // The ponderhit comes a while after the book has answered: while the engine waits for it.
  const hitter = signalOnCue(signals, SIG_PONDER, 0, 100);
  await hitter.online;
  let asked = 0;
  const choose = (): number => {
    asked++;
    hitter.cue();
    return move;
  };
  engine.book = { choose, avoided: () => [], knowsWell: () => false } as unknown as BookProbe;
  engine.settings.ownBook = true;
  Atomics.store(signals, SIG_STOP, 0);
  Atomics.store(signals, SIG_PONDER, 1);
  const infos: SearchInfo[] = [];
  const r = engine.go({ ponder: true, wtime: 60_000, btime: 60_000 }, (i) => infos.push(i));
  assert.equal(Atomics.load(signals, SIG_PONDER), 0, 'answered before the ponderhit');
  assert.deepEqual(await hitter.finish(), { cued: true, backstop: false });
  assert.deepEqual([r.bestMove, r.reason, asked], [move, 'book', 1]);
  // Until 2026-12-06 the ponder search went on after the ponderhit, on the clock (3.3 s of 60 s).
  assert.deepEqual([engine.lastCore, infos.length, r.nodes], ['none', 0, 0], 'no search, before or after the ponderhit');
});

/**
 * The WebAssembly search (src/wasm/search) against the TypeScript one, node for node: every
 * bench position searched to a fixed depth with a fresh hash, fresh histories and a fresh pawn
 * hash (as runBench does) must give the same node count, best move and score, at every depth
 * up to a moderate one; the checked build too (a bad index throws there). Also the limits a
 * host gives the core (nodes, hard time), searches that keep the hash between them, mate and
 * stalemate at the root, and search constants pushed in from TypeScript.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../src/core/result.js';
import { BENCH_POSITIONS } from '../src/engine/bench.js';
import { Engine } from '../src/engine/engine.js';
import { LMR, SP, rebuildSearchTables } from '../src/engine/search/params.js';
import type { WasmCore } from '../src/engine/wasm/core.js';
import { loadWasmCore } from '../src/node/wasmCore.js';
import { positionFromFen } from '../src/notation/fen.js';

/** Searches every bench position at depths 1..maxDepth in both engines and compares. */
function compareBench(core: WasmCore, maxDepth: number, every = 1): number {
  const engine = new Engine({ hashMB: 16 });
  let nodes = 0;
  for (let depth = 1; depth <= maxDepth; depth++) {
    BENCH_POSITIONS.forEach((fen, i) => {
      if (i % every !== 0) return;
      engine.newGame();
      engine.setPosition(fen);
      const ts = engine.go({ depth });
      core.setPosition(engine.pos);
      const w = core.searchFresh(depth);
      const where = `bench position ${i} at depth ${depth}`;
      assert.deepEqual([w.nodes, w.bestMove, w.score, w.depth], [ts.nodes, ts.bestMove, ts.score, ts.depth], `${where}: [nodes, best move, score, depth]`);
      assert.deepEqual(w.pv, ts.pv, `${where}: principal variation`);
      nodes += w.nodes;
    });
  }
  return nodes;
}

test('wasm search: the node counts, best moves and scores of the TypeScript search, depths 1 to 8', () => {
  const core = loadWasmCore();
  assert.deepEqual(core.lmrTable(), LMR, 'the reduction table');
  assert.ok(compareBench(core, 8) > 300_000);
});

test('wasm search, checked build: depths 1 to 6 without a bad index', () => {
  assert.ok(compareBench(loadWasmCore(true), 6) > 50_000);
});

test('wasm search: searches that keep the hash and histories, as a game does', () => {
  const core = loadWasmCore();
  const engine = new Engine({ hashMB: 16 });
  engine.newGame();
  core.newGame();
  for (const fen of BENCH_POSITIONS.slice(0, 6)) {
    engine.setPosition(fen);
    core.setPosition(engine.pos);
    const ts = engine.go({ depth: 7 });
    const w = core.search({ depth: 7 });
    assert.deepEqual([w.nodes, w.bestMove, w.score], [ts.nodes, ts.bestMove, ts.score], fen);
  }
});

test('wasm search: node and time limits, mate and stalemate at the root', () => {
  const core = loadWasmCore();
  const start = unwrap(positionFromFen(BENCH_POSITIONS[1]!));
  core.setPosition(start);
  core.newGame();
  const byNodes = core.search({ nodes: 20_000 });
  assert.ok(byNodes.bestMove !== 0 && byNodes.depth >= 3, `depth ${byNodes.depth}`);
  assert.ok(byNodes.nodes >= 20_000 && byNodes.nodes < 200_000, `nodes ${byNodes.nodes}`);
  const t0 = Date.now();
  const byTime = core.search({ hardMs: 150 });
  assert.ok(Date.now() - t0 < 2000 && byTime.bestMove !== 0);

  core.setPosition(unwrap(positionFromFen('6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1')));
  const mate = core.searchFresh(6);
  assert.equal(mate.score, 32000 - 1, 'mate in one');
  core.setPosition(unwrap(positionFromFen('4R1k1/5ppp/8/8/8/8/8/6K1 b - - 1 1')));
  assert.deepEqual([core.searchFresh(4).bestMove, core.searchFresh(4).score], [0, -32000], 'mated');
  core.setPosition(unwrap(positionFromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1')));
  assert.deepEqual([core.searchFresh(4).bestMove, core.searchFresh(4).score], [0, 0], 'stalemate');
});

test('wasm search with other search constants pushed in from TypeScript, and back', () => {
  const core = loadWasmCore();
  const engine = new Engine({ hashMB: 16 });
  const saved = { ...SP };
  try {
    SP.lmrBase = 50;
    assert.throws(() => core.setSearchParams({ ...SP, notAParameter: 0 }, LMR), /unknown to the core/);
    SP.razorBase = 300;
    SP.nmpBase = 4;
    rebuildSearchTables();
    core.setSearchParams(SP, LMR);
    assert.deepEqual(core.lmrTable(), LMR);
    for (const fen of BENCH_POSITIONS.slice(0, 4)) {
      engine.newGame();
      engine.setPosition(fen);
      const ts = engine.go({ depth: 7 });
      core.setPosition(engine.pos);
      const w = core.searchFresh(7);
      assert.deepEqual([w.nodes, w.bestMove, w.score], [ts.nodes, ts.bestMove, ts.score], fen);
    }
  } finally {
    Object.assign(SP, saved);
    rebuildSearchTables();
  }
  core.setSearchParams(SP, LMR);
  assert.deepEqual(core.lmrTable(), LMR);
});

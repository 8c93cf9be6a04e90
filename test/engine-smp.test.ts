/**
 * The parallel search in the WebAssembly core (src/engine/wasm/smp.ts): instances of the shared
 * build over one memory each keep their own board and search state in their heap slot, search
 * node for node as the one-thread core does, and share one hash table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalMoves } from '../src/core/movegen.js';
import { unwrap } from '../src/core/result.js';
import { Engine } from '../src/engine/engine.js';
import { MAX_THREADS, NODE_UNIT, SIG_GEN, SIG_NODES, SIG_NODES_GEN, SIG_SIZE, SIG_STOP } from '../src/engine/signals.js';
import { WasmCore } from '../src/engine/wasm/core.js';
import { growForTable, sharedCoreMemory } from '../src/engine/wasm/smp.js';
import { WasmSearcher } from '../src/engine/wasmSearch.js';
import { positionFromFen } from '../src/notation/fen.js';
import { sharedCoreModule, wasmCoreModule } from '../src/node/wasmCore.js';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10';
const ENDGAME = '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11';
const sorted = (moves: number[]): number[] => [...moves].sort((a, b) => a - b);

function memory(hashMB = 16): WebAssembly.Memory {
  const m = sharedCoreMemory(hashMB);
  if (typeof m === 'string') throw new Error(m);
  return m;
}

test('shared build: each instance keeps its own board and state in its heap slot', () => {
  const mem = memory();
  const a = new WasmCore(sharedCoreModule(), { memory: mem, slot: 0 });
  const b = new WasmCore(sharedCoreModule(), { memory: mem, slot: 1 });
  const kiwi = unwrap(positionFromFen(KIWIPETE));
  const end = unwrap(positionFromFen(ENDGAME));
  a.setPosition(kiwi);
  b.setPosition(end);
  assert.deepEqual(sorted(a.legalMoves()), sorted(legalMoves(kiwi)));
  assert.deepEqual(sorted(b.legalMoves()), sorted(legalMoves(end)));
  // Perft walks make/undo all over each board: neither disturbs the other.
  assert.equal(a.perft(3), 97862);
  assert.equal(b.perft(4), 43238);
  assert.equal(a.perft(2), 2039);
  const own = new WasmCore(wasmCoreModule());
  own.setPosition(kiwi);
  assert.equal(a.evaluate(), own.evaluate());
});

test('shared build: a slot past the last thread is refused', () => {
  assert.throws(() => new WasmCore(sharedCoreModule(), { memory: memory(), slot: MAX_THREADS }), /slot/);
  assert.throws(() => new WasmCore(sharedCoreModule(), { memory: memory(), slot: -1 }), /slot/);
});

test('shared build: one thread searches node for node as the one-thread core', () => {
  const mem = memory();
  const shared = new WasmCore(sharedCoreModule(), { memory: mem, slot: 0 });
  shared.setHashSize(16);
  const own = new WasmCore(wasmCoreModule());
  own.setHashSize(16);
  for (const fen of [KIWIPETE, ENDGAME]) {
    const pos = unwrap(positionFromFen(fen));
    shared.newGame();
    own.newGame();
    shared.setPosition(pos);
    own.setPosition(pos);
    const x = shared.search({ depth: 9 });
    const y = own.search({ depth: 9 });
    assert.equal(x.nodes, y.nodes, fen);
    assert.equal(x.bestMove, y.bestMove, fen);
    assert.deepEqual(x.pv, y.pv, fen);
  }
});

test('shared build: the threads share one hash table, and a new size reaches them all', () => {
  const mem = memory(16);
  const main = new WasmCore(sharedCoreModule(), { memory: mem, slot: 0 });
  const helper = new WasmCore(sharedCoreModule(), { memory: mem, slot: 1 });
  helper.setThreadIndex(1);
  main.setHashSize(16);
  helper.attachSharedTable(16);
  const pos = unwrap(positionFromFen(KIWIPETE));
  // `searcher` searches the position; the other thread, which never did, reads the same move
  // for the position after the best move (the root itself is not stored) from the table.
  const read = (move: number, core: WasmCore): number => {
    pos.play(move);
    const m = core.ttMove(pos.keyLo, pos.keyHi);
    pos.undo();
    return m;
  };
  const searchAndRead = (searcher: WasmCore, other: WasmCore): [number, number] => {
    searcher.setPosition(pos);
    const best = searcher.search({ depth: 7 }).bestMove;
    return [read(best, searcher), read(best, other)];
  };
  main.setPosition(pos);
  const best = main.search({ depth: 7 }).bestMove;
  const reply = read(best, main);
  assert.notEqual(reply, 0);
  assert.equal(read(best, helper), reply);
  // A helper's newGame leaves the shared table to the main thread.
  helper.newGame();
  assert.equal(read(best, main), reply);
  // A larger table: the host grows the memory, every thread attaches, the main one empties it.
  growForTable(mem, 64);
  main.setHashSize(64);
  helper.attachSharedTable(64);
  assert.equal(helper.ttMove(pos.keyLo, pos.keyHi), 0);
  const [helperReply, seenByMain] = searchAndRead(helper, main);
  assert.notEqual(helperReply, 0);
  assert.equal(seenByMain, helperReply);
});

test('shared build: the main thread counts the helpers\' nodes in its info lines and result', () => {
  const mem = memory();
  const searcher = new WasmSearcher(new WasmCore(sharedCoreModule(), { memory: mem, slot: 0 }), 16);
  const signals = new Int32Array(SIG_SIZE);
  signals[SIG_NODES + 1] = 100; // what a helper published
  const pos = unwrap(positionFromFen(KIWIPETE));
  const lines: number[] = [];
  const r = searcher.go(pos, signals, { depth: 6 }, { softMs: Infinity, hardMs: Infinity, threads: 2, onInfo: (i) => lines.push(i.nodes) });
  const alone = searcher.go(pos, new Int32Array(SIG_SIZE), { depth: 6 }, { softMs: Infinity, hardMs: Infinity });
  assert.ok(lines.length > 0);
  assert.equal(lines[0]! >= 100 * NODE_UNIT, true);
  // The same search again (the table now full of it) counts fewer of its own nodes, plus the helper's.
  assert.equal(r.nodes - 100 * NODE_UNIT > 0, true);
  assert.equal(alone.nodes > 0, true);
});

test('shared build: a helper\'s count from an older search is not added to the next one', () => {
  const mem = memory();
  const searcher = new WasmSearcher(new WasmCore(sharedCoreModule(), { memory: mem, slot: 0 }), 16);
  const signals = new Int32Array(SIG_SIZE);
  // The controller started search 5 while helper 1 was still ending search 4 (tabiya uci:
  // `go infinite`, `stop`, `go depth 1` at once): the helper then published search 4's count.
  signals[SIG_GEN] = 5;
  signals[SIG_NODES + 1] = 1000;
  signals[SIG_NODES_GEN + 1] = 4;
  const pos = unwrap(positionFromFen(KIWIPETE));
  const lines: number[] = [];
  const r = searcher.go(pos, signals, { depth: 2 }, { softMs: Infinity, hardMs: Infinity, threads: 2, onInfo: (i) => lines.push(i.nodes) });
  assert.ok(lines.length > 0);
  // Depths 1 and 2 search a few thousand nodes, not the old search's 512,000.
  assert.ok(lines.every((n) => n < 1000 * NODE_UNIT), `nodes ${lines.join(' ')}`);
  assert.ok(r.nodes < 1000 * NODE_UNIT);
  // A helper empties its slot and tags it with its search before it publishes anything.
  const helper = new WasmSearcher(new WasmCore(sharedCoreModule(), { memory: mem, slot: 1 }), 16);
  signals[SIG_STOP] = 1;
  helper.goHelper(pos, signals, 1);
  assert.equal(signals[SIG_NODES_GEN + 1], 5);
  assert.ok(signals[SIG_NODES + 1]! <= 1);
});

test('shared build: go nodes counts the nodes of all the threads', () => {
  const mem = memory();
  const searcher = new WasmSearcher(new WasmCore(sharedCoreModule(), { memory: mem, slot: 0 }), 16);
  const signals = new Int32Array(SIG_SIZE);
  signals[SIG_NODES + 1] = 100; // a helper of this search has searched 51,200 nodes
  const pos = unwrap(positionFromFen(KIWIPETE));
  const r = searcher.go(pos, signals, { nodes: 60_000 }, { softMs: Infinity, hardMs: Infinity, threads: 2 });
  // Stockfish stops at N nodes in all (search.cpp check_time: Threads.nodes_searched() >= Limits.nodes).
  assert.ok(r.nodes >= 60_000 && r.nodes <= 60_000 + NODE_UNIT, `searched ${r.nodes} nodes in all for go nodes 60000`);
  assert.ok(legalMoves(pos).includes(r.bestMove));
  // One thread: its own count is the limit, node for node as before.
  const alone = searcher.go(pos, new Int32Array(SIG_SIZE), { nodes: 60_000 }, { softMs: Infinity, hardMs: Infinity });
  assert.equal(alone.nodes >= 60_000 && alone.nodes <= 60_000 + 8, true);
});

test('Engine with the shared build: Threads 2 runs both threads in the core', () => {
  const mem = memory();
  const smp = { module: sharedCoreModule, memory: mem };
  const signals = new Int32Array(new SharedArrayBuffer(SIG_SIZE * 4));
  const main = new Engine({ signals, threadIndex: 0, wasm: wasmCoreModule(), smp });
  main.setPosition(KIWIPETE);
  // No helper runs here: the main search alone, on the parallel path, ends by its depth.
  const r = main.go({ depth: 7 }, undefined, { threads: 2, helper: false });
  assert.equal(main.lastCore, 'wasm');
  assert.ok(legalMoves(main.pos).includes(r.bestMove));
  assert.ok(main.parallelCore()!.core.slot === 0);
});

/**
 * The WebAssembly core (src/wasm) against the perft suites' published counts and against the
 * TypeScript core: node counts, Zobrist keys computed incrementally at every node, positions
 * reached by play (rights lost, en passant) as well as set up from FEN. The checked build
 * (every array access bounds-checked) runs the same trees, so a bad index fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateLegal } from '../src/core/movegen.js';
import { perft } from '../src/core/perft.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { MAX_MOVES } from '../src/core/types.js';
import { positionFromFen } from '../src/notation/fen.js';
import { perftSuite } from './support/perftSuite.js';
import { loadWasmCore } from '../src/node/wasmCore.js';
import { wasmKeysSource, wasmParamsSource } from '../scripts/gen-wasm-tables.js';

function checkSuite(name: string, checked: boolean, bulk: boolean, depthOf: (i: number) => number): number {
  const core = loadWasmCore(checked);
  let n = 0;
  perftSuite(name).forEach((e, i) => {
    core.setPosition(unwrap(positionFromFen(e.fen)));
    for (const [depth, expected] of e.counts) {
      if (depth > depthOf(i)) continue;
      assert.equal(core.perft(depth, bulk), expected, `${name}: ${e.fen} depth ${depth}${checked ? ' (checked build)' : ''}`);
      n++;
    }
  });
  return n;
}

test('wasm core: standard perft suite, all positions to depth 4, every eighth to depth 5', () => {
  assert.ok(checkSuite('perft_standard.epd', false, true, (i) => (i % 8 === 0 ? 5 : 4)) > 500);
});

test('wasm core: Chess960 perft suite, all positions to depth 3, every 24th to depth 4', () => {
  assert.ok(checkSuite('perft_chess960.epd', false, true, (i) => (i % 24 === 0 ? 4 : 3)) >= 2880);
});

test('wasm core, checked build: both suites with every leaf played and taken back', () => {
  assert.ok(checkSuite('perft_standard.epd', true, false, () => 3) >= 378);
  assert.ok(checkSuite('perft_chess960.epd', true, false, (i) => (i % 4 === 0 ? 2 : 1)) >= 1200);
});

const stack = new Uint16Array(MAX_MOVES * 16);

/** XOR of the TypeScript core's keys at the leaves of the depth-`d` tree. */
function leafKeys(pos: Position, d: number, base = 0): [number, number] {
  if (d === 0) return [pos.keyLo, pos.keyHi];
  const end = generateLegal(pos, stack, base);
  let lo = 0;
  let hi = 0;
  for (let i = base; i < end; i++) {
    pos.play(stack[i]!);
    const [l, h] = leafKeys(pos, d - 1, end);
    lo ^= l;
    hi ^= h;
    pos.undo();
  }
  return [lo, hi];
}

/** A small seeded generator, so the played-into positions are the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test('wasm core: keys and counts equal the TypeScript core in positions reached by play', () => {
  const core = loadWasmCore(true);
  const rand = lcg(7);
  const moves = new Uint16Array(MAX_MOVES);
  let compared = 0;
  for (const e of perftSuite('perft_standard.epd').filter((_, i) => i % 2 === 0)) {
    const pos = unwrap(positionFromFen(e.fen));
    // Up to six random plies: castling rights get lost, en-passant squares appear.
    for (let p = 0; p < 6; p++) {
      const n = generateLegal(pos, moves, 0);
      if (n === 0) break;
      pos.play(moves[Math.floor(rand() * n)]!);
    }
    core.setPosition(pos);
    assert.deepEqual(core.key(), [pos.keyLo, pos.keyHi], `key after play from ${e.fen}`);
    const r = core.perftCheckKeys(3);
    assert.equal(r.keyErrors, 0, `incremental keys from ${e.fen}`);
    assert.equal(r.nodes, perft(pos, 3));
    assert.deepEqual(r.leafKeys, leafKeys(pos, 3), `leaf keys from ${e.fen}`);
    compared++;
  }
  assert.equal(compared, 64);
});

test('wasm core: a perft deeper than its move stack is refused', () => {
  const core = loadWasmCore();
  const pos = unwrap(positionFromFen('4k3/8/8/8/8/8/8/4K3 w - - 0 1'));
  core.setPosition(pos);
  assert.throws(() => core.perft(65), /too deep/);
  assert.equal(core.perft(4), perft(pos, 4));
});

test('wasm core, checked build: a bad index is an error, not silent damage', () => {
  const core = loadWasmCore(true);
  const pos = unwrap(positionFromFen('4k3/8/8/8/8/8/8/4K3 w - - 0 1'));
  // A castling right whose rook square was never set: the core would index square 255.
  pos.castling = 1;
  assert.throws(() => core.setPosition(pos), /^Error: wasm core: Index out of range at ~lib\/staticarray\.ts:\d+:\d+$/);
});

test('wasm core: its key and weight tables are generated from the TypeScript sources', () => {
  const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  assert.equal(read('src/wasm/polyglotKeys.ts'), wasmKeysSource(), 'run node dist/scripts/gen-wasm-tables.js');
  assert.equal(read('src/wasm/eval/defaults.ts'), wasmParamsSource(), 'run node dist/scripts/gen-wasm-tables.js');
});

/**
 * The WebAssembly core's hash table (src/wasm/search/tt.ts) on its own, through the same store
 * and probe the search calls: what is stored comes back; a key that shares the bucket but not
 * the key misses; mate scores are kept relative to the node, so a mate found at one distance
 * from the root reads right at another; the replacement rule keeps the deeper and the newer
 * entries; and an entry whose words do not agree (a write torn by another thread of a Lazy SMP
 * search) is never taken for a hit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MATE } from '../src/engine/score.js';
import { loadWasmCore } from '../src/node/wasmCore.js';

const UPPER = 1;
const LOWER = 2;
const EXACT = 3;

function core(): ReturnType<typeof loadWasmCore> {
  const c = loadWasmCore(true);
  c.setHashSize(1);
  c.newGame();
  return c;
}

test('what is stored comes back; another key in the same bucket misses', () => {
  const c = core();
  const entry = { move: 0x1234, score: -87, eval: 41, depth: 9, bound: EXACT, pv: false };
  c.tableStore(0x00010001, 0x7eadbeef, 3, entry);
  assert.deepEqual(c.tableProbe(0x00010001, 0x7eadbeef, 3), entry);
  // The PV flag (the top bit of the word that also holds the generation) comes back, and the
  // rest of the entry with it.
  c.tableStore(0x00010001, 0x7eadbeef, 3, { ...entry, pv: true });
  assert.deepEqual(c.tableProbe(0x00010001, 0x7eadbeef, 3), { ...entry, pv: true });
  // Still so in the last generation before the counter wraps (its five bits all set, beside the flag).
  for (let i = 0; i < 31; i++) c.tableNewSearch();
  c.tableStore(0x00010001, 0x7eadbeef, 3, { ...entry, depth: 10, pv: true });
  assert.deepEqual(c.tableProbe(0x00010001, 0x7eadbeef, 3), { ...entry, depth: 10, pv: true });
  c.tableStore(0x00010001, 0x7eadbeef, 3, { ...entry, depth: 11, pv: false });
  assert.deepEqual(c.tableProbe(0x00010001, 0x7eadbeef, 3), { ...entry, depth: 11, pv: false });
  // The same low word (same bucket, same check word) with another high word, and the reverse.
  assert.equal(c.tableProbe(0x00010001, 0x7eadbeee, 3), null);
  assert.equal(c.tableProbe(0x00020001, 0x7eadbeef, 3), null);
  // Negative scores, depths below zero (quiescence entries) and every bound survive the packing.
  for (const [depth, bound, score] of [[0, UPPER, -31000], [-1, LOWER, 29999], [200, EXACT, 0]] as const) {
    c.tableStore(0x00030003, 0x11111111, 0, { move: 0, score, eval: -300, depth, bound });
    const got = c.tableProbe(0x00030003, 0x11111111, 0);
    assert.deepEqual(got, { move: 0, score, eval: -300, depth, bound, pv: false });
  }
});

test('mate scores are stored relative to the node: a mate in 5 from here is a mate in 5 from here at any ply', () => {
  const c = core();
  // At ply 4 the search sees "mate in 9 plies from the root" = mate 5 plies from this node.
  c.tableStore(0x00040004, 0x22222222, 4, { move: 77, score: MATE - 9, eval: 10, depth: 6, bound: LOWER });
  // Reached again at ply 10 (a transposition deeper in the tree): mate 5 plies from here, 15 from the root.
  assert.equal(c.tableProbe(0x00040004, 0x22222222, 10)!.score, MATE - 15);
  assert.equal(c.tableProbe(0x00040004, 0x22222222, 1)!.score, MATE - 6);
  c.tableStore(0x00050005, 0x33333333, 2, { move: 0, score: -(MATE - 7), eval: 0, depth: 3, bound: UPPER });
  assert.equal(c.tableProbe(0x00050005, 0x33333333, 6)!.score, -(MATE - 11));
});

test('replacement: a third position in a full bucket evicts the shallower or older entry; a shallow bound never overwrites a deep result of this search', () => {
  const c = core();
  const lo = 0x00060006;
  c.tableStore(lo, 0x01, 0, { move: 1, score: 1, eval: 1, depth: 12, bound: EXACT });
  c.tableStore(lo, 0x02, 0, { move: 2, score: 2, eval: 2, depth: 3, bound: EXACT });
  c.tableStore(lo, 0x03, 0, { move: 3, score: 3, eval: 3, depth: 7, bound: EXACT });
  assert.notEqual(c.tableProbe(lo, 0x01, 0), null, 'the deep entry stays');
  assert.equal(c.tableProbe(lo, 0x02, 0), null, 'the shallow entry went');
  assert.notEqual(c.tableProbe(lo, 0x03, 0), null);
  // The same position again, shallower, as a bound: the deeper result of this search is kept,
  // but an exact result replaces it.
  c.tableStore(lo, 0x01, 0, { move: 9, score: 9, eval: 9, depth: 2, bound: LOWER });
  assert.equal(c.tableProbe(lo, 0x01, 0)!.depth, 12);
  c.tableStore(lo, 0x01, 0, { move: 0, score: 5, eval: 5, depth: 4, bound: EXACT });
  assert.deepEqual(c.tableProbe(lo, 0x01, 0), { move: 1, score: 5, eval: 5, depth: 4, bound: EXACT, pv: false }, 'an entry without a move keeps the old move');
  // Entries of old searches lose their claim: after many searches even a deep one is evicted.
  c.tableStore(lo, 0x01, 0, { move: 1, score: 1, eval: 1, depth: 14, bound: EXACT });
  for (let i = 0; i < 4; i++) c.tableNewSearch();
  c.tableStore(lo, 0x04, 0, { move: 4, score: 4, eval: 4, depth: 2, bound: EXACT });
  assert.notEqual(c.tableProbe(lo, 0x01, 0), null, 'of two entries four searches old, the deeper one stays');
  assert.equal(c.tableProbe(lo, 0x03, 0), null);
  for (let i = 0; i < 8; i++) c.tableNewSearch();
  c.tableStore(lo, 0x05, 0, { move: 5, score: 5, eval: 5, depth: 1, bound: EXACT });
  assert.equal(c.tableProbe(lo, 0x01, 0), null, 'twelve searches old, it goes before an entry of eight searches ago, though deeper');
  assert.notEqual(c.tableProbe(lo, 0x04, 0), null);
  assert.notEqual(c.tableProbe(lo, 0x05, 0), null);
});

test('an entry whose words disagree is not a hit (a torn write of another thread)', () => {
  const c = core();
  const lo = 0x00070007;
  c.tableStore(lo, 0x44444444, 0, { move: 0x0abc, score: 120, eval: 15, depth: 8, bound: EXACT });
  assert.notEqual(c.tableProbe(lo, 0x44444444, 0), null);
  const bucket = c.tableBucket(lo);
  const slot = bucket[3] === lo ? 0 : 4;
  assert.equal(bucket[slot + 3], lo, 'the entry is in this bucket');
  for (const word of [1, 2]) {
    const saved = bucket[slot + word]!;
    bucket[slot + word] = saved ^ 0x00100000;
    assert.equal(c.tableProbe(lo, 0x44444444, 0), null, `word ${word} changed alone`);
    bucket[slot + word] = saved;
    assert.notEqual(c.tableProbe(lo, 0x44444444, 0), null);
  }
});

test('every table size starts its buckets on a 64-byte cache line (a bucket is one line, never two)', () => {
  // The allocator aligns to 16 bytes only; before the table was aligned by hand, 32, 64 and
  // 128 MB tables started at 16 or 48 mod 64, and half their buckets straddled two lines.
  for (const checked of [false, true]) {
    const c = loadWasmCore(checked);
    for (const mb of [1, 16, 64, 8, 32, 128, 2]) {
      c.setHashSize(mb);
      c.newGame();
      assert.equal(c.tableBucket(0).byteOffset % 64, 0, `${mb} MB (${checked ? 'checked' : 'release'} build)`);
      // A bucket at the far end is inside the table and zeroed (the checked build bound-checks it).
      const last = c.tableBucket(-1);
      assert.ok(last.every((w) => w === 0), `${mb} MB: the last bucket is empty`);
      c.tableStore(-1, 0x1234567, 0, { move: 1, score: 5, eval: 6, depth: 7, bound: EXACT, pv: false });
      assert.deepEqual(c.tableProbe(-1, 0x1234567, 0), { move: 1, score: 5, eval: 6, depth: 7, bound: EXACT, pv: false });
    }
  }
});

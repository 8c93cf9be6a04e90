import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { legalMoves } from '../../core/movegen.js';
import { unwrap } from '../../core/result.js';
import { positionFromFen } from '../../notation/fen.js';
import { evaluate } from '../eval/evaluate.js';
import { EVAL_CACHE_WORDS, EVAL_MISS, probeEval, storeEval } from './evalCache.js';

const WAC = new URL('../../../../../shared/data/suites/wac_300.epd', import.meta.url);
const fens = readFileSync(WAC, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => l.split(' ').slice(0, 4).join(' ') + ' 0 1');

test('the evaluation cache gives back stored evaluations, or a miss, never another position\'s', () => {
  const cache = new Int32Array(EVAL_CACHE_WORDS);
  const stored: { lo: number; hi: number; v: number }[] = [];
  // WAC positions and every position one move later: a few thousand keys, some sharing a slot.
  for (const fen of fens) {
    const pos = unwrap(positionFromFen(fen));
    for (const m of [0, ...legalMoves(pos)]) {
      if (m !== 0) pos.play(m);
      const v = evaluate(pos);
      storeEval(cache, pos.keyLo, pos.keyHi, v);
      stored.push({ lo: pos.keyLo, hi: pos.keyHi, v });
      if (m !== 0) pos.undo();
    }
  }
  assert.ok(stored.length > 5000);
  assert.ok(stored.some((s) => s.v < 0) && stored.some((s) => s.v > 0));
  let hits = 0;
  for (const s of stored) {
    const got = probeEval(cache, s.lo, s.hi);
    if (got === EVAL_MISS) continue;
    // The slot holds the last position stored there; a hit must be this position's evaluation.
    assert.equal(got, s.v);
    hits++;
  }
  assert.ok(hits > stored.length * 0.8, `${hits} of ${stored.length}`);
  // Same slot, other position: a miss.
  const s = stored[0]!;
  assert.equal(probeEval(cache, s.lo, s.hi ^ 1), EVAL_MISS);
  assert.equal(probeEval(cache, s.lo ^ 0x10000, s.hi), EVAL_MISS);
  // Emptied: nothing is served.
  cache.fill(0);
  assert.ok(stored.every((e) => probeEval(cache, e.lo, e.hi) === EVAL_MISS));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateLegal } from '../../core/movegen.js';
import type { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { MAX_MOVES } from '../../core/types.js';
import { parseEpd } from '../../notation/epd.js';
import { positionFromFen } from '../../notation/fen.js';
import { CHILD_KEY, childKey } from './childKey.js';

const SUITES = new URL('../../../../../shared/data/suites/', import.meta.url);

/** Checks every legal move to `depth` plies: the predicted key equals the key after play. */
function check(pos: Position, depth: number): number {
  const buf = new Uint16Array(MAX_MOVES);
  const n = generateLegal(pos, buf, 0);
  let checked = 0;
  for (let i = 0; i < n; i++) {
    const m = buf[i]!;
    childKey(pos, m);
    const [lo, hi] = [CHILD_KEY[0], CHILD_KEY[1]];
    pos.play(m);
    assert.deepEqual([lo, hi], [pos.keyLo, pos.keyHi]);
    checked++;
    if (depth > 1) checked += check(pos, depth - 1);
    pos.undo();
  }
  return checked;
}

test('the key after a move, without playing it, on the perft suites (standard and Chess960)', () => {
  let checked = 0;
  for (const [file, depth] of [
    ['perft_standard.epd', 2],
    ['perft_chess960.epd', 1],
  ] as const) {
    const lines = readFileSync(new URL(file, SUITES), 'utf8').split('\n').filter((l) => l.trim() !== '');
    for (const line of lines) checked += check(unwrap(positionFromFen(unwrap(parseEpd(line)).fen)), depth);
  }
  assert.ok(checked > 45000, String(checked));
});

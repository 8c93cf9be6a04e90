/**
 * `positionFromFen(fen, pos)` and `setupPosition(setup, pos)` fill the caller's Position only
 * with a playable position: one that fails (two kings, a pawn on the back rank, the side not to
 * move in check) leaves `pos` as it was, history included, as a FEN that does not parse does,
 * instead of half set up with the refused position.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Position } from '../src/core/position.js';
import { setupPosition } from '../src/core/setup.js';
import { unwrap } from '../src/core/result.js';
import { makeFen, parseFen, positionFromFen, STARTING_FEN } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';

function afterE4E5(): Position {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const san of ['e4', 'e5']) pos.play(unwrap(parseSan(pos, san)));
  return pos;
}

const REFUSED: [string, string][] = [
  ['4k3/8/8/8/8/8/8/4KK2 w - - 0 1', 'ERR_KINGS'],
  ['4k3/8/8/8/8/8/8/4K2P w - - 0 1', 'ERR_PAWN_ON_BACK_RANK'],
  ['4k2R/8/8/8/8/8/8/4K3 w - - 0 1', 'ERR_OPPOSITE_CHECK'],
  ['4k3/8/8/8/8/8/8/4K3 x - - 0 1', 'ERR_FEN_TURN'],
];

test('a refused FEN leaves the position it was to be read into as it was', () => {
  for (const [fen, code] of REFUSED) {
    const pos = afterE4E5();
    const before = makeFen(pos);
    const [lo, hi] = [pos.keyLo, pos.keyHi];
    const r = positionFromFen(fen, pos);
    assert.ok(!r.ok && r.error.code === code, fen);
    assert.equal(makeFen(pos), before, fen);
    assert.deepEqual([pos.keyLo, pos.keyHi], [lo, hi], fen);
    assert.equal(pos.ply, 2, fen);
    pos.undo();
    pos.undo();
    assert.equal(makeFen(pos), STARTING_FEN, fen);
  }
});

test('setupPosition into a position changes it only when the set-up is valid, and returns that position', () => {
  const pos = afterE4E5();
  const before = makeFen(pos);
  const bad = setupPosition(unwrap(parseFen('k7/8/8/8/8/8/8/8 w - - 0 1')), pos);
  assert.ok(!bad.ok && bad.error.code === 'ERR_KINGS');
  assert.equal(makeFen(pos), before);
  const fen = 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 9';
  const good = positionFromFen(fen, pos);
  assert.ok(good.ok);
  assert.equal(good.value, pos);
  assert.equal(makeFen(pos), fen);
  assert.equal(pos.ply, 0);
  assert.equal(pos.fullmoves, 9);
});

/**
 * Board plays the null move as python-chess's `push_san('--')` / `push_uci('0000')` do, in the
 * spellings the PGN reader takes (`--`, `Z0`, `0000`) and as the integer MOVE_NULL that `uci()`
 * writes as `0000`; `pop` takes it back, and in check it is refused, as the PGN reader refuses it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Board } from '../src/board.js';
import { MOVE_NULL } from '../src/core/move.js';
import { STARTING_FEN } from '../src/notation/fen.js';

test('Board.push plays a null move written --, Z0, 0000 or MOVE_NULL, and pop takes it back', () => {
  const b = new Board();
  const start = b.polyglotKeyHex();
  b.push('e4');
  const afterE4 = b.fen();
  assert.equal(b.push('--'), MOVE_NULL);
  // White to move again; the halfmove clock counts the pass, the move number goes on.
  assert.equal(b.fen(), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2');
  assert.equal(b.push('d4'), b.position.moveAt(1));
  assert.equal(b.push(' Z0 '), MOVE_NULL);
  assert.equal(b.push('e4e5'), b.position.moveAt(1));
  assert.equal(b.push('0000'), MOVE_NULL);
  assert.equal(b.push(MOVE_NULL), MOVE_NULL);
  assert.equal(b.fen(), 'rnbqkbnr/pppppppp/8/4P3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 2 4');
  assert.equal(b.san(MOVE_NULL), '--');
  assert.equal(b.uci(MOVE_NULL), '0000');
  for (let i = 0; i < 6; i++) b.pop();
  assert.equal(b.fen(), afterE4);
  b.pop();
  assert.equal(b.fen(), STARTING_FEN);
  assert.equal(b.polyglotKeyHex(), start);
});

test('a null move in check is refused and leaves the board as it was', () => {
  const b = new Board('4k3/8/8/8/8/8/8/4K2r w - - 0 1');
  for (const m of ['--', 'Z0', '0000', MOVE_NULL]) {
    assert.throws(() => b.push(m), /^RangeError: null move while in check in position 4k3\/8\/8\/8\/8\/8\/8\/4K2r w - - 0 1$/);
  }
  assert.equal(b.position.ply, 0);
});

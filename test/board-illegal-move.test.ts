/**
 * The Board names legal moves only: `san(m)` and `describe(m)` of a move not legal in the
 * position throw, as `push(m)` does and as python-chess's `san()` raises ("san() and lan() expect
 * move to be legal or null"), instead of giving letters that read as some move ("Rxa1" for the
 * move 0, or a move kept from an earlier position). A FEN that is not a string is a FenError.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Board } from '../src/board.js';
import { FenError } from '../src/notation/fen.js';

test('Board.san and Board.describe refuse a move that is not legal in the position', () => {
  const b = new Board();
  const e4 = b.parseSan('e4');
  const d4 = b.parseUci('d2d4');
  b.push(e4);
  // 0 (no move), e4 played already, d4 a White move with Black to move.
  for (const m of [0, e4, d4]) {
    assert.throws(() => b.san(m), /^RangeError: illegal move \d+ in position rnbqkbnr\/pppppppp\/8\/8\/4P3\/8\/PPPP1PPP\/RNBQKBNR b KQkq - 0 1$/);
    assert.throws(() => b.describe(m), RangeError);
    assert.throws(() => b.push(m), RangeError);
  }
  const e5 = b.parseUci('e7e5');
  assert.equal(b.san(e5), 'e5');
  assert.deepEqual(b.describe(e5), b.moves().find((x) => x.uci === 'e7e5'));
});

test('a FEN that is not a string is a FenError that says so, not a TypeError from inside the parser', () => {
  for (const [fen, what] of [[null, 'null'], [42, 'number'], [{}, 'object']] as const) {
    assert.throws(() => new Board(fen as never), (e: Error) => e instanceof FenError && e.message === `a FEN is a string, not ${what}`);
  }
});

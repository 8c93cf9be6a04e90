import { test } from 'node:test';
import assert from 'node:assert/strict';
import { positionFromFen, STARTING_FEN } from './fen.js';
import { makeUci, parseUci } from './uci.js';
import { unwrap } from '../core/result.js';
import { MOVE_NULL } from '../core/move.js';

test('UCI castling: e1g1 in standard chess, king takes rook in Chess960, both accepted', () => {
  const pos = unwrap(positionFromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'));
  const m = unwrap(parseUci(pos, 'e1g1'));
  assert.equal(unwrap(parseUci(pos, 'e1h1')), m);
  assert.equal(makeUci(m), 'e1g1');
  assert.equal(makeUci(m, true), 'e1h1');
  assert.equal(makeUci(MOVE_NULL), '0000');
});

test('UCI errors name the move and the position', () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  const bad = parseUci(pos, 'e2e5');
  assert.ok(!bad.ok && bad.error.code === 'ERR_UCI_ILLEGAL');
  assert.match(bad.error.message, /"e2e5" in position rnbqkbnr/);
  for (const s of ['', 'e2', 'e2e4x', 'i2i4', 'e7e8k']) assert.ok(!parseUci(pos, s).ok, s);
  assert.equal(makeUci(unwrap(parseUci(unwrap(positionFromFen('8/4P1k1/8/8/8/8/8/4K3 w - - 0 1')), 'e7e8Q'))), 'e7e8q');
});

test('castling takes no promotion letter (found by fuzzing: "e1g1q" was read as castling)', () => {
  const pos = unwrap(positionFromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'));
  for (const s of ['e1g1q', 'e1h1n', 'e1c1Q']) {
    const r = parseUci(pos, s);
    assert.ok(!r.ok && r.error.code === 'ERR_UCI_ILLEGAL', s);
  }
  assert.ok(parseUci(pos, 'e1c1').ok);
});

test('Chess960: the king moving two squares is castling, as python-chess and chessops read it', () => {
  // Black's right with the rook on b8 makes this Chess960; White's castling still reads as e1c1.
  const mixed = unwrap(positionFromFen('1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1'));
  assert.ok(mixed.chess960);
  assert.equal(makeUci(unwrap(parseUci(mixed, 'e1c1')), true), 'e1a1');
  mixed.play(unwrap(parseUci(mixed, 'a1a2')));
  assert.equal(makeUci(unwrap(parseUci(mixed, 'e8c8')), true), 'e8b8');
  // Chess960 positions with the king on e1 and the rooks on c1 and f1.
  for (const [fen, text, uci] of [
    ['b1r1krq1/pppppppp/8/8/8/8/PPPPPPPP/B1R1KRQ1 w CFcf - 0 1', 'e1c1', 'e1c1'],
    ['b1r1krq1/pppppppp/8/8/8/8/PPPPPPPP/B1R1KR2 w CFcf - 0 1', 'e1g1', 'e1f1'],
  ] as const) {
    const pos = unwrap(positionFromFen(fen));
    assert.equal(makeUci(unwrap(parseUci(pos, text)), true), uci, text);
  }
  // One step is an ordinary king move, not castling (king on b1, castling to c1).
  const b1 = unwrap(positionFromFen('1k6/8/8/8/8/8/8/RK2R3 w EA - 0 1'));
  assert.equal(makeUci(unwrap(parseUci(b1, 'b1c1')), true), 'b1c1');
});

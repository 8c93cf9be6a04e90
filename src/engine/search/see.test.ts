import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../../core/result.js';
import { positionFromFen } from '../../notation/fen.js';
import { parseUci } from '../../notation/uci.js';
import { seeGe } from './see.js';

// Exchange values worked out by hand with P 100, N 320, B 330, R 500, Q 950.
const CASES: [string, string, number, string][] = [
  ['1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1', 'e1e5', 100, 'undefended pawn'],
  // N takes pawn, N takes N, R takes N, B takes R, Q (x-ray behind the rook) takes B, Q (x-ray
  // behind the bishop) takes Q: best for White is to stop after losing the knight for a pawn.
  ['1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1', 'd3e5', -220, 'x-rays on both sides'],
  ['4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1', 'e4d5', 100, 'pawn takes pawn'],
  ['4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1', 'd2d5', -850, 'queen takes a defended pawn'],
  ['4k3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1', 'd2d5', 500, 'rook takes undefended rook'],
  ['3rk3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1', 'd2d5', 500, 'doubled rooks: R takes R, R takes R, R takes R'],
  ['4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1', 'e4d5', 950, 'pawn takes queen'],
  ['4k3/4r3/8/8/8/8/8/4RK2 w - - 0 1', 'e1e7', 0, 'rook takes rook, king takes rook'],
  ['4k3/4r3/8/8/8/8/4R3/4RK2 w - - 0 1', 'e2e7', 500, 'the king may not recapture a defended rook'],
  ['4k3/3pr3/8/8/8/8/8/4RK2 w - - 0 1', 'e1e7', 0, 'rook takes rook, pawn takes rook'],
];

test('SEE with a threshold: true exactly up to the exchange value', () => {
  for (const [fen, uci, value, why] of CASES) {
    const pos = unwrap(positionFromFen(fen));
    const m = unwrap(parseUci(pos, uci));
    assert.equal(seeGe(pos, m, value), true, `${why}: see >= ${value}`);
    assert.equal(seeGe(pos, m, value + 1), false, `${why}: not see >= ${value + 1}`);
  }
});

test('quiet moves: SEE is the loss of the moving piece if the square is attacked', () => {
  const pos = unwrap(positionFromFen('4k3/8/8/2p5/8/8/8/1R2K3 w - - 0 1'));
  const m = unwrap(parseUci(pos, 'b1b4'));
  assert.equal(seeGe(pos, m, -500), true);
  assert.equal(seeGe(pos, m, -499), false);
  const safe = unwrap(parseUci(pos, 'b1b2'));
  assert.equal(seeGe(pos, safe, 0), true);
});

test('castling, promotions and en passant count as even trades', () => {
  const ep = unwrap(positionFromFen('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1'));
  const m = unwrap(parseUci(ep, 'e5d6'));
  assert.equal(seeGe(ep, m, 0), true);
  assert.equal(seeGe(ep, m, 1), false);
});

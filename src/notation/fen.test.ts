import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeFen, parseFen, positionFromFen, STARTING_FEN } from './fen.js';
import { unwrap } from '../core/result.js';
import { parseUci } from './uci.js';

test('FEN round trips', () => {
  for (const fen of [
    STARTING_FEN,
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    'rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
    '8/8/8/8/8/8/8/K6k b - - 57 120',
    'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9',
  ]) {
    assert.equal(makeFen(unwrap(positionFromFen(fen))), fen);
  }
});

test('the e.p. square is printed only when a capture is legal, unless asked for always', () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  pos.play(unwrap(parseUci(pos, 'e2e4')));
  assert.equal(makeFen(pos), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  assert.equal(makeFen(pos, { epAlways: true }), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1');
  // A rank-pinned e.p. capture is not legal, so FEN omits it (Polyglot still hashes it).
  const pinned = unwrap(positionFromFen('4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 2'));
  assert.equal(makeFen(pinned), '4k3/8/8/r2pP2K/8/8/8/8 w - - 0 2');
});

test('Shredder-FEN, X-FEN and KQkq castling are read; Shredder output on request', () => {
  const frc = unwrap(positionFromFen('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'));
  assert.equal(makeFen(frc, { shredder: true }), 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9');
  const shredder = unwrap(positionFromFen('rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1'));
  assert.equal(makeFen(shredder), 'rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1');
  assert.equal(makeFen(shredder, { shredder: true }), 'rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1');
  // Inner rook with a right: X-FEN names its file.
  const xfen = unwrap(positionFromFen('1r2k1rr/8/8/8/8/8/8/1R2K1RR w Gg - 0 1'));
  assert.equal(makeFen(xfen), '1r2k1rr/8/8/8/8/8/8/1R2K1RR w Gg - 0 1');
  // Rights without their rook are dropped, as in chessops and python-chess.
  assert.equal(makeFen(unwrap(positionFromFen('4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1'))), '4k3/8/8/8/8/8/8/4K2R w K - 0 1');
  // Two rights on one side: the outermost rook keeps it, whatever the order of the letters.
  for (const rights of ['FH', 'HF', 'KF', 'FK']) {
    assert.equal(makeFen(unwrap(positionFromFen(`4k3/8/8/8/8/8/8/4KR1R w ${rights} - 0 1`))), '4k3/8/8/8/8/8/8/4KR1R w K - 0 1', rights);
  }
  for (const rights of ['CQ', 'QC', 'AC', 'CA']) {
    assert.equal(makeFen(unwrap(positionFromFen(`4k3/8/8/8/8/8/8/R1R1K3 w ${rights} - 0 1`))), '4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1', rights);
  }
});

test('errors name the field and what is wrong', () => {
  const cases: [string, string, string, RegExp][] = [
    ['', 'ERR_FEN', 'fen', /empty/],
    ['8/8/8/8/8/8/8/K6k w - - 0 1 x', 'ERR_FEN', 'fen', /7 fields/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1', 'ERR_FEN_BOARD', 'board', /7 ranks/],
    ['rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'ERR_FEN_BOARD', 'board', /a count of empty squares is 1 to 8, not 9 \(rank 6, "9"\)/],
    ['rnbqkbnr/pppppppp/8/080/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'ERR_FEN_BOARD', 'board', /a count of empty squares is 1 to 8, not 0 \(rank 5/],
    ['rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'ERR_FEN_BOARD', 'board', /"x"/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', 'ERR_FEN_TURN', 'turn', /side-to-move/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQz - 0 1', 'ERR_FEN_CASTLING', 'castling', /"z"/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1', 'ERR_FEN_EP', 'ep', /wrong rank/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1', 'ERR_FEN_HALFMOVES', 'halfmoves', /halfmove/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y', 'ERR_FEN_FULLMOVES', 'fullmoves', /fullmove/],
    ['rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'ERR_KINGS', 'board', /Black has 0 kings/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w KQkq - 0 1', 'ERR_PAWN_ON_BACK_RANK', 'board', /h1/],
    ['4k3/8/8/8/8/8/8/4K2r b - - 0 1', 'ERR_OPPOSITE_CHECK', 'board', /White/],
  ];
  for (const [fen, code, field, message] of cases) {
    const r = positionFromFen(fen);
    assert.ok(!r.ok, fen);
    assert.equal(r.error.code, code, fen);
    assert.equal(r.error.field, field, fen);
    assert.match(r.error.message, message, fen);
  }
});

test('messages quote at most 100 characters of the input, control characters escaped (found by fuzzing)', () => {
  for (const fen of [`${'1'.repeat(100000)}/8/8/8/8/8/8/8 w - - 0 1`, `8/8/8/8/8/8/8/K6k w - - ${'9'.repeat(100000)}x 1`, '8/8/8/8/8/8/8/K6k w\u0000 - - 0 1']) {
    const r = positionFromFen(fen);
    assert.ok(!r.ok);
    assert.ok(r.error.message.length < 250, r.error.message.slice(0, 300));
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\u0000-\u001f]/.test(r.error.message), r.error.message);
  }
});

test('EPD-style four-field FEN gets default counters', () => {
  const r = unwrap(parseFen('8/8/8/8/8/8/8/K6k w - -'));
  assert.equal(r.halfmoves, 0);
  assert.equal(r.fullmoves, 1);
  // Every field after the board may be left out, as python-chess and chessops allow: "w - - 0 1".
  for (const fen of ['4k3/8/8/8/8/8/8/4K2R', '4k3/8/8/8/8/8/8/4K2R w', '4k3/8/8/8/8/8/8/4K2R w K', '4k3/8/8/8/8/8/8/4K2R w K -']) {
    const want = fen.split(' ').length > 2 ? '4k3/8/8/8/8/8/8/4K2R w K - 0 1' : '4k3/8/8/8/8/8/8/4K2R w - - 0 1';
    assert.equal(makeFen(unwrap(positionFromFen(fen))), want, fen);
  }
});

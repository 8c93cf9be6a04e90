import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalMoves } from '../core/movegen.js';
import { makeFen, positionFromFen, STARTING_FEN } from './fen.js';
import { makeSan, makeSans, parseSan } from './san.js';
import { makeUci } from './uci.js';
import { unwrap } from '../core/result.js';

const uciOf = (fen: string, san: string): string => {
  const pos = unwrap(positionFromFen(fen));
  return makeUci(unwrap(parseSan(pos, san)), pos.chess960);
};

test('lenient SAN forms as real PGN spells them', () => {
  const castle = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
  for (const s of ['O-O', '0-0', 'O-O+', 'o-o', 'OO', 'e1g1', 'Kg1', 'e1h1']) assert.equal(uciOf(castle, s), 'e1g1', s);
  for (const s of ['O-O-O', '0-0-0', 'O-O-O!?', 'e1c1', 'e1a1']) assert.equal(uciOf(castle, s), 'e1c1', s);
  const promo = '8/4P1k1/8/8/8/8/8/4K3 w - - 0 1';
  for (const s of ['e8=Q', 'e8Q', 'e8q', 'e8=Q+', 'e7e8q', 'e7-e8=Q']) assert.equal(uciOf(promo, s), 'e7e8q', s);
  assert.equal(uciOf(promo, 'e8=N'), 'e7e8n');
  for (const s of ['e4', 'e4!', 'e4?!', 'e2e4', 'e2-e4', 'Pe4']) assert.equal(uciOf(STARTING_FEN, s), 'e2e4', s);
  for (const s of ['Nf3', 'Ng1f3', 'Ngf3', 'N1f3', 'g1f3', 'Ng1-f3']) assert.equal(uciOf(STARTING_FEN, s), 'g1f3', s);
  const ep = 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3';
  for (const s of ['exf6', 'exf6 e.p.', 'exf6e.p.', 'e5xf6', 'e5f6']) assert.equal(uciOf(ep, s), 'e5f6', s);
});

test('Chess960 castling is king takes rook', () => {
  // With a black rook on e8, the king could not pass e1: castling through an attacked square.
  assert.equal(parseSan(unwrap(positionFromFen('rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1')), 'O-O').ok, false);
  const pos = unwrap(positionFromFen('1k6/8/8/8/8/8/8/RK2R3 w EA - 0 1'));
  assert.ok(pos.chess960);
  const m = unwrap(parseSan(pos, 'O-O'));
  assert.equal(makeUci(m, true), 'b1e1');
  assert.equal(makeSan(pos, m), 'O-O');
  assert.equal(unwrap(parseSan(pos, 'b1e1')), m);
  assert.equal(unwrap(parseSan(pos, 'Kxe1')), m);
  // The king's destination is not castling in Chess960: Kc1 is an ordinary king move.
  assert.equal(makeUci(unwrap(parseSan(pos, 'Kc1')), true), 'b1c1');
  pos.play(m);
  assert.equal(pos.board[6], 6);
  assert.equal(pos.board[5], 4);
  // Castling is illegal when the other rook stands on the rook's destination.
  const blocked = unwrap(positionFromFen('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'));
  assert.equal(parseSan(blocked, 'O-O').ok, false);
});

test('SAN output: minimal disambiguation, captures, promotions, check and mate', () => {
  const pos = unwrap(positionFromFen('7k/8/8/8/8/8/8/R1R1K3 w - - 0 1'));
  assert.equal(makeSan(pos, unwrap(parseSan(pos, 'a1b1'))), 'Rab1');
  const rank = unwrap(positionFromFen('7k/8/8/8/R7/8/8/R3K3 w - - 0 1'));
  assert.equal(makeSan(rank, unwrap(parseSan(rank, 'a1a2'))), 'R1a2');
  const both = unwrap(positionFromFen('k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1'));
  assert.equal(makeSan(both, unwrap(parseSan(both, 'c3d2'))), 'Qc3d2');
  const mate = unwrap(positionFromFen('6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1'));
  assert.equal(makeSan(mate, unwrap(parseSan(mate, 'a1a8'))), 'Ra8#');
  const check = unwrap(positionFromFen('6k1/5pp1/8/8/8/8/8/R3K3 w - - 0 1'));
  assert.equal(makeSan(check, unwrap(parseSan(check, 'a1a8'))), 'Ra8+');
  const promo = unwrap(positionFromFen('1n5k/P7/8/8/8/8/8/4K3 w - - 0 1'));
  assert.equal(makeSan(promo, unwrap(parseSan(promo, 'a7b8n'))), 'axb8=N');
  // A pinned piece is not counted when disambiguating.
  const pinned = unwrap(positionFromFen('4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1'));
  assert.equal(makeSan(pinned, unwrap(parseSan(pinned, 'g1f3'))), 'Nf3');
});

test('makeSans names all the moves of a position as makeSan names each', () => {
  const fens = [
    STARTING_FEN,
    '7k/8/8/8/8/8/8/R1R1K3 w - - 0 1',
    'k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1',
    '6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1',
    '1n5k/P7/8/8/8/8/8/4K3 w - - 0 1',
    '4k3/8/8/8/1b6/8/3N4/4K1N1 w - - 0 1',
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
  ];
  let named = 0;
  for (const fen of fens) {
    const pos = unwrap(positionFromFen(fen));
    const moves = legalMoves(pos);
    const before = makeFen(pos);
    assert.deepEqual(makeSans(pos, moves), moves.map((m) => makeSan(pos, m)), fen);
    assert.equal(makeFen(pos), before, 'the position is left as it was');
    named += moves.length;
  }
  assert.ok(named > 100);
});

test('errors name the move and the position', () => {
  const pos = unwrap(positionFromFen('7k/8/8/8/8/8/8/R1R1K3 w - - 0 1'));
  const amb = parseSan(pos, 'Rb1');
  assert.ok(!amb.ok && amb.error.code === 'ERR_SAN_AMBIGUOUS');
  assert.match(amb.error.message, /"Rb1".*7k\/8\/8\/8\/8\/8\/8\/R1R1K3 w/);
  const ill = parseSan(pos, 'Nf3');
  assert.ok(!ill.ok && ill.error.code === 'ERR_SAN_ILLEGAL');
  for (const s of ['', 'xx', 'Zf3', 'e9', 'e4)', 'O-O-O-O', 'Nf3f', '--']) {
    const r = parseSan(pos, s);
    assert.ok(!r.ok, s);
    assert.equal(r.error.code === 'ERR_SAN_SYNTAX' || r.error.code === 'ERR_SAN_ILLEGAL', true, s);
  }
  // A promotion without a piece is not a move.
  const promo = unwrap(positionFromFen('8/4P1k1/8/8/8/8/8/4K3 w - - 0 1'));
  assert.ok(!parseSan(promo, 'e8').ok);
});

test('a pawn capture needs its file: "e5" and "xe5" are not dxe5 (python-chess and chessops refuse them)', () => {
  const pos = unwrap(positionFromFen('rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2'));
  for (const s of ['e5', 'xe5', 'Pxe5']) {
    const r = parseSan(pos, s);
    assert.ok(!r.ok && r.error.code === 'ERR_SAN_ILLEGAL', s);
  }
  for (const s of ['dxe5', 'de5', 'd4e5', 'd4xe5', 'Pdxe5']) assert.equal(makeUci(unwrap(parseSan(pos, s))), 'd4e5', s);
  // En passant likewise: "d6" is not exd6.
  const ep = unwrap(positionFromFen('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2'));
  assert.ok(!parseSan(ep, 'd6').ok);
  for (const s of ['exd6', 'ed6', 'exd6 e.p.', 'e5d6']) assert.equal(makeUci(unwrap(parseSan(ep, s))), 'e5d6', s);
});

test('Chess960: a two-square king move is castling in SAN too, a one-square one is not', () => {
  const fen = 'br2kr2/pppppppp/8/8/8/8/PPPPPPPP/BR2KR2 w BFbf - 0 1';
  assert.ok(unwrap(positionFromFen(fen)).chess960);
  for (const s of ['Kc1', 'e1c1', 'Ke1c1', 'Kxb1', 'O-O-O']) assert.equal(uciOf(fen, s), 'e1b1', s);
  for (const s of ['Kg1', 'e1g1', 'Kxf1', 'O-O']) assert.equal(uciOf(fen, s), 'e1f1', s);
  assert.equal(uciOf(fen, 'Kd1'), 'e1d1');
});

/**
 * A FEN may set up positions no game reaches (nine pawns, twenty queens). One with more than
 * 256 legal moves must still list, name and count every one of them, as chessops does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFen as opsParseFen } from 'chessops/fen';
import { makeSan as opsMakeSan } from 'chessops/san';
import { Chess } from 'chessops/chess';
import { makeUci as opsMakeUci } from 'chessops/util';
import { Board } from '../src/board.js';
import { divide, perft } from '../src/core/perft.js';
import { makeSan, makeSans, parseSan } from '../src/notation/san.js';
import { makeUci, parseUci } from '../src/notation/uci.js';

/** White to move has 259 legal moves (Black, boxed in on a1, has none after any of them). */
const FEN = 'BQQQQQQB/Q6Q/Q6Q/Q6Q/Q6Q/QQ4QQ/pp3Q2/kBQQQK1Q w - - 0 1';

function theirMoves(): { uci: string; san: string }[] {
  const pos = Chess.fromSetup(opsParseFen(FEN).unwrap()).unwrap();
  const out: { uci: string; san: string }[] = [];
  for (const [from, dests] of pos.allDests()) for (const to of dests) out.push({ uci: opsMakeUci({ from, to }), san: opsMakeSan(pos, { from, to }) });
  return out;
}

test('every legal move of a position with more than 256 of them is listed, with the SAN chessops writes', () => {
  const theirs = theirMoves();
  assert.equal(theirs.length, 259);
  const board = new Board(FEN);
  const ours = board.moves();
  assert.deepEqual(ours.map((m) => m.uci).sort(), theirs.map((m) => m.uci).sort());
  const sanOf = new Map(theirs.map((m) => [m.uci, m.san]));
  for (const m of ours) assert.equal(m.san, sanOf.get(m.uci), m.uci);
  assert.deepEqual(makeSans(board.position, board.legalMoves()), ours.map((m) => m.san));
});

test('every one of them reads back from its SAN and its UCI', () => {
  const board = new Board(FEN);
  for (const { uci, san } of theirMoves()) {
    const bySan = parseSan(board.position, san);
    const byUci = parseUci(board.position, uci);
    assert.ok(bySan.ok && byUci.ok, `${san} ${uci}`);
    assert.equal(bySan.value, byUci.value);
    assert.equal(makeUci(bySan.value), uci);
    assert.equal(makeSan(board.position, bySan.value), san);
  }
});

test('perft and divide play every one of them', () => {
  const board = new Board(FEN);
  assert.equal(perft(board.position, 1, false), 259);
  const rows = divide(board.position, 1, false);
  assert.equal(rows.length, 259);
  assert.equal(new Set(rows.map((r) => r.move)).size, 259);
  assert.deepEqual(rows.map((r) => makeUci(r.move)).sort(), theirMoves().map((m) => m.uci).sort());
  assert.equal(board.fen(), FEN);
});

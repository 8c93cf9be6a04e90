import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../core/result.js';
import { STARTING_FEN, makeFen, positionFromFen } from './fen.js';
import { moveListWords, playMoveList } from './moveList.js';
import { makeUci } from './uci.js';

const start = () => unwrap(positionFromFen(STARTING_FEN));
const AFTER_NF3 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';

test('a move list in UCI, SAN, mixed, with commas or move numbers, reaches the same position', () => {
  for (const text of ['e2e4 e7e5 g1f3', 'e4 e5 Nf3', 'e4 e7e5 Nf3', 'e4,e5,Nf3', '1. e4 e5 2. Nf3', '1.e4 e5 2.Nf3', ' e4  e5\tNf3 ']) {
    const pos = start();
    const r = playMoveList(pos, text);
    assert.ok(r.ok, text);
    assert.deepEqual(r.value.map((m) => makeUci(m)), ['e2e4', 'e7e5', 'g1f3'], text);
    assert.equal(makeFen(pos), AFTER_NF3, text);
  }
  assert.deepEqual(moveListWords('1... e5 2. Nf3'), ['e5', 'Nf3']);
  assert.ok(playMoveList(start(), '').ok);
});

test('a bad move is named with its place in the list and the position it was tried in', () => {
  const cases: [string, number, string, RegExp][] = [
    ['e4 e5 Nf6', 3, 'Nf6', /move 3 of the list: illegal move "Nf6" in position rnbqkbnr\/pppp1ppp\/8\/4p3\/4P3\/8\/PPPP1PPP\/RNBQKBNR w KQkq - 0 2/],
    ['e2e4 e2e4', 2, 'e2e4', /move 2 of the list: .*"e2e4" in position rnbqkbnr\/pppppppp\/8\/8\/4P3\/8\/PPPP1PPP\/RNBQKBNR b/],
    ['e4 xyz', 2, 'xyz', /move 2 of the list: unreadable move "xyz"/],
  ];
  for (const [text, index, move, message] of cases) {
    const r = playMoveList(start(), text);
    assert.ok(!r.ok, text);
    assert.equal(r.error.index, index, text);
    assert.equal(r.error.move, move, text);
    assert.match(r.error.message, message, text);
  }
});

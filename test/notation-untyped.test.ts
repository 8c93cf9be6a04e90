/**
 * Untyped callers (a JSON key missing, a form field not filled in) get the readers' typed
 * errors, as they do from parseFen, not a TypeError from inside: every reader answers a Result
 * (docs/notation.md), and Board throws the error of the reader it calls.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Board } from '../src/board.js';
import { unwrap } from '../src/core/result.js';
import { EpdError, parseEpd } from '../src/notation/epd.js';
import { positionFromFen, STARTING_FEN } from '../src/notation/fen.js';
import { MoveListError, playMoveList } from '../src/notation/moveList.js';
import { parseSan, SanError } from '../src/notation/san.js';
import { parseUci, UciError } from '../src/notation/uci.js';

const NOT_TEXT: [unknown, string][] = [
  [undefined, 'undefined'],
  [null, 'null'],
  [{}, 'object'],
];

test('SAN, UCI, EPD and move-list readers answer their error for a value that is not a string', () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const [value, name] of NOT_TEXT) {
    const san = parseSan(pos, value as string);
    assert.ok(!san.ok && san.error instanceof SanError && san.error.code === 'ERR_SAN_SYNTAX');
    assert.equal(san.error.message, `a SAN move is a string, not ${name}`);
    const uci = parseUci(pos, value as string);
    assert.ok(!uci.ok && uci.error instanceof UciError && uci.error.code === 'ERR_UCI_SYNTAX');
    assert.equal(uci.error.message, `a UCI move is a string, not ${name}`);
    const epd = parseEpd(value as string);
    assert.ok(!epd.ok && epd.error instanceof EpdError && epd.error.column === 1);
    assert.equal(epd.error.message, `an EPD line is a string, not ${name}`);
    const list = playMoveList(pos, value as string);
    assert.ok(!list.ok && list.error instanceof MoveListError && list.error.index === 1);
    assert.equal(list.error.message, `a move list is a string, not ${name}`);
  }
  assert.equal(pos.ply, 0);
});

test('Board.push, parseSan and parseUci throw the reader error for a value that is not a string', () => {
  const b = new Board();
  for (const [value] of NOT_TEXT) {
    assert.throws(() => b.push(value as string), SanError);
    assert.throws(() => b.parseSan(value as string), SanError);
    assert.throws(() => b.parseUci(value as string), UciError);
  }
  assert.equal(b.position.ply, 0);
});

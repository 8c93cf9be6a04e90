import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EpdError, makeEpd, parseEpd, perftExpectations } from './epd.js';
import { positionFromFen } from './fen.js';
import { unwrap } from '../core/result.js';

test('EPD operations: bm with several moves, quoted strings with semicolons, c0..c9', () => {
  const rec = unwrap(parseEpd('2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6 Qh4; id "WAC; 001"; c0 "a \\"b\\"";'));
  assert.equal(rec.fen, '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1');
  assert.deepEqual(rec.ops.get('bm'), ['Qg6', 'Qh4']);
  assert.deepEqual(rec.ops.get('id'), ['WAC; 001']);
  assert.deepEqual(rec.ops.get('c0'), ['a "b"']);
});

test('perft-suite dialect and move counters', () => {
  const rec = unwrap(parseEpd('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400'));
  assert.equal(rec.fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  assert.deepEqual([...perftExpectations(rec)], [[1, 20], [2, 400]]);
  const counters = unwrap(parseEpd('8/8/8/8/8/8/8/K6k b - - hmvc 12; fmvn 40;'));
  assert.equal(counters.fen, '8/8/8/8/8/8/8/K6k b - - 12 40');
});

test('makeEpd writes operations back', () => {
  const pos = unwrap(positionFromFen('8/8/8/8/8/8/8/K6k b - - 0 1'));
  const line = makeEpd(pos, [['bm', ['Kg2']], ['id', ['test 1']]]);
  assert.equal(line, '8/8/8/8/8/8/8/K6k b - - bm Kg2; id "test 1";');
  assert.deepEqual(unwrap(parseEpd(line)).ops.get('id'), ['test 1']);
});

test('EPD errors', () => {
  assert.equal((parseEpd('8/8/8 w') as { ok: false; error: { code: string } }).error.code, 'ERR_EPD_FIELDS');
  assert.equal((parseEpd('8/8/8/8/8/8/8/K6k b - - id "open') as { ok: false; error: { code: string } }).error.code, 'ERR_EPD_STRING');
});

test('fields and operations separated by tabs or other blanks (found by fuzzing: tabs made empty fields)', () => {
  const rec = unwrap(parseEpd('8/8/8/8/8/8/8/K6k\tb\t-\t-\tbm Kb2;\tid "x";\r'));
  assert.equal(rec.fen, '8/8/8/8/8/8/8/K6k b - - 0 1');
  assert.deepEqual([...rec.ops], [['bm', ['Kb2']], ['id', ['x']]]);
});

test('EPD errors give the column; counters must be numbers', () => {
  const cases: [string, string, number][] = [
    ['8/8/8/8/8/8/8/K6k b -;', 'ERR_EPD_FIELDS', 22],
    ['  8/8/8/8/8/8/8/K6k b - - hmvc x;', 'ERR_EPD_COUNTER', 27],
    ['8/8/8/8/8/8/8/K6k b - - fmvn -3;', 'ERR_EPD_COUNTER', 25],
    ['8/8/8/8/8/8/8/K6k b - - bm Kb2; 1x;', 'ERR_EPD_OPCODE', 33],
    ['8/8/8/8/8/8/8/K6k b - - id "open', 'ERR_EPD_STRING', 28],
  ];
  for (const [line, code, column] of cases) {
    const r = parseEpd(line);
    assert.ok(!r.ok, line);
    assert.ok(r.error instanceof EpdError);
    assert.equal(r.error.code, code, line);
    assert.equal(r.error.column, column, line);
    assert.match(r.error.message, new RegExp(`column ${column}:`));
  }
});

test('makeEpd quotes operands the way parseEpd reads them (found by fuzzing: JSON escapes did not read back)', () => {
  const pos = unwrap(positionFromFen('8/8/8/8/8/8/8/K6k b - - 0 1'));
  const ops: [string, string[]][] = [['c0', ['a\tb', 'back\\slash "quoted"', '', 'x;y']], ['id', ['\u00e9\u0000']]];
  assert.deepEqual([...unwrap(parseEpd(makeEpd(pos, ops))).ops], ops);
});

test('move counters followed by operations (docs/notation.md: fields, counters, then operations)', () => {
  const rec = unwrap(parseEpd('4k3/8/8/8/8/8/8/4K3 w - - 5 20 bm Kd2; id "x";'));
  assert.equal(rec.fen, '4k3/8/8/8/8/8/8/4K3 w - - 5 20');
  assert.deepEqual([...rec.ops], [['bm', ['Kd2']], ['id', ['x']]]);
  // hmvc/fmvn still win over the counters, and one number alone is still not an opcode.
  assert.equal(unwrap(parseEpd('4k3/8/8/8/8/8/8/4K3 w - - 5 20 hmvc 7;')).fen, '4k3/8/8/8/8/8/8/4K3 w - - 7 20');
  const one = parseEpd('4k3/8/8/8/8/8/8/4K3 w - - 5 bm Kd2;');
  assert.ok(!one.ok && one.error.code === 'ERR_EPD_OPCODE');
});

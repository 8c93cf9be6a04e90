import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLabeled, parseLabeled, withCe } from './labels.js';

test('labelled lines: EPD with c9 and FEN with [result], as the public Texel sets write them', () => {
  const cases: [string, string, number][] = [
    ['r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 c9 "1-0";', 'r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 0 1', 2],
    ['8/8/4k3/8/8/4K3/4P3/8 w - - c9 "1/2-1/2";', '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1', 1],
    ['8/8/4k3/8/8/4K3/4P3/8 w - - id "x"; c9 "0-1";', '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1', 0],
    ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [0.5]', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 1],
    ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 7 [1.0]', 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 7', 2],
  ];
  for (const [line, fen, result] of cases) {
    const r = parseLabeled(line);
    assert.ok(r.ok, line);
    assert.deepEqual(r.value, { fen, result });
  }
  assert.equal(formatLabeled('8/8/4k3/8/8/4K3/4P3/8 w - -', 1), '8/8/4k3/8/8/4K3/4P3/8 w - - c9 "1/2-1/2";');
});

test('another engine\'s evaluation as EPD ce (side to move\'s centipawns) is read in White\'s point of view', () => {
  const cases: [string, number | undefined][] = [
    ['r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3 c9 "1-0"; ce -35;', 35],
    ['8/8/4k3/8/8/4K3/4P3/8 w - - ce 212; c9 "1/2-1/2";', 212],
    ['8/8/4k3/8/8/4K3/4P3/8 b - - c9 "0-1"; ce +40;', -40],
    // An id that merely contains the letters is no evaluation.
    ['8/8/4k3/8/8/4K3/4P3/8 w - - id "source ce 9"; c9 "0-1";', undefined],
  ];
  for (const [line, ce] of cases) {
    const r = parseLabeled(line);
    assert.ok(r.ok, line);
    assert.equal(r.value.ce, ce, line);
  }
  for (const line of ['8/8/4k3/8/8/4K3/4P3/8 w - - c9 "1-0"; ce 1.5;', '8/8/4k3/8/8/4K3/4P3/8 w - - c9 "1-0"; ce 40000;', '8/8/4k3/8/8/4K3/4P3/8 w - - c9 "1-0"; ce ;']) {
    const r = parseLabeled(line);
    assert.ok(!r.ok, line);
    assert.match(r.error.message, /ce ".*" is not a whole number of centipawns/, line);
  }
});

test('Ethereal\'s data sets: a bracketed result followed by its search\'s score, read as the line\'s ce', () => {
  // The lines of Ethereal's published tuning sets (its tuner reads the result with strstr and the
  // score with atoi after "] ", negated for Black to move): the score is the side to move's.
  const B = 'r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3';
  const cases: [string, { result: number; ce?: number }][] = [
    [`${B} 0 12 [1.0] 35`, { result: 2, ce: -35 }],
    [`${B} 0 12 [0.0] -120`, { result: 0, ce: 120 }],
    ['8/8/4k3/8/8/4K3/4P3/8 w - - 0 1 [0.5] +8', { result: 1, ce: 8 }],
    // Results spelled with more digits than the usual one.
    [`${B} 0 12 [1.00]`, { result: 2 }],
    [`${B} 0 12 [0.50] 0`, { result: 1, ce: 0 }],
    [`${B} 0 12 [.5]`, { result: 1 }],
    // An EPD ce operation is the line's evaluation, whatever follows the result.
    [`${B} 0 12 ce 10; [0.5] 99`, { result: 1, ce: -10 }],
  ];
  for (const [line, want] of cases) {
    const r = parseLabeled(line);
    assert.ok(r.ok, line);
    assert.deepEqual(r.value, { fen: line.includes(' 0 12 ') ? `${B} 0 12` : '8/8/4k3/8/8/4K3/4P3/8 w - - 0 1', ...want }, line);
  }
  const bad: [string, RegExp][] = [
    [`${B} 0 12 [1.0] 99999`, /the score after the result, "99999" is not a whole number/],
    [`${B} 0 12 [1.0] 3.5`, /no result label/],
    [`${B} 0 12 [2.0] 5`, /result "2.0" is not/],
  ];
  for (const [line, why] of bad) {
    const r = parseLabeled(line);
    assert.ok(!r.ok, line);
    assert.match(r.error.message, why, line);
  }
});

test('unreadable labelled lines say why', () => {
  const bad: [string, RegExp][] = [
    ['8/8/4k3/8/8/4K3/4P3/8 w - -', /no result label/],
    ['8/8/4k3/8/8/4K3/4P3/8 w - - c9 "*";', /result "\*"/],
    ['8/8/4k3/8/8/4K3/4P3/8 w c9 "1-0";', /2 field/],
  ];
  for (const [line, why] of bad) {
    const r = parseLabeled(line);
    assert.ok(!r.ok, line);
    assert.match(r.error.message, why);
  }
});

test('parseLabeled: a ce or c9 inside a string operand is not the line\'s', () => {
  const X = '8/8/4k3/8/8/4K3/4P3/8 w - -';
  assert.deepEqual(parseLabeled(`${X} c9 "1-0"; id "game 7; ce 12; x";`), { ok: true, value: { fen: `${X} 0 1`, result: 2 } });
  assert.deepEqual(parseLabeled(`${X} id "c9 0-1"; c9 "1/2-1/2"; ce -8;`), { ok: true, value: { fen: `${X} 0 1`, result: 1, ce: -8 } });
});

test('withCe: the line with one ce, replaced rather than added, and read back by parseLabeled as written', () => {
  const X = '8/8/4k3/8/8/4K3/4P3/8 w - -';
  const B = 'r1bq1rk1/p4pb1/2p4p/n2np1p1/7P/2NP4/PPP1BPP1/R1BQK1NR b KQ h3';
  const cases: [string, string][] = [
    [`${X} c9 "1-0";`, `${X} c9 "1-0"; ce 7;`],
    [`${B} c9 "1-0"; ce -35;`, `${B} c9 "1-0"; ce 7;`],
    [`${X} ce 212; c9 "1/2-1/2";`, `${X} c9 "1/2-1/2"; ce 7;`],
    [`${X} c9 "1-0"; ce 1; ce 2;`, `${X} c9 "1-0"; ce 7;`],
    [`${X} c9 "1-0";ce 5;`, `${X} c9 "1-0"; ce 7;`],
    [`${X} c9 "0-1" ce 5;`, `${X} c9 "0-1" ce 7;`],
    [`${X} id "source ce 9"; c9 "0-1";`, `${X} id "source ce 9"; c9 "0-1"; ce 7;`],
    // A string operand is left as it is, whatever it holds.
    [`${X} c9 "1-0"; ce 12; id "a; ce 5; b";`, `${X} c9 "1-0"; id "a; ce 5; b"; ce 7;`],
    [`${X} id "c9 0-1"; c9 "1-0"; c0 "ce 3;";`, `${X} id "c9 0-1"; c9 "1-0"; c0 "ce 3;"; ce 7;`],
    // The FEN spelling's result must stay last to be read: the ce goes before it.
    [`${B} 0 1 [1.0]`, `${B} 0 1 ce 7; [1.0]`],
    [`${B} 3 7 ce -4; [0.5]`, `${B} 3 7 ce 7; [0.5]`],
    // Ethereal's score after the result stays, behind the ce that now wins over it.
    [`${B} 0 1 [1.0] 35`, `${B} 0 1 ce 7; [1.0] 35`],
    // Unlabelled positions get their ce too.
    [X, `${X} ce 7;`],
  ];
  for (const [line, expected] of cases) {
    assert.equal(withCe(line, 7), expected, line);
    assert.equal(withCe(withCe(line, -300), 7), expected, `${line}: labelling again replaces the value`);
  }
  for (const [line] of cases.filter(([l]) => /c9|\]( \d+)?$/.test(l))) {
    const before = parseLabeled(line);
    const after = parseLabeled(withCe(line, -31999));
    assert.ok(before.ok && after.ok, line);
    assert.deepEqual(after.value, { fen: before.value.fen, result: before.value.result, ce: before.value.fen.split(' ')[1] === 'b' ? 31999 : -31999 }, line);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { unwrap } from '../../core/result.js';
import { keyToHex } from '../../core/zobrist.js';
import { compareKeys, decodeMove, encodeMove, readEntry, splitLearn, writeEntry } from './format.js';

const OUT = new URL('../../../../../shared/docs/polyglot-vectors/out/', import.meta.url);

test('moves of polyglot.md §1.3 encode to the documented fields', () => {
  const table: [string, string, number][] = [
    [STARTING_FEN, 'e2e4', 0x031c],
    [STARTING_FEN, 'g1f3', 0x0195],
    ['rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3', 'e5d6', 0x092b],
    ['rnbqk1nr/pppppp1P/5b2/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 1 5', 'h7g8q', 0x4dfe],
    ['rnbqk1nr/pppppp1P/5b2/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 1 5', 'h7g8n', 0x1dfe],
    ['rnbqkbnr/pppppp1p/P7/8/8/8/1PPPPPp1/RNBQKBNR b KQkq - 0 5', 'g2h1q', 0x4387],
    ['rnbqkbnr/pppppp1p/P7/8/8/8/1PPPPPp1/RNBQKBNR b KQkq - 0 5', 'g2f1r', 0x3385],
    ['r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', 'e1g1', 0x0107],
    ['r3kbnr/pppqpppp/2n5/3p1b2/3P1B2/2N5/PPPQPPPP/R3KBNR w KQkq - 6 5', 'e1c1', 0x0100],
    ['r3kbnr/pppqpppp/2n5/3p1b2/3P1B2/2N5/PPPQPPPP/2KR1BNR b kq - 7 5', 'e8c8', 0x0f38],
  ];
  for (const [fen, uci, pm] of table) {
    const pos = unwrap(positionFromFen(fen));
    const m = unwrap(parseUci(pos, uci));
    assert.equal(encodeMove(m), pm, uci);
    assert.equal(decodeMove(pos, pm), m, uci);
  }
});

test('every entry written by polyglot decodes to a legal move of its position, and encodes back', () => {
  let checked = 0;
  for (const f of readdirSync(OUT).filter((n) => n.endsWith('.entries.txt'))) {
    for (const line of readFileSync(new URL(f, OUT), 'utf8').split('\n')) {
      // 463b96181691fc9c031c000400000000  key=… move=0x031c(e2e4) weight=4 learn=…  FEN
      const m = /^([0-9a-f]{32})\s+key=(\w+) move=0x(\w+)\((\w+)\) weight=(\d+) learn=0x(\w+)\s+(.*)$/.exec(line);
      if (m === null || m[7]!.trim() === '') continue;
      const fen = m[7] === 'start' ? STARTING_FEN : m[7]!;
      const pos = unwrap(positionFromFen(fen));
      assert.equal(keyToHex(pos.keyHi, pos.keyLo), m[2], `${f}: key of ${fen}`);
      const pm = parseInt(m[3]!, 16);
      const move = decodeMove(pos, pm);
      assert.ok(move >= 0, `${f}: ${m[4]} in ${fen}`);
      assert.equal(encodeMove(move), pm);
      assert.equal(makeUci(move, true), m[4], `${f}: ${m[4]}`);
      const bytes = Uint8Array.from(m[1]!.match(/../g)!.map((h) => parseInt(h, 16)));
      const e = readEntry(bytes, 0);
      assert.equal(e.move, pm);
      assert.equal(e.weight, Number(m[5]));
      assert.equal(e.learn, parseInt(m[6]!, 16));
      checked++;
    }
  }
  assert.ok(checked >= 140, `only ${checked} entries checked`);
});

test('garbage moves do not decode', () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const pm of [0, 0x8000 | 0x031c, 0x031c | (1 << 12), 0x0106 /* e1g1 is not castling in a book */, 0x0124 /* e4e4 */]) {
    assert.equal(decodeMove(pos, pm), -1, pm.toString(16));
  }
});

test('entries round-trip through writeEntry/readEntry, keys compare unsigned', () => {
  const bytes = new Uint8Array(32);
  writeEntry(bytes, 1, 0xf0000001 | 0, 0x80000000 | 0, 0x4dfe, 65535, 0x00050007);
  const e = readEntry(bytes, 1);
  assert.deepEqual(e, { index: 1, keyHi: 0xf0000001, keyLo: 0x80000000, move: 0x4dfe, weight: 65535, learn: 0x00050007 });
  assert.deepEqual(splitLearn(e.learn), { games: 5, points: 7 });
  assert.equal(compareKeys(0xf0000000, 0, 0x10000000, 0), 1);
  assert.equal(compareKeys(-1, 0, 0x7fffffff, -1), 1);
  assert.equal(compareKeys(1, 0x80000000, 1, 0x7fffffff), 1);
  assert.equal(compareKeys(1, 2, 1, 2), 0);
});

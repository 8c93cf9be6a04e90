import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { positionFromFen } from '../notation/fen.js';
import { CHECK_INFO_SIZE, givesCheck, prepareCheckInfo } from './givesCheck.js';
import { generateLegal } from './movegen.js';
import { PINS, computePins, isLegalNotInCheck } from './legality.js';
import { generateNoisy, generateQuiets } from './movegenStaged.js';
import type { Position } from './position.js';
import { unwrap } from './result.js';

const SUITE = new URL('../../../../shared/data/suites/perft_standard.epd', import.meta.url);
const fens = readFileSync(SUITE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => l.split(';')[0]!.trim());

/** Visits every position of the legal move tree of `pos` to `depth`. */
function walk(pos: Position, depth: number, visit: (p: Position, legal: number[]) => void): void {
  const buf = new Uint16Array(256);
  const legal = Array.from(buf.subarray(0, generateLegal(pos, buf, 0)));
  visit(pos, legal);
  if (depth === 0) return;
  for (const m of legal) {
    pos.play(m);
    walk(pos, depth - 1, visit);
    pos.undo();
  }
}

test('noisy + quiet stages generate exactly the legal moves (perft suite positions and their children)', () => {
  const buf = new Uint16Array(256);
  let positions = 0;
  for (const fen of fens.slice(0, 60)) {
    walk(unwrap(positionFromFen(fen)), 1, (p, legal) => {
      if (p.inCheck()) return;
      computePins(p);
      const pl = PINS[0]!;
      const ph = PINS[1]!;
      const noisyEnd = generateNoisy(p, buf, 0, pl, ph);
      for (let i = 0; i < noisyEnd; i++) {
        const m = buf[i]!;
        assert.ok(p.board[m & 63] !== 0 || (m >>> 14) !== 0, `noisy move ${m} captures or promotes`);
      }
      const end = generateQuiets(p, buf, noisyEnd, pl, ph);
      assert.deepEqual(Array.from(buf.subarray(0, end)).sort(), legal.slice().sort(), fen);
      positions++;
    });
  }
  assert.ok(positions > 500, `${positions} positions`);
});

test('isLegalNotInCheck accepts exactly the legal moves, whatever 16-bit value it is given', () => {
  let rng = 7;
  const next = (): number => ((rng = (Math.imul(rng, 1103515245) + 12345) >>> 0) >>> 16) & 0xffff;
  for (const fen of fens.slice(0, 40)) {
    walk(unwrap(positionFromFen(fen)), 1, (p, legal) => {
      if (p.inCheck()) return;
      computePins(p);
      const set = new Set(legal);
      for (const m of legal) assert.ok(isLegalNotInCheck(p, m, PINS[0]!, PINS[1]!), `legal move ${m} rejected in ${fen}`);
      for (let i = 0; i < 60; i++) {
        const m = next();
        assert.equal(isLegalNotInCheck(p, m, PINS[0]!, PINS[1]!), set.has(m), `move ${m} in ${fen}`);
      }
    });
  }
});

test('givesCheck agrees with playing the move and testing for check', () => {
  const info = new Int32Array(CHECK_INFO_SIZE);
  let checks = 0;
  let moves = 0;
  for (const fen of fens) {
    walk(unwrap(positionFromFen(fen)), 1, (p, legal) => {
      prepareCheckInfo(p, info, 0);
      for (const m of legal) {
        const predicted = givesCheck(p, m, info, 0);
        p.play(m);
        const actual = p.inCheck();
        p.undo();
        assert.equal(predicted, actual, `move ${m} in ${fen}`);
        moves++;
        if (actual) checks++;
      }
    });
  }
  assert.ok(moves > 20000 && checks > 1000, `${moves} moves, ${checks} checks`);
});

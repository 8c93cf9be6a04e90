import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { positionFromFen } from '../notation/fen.js';
import { makeUci } from '../notation/uci.js';
import { generateLegal, isLegal } from './movegen.js';
import type { Position } from './position.js';
import { unwrap } from './result.js';

const suite = (name: string): string[] =>
  readFileSync(new URL(`../../../../shared/data/suites/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(';')[0]!.trim());

/** Every 16-bit value against the generator's list: isLegal must say yes to exactly those. */
function agree(pos: Position, where: string): number {
  const buf = new Uint16Array(256);
  const n = generateLegal(pos, buf, 0);
  const legal = new Set(buf.subarray(0, n));
  for (let m = 0; m < 0x10000; m++) {
    if (isLegal(pos, m) !== legal.has(m)) assert.fail(`${where}: isLegal says ${!legal.has(m)} for ${m.toString(16)} (${legal.has(m) ? makeUci(m, pos.chess960) : 'not generated'})`);
  }
  // Values outside 16 bits are never moves.
  for (const m of buf.subarray(0, n)) assert.equal(isLegal(pos, m | 0x10000), false);
  return n;
}

test('isLegal agrees with the generator on every move code, in the perft suites and one ply after each position', () => {
  let positions = 0;
  let legal = 0;
  for (const fen of [...suite('perft_standard.epd'), ...suite('perft_chess960.epd').slice(0, 40)]) {
    const pos = unwrap(positionFromFen(fen));
    legal += agree(pos, fen);
    positions++;
    const buf = new Uint16Array(256);
    const n = generateLegal(pos, buf, 0);
    // Every fifth reply: positions in check, with pins, en passant and promotions come from these.
    for (let i = 0; i < n; i += 5) {
      pos.play(buf[i]!);
      legal += agree(pos, `${fen} after ${makeUci(buf[i]!, pos.chess960)}`);
      positions++;
      pos.undo();
    }
  }
  assert.ok(positions > 700 && legal > 13000, `${positions} positions, ${legal} legal moves`);
});

test('isLegal: the cases a replay of damaged move codes meets', () => {
  const check = (fen: string, uciMoves: string[], expected: boolean): void => {
    const pos = unwrap(positionFromFen(fen));
    const buf = new Uint16Array(256);
    const n = generateLegal(pos, buf, 0);
    for (const u of uciMoves) {
      const m = [...buf.subarray(0, n)].find((x) => makeUci(x, false) === u);
      if (expected) assert.ok(m !== undefined && isLegal(pos, m), `${u} is legal in ${fen}`);
      else assert.equal(m, undefined, `${u} is not generated in ${fen}`);
    }
  };
  // En passant that would expose the king along the rank (both pawns leave it).
  check('8/8/8/KPp4r/8/8/8/7k w - c6 0 2', ['b5c6'], false);
  check('8/8/8/KPp4r/8/8/8/7k w - c6 0 2', ['b5b6', 'a5a4'], true);
  // A pinned knight, a king stepping along the checking ray.
  const pinned = unwrap(positionFromFen('4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1'));
  assert.equal(isLegal(pinned, (12 << 6) | 29), false, 'Ne2-f4 leaves the king in check');
  const ray = unwrap(positionFromFen('4r1k1/8/8/8/8/8/8/4K3 w - - 0 1'));
  assert.equal(isLegal(ray, (4 << 6) | 12), false, 'Ke1-e2 stays on the rook file');
  assert.equal(isLegal(ray, (4 << 6) | 3), true, 'Ke1-d1 leaves it');
});

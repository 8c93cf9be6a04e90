/**
 * Bad input never produces an unexplained exception: mutated and random FEN, SAN, UCI and EPD
 * strings either parse or come back as a ParseError value with a code and a message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { positionFromFen, makeFen, STARTING_FEN } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { parseUci } from '../src/notation/uci.js';
import { parseEpd } from '../src/notation/epd.js';
import { legalMoves } from '../src/core/movegen.js';
import { perft } from '../src/core/perft.js';
import { rng } from './support/diffChessops.js';

const ALPHABET = 'pnbrqkPNBRQK12345678/ -wKQkqabcdefgh0x=+#!?O;"\u00bd\u0000\n';
const SEEDS = [
  STARTING_FEN,
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
  'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
  '8/4P1k1/8/8/8/8/8/4K3 w - - 0 1',
];

function mutate(s: string, random: () => number): string {
  const chars = [...s];
  const edits = 1 + Math.floor(random() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * (chars.length + 1));
    const ch = ALPHABET[Math.floor(random() * ALPHABET.length)]!;
    const op = random();
    if (op < 0.4) chars.splice(at, 1);
    else if (op < 0.7) chars.splice(at, 0, ch);
    else chars[at] = ch;
  }
  return chars.join('');
}

test('mutated FENs parse to legal, playable positions or to explained errors', () => {
  const random = rng(7);
  let parsed = 0;
  for (let i = 0; i < 20000; i++) {
    const fen = mutate(SEEDS[i % SEEDS.length]!, random);
    const r = positionFromFen(fen);
    if (!r.ok) {
      assert.match(r.error.code, /^ERR_/);
      assert.ok(r.error.message.length > 10);
      continue;
    }
    parsed++;
    // Whatever parsed must be a consistent position: printable, re-readable, searchable.
    const again = positionFromFen(makeFen(r.value));
    assert.ok(again.ok, fen);
    perft(r.value, 2);
    assert.equal(makeFen(again.value), makeFen(r.value));
  }
  assert.ok(parsed > 100);
});

test('random SAN, UCI and EPD strings never throw', () => {
  const random = rng(11);
  const pos = positionFromFen(SEEDS[1]!);
  assert.ok(pos.ok);
  const sans = legalMoves(pos.value).length;
  assert.equal(sans, 48);
  for (let i = 0; i < 20000; i++) {
    const len = Math.floor(random() * 8);
    let s = '';
    for (let k = 0; k < len; k++) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
    for (const r of [parseSan(pos.value, s), parseUci(pos.value, s), parseEpd(mutate(SEEDS[i % 5]!, random) + ' ' + s)]) {
      if (!r.ok) assert.match(r.error.code, /^ERR_/);
    }
  }
});

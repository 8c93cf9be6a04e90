import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { positionFromFen } from '../notation/fen.js';
import { parseUci } from '../notation/uci.js';
import { keyToHex } from './zobrist.js';
import { unwrap } from './result.js';
import { POLYGLOT_RANDOM_HEX } from './polyglotRandom.js';

const VECTORS = new URL('../../../../shared/docs/polyglot-vectors/', import.meta.url);

test('the bundled random table equals polyglot-vectors/random64.txt', () => {
  const lines = readFileSync(new URL('random64.txt', VECTORS), 'utf8').split('\n').filter(Boolean);
  assert.deepEqual(POLYGLOT_RANDOM_HEX, lines.map((l) => l.trim().toUpperCase()));
});

test('every key in polyglot-vectors/keys.txt is reproduced from its FEN', () => {
  const lines = readFileSync(new URL('keys.txt', VECTORS), 'utf8')
    .split('\n')
    .filter((l) => /^[0-9a-f]{16}\s/.test(l));
  assert.ok(lines.length >= 16);
  for (const line of lines) {
    const [key, ...rest] = line.split(/\s+/);
    const fen = rest.slice(0, 6).join(' ');
    const pos = unwrap(positionFromFen(fen));
    assert.equal(keyToHex(pos.keyHi, pos.keyLo), key, fen);
  }
});

test('official test keys are reached incrementally by playing the moves', () => {
  const table: [string, string][] = [
    ['', '463b96181691fc9c'],
    ['e2e4', '823c9b50fd114196'],
    ['e2e4 d7d5', '0756b94461c50fb0'],
    ['e2e4 d7d5 e4e5', '662fafb965db29d4'],
    ['e2e4 d7d5 e4e5 f7f5', '22a48b5a8e47ff78'],
    ['e2e4 d7d5 e4e5 f7f5 e1e2', '652a607ca3f242c1'],
    ['e2e4 d7d5 e4e5 f7f5 e1e2 e8f7', '00fdd303c946bdd9'],
    ['a2a4 b7b5 h2h4 b5b4 c2c4', '3c8123ea7b067637'],
    ['a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3', '5c3f9b829b279560'],
    ['e2e4 g8f6 e4e5 d7d5', '2158459ff499f8e3'],
  ];
  for (const [moves, key] of table) {
    const pos = unwrap(positionFromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
    for (const uci of moves.split(' ').filter(Boolean)) pos.play(unwrap(parseUci(pos, uci)));
    assert.equal(keyToHex(pos.keyHi, pos.keyLo), key, moves);
  }
});

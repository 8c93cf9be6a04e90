import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Position } from '../core/position.js';
import { STARTING_FEN, makeFen } from '../notation/fen.js';
import { resetToStart, setupGame, variantKind } from './setup.js';

test('resetToStart gives the start position, key included, whatever was there', () => {
  const pos = new Position();
  assert.equal(setupGame(pos, '8/8/8/4k3/8/8/8/4K2R w K - 5 40', undefined), undefined);
  pos.play((4 << 6) | 12);
  resetToStart(pos);
  assert.equal(makeFen(pos), STARTING_FEN);
  const fresh = new Position();
  setupGame(fresh, STARTING_FEN, undefined);
  assert.deepEqual([pos.keyLo, pos.keyHi, pos.ply, pos.castling], [fresh.keyLo, fresh.keyHi, 0, 15]);
});

test('variants: standard and Chess960 spellings; others are refused', () => {
  assert.deepEqual(['Standard', 'chess', 'From Position', ''].map(variantKind), ['standard', 'standard', 'standard', 'standard']);
  assert.deepEqual(['Chess960', 'chess 960', 'Fischerandom', 'Fischer Random'].map(variantKind), ['chess960', 'chess960', 'chess960', 'chess960']);
  assert.deepEqual(['Atomic', 'Crazyhouse', 'Three-check'].map(variantKind), ['unknown', 'unknown', 'unknown']);
  const pos = new Position();
  assert.equal(setupGame(pos, undefined, 'Atomic')?.kind, 'unknown-variant');
  assert.equal(setupGame(pos, '8/8/8/8/8/8/8/8 w - - 0 1', undefined)?.kind, 'bad-fen');
  assert.equal(setupGame(pos, undefined, 'Chess960'), undefined);
  assert.ok(pos.chess960);
});

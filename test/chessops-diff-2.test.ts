/**
 * Differential test against chessops, part 2 of 2 (split so the runner uses both cores):
 * 5,000 random playouts of up to 40 plies, every legal move, FEN, SAN and end flag compared
 * after every move. `node dist/scripts/diff-chessops.js` runs longer games.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPlayouts } from './support/diffChessops.js';

test('5,000 random playouts (seed 19700101) agree with chessops', () => {
  const plies = runPlayouts(19700101, 5000, 40);
  assert.ok(plies > 5000 * 30, `playouts too short: ${plies} plies`);
});

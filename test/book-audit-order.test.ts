/**
 * A book move's audit verdict must not depend on the order the book lists the position's moves
 * in. A `.bin` lists them by weight and a `.tbk` in the order the games first played them, so the
 * same games audited as `.bin` and as `.tbk` used to get different verdicts where the searches
 * before a move had left the hash table in another state: 1.e4 e5 2.Ke2 lost 0.97 pawns (not
 * flagged) from the `.tbk` and 1.21 (flagged) from the `.bin`, at the default depth of 10.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../src/engine/engine.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { auditPosition } from '../src/book/audit/verdict.js';

const POSITIONS: { fen: string; moves: string[] }[] = [
  // After 1.e4 e5: two sound moves and the Bongcloud.
  { fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', moves: ['g1f3', 'd1h5', 'e1e2'] },
  // After 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4: the Blackburne Shilling trap's 4.Nxe5 and the sound replies.
  { fen: 'r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', moves: ['f3e5', 'f3d4', 'e1g1', 'c2c3'] },
];

test('a book move gets the same verdict whatever order the book lists the moves in', () => {
  const engine = new Engine({ hashMB: 16, wasm: wasmCoreModule() });
  for (const { fen, moves } of POSITIONS) {
    const verdicts = [moves, [...moves].reverse(), [moves[2]!, moves[0]!, ...moves.slice(3), moves[1]!]].map((order) => {
      const v = auditPosition(engine, { index: 0, fen, moves: order, confirmAbove: 100 }, { depth: 9 });
      return Object.fromEntries(v.moves.map((m) => [m.uci, [m.score, m.loss, m.depth, m.confirmed]]));
    });
    assert.deepEqual(verdicts[1], verdicts[0], `${fen}: reversed order`);
    assert.deepEqual(verdicts[2], verdicts[0], `${fen}: another order`);
  }
});

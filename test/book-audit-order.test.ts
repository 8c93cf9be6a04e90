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
import type { GoLimits } from '../src/engine/limits.js';
import type { SearchResult } from '../src/engine/searchResult.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { auditPosition } from '../src/book/audit/verdict.js';
import { unwrap } from '../src/core/result.js';
import { positionFromFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';

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

test('a move the confirming search did not look at again keeps the best move its own loss was measured against', () => {
  // A scripted engine: at depth 10 2.Nf3 is the best move and 2.Ke2 loses 1.80 (a suspect); the
  // confirming search at depth 12 prefers 2.Nc3. 2.Nf3 keeps its depth-10 verdict: loss 0
  // against itself, not "loss 0 against Nc3".
  const fen = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
  let pos = unwrap(positionFromFen(fen));
  const move = (uci: string): number => unwrap(parseUci(pos, uci));
  const scripted = {
    newGame(): void {},
    setPosition(f: string): void {
      pos = unwrap(positionFromFen(f));
    },
    get pos() {
      return pos;
    },
    go(limits: GoLimits): SearchResult {
      const deep = limits.depth === 12;
      const only = limits.searchmoves?.[0];
      const [best, score] = only === undefined ? (deep ? ['b1c3', 40] : ['g1f3', 30]) : only === move('e1e2') ? ['e1e2', deep ? -120 : -150] : ['g1f3', 30];
      return { bestMove: move(best as string), ponderMove: 0, score: score as number, depth: limits.depth!, seldepth: limits.depth!, nodes: 1, time: 0, pv: [move(best as string)] };
    },
  } as unknown as Engine;
  const v = auditPosition(scripted, { index: 0, fen, moves: ['g1f3', 'e1e2'], confirmAbove: 100 }, { depth: 10 });
  const byMove = Object.fromEntries(v.moves.map((m) => [m.uci, { loss: m.loss, best: m.best, depth: m.depth, confirmed: m.confirmed }]));
  assert.deepEqual(byMove, {
    g1f3: { loss: 0, best: 'g1f3', depth: 10, confirmed: false },
    e1e2: { loss: 160, best: 'b1c3', depth: 12, confirmed: true },
  });
  assert.equal(v.best, 'b1c3', "the position's best is the deeper search's");
});

/**
 * The explorer's PGN export of a subtree (`GET /api/export?format=pgn`, src/serve/subtree.ts) is
 * export-format PGN: a wide book used to come out as a few lines of thousands of characters,
 * because each variation was laid out as one unbreakable word.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unwrap } from '../src/core/result.js';
import { generateLegal } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { defaultPolicy } from '../src/book/select/config.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { makeUci } from '../src/notation/uci.js';
import { readGames } from '../src/pgn/game.js';
import type { MoveFacts } from '../src/serve/explorer.js';
import { subtreePgn, walkSubtree } from '../src/serve/subtree.js';

/** Every legal move is a book move: the widest book there is. */
async function everyMove(pos: Position): Promise<MoveFacts[]> {
  const buf = new Uint16Array(256);
  const n = generateLegal(pos, buf, 0);
  return [...buf.subarray(0, n)].map((move, i) => ({
    move, uci: makeUci(move), games: 1, wins: 0, draws: 1, losses: 0, avgElo: 0, opponentElo: 0,
    weight: n - i, probability: 0, userValue: null, nag: i === 1 ? 5 : null, comment: i === 2 ? 'a {braced} note' : null,
    forbidden: false, audit: null, learned: null,
  }));
}

test('subtree PGN: lines fit in 79 columns and the tree reads back whole', async () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  const tree = await walkSubtree(everyMove, pos, defaultPolicy(), 3, 20000);
  const text = subtreePgn(tree, pos, 'wide "book" \\ x.tbk');
  const long = text.split('\n').filter((l) => l.length > 79);
  assert.deepEqual(long.map((l) => l.length), [], 'no line over 79 characters');
  assert.match(text, /^\[Event "tabiya book wide \\"book\\" \\\\ x\.tbk"\]$/m);
  const { games, errors } = readGames(text);
  assert.equal(errors.length, 0);
  assert.equal(games.length, 1);
  // 20 first moves, each with its 20 replies, each with all of White's answers.
  const count = (nodes: { variations?: unknown[][]; }[]): number =>
    nodes.reduce((s, n) => s + 1 + (n.variations ?? []).reduce((t: number, v) => t + count(v as { variations?: unknown[][] }[]), 0), 0);
  assert.equal(count(games[0]!.moves), tree.nodes);
  assert.equal(games[0]!.moves[0]!.variations!.length, 19);
  assert.deepEqual(games[0]!.moves[0]!.variations![0]![0]!.nags, [5], 'a NAG goes out with its move');
  assert.deepEqual(games[0]!.moves[0]!.variations![1]![0]!.comments, ['a {braced) note'], 'a closing brace cannot be written inside a comment');
});

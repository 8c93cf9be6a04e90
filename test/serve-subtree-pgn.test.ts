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
    forbidden: false, byHand: false, repeats: 0, game: null, audit: null, learned: null,
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

test('subtree PGN of a repertoire: the move chosen by hand leads, a move set to never comes last with its notes', async () => {
  const pos = unwrap(positionFromFen('rnbqkbnr/pp2pppp/3p4/2p5/4P3/2P2N2/PP1P1PPP/RNBQKB1R b KQkq - 0 3'));
  const fact = (uci: string, weight: number, notes: Partial<MoveFacts>): MoveFacts => {
    const buf = new Uint16Array(256);
    const move = [...buf.subarray(0, generateLegal(pos, buf, 0))].find((m) => makeUci(m) === uci)!;
    return { move, uci, games: weight, wins: 0, draws: weight, losses: 0, avgElo: 0, opponentElo: 0, weight, probability: 0, userValue: null, nag: null, comment: null, forbidden: false, byHand: false, repeats: 0, game: null, audit: null, learned: null, ...notes };
  };
  // As the book lists them, most played first: 3...Nf6 (set to never), 3...g6, 3...Bg4 (only lost:
  // weight 0), 3...Nc6 (forbidden), then 3...Qa5, added by hand (no games) and chosen.
  const here = [
    fact('g8f6', 883, { userValue: 0, nag: 2, comment: 'not this' }),
    fact('g7g6', 3, {}),
    fact('c8g4', 0, {}),
    fact('b8c6', 2, { forbidden: true }),
    fact('d8a5', 0, { byHand: true, userValue: 100, nag: 5, comment: 'my own idea' }),
  ];
  const [hi, lo] = [pos.keyHi, pos.keyLo];
  const book = async (p: Position): Promise<MoveFacts[]> => (p.keyHi === hi && p.keyLo === lo ? here : []);
  const tree = await walkSubtree(book, pos, defaultPolicy(), 4, 20000);
  const { games, errors } = readGames(subtreePgn(tree, pos, 'rep.tbk'));
  assert.equal(errors.length, 0);
  const first = games[0]!.moves[0]!;
  assert.equal(first.san, 'Qa5', 'the chosen move is the main line');
  assert.deepEqual([first.nags, first.comments], [[5], ['[%tabiya value=100] my own idea']]);
  assert.deepEqual(first.variations!.map((v) => v[0]!.san), ['g6', 'Nf6', 'Nc6'], 'no weight and no note: left out; never, then forbidden: last');
  assert.deepEqual([first.variations![1]![0]!.nags, first.variations![1]![0]!.comments], [[2], ['[%tabiya value=0] not this']]);
  assert.deepEqual(first.variations![2]![0]!.comments, ['[%tabiya forbidden]'], 'the forbidden mark goes out as a command');
});

test('a repertoire for one side: its chosen moves only (else the book first), every reply of the opponent', async () => {
  const start = unwrap(positionFromFen(STARTING_FEN));
  // The book by the moves that lead to a position: [uci, weight, user value].
  const lines: Record<string, [string, number, number | null][]> = {
    '': [['d2d4', 50, null], ['e2e4', 10, 100], ['g1f3', 5, 0]],
    e2e4: [['c7c5', 9, null], ['e7e5', 8, null], ['a7a6', 0, 0]],
    'e2e4 c7c5': [['g1f3', 5, null], ['b1c3', 3, null]],
    'e2e4 e7e5': [['b1c3', 9, null], ['g1f3', 6, 50], ['f2f4', 1, 80]],
  };
  const book = async (p: Position): Promise<MoveFacts[]> => {
    const played: string[] = [];
    for (let back = p.ply; back > 0; back--) played.push(makeUci(p.moveAt(back)));
    const buf = new Uint16Array(256);
    const legal = [...buf.subarray(0, generateLegal(p, buf, 0))];
    return (lines[played.join(' ')] ?? []).map(([uci, weight, userValue]) => ({
      move: legal.find((m) => makeUci(m) === uci)!, uci, games: weight, wins: 0, draws: weight, losses: 0, avgElo: 0, opponentElo: 0,
      weight, probability: 0, userValue, nag: null, comment: null, forbidden: false, byHand: false, repeats: 0, game: null, audit: null, learned: null,
    }));
  };
  const tree = await walkSubtree(book, start, defaultPolicy(), 6, 20000, 0);
  const text = subtreePgn(tree, start, 'm.tbk');
  assert.match(text, /^\[Event "tabiya book m\.tbk: White repertoire"\]$/m);
  const { games, errors } = readGames(text);
  assert.equal(errors.length, 0);
  const [e4, c5, nf3] = games[0]!.moves;
  assert.equal(e4!.san, 'e4', 'the chosen move, though 1.d4 is played more');
  assert.equal(e4!.variations, undefined, "no other move of White's");
  assert.equal(c5!.san, 'c5');
  assert.deepEqual(c5!.variations!.map((v) => v.map((n) => n.san)), [['e5', 'f4'], ['a6']], "every reply of Black's, the chosen 2.f4 before 2.Nf3");
  assert.deepEqual(c5!.variations![0]![1]!.variations!.map((v) => v[0]!.san), ['Nf3']);
  assert.equal(nf3!.san, 'Nf3', 'nothing chosen after 1...c5: the book first');
  assert.equal(nf3!.variations, undefined);
  assert.equal(games[0]!.moves.length, 3);
  // For Black: every White first move of the book (one set to never play is still a reply to prepare for).
  const black = await walkSubtree(book, start, defaultPolicy(), 2, 20000, 1);
  assert.deepEqual(black.roots.map((n) => n.facts.uci), ['e2e4', 'd2d4', 'g1f3']);
  assert.deepEqual(black.roots[0]!.children.map((n) => n.facts.uci), ['c7c5'], "Black's first book move, nothing chosen");
});

test('a repertoire never follows a forbidden move, whatever its user value: the engine never plays it', async () => {
  const start = unwrap(positionFromFen(STARTING_FEN));
  // [uci, weight, user value, forbidden] by the moves that lead to the position.
  const bookOf = (lines: Record<string, [string, number, number | null, boolean][]>) => async (p: Position): Promise<MoveFacts[]> => {
    const played: string[] = [];
    for (let back = p.ply; back > 0; back--) played.push(makeUci(p.moveAt(back)));
    const buf = new Uint16Array(256);
    const legal = [...buf.subarray(0, generateLegal(p, buf, 0))];
    return (lines[played.join(' ')] ?? []).map(([uci, weight, userValue, forbidden]) => ({
      move: legal.find((m) => makeUci(m) === uci)!, uci, games: weight, wins: 0, draws: weight, losses: 0, avgElo: 0, opponentElo: 0,
      weight, probability: 0, userValue, nag: null, comment: null, forbidden, byHand: false, repeats: 0, game: null, audit: null, learned: null,
    }));
  };
  // 1.e4 set to 100 and then forbidden (book audit --mark, or by hand): 1.d4, chosen at 60, is the repertoire.
  const both = bookOf({ '': [['d2d4', 50, 60, false], ['e2e4', 10, 100, true], ['c2c4', 20, null, false]] });
  assert.deepEqual((await walkSubtree(both, start, defaultPolicy(), 1, 20000, 0)).roots.map((n) => n.facts.uci), ['d2d4']);
  // Every chosen move forbidden: the book's first move that may be played, as when nothing is chosen.
  const none = bookOf({ '': [['e2e4', 50, 100, true], ['c2c4', 20, null, false], ['d2d4', 10, null, false]] });
  assert.deepEqual((await walkSubtree(none, start, defaultPolicy(), 1, 20000, 0)).roots.map((n) => n.facts.uci), ['c2c4']);
  // For the opponent's side a forbidden move is still a reply to prepare for (its mark kept, last).
  assert.deepEqual((await walkSubtree(both, start, defaultPolicy(), 1, 20000, 1)).roots.map((n) => n.facts.uci), ['d2d4', 'c2c4', 'e2e4']);
});

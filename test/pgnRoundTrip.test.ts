/**
 * read → write → read keeps tags, main line, comments, NAGs and variations: on random annotated
 * trees (nested variations, set-ups, awkward text) and on the real sample; the writer's options
 * strip what they say and nothing else; every written line fits in 79 columns.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { readGames, type PgnGame, type PgnNode } from '../src/pgn/game.js';
import { writeGame, writeGames } from '../src/pgn/writer.js';
import { rng } from './support/rng.js';
import { randomGame } from './pgnTrees.js';

const sample = gunzipSync(readFileSync(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url)));

/** The game as data to compare: without where it was read and derived fields. */
function plain(g: PgnGame): unknown {
  return { tags: g.tags, comments: g.comments, moves: g.moves, result: g.result };
}

function strip(nodes: PgnNode[], what: { comments?: boolean; nags?: boolean; variations?: boolean }): PgnNode[] {
  return nodes.map((n) => {
    const out: PgnNode = { san: n.san, move: n.move };
    if (n.nags && what.nags !== false) out.nags = n.nags;
    if (n.before && what.comments !== false && what.variations !== false) out.before = n.before;
    if (n.comments && what.comments !== false) out.comments = n.comments;
    if (n.variations && what.variations !== false) out.variations = n.variations.map((v) => strip(v, what));
    return out;
  });
}

function checkLines(text: string): void {
  for (const l of text.split('\n')) if (l.length > 79 && !l.startsWith('[')) assert.fail(`line of ${l.length} characters: ${l}`);
}

test('round trip: random annotated games keep tags, moves, comments, NAGs and variations', () => {
  const rand = rng(99);
  for (let i = 0; i < 150; i++) {
    const game = randomGame(rand);
    const text = writeGame(game);
    checkLines(text);
    const back = readGames(text);
    assert.deepEqual(back.errors, []);
    assert.equal(back.games.length, 1);
    assert.deepEqual(plain(back.games[0]!), plain(game), text);
  }
});

test('round trip: writer options strip comments, NAGs and variations (-C -N -V)', () => {
  const rand = rng(5);
  for (let i = 0; i < 60; i++) {
    const game = randomGame(rand);
    for (const what of [{ comments: false }, { nags: false }, { variations: false }, { comments: false, nags: false, variations: false }]) {
      const text = writeGame(game, what);
      const back = readGames(text).games[0]!;
      assert.deepEqual(back.moves, strip(game.moves, what), text);
      if (what.comments === false) assert.ok(!text.includes('{'));
      if (what.variations === false) assert.ok(!/\(\d/.test(text.split('\n\n')[1]!));
    }
  }
});

test('round trip: the real sample reads back identically', () => {
  const first = readGames(sample);
  assert.equal(first.games.length, 2000);
  const text = writeGames(first.games);
  checkLines(text);
  const second = readGames(text);
  assert.equal(second.errors.length, 0);
  assert.deepEqual(second.games.map(plain), first.games.map(plain));
});

test('writer: seven-tag roster first, defaults, escapes, move numbers after comments and variations', () => {
  const text = writeGame({
    tags: [['WhiteElo', '2700'], ['White', 'A "B" \\ C'], ['Result', '1-0']],
    moves: [
      { san: 'e4', comments: ['best by test'] },
      { san: 'e5', nags: [1], variations: [[{ san: 'c5' }, { san: 'Nf3' }]] },
      { san: 'Nf3' },
      { san: 'Nc6' },
    ],
    result: '1-0',
  });
  assert.equal(
    text,
    '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "A \\"B\\" \\\\ C"]\n[Black "?"]\n[Result "1-0"]\n[WhiteElo "2700"]\n\n' +
      '1. e4 {best by test} 1... e5 $1 (1... c5 2. Nf3) 2. Nf3 Nc6 1-0\n\n',
  );
});

test('writer: the match runner form (SAN list, per-move comments), Black to move from a FEN, wrapping', () => {
  const moves = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 'Nf6' : 'Ng1'));
  const text = writeGame({
    tags: { White: 'engine-a', Black: 'engine-b', FEN: '4k3/8/8/8/8/8/8/4K1N1 b - - 3 31', SetUp: '1' },
    moves: ['Ke7', 'Nf3', 'Ke8'],
    comments: ['+0.12/10 0.5s', undefined, 'book'],
    result: '1/2-1/2',
  });
  assert.ok(text.includes('[Result "1/2-1/2"]'));
  assert.ok(text.endsWith('31... Ke7 {+0.12/10 0.5s} 32. Nf3 Ke8 {book} 1/2-1/2\n\n'), text);
  const long = writeGame({ moves, result: '*' });
  checkLines(long);
  assert.equal(long.split('\n\n')[1]!.split('\n').length, 3);
});

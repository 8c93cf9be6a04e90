import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identityDiff, journalLine, parseJournal } from './journal.js';

test('a journal round-trips; a torn last line is ignored, a bad middle line is an error', () => {
  const h = journalLine({ type: 'match', version: 1, identity: { games: 4 }, seed: 5, pgnStart: 0 });
  const g1 = journalLine({ type: 'game', number: 2, result: '1-0', reason: 'White mates', termination: 'normal', pgnBytes: 900 });
  const g2 = journalLine({ type: 'game', number: 1, result: '0-1', reason: 'White disconnects', termination: 'abandoned', fault: { color: 0, kind: 'disconnect' }, pgnBytes: 1500 });
  const j = parseJournal(h + g1 + g2 + '{"type":"game","num', 'm.journal');
  assert.equal(j.header.seed, 5);
  assert.deepEqual(j.games.map((g) => g.number), [2, 1]);
  assert.deepEqual(j.games[1]!.fault, { color: 0, kind: 'disconnect' });
  assert.equal(j.end, undefined, 'no end line: a match to resume');
  const ended = parseJournal(h + g1 + g2 + journalLine({ type: 'end', stopped: 'sprt', games: 2 }), 'm.journal');
  assert.deepEqual(ended.end, { type: 'end', stopped: 'sprt', games: 2 });
  assert.equal(ended.games.length, 2);
  assert.throws(() => parseJournal(h + 'garbage\n' + g1, 'm.journal'), /m\.journal:2: unreadable journal line/);
  assert.throws(() => parseJournal('[1,2]\n', 'x'), /x:1: not a tabiya match journal/);
});

test('identity differences name the first differing field', () => {
  assert.equal(identityDiff({ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] }), undefined);
  assert.equal(identityDiff({ a: 1, b: [1, 2] }, { a: 1, b: [2, 1] }), 'b');
  assert.equal(identityDiff({ a: 1 }, { a: 1, c: 0 }), 'c');
  // key=value options given in another order are the same match; other values are not.
  const sprt = (...pairs: string[][]) => ({ sprt: pairs, tc: '10+0.1' });
  assert.equal(identityDiff(sprt(['elo0', '0'], ['elo1', '5']), sprt(['elo1', '5'], ['elo0', '0']), ['sprt']), undefined);
  assert.equal(identityDiff(sprt(['elo0', '0'], ['elo1', '5']), sprt(['elo1', '5'], ['elo0', '0'])), 'sprt', 'ordered unless named');
  assert.equal(identityDiff(sprt(['elo0', '0'], ['elo1', '5']), sprt(['elo1', '4'], ['elo0', '0']), ['sprt']), 'sprt');
  assert.equal(identityDiff({ sprt: null }, sprt(['elo0', '0']), ['sprt']), 'sprt');
});

test('a journal whose header or game records are damaged is refused with its line', () => {
  const h = journalLine({ type: 'match', version: 1, identity: { games: 4 }, seed: 5, pgnStart: 100 });
  const game = (n: number, result: string, pgnBytes: number): string => journalLine({ type: 'game', number: n, result, reason: 'r', termination: 'normal', pgnBytes });
  assert.throws(() => parseJournal('{"type":"match"}\n', 'j'), /j:1: the match header lacks its identity, seed or PGN start/);
  assert.throws(() => parseJournal(h + game(1, 'win', 900) + game(2, '1-0', 950), 'j'), /j:2: game 1 has no result \("win"\)/);
  assert.throws(() => parseJournal(h + game(1, '1-0', 900) + game(2, '0-1', 800) + game(3, '0-1', 1000), 'j'), /j:3: game 2 ends at PGN byte 800, before the previous game's end \(900\)/);
  assert.throws(() => parseJournal(h + game(1, '1-0', 50) + game(2, '0-1', 900), 'j'), /j:2: game 1 ends at PGN byte 50/);
  assert.throws(() => parseJournal(h + game(-1, '1-0', 900) + game(2, '0-1', 950), 'j'), /j:2: not a game record/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { levelCommand, parseClaim, parseFeatures, parseMoveLine, parseThinking, parseXboardOption, xboardScore } from './parse.js';

test('features: quoted and bare values, in order', () => {
  assert.deepEqual(parseFeatures('feature myname="Fairy-Max 5.0b" setboard=0 xedit=1 ping=1 done=0'), [
    ['myname', 'Fairy-Max 5.0b'],
    ['setboard', '0'],
    ['xedit', '1'],
    ['ping', '1'],
    ['done', '0'],
  ]);
  assert.deepEqual(parseFeatures('feature option="Ini File -file /usr/share/games/fairymax/fmax.ini"'), [['option', 'Ini File -file /usr/share/games/fairymax/fmax.ini']]);
});

test('engine options from feature option=', () => {
  assert.deepEqual(parseXboardOption('Resign -check 0'), { name: 'Resign', type: 'check', default: '0' });
  assert.deepEqual(parseXboardOption('Info -button'), { name: 'Info', type: 'button' });
  assert.deepEqual(parseXboardOption('Multi-PV Margin -spin 0 0 1000'), { name: 'Multi-PV Margin', type: 'spin', default: '0', min: 0, max: 1000 });
  assert.equal(parseXboardOption('no type here'), undefined);
});

test('thinking output as fairymax and hoichess print it', () => {
  assert.deepEqual(parseThinking(' 6      2       50     224418 c2c4 d7d6 d2d4'), { depth: 6, score: { kind: 'cp', value: 2 }, timeMs: 500, nodes: 224418, pv: ['c2c4', 'd7d6', 'd2d4'] });
  assert.deepEqual(parseThinking('5 -7 0 15083 1. ... e5 2. d4 exd4'), { depth: 5, score: { kind: 'cp', value: -7 }, timeMs: 0, nodes: 15083, pv: ['e5', 'd4', 'exd4'] });
  assert.deepEqual(parseThinking('12& 100003 10 5 Qh5'), { depth: 12, score: { kind: 'mate', value: 3 }, timeMs: 100, nodes: 5, pv: ['Qh5'] });
  assert.equal(parseThinking('No time for another iteration.'), undefined);
});

test('mate scores of older engines, as cutechess-cli reads them: a large score short of a thousand by the plies to mate', () => {
  // HoiChess 0.10.3 (Debian) in K+Q v K: +99993 is mate in 7 plies (4 moves), -99992 mated in 8 plies.
  assert.deepEqual(xboardScore(99993), { kind: 'mate', value: 4 });
  assert.deepEqual(xboardScore(-99992), { kind: 'mate', value: -4 });
  assert.deepEqual(xboardScore(99999), { kind: 'mate', value: 1 });
  assert.deepEqual(parseThinking(' 2 99999 0 24 Qb8#')?.score, { kind: 'mate', value: 1 });
  // Crafty-style 32000 - plies.
  assert.deepEqual(xboardScore(31997), { kind: 'mate', value: 2 });
  assert.deepEqual(xboardScore(-31996), { kind: 'mate', value: -2 });
  // The protocol's own convention is unchanged.
  assert.deepEqual(xboardScore(-100002), { kind: 'mate', value: -2 });
  // Ordinary scores, large ones included, stay centipawns.
  for (const cp of [0, 35, -250, 1040, 9900, -9899, 10000, 32767, 31000]) assert.deepEqual(xboardScore(cp), { kind: 'cp', value: cp });
});

test('moves, claims and level', () => {
  assert.equal(parseMoveLine(['move', 'e2e4']), 'e2e4');
  assert.equal(parseMoveLine(['12.', '...', 'Nf3']), 'Nf3');
  assert.equal(parseMoveLine(['12', '-5', '3', '4']), undefined);
  assert.deepEqual(parseClaim('1/2-1/2 {Draw by repetition}'), { result: '1/2-1/2', comment: 'Draw by repetition' });
  assert.deepEqual(parseClaim('0-1'), { result: '0-1', comment: '' });
  assert.equal(parseClaim('1-0x'), undefined);
  assert.equal(levelCommand(40, 60_000, 600), 'level 40 1 0.6');
  assert.equal(levelCommand(0, 10_000, 100), 'level 0 0:10 0.1');
  assert.equal(levelCommand(0, 150_000, 0), 'level 0 2:30 0');
  assert.equal(levelCommand(0, 300, 10), 'level 0 0:01 0.01');
});

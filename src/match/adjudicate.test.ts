import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../core/result.js';
import { positionFromFen, STARTING_FEN } from '../notation/fen.js';
import { parseUci } from '../notation/uci.js';
import { Adjudicator, boardOutcome } from './adjudicate.js';

const pos = (fen: string, moves: string[] = []) => {
  const p = unwrap(positionFromFen(fen));
  for (const m of moves) p.play(unwrap(parseUci(p, m)));
  return p;
};

test('board rules, with cutechess reason texts', () => {
  const rows: [string, string[], string | undefined, string | undefined][] = [
    [STARTING_FEN, ['f2f3', 'e7e5', 'g2g4', 'd8h4'], '0-1', 'Black mates'],
    ['7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', [], '1/2-1/2', 'Draw by stalemate'],
    ['8/8/4k3/8/8/3NK3/8/8 w - - 0 1', [], '1/2-1/2', 'Draw by insufficient mating material'],
    ['8/8/4k3/8/8/3RK3/8/8 w - - 100 80', [], '1/2-1/2', 'Draw by fifty moves rule'],
    [STARTING_FEN, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1', 'f6g8'], '1/2-1/2', 'Draw by 3-fold repetition'],
    [STARTING_FEN, ['g1f3', 'g8f6', 'f3g1', 'f6g8'], undefined, undefined],
    // Mate on the hundredth reversible ply wins.
    ['7k/5Q2/5K2/8/8/8/8/8 w - - 99 80', ['f7g7'], '1-0', 'White mates'],
  ];
  for (const [fen, moves, result, reason] of rows) {
    const o = boardOutcome(pos(fen, moves));
    assert.equal(o?.result, result, `${fen} ${moves.join(' ')}`);
    assert.equal(o?.reason, reason);
  }
});

test('draw adjudication counts small scores after the move number, resets on captures and big scores', () => {
  const adj = new Adjudicator({ draw: { moveNumber: 2, moveCount: 2, score: 10 } });
  const p = pos(STARTING_FEN);
  const cp = (v: number) => ({ kind: 'cp' as const, value: v });
  const play = (uci: string, v: number | undefined): string | undefined => {
    const side = p.turn;
    p.play(unwrap(parseUci(p, uci)));
    return adj.afterMove(p, side, v === undefined ? undefined : cp(v), p.halfmoves === 0)?.reason;
  };
  assert.equal(play('g1f3', 5), undefined);
  assert.equal(play('g8f6', 5), undefined);
  assert.equal(play('b1c3', 50), undefined); // too large: reset
  assert.equal(play('b8c6', 0), undefined);
  assert.equal(play('f3g1', 0), undefined);
  assert.equal(play('c6b8', 0), undefined);
  assert.equal(play('g1f3', 0), 'Draw by adjudication');
});

test('resign adjudication: one-sided and two-sided, mate scores count', () => {
  const p = pos(STARTING_FEN);
  const one = new Adjudicator({ resign: { moveCount: 2, score: 500, twoSided: false } });
  assert.equal(one.afterMove(p, 1, { kind: 'cp', value: -600 }, false), undefined);
  assert.equal(one.afterMove(p, 0, { kind: 'cp', value: 0 }, false), undefined);
  assert.equal(one.afterMove(p, 1, { kind: 'mate', value: -4 }, false)?.reason, 'White wins by adjudication');
  const two = new Adjudicator({ resign: { moveCount: 2, score: 500, twoSided: true } });
  assert.equal(two.afterMove(p, 1, { kind: 'cp', value: -600 }, false), undefined);
  assert.equal(two.afterMove(p, 0, { kind: 'cp', value: 100 }, false), undefined);
  assert.equal(two.afterMove(p, 1, { kind: 'cp', value: -600 }, false), undefined);
  assert.equal(two.afterMove(p, 0, { kind: 'cp', value: 600 }, false), undefined);
  assert.equal(two.afterMove(p, 1, { kind: 'cp', value: -700 }, false), undefined);
  assert.equal(two.afterMove(p, 0, { kind: 'mate', value: 3 }, false), undefined);
  assert.equal(two.afterMove(p, 1, { kind: 'cp', value: -900 }, false)?.result, '1-0');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Board } from './board.js';

test('Board: play by SAN or UCI, print FEN, key, take back', () => {
  const b = new Board();
  assert.equal(b.polyglotKeyHex(), '463b96181691fc9c');
  b.push('e4');
  b.push('d7d5');
  b.push('e5');
  b.push('f5');
  assert.equal(b.fen(), 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
  assert.equal(b.polyglotKeyHex(), '22a48b5a8e47ff78');
  assert.equal(b.polyglotKey(), 0x22a48b5a8e47ff78n);
  assert.deepEqual(
    b.moves().filter((m) => m.from === 'e5').map((m) => m.san).sort(),
    ['e6', 'exf6'],
  );
  b.pop();
  assert.equal(b.polyglotKeyHex(), '662fafb965db29d4');
  assert.equal(b.turn, 'black');
  assert.throws(() => b.push('Ke3'), /illegal move "Ke3"/);
  assert.throws(() => new Board('nonsense'), /board field/);
});

test('Board: game-end status', () => {
  const mate = new Board();
  for (const m of ['f3', 'e5', 'g4', 'Qh4#']) mate.push(m);
  assert.deepEqual(mate.outcome(), { winner: 'black', termination: 'checkmate' });
  assert.ok(mate.isCheckmate() && mate.isCheck() && mate.isGameOver());

  const stale = new Board('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
  assert.deepEqual(stale.outcome(), { winner: undefined, termination: 'stalemate' });

  assert.equal(new Board('8/8/4k3/8/8/2B5/4K3/8 w - - 0 1').outcome()?.termination, 'insufficient-material');
  assert.equal(new Board('8/8/4k3/8/8/2N5/4K3/8 w - - 0 1').isInsufficientMaterial(), true);
  assert.equal(new Board('8/8/4k3/8/8/2N5/4KN2/8 w - - 0 1').isInsufficientMaterial(), false);
  assert.equal(new Board('8/8/4k3/8/8/2b5/4K3/5B2 w - - 0 1').isInsufficientMaterial(), false);
  assert.equal(new Board('8/8/4k3/8/8/8/4KR2/8 w - - 99 80').isFiftyMoves(), false);
  assert.equal(new Board('8/8/4k3/8/8/8/4KR2/8 w - - 100 80').outcome()?.termination, 'fifty-moves');

  const rep = new Board();
  for (const m of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']) rep.push(m);
  assert.equal(rep.isThreefoldRepetition(), false);
  rep.push('Ng8');
  assert.equal(rep.isThreefoldRepetition(), true);
  assert.equal(rep.outcome()?.termination, 'threefold-repetition');
});

test('Board: fivefold repetition and seventy-five moves end the game without a claim (FIDE 9.6)', () => {
  const rep = new Board();
  const cycle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
  for (let i = 0; i < 4; i++) for (const m of cycle) rep.push(m);
  rep.pop();
  // The position after ...Nf6 and Ng1 stood at plies 3, 7, 11 and 15: four times.
  assert.equal(rep.isThreefoldRepetition(), true);
  assert.equal(rep.isFivefoldRepetition(), false);
  assert.equal(rep.outcome()?.termination, 'threefold-repetition');
  assert.equal(rep.outcome({ claimDraw: false }), undefined);
  assert.equal(rep.isGameOver({ claimDraw: false }), false);
  rep.push('Ng8'); // the start position for the fifth time
  assert.equal(rep.isFivefoldRepetition(), true);
  assert.deepEqual(rep.outcome({ claimDraw: false }), { winner: undefined, termination: 'fivefold-repetition' });
  assert.equal(rep.outcome()?.termination, 'fivefold-repetition');

  const rook = '8/8/4k3/8/8/8/4KR2/8 w - -';
  assert.equal(new Board(`${rook} 149 120`).outcome({ claimDraw: false }), undefined);
  assert.equal(new Board(`${rook} 149 120`).outcome()?.termination, 'fifty-moves');
  assert.equal(new Board(`${rook} 149 120`).isSeventyFiveMoves(), false);
  const seventyFive = new Board(`${rook} 150 120`);
  assert.equal(seventyFive.isSeventyFiveMoves(), true);
  assert.deepEqual(seventyFive.outcome({ claimDraw: false }), { winner: undefined, termination: 'seventyfive-moves' });
  // A mate on the seventy-fifth move stands (9.6.2).
  const mate = new Board('7k/6Q1/6K1/8/8/8/8/8 b - - 150 200');
  assert.equal(mate.isSeventyFiveMoves(), false);
  assert.deepEqual(mate.outcome({ claimDraw: false }), { winner: 'white', termination: 'checkmate' });
});

test('Board: threefold repetition counts a position whose e.p. capture is illegal as the same (FIDE 9.2.3)', () => {
  // After ...d5 exd6 is pinned along the fifth rank: the same moves are possible as after the
  // king moves that follow, so the position after the second Ke8 is its third occurrence.
  const b = new Board('4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1');
  const line = ['d5', 'Kh4', 'Ke7', 'Kh5', 'Ke8', 'Kh4', 'Ke7', 'Kh5'];
  for (const m of line) b.push(m);
  assert.equal(b.isThreefoldRepetition(), false);
  b.push('Ke8');
  assert.equal(b.isThreefoldRepetition(), true);
  assert.equal(b.outcome()?.termination, 'threefold-repetition');
  // A legal e.p. capture makes the position after ...d5 a different one.
  const live = new Board('4k3/3p4/8/4P2K/8/8/8/r7 b - - 0 1');
  for (const m of ['d5', 'Kh4', 'Ke7', 'Kh5', 'Ke8', 'Kh4', 'Ke7', 'Kh5', 'Ke8']) live.push(m);
  assert.equal(live.isThreefoldRepetition(), false);
  live.push('Kh4');
  assert.equal(live.isThreefoldRepetition(), true);
});

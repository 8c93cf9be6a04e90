import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { legalMoves } from '../../core/movegen.js';
import { unwrap } from '../../core/result.js';
import { positionFromFen } from '../../notation/fen.js';
import { evaluate, evaluateTrace, evaluateWith } from './evaluate.js';
import { NPAIRS, P_BISHOP_PAIR, WEIGHTS, applyWeights, resetWeights } from './params.js';
import { clearPawnHash } from './terms/pawns.js';
import { psqtDelta, psqtFromScratch } from './psqt.js';
import { kpkWins } from './terms/kpk.js';

const WAC = new URL('../../../../../shared/data/suites/wac_300.epd', import.meta.url);
const fens = readFileSync(WAC, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => l.split(' ').slice(0, 4).join(' ') + ' 0 1');

/** The same position with colours swapped and the board flipped. */
function mirror(fen: string): string {
  const [board, turn, castling, ep] = fen.split(' ');
  const swap = (s: string): string => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const rows = board!.split('/').reverse().map(swap);
  const c = castling === '-' ? '-' : [...swap(castling!)].sort().join('');
  const e = ep === '-' ? '-' : ep![0] + (ep![1] === '3' ? '6' : '3');
  return `${rows.join('/')} ${turn === 'w' ? 'b' : 'w'} ${c} ${e} 0 1`;
}

test('the evaluation is colour-symmetric (300 WAC positions and their mirror images)', () => {
  for (const fen of fens) {
    assert.equal(evaluate(unwrap(positionFromFen(fen))), evaluate(unwrap(positionFromFen(mirror(fen)))), fen);
  }
});

test('the trace rebuilds the evaluation from weights and coefficients (linear in every weight)', () => {
  let checked = 0;
  for (const fen of fens) {
    const pos = unwrap(positionFromFen(fen));
    const t = evaluateTrace(pos);
    if (t.special) continue;
    let mg = 0;
    let eg = 0;
    for (let i = 0; i < NPAIRS; i++) {
      mg += WEIGHTS[2 * i]! * t.coef[i]!;
      eg += WEIGHTS[2 * i + 1]! * t.coef[i]!;
    }
    const white = ((64 * mg * t.phase + eg * (24 - t.phase) * t.scale) / (24 * 64)) | 0;
    assert.equal(white, t.white, fen);
    assert.equal(pos.turn === 0 ? t.white : 0 - t.white, evaluate(pos), fen);
    checked++;
  }
  assert.ok(checked > 250);
});

test('material + PST kept incrementally equals the sum from scratch along random games', () => {
  let seed = 99;
  const rnd = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  for (const fen of fens.slice(0, 40)) {
    const pos = unwrap(positionFromFen(fen));
    let psqt = psqtFromScratch(pos);
    for (let ply = 0; ply < 60; ply++) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      const m = moves[rnd(moves.length)]!;
      psqt += psqtDelta(pos, m);
      pos.play(m);
      assert.equal(psqt, psqtFromScratch(pos), `${fen} after ${ply + 1} plies`);
      assert.equal(evaluateWith(pos, psqt), evaluate(pos));
    }
  }
});

test('KPK: known wins and draws from the bitbase', () => {
  // [fen, white to move wins?]
  const cases: [string, boolean][] = [
    ['k7/8/8/8/8/8/P7/K7 w - - 0 1', false], // rook pawn, defender in the corner
    ['8/4P3/4K3/8/8/8/8/k7 w - - 0 1', true], // pawn on the 7th, escorted
    ['4k3/8/4K3/4P3/8/8/8/8 b - - 0 1', true], // king on the 6th in front of its pawn
    ['4k3/8/4K3/4P3/8/8/8/8 w - - 0 1', true],
    ['8/8/8/8/8/8/3kP3/7K b - - 0 1', false], // the pawn falls
    ['4k3/8/8/4P3/4K3/8/8/8 b - - 0 1', false], // Black reaches e7 first and keeps the opposition
    ['4k3/4P3/4K3/8/8/8/8/8 b - - 0 1', false], // stalemate
  ];
  for (const [fen, wins] of cases) {
    const pos = unwrap(positionFromFen(fen));
    const pawns = pos.bbLo[1]! !== 0 ? 31 - Math.clz32(pos.bbLo[1]!) : 63 - Math.clz32(pos.bbHi[1]!);
    assert.equal(kpkWins(0, pos.turn, pos.kingSq[0]!, pawns, pos.kingSq[1]!), wins, fen);
    assert.equal(evaluate(pos) === 0, !wins, `${fen}: a draw evaluates to 0`);
  }
});

test('KBNK drives the lone king to a corner of the bishop colour', () => {
  const right = evaluate(unwrap(positionFromFen('7k/8/5K2/8/8/8/8/4BN2 w - - 0 1'))); // h8 is dark, bishop on e1 (dark)
  const wrong = evaluate(unwrap(positionFromFen('k7/8/2K5/8/8/8/8/4BN2 w - - 0 1'))); // a8 is light
  const centre = evaluate(unwrap(positionFromFen('8/8/8/4k3/8/8/8/K3BN2 w - - 0 1')));
  // From the wrong corner the king must be driven along the edge, so that is worth less than the centre.
  assert.ok(right > centre && centre > wrong, `${right} > ${centre} > ${wrong}`);
  assert.ok(centre > 5000, 'a known win');
});

test('drawish material is scaled towards zero', () => {
  const krkb = evaluate(unwrap(positionFromFen('8/8/3k4/8/2b5/8/3K4/6R1 w - - 0 1')));
  const krk = evaluate(unwrap(positionFromFen('8/8/3k4/8/8/8/3K4/6R1 w - - 0 1')));
  assert.ok(Math.abs(krkb) < 100 && krk > 5000, `KRKB ${krkb}, KRK ${krk}`);
  assert.equal(evaluate(unwrap(positionFromFen('8/8/3k4/8/8/8/3K4/5NN1 w - - 0 1'))), 0, 'KNNK');
  const opposite = evaluate(unwrap(positionFromFen('4k3/8/4b3/1p6/1P1P1P2/2P5/3B4/4K3 w - - 0 1')));
  const same = evaluate(unwrap(positionFromFen('4k3/8/3b4/1p6/1P1P1P2/2P5/3B4/4K3 w - - 0 1')));
  assert.ok(Math.abs(opposite) < Math.abs(same), `opposite bishops ${opposite}, same colour ${same}`);
});

test('the bishop pair: a side with two bishops against one gets the pair weight', () => {
  // Two bishops against one (a bishop short), and the same with colours swapped.
  const white = 'r1bqk2r/ppp2ppp/2n2n2/3pp3/3PP3/2NB1N2/PPP2PPP/R1BQK2R w KQkq - 0 1';
  const fens = [white, mirror(white)];
  const sign = [1, -1];
  fens.forEach((fen, i) => {
    const pos = unwrap(positionFromFen(fen));
    assert.equal(evaluateTrace(pos).coef[P_BISHOP_PAIR], sign[i], fen);
    const before = evaluateTrace(pos).white;
    try {
      WEIGHTS[2 * P_BISHOP_PAIR] += 100;
      WEIGHTS[2 * P_BISHOP_PAIR + 1] += 100;
      applyWeights();
      clearPawnHash();
      // +100 in both halves moves the (tapered, unscaled) evaluation by 100 toward the side with the pair.
      assert.equal(evaluateTrace(pos).white - before, 100 * sign[i]!, fen);
    } finally {
      resetWeights();
      clearPawnHash();
    }
  });
  const start = unwrap(positionFromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
  assert.equal(evaluateTrace(start).coef[P_BISHOP_PAIR], 0, 'both sides have the pair');
  const oneEach = unwrap(positionFromFen('4k3/8/3b4/8/8/3B4/8/4K3 w - - 0 1'));
  assert.equal(evaluateTrace(oneEach).coef[P_BISHOP_PAIR], 0, 'neither side has the pair');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../core/result.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import { DEFAULTS } from './evalDefaults.js';
import { DEFAULT_WDL, gamePhase, wdlChances, wdlPermille } from './wdl.js';

test('wdl: permille summing to 1000, symmetric, more wins and fewer losses as the score rises', () => {
  for (const phase of [0, 12, 24]) {
    let lastWin = -1;
    let lastLoss = 1001;
    for (let cp = -1000; cp <= 1000; cp += 25) {
      const [w, d, l] = wdlPermille(DEFAULT_WDL, cp, undefined, phase);
      assert.equal(w + d + l, 1000);
      assert.ok(d >= 0 && w >= lastWin && l <= lastLoss, `${cp} cp, phase ${phase}: ${w} ${d} ${l}`);
      assert.deepEqual(wdlPermille(DEFAULT_WDL, -cp, undefined, phase), [l, d, w], 'the other side sees the mirror');
      lastWin = w;
      lastLoss = l;
    }
  }
  // Even: mostly draws among masters; a pawn up in an endgame wins more often than in the
  // middlegame (a pawn in each phase's own units: the evaluation's pawn values).
  const [w0, d0] = wdlPermille(DEFAULT_WDL, 0, undefined, 24);
  assert.ok(d0 > 350 && w0 < 350, `${w0} ${d0}`);
  const [pawnMg, pawnEg] = DEFAULTS['material']![0]!;
  assert.ok(wdlChances(DEFAULT_WDL, pawnEg, 0)[0] > wdlChances(DEFAULT_WDL, pawnMg, 24)[0]);
  assert.deepEqual(wdlPermille(DEFAULT_WDL, undefined, 3, 10), [1000, 0, 0]);
  assert.deepEqual(wdlPermille(DEFAULT_WDL, undefined, -1, 10), [0, 0, 1000]);
});

test('game phase: 24 at the start, 0 with kings and pawns, queens count 4', () => {
  assert.equal(gamePhase(unwrap(positionFromFen(STARTING_FEN))), 24);
  assert.equal(gamePhase(unwrap(positionFromFen('4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1'))), 0);
  assert.equal(gamePhase(unwrap(positionFromFen('3qk3/8/8/8/8/8/8/2R1K1N1 w - - 0 1'))), 7);
});

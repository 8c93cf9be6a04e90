import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legalMoves } from '../core/movegen.js';
import { STARTING_FEN } from '../notation/fen.js';
import { wasmCoreModule } from '../node/wasmCore.js';
import { Engine } from './engine.js';
import { applySkill, effectiveLevel } from './skill.js';

test('full strength changes nothing; lower levels cap depth and nodes and search four lines', () => {
  const plan = { softMs: 100, hardMs: 500 };
  assert.deepEqual(applySkill({ level: 20, elo: 0 }, { depth: 30 }, plan), { limits: { depth: 30 }, plan, multiPV: 1 });
  const weak = applySkill({ level: 2, elo: 0 }, { wtime: 1000 }, plan);
  assert.equal(weak.multiPV, 4);
  assert.equal(weak.limits.depth, 2);
  assert.ok(weak.limits.nodes! < 1000);
  assert.equal(effectiveLevel({ level: 20, elo: 800 }), 0, 'UCI_Elo overrides Skill Level');
  assert.equal(effectiveLevel({ level: 20, elo: 1800 }), 10);
});

test('a weak level plays legal, varied moves; full strength plays the best one', () => {
  const e = new Engine({ hashMB: 1, wasm: wasmCoreModule() });
  e.setPosition(STARTING_FEN, ['e2e4', 'e7e5', 'g1f3', 'b8c6']);
  const legal = new Set(legalMoves(e.pos));
  let seed = 5;
  e.settings.skill = { level: 0, elo: 0, random: () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296) };
  const picks = new Set<number>();
  for (let i = 0; i < 12; i++) {
    const m = e.go({ depth: 8 }).bestMove;
    assert.ok(legal.has(m));
    picks.add(m);
  }
  assert.ok(picks.size > 1, 'the weakest level does not always play the same move');
});

/**
 * The WebAssembly evaluation (src/wasm/eval) against the TypeScript one, value for value: every
 * position of the test suites, a sample of the endgame collection (special endgames, scale
 * factors, the KPK bitbase), and every position of real games walked move by move with the
 * material + piece-square sum kept incrementally, as the search keeps it. Both builds; and
 * with other weights pushed in from TypeScript.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { evaluate, evaluateWith, lazyEval, materialPhase } from '../src/engine/eval/evaluate.js';
import { WEIGHTS, resetWeights, weightsFromJson } from '../src/engine/eval/params.js';
import { psqtDelta, psqtFromScratch } from '../src/engine/eval/psqt.js';
import { clearPawnHash } from '../src/engine/eval/terms/pawns.js';
import type { WasmCore } from '../src/engine/wasm/core.js';
import { loadWasmCore } from '../src/node/wasmCore.js';
import { parseEpd } from '../src/notation/epd.js';
import { positionFromFen } from '../src/notation/fen.js';
import { readPgn } from '../src/pgn/reader.js';

const DATA = new URL('../../../shared/data/', import.meta.url);

/** Compares everything the search asks of the evaluation in `pos`, given its incremental psqt. */
function same(core: WasmCore, pos: Position, psqt: number, where: string): void {
  core.setPosition(pos);
  const ts = [evaluate(pos), evaluateWith(pos, psqt), lazyEval(pos, psqt), materialPhase(pos), psqtFromScratch(pos) | 0];
  const wasm = [core.evaluate(), core.evaluateWith(psqt), core.lazyEval(psqt), core.materialPhase(), core.psqtFromScratch()];
  assert.deepEqual(wasm, ts, `${where}: [evaluate, evaluateWith, lazyEval, materialPhase, psqt]`);
}

function suitePositions(): Position[] {
  const out: Position[] = [];
  for (const f of readdirSync(new URL('suites/', DATA)).filter((n) => n.endsWith('.epd'))) {
    for (const line of readFileSync(new URL(`suites/${f}`, DATA), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const rec = parseEpd(line);
      if (rec.ok) out.push(unwrap(positionFromFen(rec.value.fen)));
    }
  }
  return out;
}

function endgamePositions(every: number): Position[] {
  const lines = gunzipSync(readFileSync(new URL('books/endgames.epd.gz', DATA))).toString('utf8').split('\n');
  const out: Position[] = [];
  for (let i = 0; i < lines.length; i += every) {
    const rec = lines[i]!.trim() === '' ? undefined : parseEpd(lines[i]!);
    if (rec?.ok) {
      const p = positionFromFen(rec.value.fen);
      if (p.ok) out.push(p.value);
    }
  }
  return out;
}

/** Walks `maxGames` games, comparing every position and every move's psqtDelta. */
async function walkGames(core: WasmCore, maxGames: number): Promise<number> {
  let games = 0;
  let positions = 0;
  let psqt = 0;
  let last: Position | null = null;
  await readPgn(new URL('games/pgnmentor_players_sample2000.pgn.gz', DATA).pathname, {
    endTags(pos) {
      if (games >= maxGames) return false;
      psqt = psqtFromScratch(pos);
      last = pos;
      return true;
    },
    move(pos, m, ply) {
      same(core, pos, psqt, `game ${games + 1} ply ${ply}`);
      const delta = psqtDelta(pos, m);
      assert.equal(core.psqtDelta(m), delta, `game ${games + 1} ply ${ply}: psqtDelta of move ${m}`);
      psqt += delta;
      positions++;
    },
    endGame() {
      if (last === null) return;
      same(core, last, psqt, `game ${games + 1}, final position`);
      assert.equal(psqt, psqtFromScratch(last), 'the incremental sum equals the from-scratch one');
      positions++;
      games++;
      last = null;
    },
  });
  assert.equal(games, maxGames);
  return positions;
}

test('wasm evaluation equals the TypeScript evaluation on the suites, endgames and 300 games', async () => {
  const core = loadWasmCore();
  const suites = suitePositions();
  assert.ok(suites.length > 4600);
  for (const [i, pos] of suites.entries()) same(core, pos, psqtFromScratch(pos), `suite position ${i}`);
  const endgames = endgamePositions(10);
  assert.ok(endgames.length > 15000);
  for (const [i, pos] of endgames.entries()) same(core, pos, psqtFromScratch(pos), `endgame ${i}`);
  assert.ok((await walkGames(core, 300)) > 20000);
});

test('wasm evaluation, checked build: the suites and 40 games without a bad index', async () => {
  const core = loadWasmCore(true);
  for (const pos of suitePositions()) same(core, pos, psqtFromScratch(pos), 'suite position (checked build)');
  for (const pos of endgamePositions(100)) same(core, pos, psqtFromScratch(pos), 'endgame (checked build)');
  assert.ok((await walkGames(core, 40)) > 2000);
});

test('wasm evaluation with other weights pushed in from TypeScript, and back', () => {
  const core = loadWasmCore();
  const positions = suitePositions().filter((_, i) => i % 4 === 0);
  const before = positions.map((p) => (core.setPosition(p), core.evaluate()));
  const json = JSON.parse(readFileSync(new URL('../../data/params/texel-adam-pgnmentor200k.json', import.meta.url), 'utf8')) as Record<string, [number, number][]>;
  try {
    weightsFromJson(json);
    clearPawnHash(); // it holds pawn scores made with the old weights, as the engine knows (newGame)
    core.setWeights(WEIGHTS);
    let changed = 0;
    positions.forEach((p, i) => {
      same(core, p, psqtFromScratch(p), `pushed weights, position ${i}`);
      if (core.evaluate() !== before[i]) changed++;
    });
    assert.ok(changed > positions.length / 2, `other weights change most evaluations (${changed})`);
  } finally {
    resetWeights();
    clearPawnHash();
  }
  core.setWeights(WEIGHTS);
  positions.forEach((p, i) => {
    core.setPosition(p);
    assert.equal(core.evaluate(), before[i]);
  });
  assert.throws(() => core.setWeights(new Int32Array(3)), /expected \d+ weights, got 3/);
});

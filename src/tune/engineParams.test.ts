/**
 * One table: a tuned parameter file, loaded the way the engine loads it (`EvalParams`), is
 * what the engine's WebAssembly core evaluates with, and what the tuner's traces model. Nothing
 * is written twice: the file sets WEIGHTS, and both the engine's core and the tuner's core
 * take them from there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine/engine.js';
import { EngineConfigurator } from '../engine/host.js';
import { GROUPS, WEIGHTS, resetWeights, weightsToJson } from '../engine/evalParams.js';
import { wasmCoreModule } from '../node/wasmCore.js';
import { positionFromFen } from '../notation/fen.js';
import { exactEval } from './linear.js';
import { formatParams, readParamsFile, type ParamsTable } from './paramsFile.js';
import { sharedLines } from './testData.js';
import { parseLabeled } from './labels.js';
import { TraceBuilder } from './traceStore.js';

test('a tuned parameter file is what the engine\'s core evaluates with and what the tuner traces', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-params-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
    resetWeights();
  });
  // A "tuned" file: every weight of three groups moved.
  const table = weightsToJson() as ParamsTable;
  const moved: ParamsTable = {};
  for (const name of ['mobility.knight', 'passed.rank', 'tempo']) {
    assert.ok(GROUPS.some((g) => g.name === name), name);
    moved[name] = table[name]!.map(([mg, eg]) => [mg + 7, eg - 5]);
  }
  const file = join(dir, 'tuned.json');
  writeFileSync(file, formatParams(moved));

  const engine = new Engine({ hashMB: 1, wasm: wasmCoreModule() });
  const configurator = new EngineConfigurator(engine, undefined, readParamsFile);
  const before = engine.wasm!.core;
  const fens = sharedLines(300).map((l) => {
    const lab = parseLabeled(l);
    assert.ok(lab.ok);
    return lab.value;
  });
  const pos0 = positionFromFen(fens[0]!.fen);
  assert.ok(pos0.ok);
  engine.wasm!.sync();
  before.setPosition(pos0.value, false);
  const defaultValue = before.evaluate();

  assert.deepEqual(configurator.apply({ evalParams: file }), []);
  // Loading the file changed the one table; the engine's core picks it up before it searches.
  assert.equal(WEIGHTS[2 * GROUPS.find((g) => g.name === 'tempo')!.offset], table['tempo']![0]![0]! + 7);
  engine.wasm!.sync();
  const core = engine.wasm!.core;
  core.setPosition(pos0.value, false);
  assert.notEqual(core.evaluate(), defaultValue);

  // The tuner's traces (its own core, same weights) model the engine's value exactly.
  const builder = new TraceBuilder();
  const values: number[] = [];
  for (const { fen, result } of fens) {
    const p = positionFromFen(fen);
    assert.ok(p.ok);
    if (p.value.inCheck()) continue;
    core.setPosition(p.value, false);
    const v = core.evaluate();
    if (builder.add(p.value, result) !== 0) continue;
    values.push(p.value.turn === 0 ? v : 0 - v);
  }
  const store = builder.finish();
  assert.ok(store.n > 250);
  for (let i = 0; i < store.n; i++) assert.equal(exactEval(store, WEIGHTS, i), values[i], `position ${i}`);
});

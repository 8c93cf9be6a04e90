/**
 * The search parameters a tuner sets (src/engine/searchParams.ts) and the core's copy of them
 * (src/wasm/search/params.ts): the two lists agree, a value set reaches the search in every
 * thread, and `tabiya uci --tunable` offers them as spin options (only with the flag).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCH_POSITIONS } from '../src/engine/bench.js';
import { Engine } from '../src/engine/engine.js';
import { EngineConfigurator, LocalHost } from '../src/engine/host.js';
import {
  SEARCH_PARAMS, SEARCH_PARAM_VALUES, resetSearchParams, searchParamProblem, searchParamsToJson, searchParamsVersion, setSearchParam,
} from '../src/engine/searchParams.js';
import { SIG_SIZE } from '../src/engine/signals.js';
import { sharedCoreMemory } from '../src/engine/wasm/smp.js';
import { UciServer } from '../src/protocol/uci/server.js';
import { loadWasmCore, sharedCoreModule, wasmCoreModule } from '../src/node/wasmCore.js';
import { EngineProcess } from './engineProcess.js';

const PARAMS_TS = fileURLToPath(new URL('../../src/wasm/search/params.ts', import.meta.url));

test('the TypeScript table and the core list the same parameters, in the same order, with the same defaults', () => {
  const core = loadWasmCore();
  const known = core.searchParams();
  assert.deepEqual(known.map((k) => k.name), SEARCH_PARAMS.map((p) => p.name), 'names by index');
  assert.deepEqual(known.map((k) => k.value), SEARCH_PARAMS.map((p) => p.default), 'defaults by index');
  // The core's source declares each with its default; its getter and setter name the same one at each index.
  const src = readFileSync(PARAMS_TS, 'utf8');
  const declared = [...src.matchAll(/^export let (\w+) = (-?\d+);$/gm)].map((m) => ({ name: m[1]!, value: Number(m[2]) }));
  assert.deepEqual(declared, known.map(({ name, value }) => ({ name, value })), 'export let declarations of params.ts');
  const getter = [...src.matchAll(/^ {4}case (\d+): return (\w+);$/gm)].map((m) => [Number(m[1]), m[2]]);
  const setter = [...src.matchAll(/^ {4}case (\d+): (\w+) = v;/gm)].map((m) => [Number(m[1]), m[2]]);
  const expected = known.map((k, i) => [i, k.name]);
  assert.deepEqual(getter, expected, 'searchParam cases');
  assert.deepEqual(setter, expected, 'setSearchParam cases');
  for (const p of SEARCH_PARAMS) {
    assert.ok(p.min <= p.default && p.default <= p.max, `${p.name}: default within its range`);
    assert.ok(p.min >= (/Div$/.test(p.name) ? 1 : 0), `${p.name}: no divisor of 0, no negative value`);
  }
});

test('each index sets only its own parameter in the core', () => {
  const core = loadWasmCore();
  const values = Int32Array.from(SEARCH_PARAMS, (p) => p.default);
  for (let i = 0; i < values.length; i++) {
    values[i] = SEARCH_PARAMS[i]!.max;
    core.setSearchParams(values);
    assert.deepEqual(core.searchParams().map((k) => k.value), [...values], SEARCH_PARAMS[i]!.name);
    values[i] = SEARCH_PARAMS[i]!.default;
  }
});

test('setSearchParam checks names and ranges; reset restores the defaults', (t) => {
  t.after(resetSearchParams);
  const v0 = searchParamsVersion;
  setSearchParam('rfpMargin', 120);
  assert.equal(searchParamsToJson()['rfpMargin'], 120);
  assert.ok(searchParamsVersion > v0);
  const v1 = searchParamsVersion;
  setSearchParam('rfpMargin', 120);
  assert.equal(searchParamsVersion, v1, 'the same value again is no change');
  assert.throws(() => setSearchParam('rfpmargin', 120), /unknown search parameter "rfpmargin"/);
  assert.throws(() => setSearchParam('rfpMargin', 1000), /rfpMargin: 1000 is not a whole number from 30 to 150/);
  assert.throws(() => setSearchParam('rfpMargin', 80.5), RangeError);
  assert.equal(searchParamProblem('lmrDiv', 0), 'lmrDiv: 0 is not a whole number from 120 to 520');
  resetSearchParams();
  assert.deepEqual([...SEARCH_PARAM_VALUES], SEARCH_PARAMS.map((p) => p.default));
});

/** Nodes of fixed-depth searches of a few bench positions, each from an empty table (as `tabiya bench`). */
function nodes(engine: Engine): number {
  let n = 0;
  for (const fen of BENCH_POSITIONS.slice(0, 6)) {
    engine.newGame();
    engine.setPosition(fen);
    n += engine.go({ depth: 8 }).nodes;
  }
  return n;
}

test('a parameter set reaches the search at the next go, and the same values give the same nodes', (t) => {
  t.after(resetSearchParams);
  const engine = new Engine({ wasm: wasmCoreModule() });
  const base = nodes(engine);
  setSearchParam('lmrBase', 120);
  const changed = nodes(engine);
  assert.notEqual(changed, base, 'lmrBase 120 reduces more');
  assert.equal(nodes(new Engine({ wasm: wasmCoreModule() })), changed, 'a fresh engine with the same values searches the same');
  setSearchParam('lmrDiv', 200);
  assert.notEqual(nodes(engine), changed, 'lmrDiv rebuilds the reduction table too');
  resetSearchParams();
  assert.equal(nodes(engine), base, 'back to the defaults');
  assert.deepEqual(engine.wasm!.core.searchParams().map((k) => k.value), SEARCH_PARAMS.map((p) => p.default));
});

test('EngineConfigurator: searchParams are merged, checked, and reach a helper thread\'s core', (t) => {
  t.after(resetSearchParams);
  const memory = sharedCoreMemory(16);
  if (typeof memory === 'string') return t.skip(memory);
  // A Lazy SMP helper, as src/node/engineWorker.ts makes it (in a worker it has its own module state).
  const engine = new Engine({ signals: new Int32Array(new SharedArrayBuffer(4 * SIG_SIZE)), hashMB: 16, threadIndex: 1, smp: { module: sharedCoreModule, memory } });
  const searcher = engine.parallelCore()!;
  const configurator = new EngineConfigurator(engine);
  assert.deepEqual(configurator.apply({ searchParams: { rfpMargin: 120 } }), []);
  assert.deepEqual(configurator.apply({ searchParams: { nmpBase: 4, rfpDepth: 99 } }), ['rfpDepth: 99 is not a whole number from 1 to 16; not changed']);
  assert.deepEqual(configurator.config.searchParams, { rfpMargin: 120, nmpBase: 4 });
  searcher.sync();
  const inCore = Object.fromEntries(searcher.core.searchParams().map((k) => [k.name, k.value]));
  assert.equal(inCore['rfpMargin'], 120);
  assert.equal(inCore['nmpBase'], 4);
  assert.equal(inCore['rfpDepth'], 8);
  // Another configuration without searchParams leaves them alone; a default value takes one back.
  configurator.apply({ multiPV: 2 });
  configurator.apply({ searchParams: { rfpMargin: 75 } });
  searcher.sync();
  assert.deepEqual(searcher.core.searchParams().map((k) => k.value), SEARCH_PARAMS.map((p) => (p.name === 'nmpBase' ? 4 : p.default)));
});

/** A UCI server on a same-thread engine; `send` returns the lines written for the lines given. */
function session(tunable: boolean): (...lines: string[]) => string[] {
  const out: string[] = [];
  const server = new UciServer((l) => out.push(l), new LocalHost(new Engine({ wasm: wasmCoreModule() })), { tunable });
  return (...lines) => {
    const from = out.length;
    for (const l of lines) server.receive(l);
    return out.slice(from);
  };
}

test('uci --tunable: the parameters are spin options; a value in range is set, one out of range refused', (t) => {
  t.after(resetSearchParams);
  const send = session(true);
  const advertised = send('uci').filter((l) => l.startsWith('option name '));
  for (const p of SEARCH_PARAMS) assert.ok(advertised.includes(`option name ${p.name} type spin default ${p.default} min ${p.min} max ${p.max}`), p.name);
  assert.deepEqual(send('setoption name rfpMargin value 120'), []);
  assert.equal(SEARCH_PARAM_VALUES[SEARCH_PARAMS.findIndex((p) => p.name === 'rfpMargin')], 120);
  assert.deepEqual(send('setoption name rfpMargin value 1000'), ['info string option rfpMargin: "1000" is not a whole number from 30 to 150; not changed']);
  assert.equal(searchParamsToJson()['rfpMargin'], 120);
  const out = send('position startpos', 'go depth 6');
  assert.match(out.at(-1)!, /^bestmove [a-h][1-8][a-h][1-8]/);
});

/** Nodes of the last info line of a search of each of the first four bench positions, each from an empty table. */
function nodesOfSearches(send: (...lines: string[]) => string[], go: string): number[] {
  return BENCH_POSITIONS.slice(0, 4).map((fen) => {
    const out = send('ucinewgame', `position fen ${fen}`, go);
    assert.match(out.at(-1)!, /^bestmove /);
    return Number(/ nodes (\d+)/.exec(out.filter((l) => / nodes /.test(l)).at(-1)!)![1]);
  });
}
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

test('timeNodeBase and timeNodeMul scale the time target of a clock search: at their floor (0.5) it searches less than at their ceiling (2.5)', (t) => {
  t.after(resetSearchParams);
  const send = session(true);
  send('uci');
  send('setoption name timeNodeBase value 0', 'setoption name timeNodeMul value 0');
  const floor = sum(nodesOfSearches(send, 'go wtime 4000 btime 4000'));
  send('setoption name timeNodeBase value 200', 'setoption name timeNodeMul value 4000');
  const ceiling = sum(nodesOfSearches(send, 'go wtime 4000 btime 4000'));
  // Five times the target: at least one more iteration, which costs about as much as those before it.
  assert.ok(ceiling > 1.5 * floor, `nodes at 0.5: ${floor}, at 2.5: ${ceiling}`);
});

test('ttPvReduction: above 0 nodes that are or were on the PV are reduced less, so a fixed depth costs more nodes; back at 0 the search is the default one again', (t) => {
  t.after(resetSearchParams);
  const send = session(true);
  send('uci');
  const base = nodesOfSearches(send, 'go depth 9');
  send('setoption name ttPvReduction value 2');
  const less = nodesOfSearches(send, 'go depth 9');
  assert.ok(sum(less) > sum(base), `nodes at 0: ${base}, at 2: ${less}`);
  send('setoption name ttPvReduction value 0');
  assert.deepEqual(nodesOfSearches(send, 'go depth 9'), base);
});

/** Each tunable switch below is on by default (accepted by a match) and changes a fixed-depth search when off. */
for (const [name, value, what] of [
  ['contHistPly4', 1, 'quiet moves lose their third continuation history in ordering and reductions'],
  ['lmrCutoffCount', 3, 'late moves are no longer reduced more where the replies keep failing high'],
  ['threatOrder', 2000, 'quiet moves are no longer ordered by the threats of lesser enemy pieces'],
] as const) {
  test(`${name} (${value} by default): at 0 ${what}, so a fixed-depth search differs; back at ${value} it is the default one again`, (t) => {
    t.after(resetSearchParams);
    const send = session(true);
    send('uci');
    const base = nodesOfSearches(send, 'go depth 9');
    send(`setoption name ${name} value 0`);
    const off = nodesOfSearches(send, 'go depth 9');
    assert.ok(off.some((n, i) => n !== base[i]), `nodes at ${value}: ${base}, at 0: ${off}`);
    send(`setoption name ${name} value ${value}`);
    assert.deepEqual(nodesOfSearches(send, 'go depth 9'), base);
  });
}

/** Each tunable switch below is off at 0 (the default search, the bench signature) and changes a fixed-depth search when on. */
for (const [name, value, what] of [
  ['lmrDeeperMargin', 60, 'a late move whose reduced search overshot is re-searched a ply deeper, one that barely beat alpha a ply shallower'],
  ['priorQuietBonus', 100, 'a fail low rewards the quiet move that led to it in the history tables'],
  ['ttCutHistory', 1, 'a hash cutoff rewards its quiet hash move in the history tables'],
  ['corrHistory', 1, "static evaluations are corrected by their pawn structure's correction history"],
  ['failHighBlend', 1, 'fail-high scores are pulled toward beta'],
  ['aspFailHighReduce', 1, "the root's re-search after a fail high is a ply shallower"],
  ['pawnHistory', 1, 'quiet moves are also ordered and history-pruned by their pawn-structure history'],
] as const) {
  test(`${name}: at ${value} ${what}, so a fixed-depth search differs; back at 0 it is the default one again`, (t) => {
    t.after(resetSearchParams);
    const send = session(true);
    send('uci');
    const base = nodesOfSearches(send, 'go depth 9');
    send(`setoption name ${name} value ${value}`);
    const on = nodesOfSearches(send, 'go depth 9');
    assert.ok(on.some((n, i) => n !== base[i]), `nodes at 0: ${base}, at ${value}: ${on}`);
    send(`setoption name ${name} value 0`);
    assert.deepEqual(nodesOfSearches(send, 'go depth 9'), base);
  });
}

/** A rook ending from a game against Ethereal 12 in which 50.Rxd3? let Black trade the rooks into a won pawn ending. */
const ROOK_TRADE = '8/6pk/6p1/p7/4K1PP/r2R1P2/8/8 b - - 0 50';

test('pawnEndingExt: at 3 the capture that leaves a pawn ending is searched deeper (a longer line, another tree); back at 0 the default search', (t) => {
  t.after(resetSearchParams);
  const send = session(true);
  send('uci');
  const last = (): { nodes: number; seldepth: number } => {
    const out = send('ucinewgame', `position fen ${ROOK_TRADE}`, 'go depth 10');
    const info = out.filter((l) => /^info depth 10 /.test(l)).at(-1)!;
    return { nodes: Number(/ nodes (\d+)/.exec(info)![1]), seldepth: Number(/ seldepth (\d+)/.exec(info)![1]) };
  };
  const base = last();
  send('setoption name pawnEndingExt value 3');
  const on = last();
  assert.ok(on.nodes !== base.nodes && on.seldepth > base.seldepth, `at 0: ${JSON.stringify(base)}, at 3: ${JSON.stringify(on)}`);
  send('setoption name pawnEndingExt value 0');
  assert.deepEqual(last(), base);
});

test('uci without --tunable: the parameters are not options', () => {
  const send = session(false);
  assert.ok(!send('uci').some((l) => / rfpMargin /.test(l)));
  assert.deepEqual(send('setoption name rfpMargin value 120'), ['info string unknown option: rfpMargin']);
  assert.deepEqual(send('setoption name NoSuchOption value 1'), ['info string unknown option: NoSuchOption']);
  assert.deepEqual([...SEARCH_PARAM_VALUES], SEARCH_PARAMS.map((p) => p.default));
});

test('uci process --tunable with Threads 2: set before and after the helper starts, go completes', { timeout: 60000 }, async (t) => {
  const e = new EngineProcess('uci', ['--tunable']);
  t.after(() => e.kill());
  e.send('uci');
  await e.expect(/^uciok$/);
  assert.ok(e.lines.some((l) => l.text === 'option name lazyMargin type spin default 450 min 200 max 900'));
  // rfpMargin before the helper exists (it gets the configuration so far), lmrBase after.
  e.send('setoption name rfpMargin value 120');
  e.send('setoption name Threads value 2');
  e.send('setoption name lmrBase value 100');
  e.send('setoption name lmrBase value 9999');
  await e.expect(/^info string option lmrBase: "9999" is not a whole number from 30 to 160; not changed$/);
  e.send('isready');
  await e.expect(/^readyok$/);
  e.send('position startpos moves e2e4');
  e.send('go depth 9');
  await e.expect(/^bestmove [a-h][1-8][a-h][1-8]/, 30000);
  const errors = e.lines.filter((l) => /^info string (?!option lmrBase)/.test(l.text));
  assert.deepEqual(errors, [], 'no other complaint');
  assert.equal(await e.quit(), 0);
});

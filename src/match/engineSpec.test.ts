import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEngineSpec, parseEngineKeys, splitArgs, uniqueNames, type EngineKeys } from './engineSpec.js';

const keys = (words: string[]): EngineKeys => {
  const k = parseEngineKeys(words, 'engine');
  assert.ok(typeof k !== 'string', String(k));
  return k;
};

test('engine keys: options with spaces, repeated args, own keys win over --each', () => {
  const each = keys(['tc=10+0.1', 'option.Hash=16', 'proto=uci', 'timemargin=50']);
  const own = keys(['name=SF', 'cmd=/usr/games/stockfish', 'arg=-q', 'arg=x y', 'option.Skill Level=3', 'option.Hash=64', 'option.EvalFile=']);
  const s = makeEngineSpec(own, each, 0);
  assert.ok(typeof s !== 'string', String(s));
  assert.equal(s.name, 'SF');
  assert.deepEqual(s.args, ['-q', 'x y']);
  assert.deepEqual(s.options, [['Skill Level', '3'], ['Hash', '64'], ['EvalFile', '']]);
  assert.equal(s.tc.baseMs, 10_000);
  assert.equal(s.tc.marginMs, 50);
});

test('an engine st= replaces a shared tc=; quoted option names lose their quotes', () => {
  const s = makeEngineSpec(keys(['cmd=./eng', 'st=0.5', 'option."Move Overhead"=0']), keys(['tc=40/60']), 1);
  assert.ok(typeof s !== 'string');
  assert.equal(s.tc.movetimeMs, 500);
  assert.equal(s.tc.baseMs, 0);
  assert.deepEqual(s.options, [['Move Overhead', '0']]);
  assert.equal(s.name, 'eng');
});

test('errors name the engine and the key', () => {
  assert.match(String(parseEngineKeys(['cmd'], 'engine 2')), /engine 2: "cmd" is not key=value/);
  assert.match(String(parseEngineKeys(['speed=9'], 'engine 1')), /unknown key "speed"/);
  assert.match(String(makeEngineSpec(keys(['name=x', 'st=1']), keys([]), 0)), /engine 1: cmd= is required/);
  assert.match(String(makeEngineSpec(keys(['cmd=x', 'proto=winboard', 'st=1']), keys([]), 0)), /proto=winboard/);
  assert.match(String(makeEngineSpec(keys(['cmd=x', 'tc=fast']), keys([]), 2)), /engine 3: time control "fast"/);
});

test('args= splits like a shell; duplicate names get suffixes', () => {
  assert.deepEqual(splitArgs(`--xboard=on "a b" 'c d' e\\ f`), ['--xboard=on', 'a b', 'c d', 'e f']);
  const specs = ['x', 'x', 'y', 'x'].map((n) => {
    const s = makeEngineSpec(keys([`name=${n}`, 'cmd=e', 'st=1']), keys([]), 0);
    assert.ok(typeof s !== 'string');
    return s;
  });
  uniqueNames(specs);
  assert.deepEqual(specs.map((s) => s.name), ['x', 'x_2', 'y', 'x_3']);
});

test('an engine without a time control, st, nodes or depth is refused: its first search would never end', () => {
  assert.match(String(makeEngineSpec(keys(['cmd=x']), keys([]), 1)), /engine 2: invalid or missing time control: give tc=, st=, nodes= or depth=/);
  assert.match(String(makeEngineSpec(keys(['cmd=x', 'tc=inf']), keys([]), 0)), /engine 1: tc=inf needs nodes= or depth=/);
  assert.match(String(makeEngineSpec(keys(['cmd=x']), keys(['tc=infinite']), 0)), /tc=infinite needs nodes= or depth=/);
  for (const limit of [['tc=10+0.1'], ['st=0.5'], ['nodes=1000'], ['depth=3'], ['tc=inf', 'nodes=500'], ['plies=4']]) {
    const own = makeEngineSpec(keys(['cmd=x', ...limit]), keys([]), 0);
    assert.ok(typeof own !== 'string', `${limit.join(' ')}: ${String(own)}`);
    const shared = makeEngineSpec(keys(['cmd=x']), keys(limit), 0);
    assert.ok(typeof shared !== 'string', `--each ${limit.join(' ')}: ${String(shared)}`);
  }
});

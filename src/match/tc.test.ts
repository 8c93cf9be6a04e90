import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeTc, formatTc, isTimed, parseTc, timeControlFrom } from './tc.js';
import { Clock } from './clock.js';

test('time controls parse to milliseconds', () => {
  const rows: [string, { moves: number; baseMs: number; incMs: number; infinite: boolean }][] = [
    ['40/60+0.6', { moves: 40, baseMs: 60_000, incMs: 600, infinite: false }],
    ['10+0.1', { moves: 0, baseMs: 10_000, incMs: 100, infinite: false }],
    ['2:30', { moves: 0, baseMs: 150_000, incMs: 0, infinite: false }],
    ['40/1:30+1', { moves: 40, baseMs: 90_000, incMs: 1000, infinite: false }],
    ['0.5+.01', { moves: 0, baseMs: 500, incMs: 10, infinite: false }],
    ['inf', { moves: 0, baseMs: 0, incMs: 0, infinite: true }],
    ['inf/60', { moves: 0, baseMs: 60_000, incMs: 0, infinite: false }],
  ];
  for (const [text, want] of rows) assert.deepEqual(parseTc(text), { ok: true, value: want }, text);
  for (const bad of ['', 'abc', '40/', '10+', '1+2+3', '0', '-5', '1:99', '40/2:60+1']) assert.equal(parseTc(bad).ok, false, bad);
  assert.match((parseTc('1:99') as { error: Error }).error.message, /"1:99".*seconds of min:sec must be below 60/);
});

test('engine keys combine; tc and st exclude each other', () => {
  const r = timeControlFrom({ st: '0.25', timemargin: '50', depth: '8' });
  assert.ok(r.ok);
  assert.deepEqual(r.value, { moves: 0, baseMs: 0, incMs: 0, movetimeMs: 250, depth: 8, nodes: 0, infinite: false, marginMs: 50 });
  assert.match((timeControlFrom({ tc: '10', st: '1' }) as { error: Error }).error.message, /cannot be combined/);
  assert.match((timeControlFrom({ nodes: '-3' }) as { error: Error }).error.message, /nodes=-3/);
  const depthOnly = timeControlFrom({ depth: '5' });
  assert.ok(depthOnly.ok && !isTimed(depthOnly.value));
});

test('formatting as cutechess writes the TimeControl tag', () => {
  const f = (k: Parameters<typeof timeControlFrom>[0]): string => {
    const r = timeControlFrom(k);
    assert.ok(r.ok);
    return formatTc(r.value);
  };
  assert.equal(f({ tc: '40/60+0.6' }), '40/60+0.6');
  assert.equal(f({ tc: '10+0.1' }), '10+0.1');
  assert.equal(f({ st: '2' }), '2/move');
  assert.equal(f({ depth: '6' }), 'depth=6');
  assert.equal(f({ tc: 'inf' }), 'inf');
});

test('the header line shows a node or depth limit beside the clock', () => {
  const d = (k: Parameters<typeof timeControlFrom>[0]): string => {
    const r = timeControlFrom(k);
    assert.ok(r.ok);
    return describeTc(r.value);
  };
  assert.equal(d({ tc: '1+0', nodes: '1000' }), '1 nodes=1000');
  assert.equal(d({ st: '2', depth: '8' }), '2/move depth=8');
  assert.equal(d({ tc: '10+0.1' }), '10+0.1');
  assert.equal(d({ depth: '6', nodes: '500' }), 'depth=6 nodes=500');
});

function clock(text: string, margin = 0): Clock {
  const r = timeControlFrom({ tc: text, timemargin: String(margin) });
  assert.ok(r.ok);
  return new Clock(r.value);
}

test('clock: the increment is credited before move 1, then time − elapsed + inc', () => {
  const c = clock('10+0.1');
  assert.equal(c.timeLeft, 10_100);
  assert.ok(c.spend(1000));
  assert.equal(c.timeLeft, 9200);
});

test('clock: moves/time rolls the period over', () => {
  const c = clock('2/60');
  assert.equal(c.movesLeft, 2);
  assert.ok(c.spend(10_000));
  assert.equal(c.movesLeft, 1);
  assert.ok(c.spend(10_000));
  assert.equal(c.movesLeft, 2);
  assert.equal(c.timeLeft, 100_000);
});

test('clock: forfeit beyond time + margin, never below zero otherwise', () => {
  const c = clock('1+0.01', 50);
  assert.equal(c.allowance(), 1060);
  assert.ok(c.spend(1040));
  // Over the time but within the margin: clamped to 0 and credited the increment.
  assert.equal(c.timeLeft, 10);
  assert.equal(c.spend(61), false);
});

test('clock: fixed time per move resets every move and also forfeits', () => {
  const r = timeControlFrom({ st: '1', timemargin: '0' });
  assert.ok(r.ok);
  const c = new Clock(r.value);
  assert.ok(c.spend(999));
  assert.equal(c.timeLeft, 1000);
  assert.equal(c.spend(1001), false);
});

test('clock: depth and node limits are not timed', () => {
  const r = timeControlFrom({ depth: '3' });
  assert.ok(r.ok);
  const c = new Clock(r.value);
  assert.equal(c.timed, false);
  assert.ok(c.spend(1e9));
});

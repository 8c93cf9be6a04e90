import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOptionValue, parseInfo, parseOption } from './parseInfo.js';

const info = (line: string): ReturnType<typeof parseInfo> => parseInfo(line.trim().split(/\s+/));

test('info lines: any key order, bounds, mates, pv to the first non-move, string to the end', () => {
  assert.deepEqual(info('info score cp 15 depth 10 nodes 123 time 45 pv e2e4 e7e5 string x'), { score: { kind: 'cp', value: 15 }, depth: 10, nodes: 123, timeMs: 45, pv: ['e2e4', 'e7e5'], string: 'x' });
  assert.deepEqual(info('info depth 3 score mate -2 lowerbound'), { depth: 3, score: { kind: 'mate', value: -2, bound: 'lower' } });
  assert.deepEqual(info('info multipv 2 score cp 3 wdl 300 400 300 hashfull 12'), { multipv: 2, score: { kind: 'cp', value: 3 }, hashfull: 12 });
  assert.deepEqual(info('info string score cp 999'), { string: 'score cp 999' });
  assert.deepEqual(info('info depth x score cp banana nodes 5'), { nodes: 5 });
  assert.deepEqual(info('info currmove e2e4 currmovenumber 1 depth 9'), { depth: 9 });
  assert.deepEqual(info('info pv e7e8q a1a2 garbage 5'), { pv: ['e7e8q', 'a1a2'] });
});

test('option lines: spaces in names and defaults, combos, missing parts', () => {
  assert.deepEqual(parseOption('option name Skill Level type spin default 20 min 0 max 20'), { name: 'Skill Level', type: 'spin', default: '20', min: 0, max: 20 });
  assert.deepEqual(parseOption('option name Book File type string default /usr/share/my book.bin'), { name: 'Book File', type: 'string', default: '/usr/share/my book.bin' });
  assert.deepEqual(parseOption('option name Style type combo default Normal var Solid var Normal'), { name: 'Style', type: 'combo', default: 'Normal', vars: ['Solid', 'Normal'] });
  assert.deepEqual(parseOption('option name Clear Hash type button'), { name: 'Clear Hash', type: 'button' });
  assert.equal(parseOption('option name Broken'), undefined);
  assert.equal(parseOption('option name X type weird'), undefined);
});

test('option values are checked against the advertised type', () => {
  const spin = { name: 'Hash', type: 'spin' as const, min: 1, max: 64 };
  assert.deepEqual(checkOptionValue(spin, '32'), { ok: true, value: '32' });
  assert.equal(checkOptionValue(spin, '65').ok, false);
  assert.equal(checkOptionValue(spin, '3.5').ok, false);
  assert.deepEqual(checkOptionValue({ name: 'P', type: 'check' }, 'TRUE'), { ok: true, value: 'true' });
  assert.deepEqual(checkOptionValue({ name: 'S', type: 'string' }, ''), { ok: true, value: '' });
});

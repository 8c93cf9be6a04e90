import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMatchArgs, type MatchArgs } from './args.js';

const parse = (line: string): MatchArgs => {
  const a = parseMatchArgs(line.split(' '));
  assert.ok(typeof a !== 'string', String(a));
  return a;
};

test('engine blocks, groups and scalars, with one or two dashes', () => {
  const a = parse('--engine name=A cmd=a --engine cmd=b proto=xboard -each tc=10+0.1 --games 20 -repeat --concurrency=4 --openings file=o.epd order=random --sprt elo0=0 elo1=5 --pgnout out.pgn min fi --srand 9 --no-recover --json');
  assert.deepEqual(a.engines, [['name=A', 'cmd=a'], ['cmd=b', 'proto=xboard']]);
  assert.deepEqual(a.each, ['tc=10+0.1']);
  assert.equal(a.games, 20);
  assert.equal(a.repeat, 2);
  assert.equal(a.concurrency, 4);
  assert.deepEqual([...a.openings!], [['file', 'o.epd'], ['order', 'random']]);
  assert.equal(a.sprt!.get('elo1'), '5');
  assert.equal(a.pgnout, 'out.pgn');
  assert.equal(a.pgnMin, true);
  assert.equal(a.srand, 9);
  assert.equal(a.recover, false);
  assert.equal(a.json, true);
});

test('repeat takes an optional count; defaults are cutechess-like', () => {
  assert.equal(parse('--repeat 3 --games 6').repeat, 3);
  const d = parse('--engine cmd=a');
  assert.deepEqual([d.games, d.rounds, d.repeat, d.concurrency, d.recover, d.tournament], [1, 1, 1, 1, true, 'round-robin']);
});

test('mistakes are named', () => {
  assert.match(String(parseMatchArgs(['--games', 'ten'])), /--games needs an integer, got "ten"/);
  assert.match(String(parseMatchArgs(['--sprt', 'elo0'])), /--sprt: "elo0" is not key=value/);
  assert.match(String(parseMatchArgs(['--bogus'])), /unknown option "--bogus"/);
  assert.match(String(parseMatchArgs(['stray'])), /unexpected argument "stray"/);
  assert.match(String(parseMatchArgs(['--engine'])), /--engine needs key=value/);
  assert.match(String(parseMatchArgs(['--pgnout', 'x.pgn', 'big'])), /unknown flag "big"/);
});

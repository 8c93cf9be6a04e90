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
  // cutechess-cli's -variant: standard is what tabiya plays; another is refused, saying why.
  assert.equal(parse('--engine cmd=a --engine cmd=b -variant standard --games 2').games, 2);
  assert.match(String(parseMatchArgs(['--engine', 'cmd=a', '--engine', 'cmd=b', '-variant', 'fischerandom'])), /--variant fischerandom: Chess960 games come from Chess960 openings/);
  assert.match(String(parseMatchArgs(['-variant', 'atomic'])), /--variant atomic: tabiya plays standard chess/);
  assert.match(String(parseMatchArgs(['-variant'])), /--variant needs a value/);
  assert.match(String(parseMatchArgs(['stray'])), /unexpected argument "stray"/);
  assert.match(String(parseMatchArgs(['--engine'])), /--engine needs key=value/);
  assert.match(String(parseMatchArgs(['--pgnout', 'x.pgn', 'big'])), /unknown flag "big"/);
});

test('numbers out of their range and misspelt group keys are refused', () => {
  const cases: [string, RegExp][] = [
    ['--games -3', /--games -3 is out of range \(1\.\./],
    ['--concurrency 0', /--concurrency 0 is out of range/],
    ['--rounds 0', /--rounds 0 is out of range/],
    ['--seeds 0', /--seeds 0 is out of range/],
    ['--maxmoves -5', /--maxmoves -5 is out of range \(0\.\./],
    ['--wait -1', /--wait -1 is out of range/],
    ['--startup-ms 0', /--startup-ms 0 is out of range/],
    ['--ratinginterval -1', /--ratinginterval -1 is out of range/],
    ['--srand -1', /--srand -1 is out of range/],
    ['--srand 4294967296', /--srand 4294967296 is out of range/],
    ['--repeat 0', /--repeat 0 is out of range/],
    ['--repeat -2', /--repeat -2 is out of range/],
    ['--sprt elo0=0 elo1=5 alhpa=0.1', /--sprt: unknown key "alhpa" \(elo0, elo1, alpha, beta, model\)/],
    ['--draw movenumber=40 movecount=8 scor=10', /--draw: unknown key "scor"/],
    ['--openings file=o.epd oder=random', /--openings: unknown key "oder"/],
  ];
  for (const [line, message] of cases) assert.match(String(parseMatchArgs(line.split(' '))), message, line);
});

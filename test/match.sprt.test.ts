/**
 * The SPRT stops a match at its decision, and the text output keeps cutechess-cli's line shapes
 * (the lines scripts written for cutechess parse).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, runCli } from './matchHelpers/cli.js';

test('an SPRT match against an engine that always moves illegally accepts H1 early', { timeout: 60_000 }, async () => {
  const run = await runCli([
    'match',
    '--engine', 'name=Good', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--engine', 'name=Bad', 'cmd=node', `arg=${join(FIXTURES, 'garbage.mjs')}`, 'arg=1',
    '--each', 'tc=5+0.05', '--games', '200', '--repeat', '--concurrency', '2',
    '--sprt', 'elo0=0', 'elo1=50', 'model=logistic', '--ratinginterval', '0',
  ]);
  assert.equal(run.code, 0, run.stderr);
  const out = run.stdout.split('\n');
  assert.match(out[0]!, /^Match of 2 engines, 200 games \(Good: 5\+0\.05, Bad: 5\+0\.05\), seed \d+$/);
  const finished = out.filter((l) => l.startsWith('Finished game'));
  // Pairs are played, so the pentanomial LLR decides: about 23 pairs of wins cross 2.94.
  assert.ok(finished.length >= 40 && finished.length < 52, `${finished.length} games`);
  for (const l of finished) assert.match(l, /^Finished game \d+ \((Good vs Bad|Bad vs Good)\): (1-0|0-1) \{(White|Black) makes an illegal move: Nf3\?\?\}$/);
  assert.ok(out.some((l) => /^Started game 1 of 200 \(Good vs Bad\)$/.test(l)));
  const n = finished.length;
  const tail = out.slice(out.lastIndexOf(`Score of Good vs Bad: ${n} - 0 - 0  [1.000] ${n}`));
  assert.equal(tail[0], `Score of Good vs Bad: ${n} - 0 - 0  [1.000] ${n}`);
  assert.match(tail[1]!, /^\.\.\. {6}Good playing White: \d+ - 0 - 0 {2}\[1\.000\] \d+$/);
  assert.match(tail[2]!, /^\.\.\. {6}Good playing Black: \d+ - 0 - 0 {2}\[1\.000\] \d+$/);
  assert.match(tail[3]!, /^\.\.\. {6}White vs Black: \d+ - \d+ - 0 {2}\[0\.\d{3}\] \d+$/);
  assert.equal(tail[4], `Elo difference: inf +/- nan, LOS: ${(100).toFixed(1)} %, DrawRatio: 0.0 %`);
  assert.match(tail[5]!, /^SPRT: llr (2\.9[5-9]|3\.\d\d?) \(10\d\.\d%\), lbound -2\.94, ubound 2\.94 - H1 was accepted$/);
  assert.match(tail[6]!, /^Ptnml\(0-2\): \[0, 0, 0, 0, \d+\], WL\/DD Ratio: nan$/);
  assert.equal(out.at(-2), 'Finished match');
});

test('SPRT bounds the LLR cannot be computed for are refused before any engine starts', { timeout: 30_000 }, async () => {
  // Before, the first finished game threw inside the LLR: the match stopped with exit 1 and a
  // bare "secular equation" message, and that game never reached the PGN.
  const run = await runCli([
    'match',
    '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--each', 'tc=5+0.05', '--games', '2', '--sprt', 'elo0=0', 'elo1=400',
  ]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /--sprt: elo1 \(400\) is outside -200\.\.200 nElo, the range the normalized model can test/);
  assert.doesNotMatch(run.stdout, /Started game/);
});

test('the end of a match does not print again the score line and block the last game printed, as cutechess-cli', { timeout: 60_000 }, async () => {
  const args = (interval: string): string[] => [
    'match',
    '--engine', 'name=A', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--engine', 'name=B', 'cmd=node', `arg=${join(FIXTURES, 'instant.mjs')}`,
    '--each', 'tc=5+0.05', '--games', '2', '--maxmoves', '3', '--ratinginterval', interval,
  ];
  for (const interval of ['10', '2']) {
    const run = await runCli(args(interval));
    assert.equal(run.code, 0, run.stderr);
    const out = run.stdout.split('\n');
    assert.equal(out.filter((l) => l.startsWith('Score of A vs B')).length, 2, `one score line a game (interval ${interval}):\n${run.stdout}`);
    assert.equal(out.filter((l) => l.startsWith('Elo difference')).length, 1, `one block (interval ${interval}):\n${run.stdout}`);
    const last = out.lastIndexOf('Score of A vs B: 0 - 0 - 2  [0.500] 2');
    assert.match(out[last + 1]!, /^\.\.\. {6}A playing White: /);
    assert.equal(out.at(-2), 'Finished match');
  }
  // --quiet prints only the report: its score line stays.
  const quiet = await runCli([...args('10'), '--quiet']);
  assert.match(quiet.stdout, /^Match of 2 engines, 2 games .*\nScore of A vs B: 0 - 0 - 2 {2}\[0\.500\] 2\n\.\.\. {6}A playing White/);
});

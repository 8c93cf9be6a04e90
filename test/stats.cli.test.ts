/** `tabiya stats`: the §2.8 numbers through the command line, and its error messages. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './matchHelpers/cli.js';

test('stats elo --wdl and --penta print the worked examples', async () => {
  const tri = await runCli(['stats', 'elo', '--wdl', '60,100,40', '--json']);
  assert.equal(tri.code, 0, tri.stderr);
  const t = JSON.parse(tri.stdout) as Record<string, number>;
  assert.ok(Math.abs(t.elo! - 34.8601) < 1e-3 && Math.abs(t.error! - 34.1593) < 1e-3 && Math.abs(t.los! - 97.8324) < 1e-3);
  assert.ok(Math.abs(t.losCutechess! - 97.725) < 1e-3);
  const text = await runCli(['stats', 'elo', '--wdl', '60,100,40']);
  assert.match(text.stdout, /cutechess: Elo difference: 34\.9 \+\/- 34\.1, LOS: 97\.7 %, DrawRatio: 50\.0 %/);
  const penta = await runCli(['stats', 'elo', '--penta', '10,60,250,80,20', '--json']);
  const p = JSON.parse(penta.stdout) as Record<string, number>;
  assert.ok(Math.abs(p.elo! - 16.5571) < 1e-3 && Math.abs(p.nElo! - 29.958) < 1e-3 && p.pairs === 420);
});

test('stats sprt: models, six-counter pentanomials, decisions', async () => {
  const run = async (...args: string[]) => JSON.parse((await runCli(['stats', 'sprt', ...args, '--json'])).stdout) as Record<string, unknown>;
  const n = await run('--penta', '10,60,250,80,20', '--elo0', '0', '--elo1', '5', '--model', 'normalized');
  assert.ok(Math.abs((n.llr as number) - 0.950166) < 1e-5);
  assert.equal(n.decision, null);
  const l = await run('--penta', '100,1200,3500,1400,110', '--elo0', '0', '--elo1', '5', '--model', 'logistic');
  assert.ok(Math.abs((l.llr as number) - 6.819609) < 1e-5);
  assert.equal(l.decision, 'H1');
  const six = await run('--penta', '365,16618,36029,200,16974,390', '--elo0', '0', '--elo1', '2');
  assert.ok(Math.abs((six.llr as number) - 2.25) < 5e-3);
  const cc = await run('--wdl', '1477,2942,1351', '--elo0', '0', '--elo1', '10', '--alpha', '0.01', '--beta', '0.01', '--model', 'cutechess');
  assert.ok(Math.abs((cc.llr as number) - 2.5236) < 1e-4);
});

test('stats: bad input is named', async () => {
  const a = await runCli(['stats', 'elo', '--wdl', '1,2']);
  assert.equal(a.code, 2);
  assert.match(a.stderr, /--wdl: expected 3 comma-separated counts, got 2/);
  const b = await runCli(['stats', 'sprt', '--wdl', '1,2,3', '--elo0', '5', '--elo1', '0']);
  assert.match(b.stderr, /elo0 \(5\) must be smaller than elo1 \(0\)/);
  const c = await runCli(['stats', 'sprt', '--penta', '1,2,3,4,5', '--model', 'bayesian']);
  assert.match(c.stderr, /--model bayesian takes --wdl counts only/);
});

test('stats: degenerate counts are refused or explained, never printed as nan', async () => {
  for (const args of [
    ['elo', '--wdl', '0,0,0'],
    ['elo', '--penta', '0,0,0,0,0'],
    ['sprt', '--wdl', '0,0,0'],
    ['elo', '--wdl', '-1,2,3'],
    ['elo', '--wdl', '1.5,2,3'],
    ['elo', '--wdl', '1,,2'],
    ['elo', '--wdl', '99999999999999999999,1,1'],
    ['sprt', '--wdl', '1,2,3', '--alpha', '1.5'],
    ['sprt', '--wdl', '1,2,3', '--beta', '0'],
    ['sprt', '--wdl', '1,2,3', '--elo0', '5', '--elo1', '5'],
  ]) {
    const r = await runCli(['stats', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, /^tabiya: .*(--wdl|--penta|alpha|beta|elo0)/, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
  const zero = await runCli(['stats', 'elo', '--wdl', '0,0,0']);
  assert.match(zero.stderr, /every count is 0/);
  // Valid counts without spread: the defined numbers, "-" for the rest, and why.
  for (const args of [['elo', '--wdl', '0,5,0'], ['elo', '--wdl', '5,0,0'], ['elo', '--penta', '0,0,5,0,0'], ['sprt', '--wdl', '10,0,0']]) {
    const r = await runCli(['stats', ...args]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /nan/i, args.join(' '));
    assert.match(r.stdout, /note: every (game|pair) scored the same/, args.join(' '));
  }
  assert.match((await runCli(['stats', 'elo', '--wdl', '0,5,0'])).stdout, /Elo: 0\.00 \+\/- -, nElo: - \+\/- -/);
});

test('stats sprt: bounds outside what a model can test are a usage error, not a crash', async () => {
  for (const [args, msg] of [
    [['--wdl', '60,100,40', '--elo0', '0', '--elo1', '400'], /elo1 \(400\) is outside -200\.\.200 nElo, the range the normalized model can test/],
    [['--penta', '10,60,250,80,20', '--elo0', '-300', '--elo1', '0'], /elo0 \(-300\) is outside -200\.\.200 nElo/],
    [['--wdl', '60,100,40', '--elo0', '0', '--elo1', '7000', '--model', 'logistic'], /elo1 \(7000\) is outside -2000\.\.2000 Elo/],
    [['--wdl', '60,100,40', '--elo0', '0', '--elo1', '7000', '--model', 'bayesian'], /-2000\.\.2000 BayesElo/],
  ] as const) {
    const r = await runCli(['stats', 'sprt', ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^tabiya: stats sprt: /);
    assert.match(r.stderr, msg);
    assert.doesNotMatch(r.stderr, /internal error|RangeError/);
  }
  // At the limit the LLR is computed (reference value from an independent 50-digit solution).
  const r = await runCli(['stats', 'sprt', '--wdl', '60,100,40', '--elo0', '-200', '--elo1', '200', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(Math.abs((JSON.parse(r.stdout) as { llr: number }).llr - 31.41672583602417) < 1e-8);
});

test('stats elo --json leaves out what the text shows as "-"', async () => {
  // Five draws (or five 1-1 pairs) have no spread: the text prints "+/- -", the JSON must not say 0.
  for (const args of [['--wdl', '0,5,0'], ['--penta', '0,0,5,0,0']]) {
    const text = await runCli(['stats', 'elo', ...args]);
    assert.match(text.stdout, /Elo: 0\.00 \+\/- -/);
    const j = JSON.parse((await runCli(['stats', 'elo', ...args, '--json'])).stdout) as Record<string, number | null>;
    assert.equal(j.elo, 0);
    assert.equal(j.error, null, args.join(' '));
    assert.equal(j.los, null);
    assert.equal(j.nElo, null);
  }
});

test('stats: an error bar whose score interval runs past 0 % or 100 % is "-" with the reason', async () => {
  // 999 wins, 1 loss: score 0.999, se = √(0.999·0.001/1000) = 0.000999, so score + 1.96·se = 1.00096.
  const a = await runCli(['stats', 'elo', '--wdl', '999,0,1']);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /^Elo: 1199\.83 \+\/- -, /m);
  assert.match(a.stdout, /^note: the 95 % interval of the score \(99\.7 % to 100\.1 %\) runs past 100 %, where Elo is infinite/m);
  // Two pairs, one 0-2 and one 2-0: score ½ ± 1.96·√(¼/2) reaches both ends.
  const b = await runCli(['stats', 'elo', '--penta', '1,0,0,0,1']);
  assert.match(b.stdout, /^note: the 95 % interval of the score \(-19\.3 % to 119\.3 %\) runs past 0 % and 100 %/m);
  const c = await runCli(['stats', 'sprt', '--wdl', '0,1,1']);
  assert.match(c.stdout, /runs past 0 %, where Elo is infinite/);
});

test('stats sprt --model cutechess at extreme draw ratios: a finite LLR, 0 for symmetric results, and a warning once when none can be computed', async () => {
  const draws = await runCli(['stats', 'sprt', '--wdl', '0,100000,0', '--elo0', '-5', '--elo1', '5', '--model', 'cutechess']);
  assert.equal(draws.code, 0, draws.stderr);
  assert.match(draws.stdout, /^LLR: 0\.00 \(0\.0%\) \(-2\.94, 2\.94\) \[-5, 5\] Elo, model cutechess, trinomial: continue$/m);
  assert.doesNotMatch(draws.stdout + draws.stderr, /nan|inf/);
  const h0 = JSON.parse((await runCli(['stats', 'sprt', '--wdl', '0,100000,0', '--elo0', '0', '--elo1', '5', '--model', 'cutechess', '--json'])).stdout) as Record<string, unknown>;
  assert.equal(typeof h0.llr, 'number');
  assert.equal(h0.decision, 'H0');
  const noise = await runCli(['stats', 'sprt', '--wdl', '10,1000,10', '--elo0', '-5', '--elo1', '5', '--model', 'cutechess']);
  assert.match(noise.stdout, /^LLR: 0\.00 \(0\.0%\)/m);
  const none = await runCli(['stats', 'sprt', '--wdl', '9000000000000000,0,9000000000000000', '--elo0', '-5', '--elo1', '5', '--model', 'cutechess']);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout, /^LLR: - \(cannot be computed, see the warning\) .*: continue$/m);
  assert.equal(none.stderr.match(/^warning: the cutechess model's LLR cannot be computed for these results/gm)?.length, 1, none.stderr);
});

test('stats sprt --model normalized with counts far beyond any match: the LLR cannot be computed, said as the other models say it, not an internal error', async () => {
  // 9e15 wins and nothing else: the t-value search's σ rounds to 0 in double precision.
  for (const [flag, counts] of [
    ['--wdl', '9007199254740991,0,0'],
    ['--wdl', '9000000000000000,1,0'],
    ['--penta', '9007199254740991,0,0,0,0'],
  ] as const) {
    const r = await runCli(['stats', 'sprt', flag, counts]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^LLR: - \(cannot be computed, see the warning\) \(-2\.94, 2\.94\) \[0, 5\] nElo, model normalized, .*: continue$/m);
    assert.equal(r.stderr.match(/^warning: the normalized model's LLR cannot be computed for these results \(\d+ (games|pairs)[^)]*\): its maximum-likelihood search has no solution in double precision; the test takes no decision on it$/gm)?.length, 1, r.stderr);
    const j = JSON.parse((await runCli(['stats', 'sprt', flag, counts, '--json'])).stdout) as Record<string, unknown>;
    assert.equal(j.llr, null);
    assert.equal(j.decision, null);
    assert.match(String(j.llrNote), /normalized model's LLR cannot be computed/);
  }
});

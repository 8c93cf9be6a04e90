import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchedule } from './schedule.js';
import { Scoreboard } from './scoreboard.js';
import { jsonSummary, reportLines } from './report.js';
import { sprt } from '../stats/sprt.js';

test('W/D/L per encounter, by colour, pairs into pentanomial bins; * is not counted', () => {
  const s = buildSchedule({ players: 2, tournament: 'round-robin', games: 8, rounds: 1, repeat: 2, noswap: false, seeds: 1 });
  const b = new Scoreboard(['A', 'B'], 2);
  // Pairs for A: (1-0 as White, 0-1 with B White: A wins both) = WW; (1-0, 1-0) = WL; (½, ½) = DD; (0-1, ½) = LD.
  const results = ['1-0', '0-1', '1-0', '1-0', '1/2-1/2', '1/2-1/2', '0-1', '1/2-1/2'] as const;
  results.forEach((r, i) => b.add(s[i]!, r));
  b.add(s[0]!, '*', { color: 1, kind: 'time' });
  const e = b.encounter(0, 1);
  assert.deepEqual(e.wdl, { wins: 3, draws: 3, losses: 2 });
  assert.deepEqual(e.asWhite, { wins: 2, draws: 1, losses: 1 });
  assert.deepEqual(e.whiteBlack, { wins: 3, draws: 3, losses: 2 });
  assert.deepEqual(e.penta, [0, 1, 2, 0, 1]);
  assert.deepEqual([e.wl, e.dd], [1, 1]);
  assert.equal(b.games, 8);
  assert.equal(b.players[1]!.faults.time, 1);
  assert.equal(b.openPairs, 0);
  const lines = reportLines(b);
  assert.equal(lines[0], 'Score of A vs B: 3 - 2 - 3  [0.563] 8');
  assert.equal(lines[1], '...      A playing White: 2 - 1 - 1  [0.625] 4');
  assert.equal(lines[3], '...      White vs Black: 3 - 2 - 3  [0.563] 8');
  assert.match(lines[4]!, /^Elo difference: 43\.7 \+\/- \d+\.\d, LOS: 67\.3 %, DrawRatio: 37\.5 %$/);
  assert.equal(lines[5], 'Ptnml(0-2): [0, 1, 2, 0, 1], WL/DD Ratio: 1.00');
  const j = jsonSummary(b, { stopped: 'completed', durationMs: 5 }) as Record<string, unknown>;
  assert.deepEqual([j.wins, j.draws, j.losses, j.games], [3, 3, 2, 8]);
  // The JSON holds the printed line's numbers too (independently computed: cutechess's z = 1.957162
  // gives 216.0785, the exact z 216.4821; the printed "+/- 216.1" is the former).
  const enc = (j.encounters as Record<string, number>[])[0]!;
  assert.match(lines[4]!, /\+\/- 216\.1,/);
  assert.ok(Math.abs(enc.errorCutechess! - 216.07850062250228) < 1e-9, String(enc.errorCutechess));
  assert.ok(Math.abs(enc.error! - 216.4820578176419) < 1e-9);
  assert.equal(enc.losCutechess!.toFixed(1), '67.3');
  // With an SPRT the summary names the engine its hypotheses are about (the first) and its opponent.
  const config = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05, model: 'normalized' } as const;
  const withSprt = jsonSummary(b, { stopped: 'completed', durationMs: 5, sprt: { config, status: sprt(e.penta, config) } }) as { sprt: Record<string, unknown> };
  assert.deepEqual([withSprt.sprt.engine, withSprt.sprt.against, withSprt.sprt.elo1], ['A', 'B', 10]);
  assert.ok(typeof withSprt.sprt.llr === 'number' && withSprt.sprt.llr > 0, 'A scored 56%: a positive LLR');
});

test('more than two engines: a ranking table', () => {
  const s = buildSchedule({ players: 3, tournament: 'round-robin', games: 2, rounds: 1, repeat: 1, noswap: false, seeds: 1 });
  const b = new Scoreboard(['A', 'B', 'C'], 1);
  for (const g of s) b.add(g, g.white === 0 || g.black === 2 ? (g.white === 0 ? '1-0' : g.black === 2 ? '1-0' : '0-1') : '0-1');
  const lines = reportLines(b);
  assert.equal(lines[0], 'Rank Name                          Elo     +/-   Games   Score    Draw');
  assert.match(lines[1]!, /^ {3}1 A {25}/);
  assert.equal(lines.length, 4);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeSpawner, fakeSpec } from '../../test/matchHelpers/fakeEngine.js';
import { STARTING_FEN } from '../notation/fen.js';
import { playGame, type MoveRecord } from './game.js';
import { DEFAULT_TIMEOUTS, EnginePlayer } from './player.js';
import { buildSchedule } from './schedule.js';
import { Scoreboard } from './scoreboard.js';
import { jsonSummary, timeLines } from './report.js';
import { addTimeUse, emptyTimeTotals, gameTimeUse, summarizeTime, timeUseText } from './timeUse.js';

const mv = (timeMs: number, clockMs?: number, book = false): MoveRecord => {
  const m: MoveRecord = { uci: 'a1a1', san: '?', book, timeMs: book ? undefined : timeMs };
  if (clockMs !== undefined) m.clockMs = clockMs;
  return m;
};

test('a game: moves alternate from the side to move of the root; book moves do not count', () => {
  // Black moves first (a book move), then White 100 ms, Black 300, White 100, Black 200, White 50.
  const moves = [mv(0, undefined, true), mv(100, 900), mv(300, 700), mv(100, 900), mv(200, 600), mv(50, 950)];
  const [w, b] = gameTimeUse({ fen: '8/8/8/8/8/8/8/K6k b - - 0 1', moves });
  assert.deepEqual(b, { moves: 2, thinkMs: 500, lowestMs: 600 });
  assert.deepEqual(w, { moves: 3, thinkMs: 250, lowestMs: 900 });
  const untimed = gameTimeUse({ fen: STARTING_FEN, moves: [mv(10), mv(20)] });
  assert.deepEqual(untimed, [{ moves: 1, thinkMs: 10 }, { moves: 1, thinkMs: 20 }]);
});

test('a match: mean time a move, lowest clock and the median of the games\' lows', () => {
  const t = emptyTimeTotals();
  for (const low of [3000, 60, 1500, 900]) addTimeUse(t, { moves: 10, thinkMs: 2000, lowestMs: low });
  const s = summarizeTime(t);
  assert.deepEqual(s, { moves: 40, avgMoveMs: 200, lowestClockMs: 60, medianGameLowMs: 1200 });
  assert.equal(timeUseText(s), '0.200 s a move (40 moves), lowest clock 0.060 s, median game low 1.200 s');
  addTimeUse(t, { moves: 0, thinkMs: 0 });
  assert.equal(summarizeTime(t).medianGameLowMs, 1200, 'an untimed side adds no low');
  assert.equal(timeUseText(summarizeTime(emptyTimeTotals())), 'no timed moves');
  const one = emptyTimeTotals();
  addTimeUse(one, { moves: 1, thinkMs: 7, lowestMs: 993 });
  assert.equal(timeUseText(summarizeTime(one)), '0.007 s a move (1 move), lowest clock 0.993 s, median game low 0.993 s');
});

test('the runner\'s clock: each move records the time left before the increment', async () => {
  const spawn = fakeSpawner({ W: { go: () => ({ do: 'delay', ms: 30 }) }, B: {} });
  const tc = { infinite: false, baseMs: 5000, incMs: 100 };
  const w = await EnginePlayer.launch(fakeSpec('W', tc), spawn, DEFAULT_TIMEOUTS);
  const b = await EnginePlayer.launch(fakeSpec('B', tc), spawn, DEFAULT_TIMEOUTS);
  const rec = await playGame({ number: 1, round: 1, white: w, black: b, opening: { fen: STARTING_FEN, moves: [], source: 't' }, rules: { maxMoves: 6 }, timeouts: DEFAULT_TIMEOUTS });
  await Promise.all([w.quit(DEFAULT_TIMEOUTS), b.quit(DEFAULT_TIMEOUTS)]);
  const white = rec.moves.filter((_, i) => i % 2 === 0);
  assert.ok(white.length >= 3);
  // Clock before a move: base + inc for the first, then the last recorded clock plus the
  // increment (recorded times are rounded, so each move is checked against the one before
  // rather than against a running sum of rounded times).
  let clock = 5100;
  for (const m of white) {
    assert.ok(m.timeMs! >= 25, `a delayed move takes its time (${m.timeMs} ms)`);
    assert.ok(Math.abs(m.clockMs! - (clock - m.timeMs!)) <= 1, `clock ${m.clockMs} = ${clock} − ${m.timeMs}`);
    clock = m.clockMs! + 100;
  }
  const [wu] = gameTimeUse(rec);
  assert.equal(wu.lowestMs, Math.min(...white.map((m) => m.clockMs!)));
});

test('the scoreboard books time use per player; the report and JSON show it', () => {
  const s = buildSchedule({ players: 2, tournament: 'round-robin', games: 2, rounds: 1, repeat: 2, noswap: false, seeds: 1 });
  const board = new Scoreboard(['A', 'B'], 2);
  board.add(s[0]!, '1-0', undefined, [{ moves: 10, thinkMs: 1000, lowestMs: 4000 }, { moves: 10, thinkMs: 3000, lowestMs: 80 }]);
  board.add(s[1]!, '1/2-1/2', undefined, [{ moves: 5, thinkMs: 500, lowestMs: 2000 }, { moves: 5, thinkMs: 500, lowestMs: 6000 }]);
  const byName = (n: string) => board.players.find((p) => p.name === n)!;
  const a = s[0]!.white === 0 ? byName('A') : byName('B');
  assert.equal(a.time.moves, 15);
  const lines = timeLines(board.players);
  assert.equal(lines.length, 2);
  assert.match(lines.join('\n'), /lowest clock 0\.080 s/);
  const j = jsonSummary(board, { stopped: 'completed', durationMs: 1 }) as { players: { time: { lowestClockMs: number } }[] };
  assert.deepEqual(j.players.map((p) => p.time.lowestClockMs).sort((x, y) => x - y), [80, 4000]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeSpawner, fakeSpec, type FakeScript } from '../../test/matchHelpers/fakeEngine.js';
import { positionFromFen, STARTING_FEN } from '../notation/fen.js';
import { parseSan } from '../notation/san.js';
import type { AdjudicationRules } from './adjudicate.js';
import { playGame, type GameRecord } from './game.js';
import type { Opening } from './openings.js';
import { DEFAULT_TIMEOUTS, EnginePlayer, type Timeouts } from './player.js';
import type { TimeControl } from './tc.js';

// The fakes answer at once: start-up and isready keep the match's own limits, which a loaded
// machine cannot miss; only the waits these tests are about are short.
const FAST: Timeouts = { ...DEFAULT_TIMEOUTS, stopWaitMs: 50, graceMs: 20 };
const START: Opening = { fen: STARTING_FEN, moves: [], source: 'test' };

async function game(
  white: FakeScript,
  black: FakeScript,
  opts: { opening?: Opening; tc?: Partial<TimeControl>; rules?: AdjudicationRules; signal?: AbortSignal } = {},
): Promise<{ rec: GameRecord; w: EnginePlayer; b: EnginePlayer }> {
  const spawn = fakeSpawner({ W: white, B: black });
  const w = await EnginePlayer.launch(fakeSpec('W', opts.tc, white.xboard ? 'xboard' : 'uci'), spawn, FAST);
  const b = await EnginePlayer.launch(fakeSpec('B', opts.tc, black.xboard ? 'xboard' : 'uci'), spawn, FAST);
  const setup = { number: 1, round: 1, white: w, black: b, opening: opts.opening ?? START, rules: opts.rules ?? {}, timeouts: FAST };
  const rec = await playGame(opts.signal ? { ...setup, signal: opts.signal } : setup);
  return { rec, w, b };
}

/** Replays the record's SAN from its FEN: every move must be legal. */
function replays(rec: GameRecord): boolean {
  const p = positionFromFen(rec.fen);
  if (!p.ok) return false;
  for (const m of rec.moves) {
    const r = parseSan(p.value, m.san);
    if (!r.ok) return false;
    p.value.play(r.value);
  }
  return true;
}

test('a game between two legal movers ends by a rule of chess, with a replayable record', async () => {
  const { rec, w, b } = await game({}, {});
  assert.equal(rec.termination, 'normal');
  assert.match(rec.reason, /mates|stalemate|repetition|fifty|insufficient/);
  assert.ok(replays(rec));
  assert.equal(rec.white, 'W');
  assert.ok(rec.moves.every((m) => !m.book && m.timeMs !== undefined && m.score?.kind === 'cp'));
  assert.equal(w.dead || b.dead, false);
});

test('opening moves are played as book moves and reach the engines', async () => {
  const opening: Opening = { fen: STARTING_FEN, moves: ['e2e4', 'c7c5', 'g1f3'], source: 'book' };
  const { rec } = await game({}, {}, { opening });
  assert.deepEqual(rec.moves.slice(0, 3).map((m) => [m.san, m.book]), [['e4', true], ['c5', true], ['Nf3', true]]);
  assert.equal(rec.moves[3]!.book, false);
});

test('opening moves count towards a moves/time period, as in cutechess', async () => {
  // 10 moves in 60 s after e4 c5 Nf3: White has played 2 of its 10, Black 1 (cutechess's
  // makeBookMove counts them; an xboard engine counts the game's moves for `level` too).
  const lines: string[][] = [[], []];
  const opening: Opening = { fen: STARTING_FEN, moves: ['e2e4', 'c7c5', 'g1f3'], source: 'book' };
  const tc = { infinite: false, moves: 10, baseMs: 60_000 };
  await game({ goLine: (l) => lines[0]!.push(l) }, { goLine: (l) => lines[1]!.push(l) }, { opening, tc });
  const togo = (l: string | undefined): number => Number(/movestogo (\d+)/.exec(l ?? '')?.[1]);
  assert.equal(togo(lines[1]![0]), 9);
  assert.equal(togo(lines[0]![0]), 8);
  // White's period rolls over after 8 moves of its own, Black's after 9.
  assert.equal(togo(lines[0]![8]), 10);
  assert.equal(togo(lines[1]![9]), 10);
});

test('an opening move that would end the game is not played', async () => {
  // Fool's mate: the last opening move mates, so the game starts before it.
  const opening: Opening = { fen: STARTING_FEN, moves: ['f2f3', 'e7e5', 'g2g4', 'd8h4'], source: 'fool' };
  const { rec } = await game({}, {}, { opening });
  assert.equal(rec.moves.filter((m) => m.book).length, 3);
});

test('an illegal move loses, with the move in the reason', async () => {
  const { rec } = await game({}, { go: (n) => (n === 2 ? { do: 'send', move: 'e1e8' } : { do: 'move' }) });
  assert.equal(rec.result, '1-0');
  assert.equal(rec.reason, 'Black makes an illegal move: e1e8');
  assert.equal(rec.termination, 'illegal move');
  assert.deepEqual(rec.fault, { color: 1, kind: 'illegal' });
  assert.equal(rec.moves.length, 3);
});

test('the illegal move\'s detail counts the plies in words that agree with the number', async () => {
  const { rec } = await game({}, { go: () => ({ do: 'send', move: 'e1e8' }) });
  assert.equal(rec.detail, 'illegal move "e1e8" in the position after 1 ply (Black to move)');
});

test('a forfeit against a bare king is a draw', async () => {
  const opening: Opening = { fen: '4k3/8/8/8/8/8/8/R3K3 w Q - 0 1', moves: [], source: 'ending' };
  const { rec } = await game({ go: () => ({ do: 'send', move: 'a1a9' }) }, {}, { opening });
  assert.equal(rec.result, '1/2-1/2');
  assert.equal(rec.reason, 'White makes an illegal move: a1a9');
});

test('a crash loses as a disconnect and leaves the player dead', async () => {
  const { rec, b } = await game({}, { go: (n) => (n === 3 ? { do: 'crash' } : { do: 'move' }) });
  assert.equal(rec.result, '1-0');
  assert.equal(rec.reason, 'Black disconnects');
  assert.equal(rec.termination, 'abandoned');
  assert.equal(b.dead, true);
});

test('an engine that never answers loses on time and is killed', async () => {
  const { rec, w } = await game({ go: (n) => (n === 2 ? { do: 'hang' } : { do: 'move' }) }, {}, { tc: { infinite: false, baseMs: 200, incMs: 10 } });
  assert.equal(rec.result, '0-1');
  assert.equal(rec.reason, 'White loses on time');
  assert.equal(rec.termination, 'time forfeit');
  assert.match(rec.detail!, /no move after stop/);
  assert.equal(w.dead, true);
});

test('an engine that moves only when stopped loses on time but stays usable', async () => {
  const { rec, b } = await game({}, { go: (n) => (n === 2 ? { do: 'late' } : { do: 'move' }) }, { tc: { infinite: false, baseMs: 150, incMs: 0 } });
  assert.equal(rec.reason, 'Black loses on time');
  assert.doesNotMatch(rec.detail!, /no move after stop/);
  assert.equal(b.dead, false);
});

test('fixed time per move: a move slower than st + margin forfeits', async () => {
  const { rec } = await game({ go: (n) => (n === 2 ? { do: 'delay', ms: 150 } : { do: 'move' }) }, {}, { tc: { infinite: false, movetimeMs: 50, marginMs: 10 } });
  assert.equal(rec.reason, 'White loses on time');
});

test('resign adjudication: the side reporting ≤ −score for movecount moves loses', async () => {
  const { rec } = await game({ go: () => ({ do: 'score', cp: 50 }) }, { go: () => ({ do: 'score', cp: -700 }) }, { rules: { resign: { moveCount: 3, score: 600, twoSided: false } } });
  assert.equal(rec.result, '1-0');
  assert.equal(rec.reason, 'White wins by adjudication');
  assert.equal(rec.termination, 'adjudication');
  assert.equal(rec.moves.length, 6);
});

test('maxmoves: a draw after 2N engine plies', async () => {
  const opening: Opening = { fen: STARTING_FEN, moves: ['e2e4', 'e7e5'], source: 'o' };
  const { rec } = await game({}, {}, { opening, rules: { maxMoves: 3 } });
  assert.equal(rec.reason, 'Draw by adjudication: maximal game length');
  assert.equal(rec.moves.length, 8);
});

test('an aborted game ends as * and the engines stay usable', async () => {
  const ac = new AbortController();
  // Aborted as White's third search starts (an event, not a timer a loaded machine may let the game outrun).
  const { rec, w, b } = await game(
    {
      go: (n) => {
        if (n === 3) ac.abort();
        return { do: 'delay', ms: 5 };
      },
    },
    { go: () => ({ do: 'delay', ms: 5 }) },
    { signal: ac.signal },
  );
  assert.equal(rec.result, '*');
  assert.equal(rec.reason, 'Game interrupted');
  assert.equal(w.dead || b.dead, false);
});

test('xboard: a result claim left over from the last game does not end the new one', async () => {
  // HoiChess prints "1-0 {White mates}" after its mating move; the runner has already ended that
  // game, so the line can reach it while the engine's next game is being set up.
  const stale = { xboard: true, onNew: ['1-0 {White mates}'] };
  const { rec, b } = await game({}, stale);
  assert.equal(rec.termination, 'normal', rec.reason);
  assert.ok(replays(rec));
  assert.equal(b.dead, false);
});

test('xboard: without ping, late output about the last game does not end the next one', async () => {
  // cutechess waits 200 ms after the result for an engine it cannot ping.
  const spawn = fakeSpawner({ W: {}, B: { xboard: true, noPing: true, afterResult: ['1/2-1/2 {Draw by repetition}'] } });
  const w = await EnginePlayer.launch(fakeSpec('W'), spawn, FAST);
  const b = await EnginePlayer.launch(fakeSpec('B', {}, 'xboard'), spawn, FAST);
  for (const number of [1, 2]) {
    const rec = await playGame({ number, round: 1, white: w, black: b, opening: START, rules: {}, timeouts: FAST });
    assert.equal(rec.termination, 'normal', `game ${number}: ${rec.reason}`);
  }
});

test('xboard: a false claim during the game loses', async () => {
  const { rec } = await game({}, { xboard: true, claimOn: 3 });
  assert.equal(rec.termination, 'rules infraction');
  assert.equal(rec.reason, 'Black makes an invalid result claim');
  assert.deepEqual(rec.fault, { color: 1, kind: 'claim' });
  assert.equal(rec.moves.length, 5);
});

test('xboard: a result claim that gives the game away is a resignation, as CECP and cutechess read it', async () => {
  // "0-1 {White resigns}" is the protocol's other way to resign; it is no rules infraction.
  const { rec } = await game({}, { xboard: true, claimOn: 3, claimText: (turn) => (turn === 0 ? '0-1 {White resigns}' : '1-0 {Black resigns}') });
  assert.equal(rec.result, '1-0');
  assert.equal(rec.reason, 'Black resigns');
  assert.equal(rec.termination, 'normal');
  assert.equal(rec.fault, undefined);
});

test('xboard: a draw claimed before the move that draws holds; before one that does not, it loses', async () => {
  // Fifty-move rule: White's next quiet move is the hundredth reversible ply.
  const opening: Opening = { fen: 'r3k3/8/8/8/8/8/8/4K2R w - - 99 80', moves: [], source: 'fifty' };
  const claim = { xboard: true, claimOn: 1, moveAfterClaim: true, claimText: () => '1/2-1/2 {50 move rule}' };
  const held = await game(claim, { xboard: true }, { opening });
  assert.equal(held.rec.result, '1/2-1/2', held.rec.reason);
  assert.equal(held.rec.termination, 'normal');
  assert.equal(held.rec.moves.length, 1);
  // From the start position the claimed move draws nothing: the claimer loses.
  const { rec } = await game(claim, { xboard: true });
  assert.equal(rec.result, '0-1');
  assert.equal(rec.termination, 'rules infraction');
  assert.equal(rec.reason, 'White makes an invalid result claim');
  assert.equal(rec.moves.length, 0);
});

test('a search without a clock is capped: a hung engine stalls, one that answers stop plays on', { timeout: 10_000 }, async () => {
  const untimed = { infinite: true, depth: 3 };
  const timeouts: Timeouts = { ...FAST, untimedMoveMs: 100 };
  const spawn = fakeSpawner({ W: {}, B: { go: (n) => (n === 2 ? { do: 'hang' } : { do: 'move' }) }, S: { go: (n) => (n === 1 ? { do: 'late' } : { do: 'move' }) } });
  const w = await EnginePlayer.launch(fakeSpec('W', untimed), spawn, timeouts);
  const hung = await EnginePlayer.launch(fakeSpec('B', untimed), spawn, timeouts);
  const rec = await playGame({ number: 1, round: 1, white: w, black: hung, opening: START, rules: {}, timeouts });
  assert.equal(rec.result, '1-0');
  assert.equal(rec.termination, 'stalled connection');
  assert.deepEqual(rec.fault, { color: 1, kind: 'stall' });
  assert.match(rec.detail ?? '', /no move 100 ms into a search without a clock, nor 50 ms after stop/);
  assert.ok(hung.dead);
  // An engine that only moves when told to stop loses nothing: its move counts and the game goes on.
  const slow = await EnginePlayer.launch(fakeSpec('S', untimed), spawn, timeouts);
  const w2 = await EnginePlayer.launch(fakeSpec('W', untimed), spawn, timeouts);
  const rec2 = await playGame({ number: 2, round: 1, white: slow, black: w2, opening: START, rules: { maxMoves: 3 }, timeouts });
  assert.equal(rec2.fault, undefined);
  assert.equal(rec2.moves.length, 6);
});

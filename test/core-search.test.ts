/**
 * The search (the WebAssembly core's, src/wasm/search) on its own: the checked build (every
 * array access bounds-checked) visits the release build's nodes on every bench position at
 * depths 1 to 6; node, depth and time limits; mate, stalemate, repetition, the fifty-move rule
 * and insufficient material; MultiPV and searchmoves; a fixed movetime is used to its end;
 * WAC positions solved; every reported PV legal, failed aspiration windows included; a
 * stopped search's last line marked as the bound it is; SEE on hand-worked exchanges. The
 * node-for-node guard against any change is the bench signature (test/engine-cli.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { legalMoves } from '../src/core/movegen.js';
import { unwrap } from '../src/core/result.js';
import { BENCH_POSITIONS, runBench } from '../src/engine/bench.js';
import { Engine } from '../src/engine/engine.js';
import { MATE } from '../src/engine/score.js';
import { loadWasmCore, wasmCoreModule } from '../src/node/wasmCore.js';
import { parseEpd } from '../src/notation/epd.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseSan } from '../src/notation/san.js';
import { parseUci } from '../src/notation/uci.js';

const engine = (hashMB = 8): Engine => new Engine({ hashMB, wasm: wasmCoreModule() });

test("core search, checked build: the release build's nodes, moves and scores at depths 1 to 6, without a bad index", () => {
  const release = loadWasmCore();
  const checked = loadWasmCore(true);
  let nodes = 0;
  for (let depth = 1; depth <= 6; depth++) {
    BENCH_POSITIONS.forEach((fen, i) => {
      const pos = unwrap(positionFromFen(fen));
      release.setPosition(pos);
      checked.setPosition(pos);
      const r = release.searchFresh(depth);
      const c = checked.searchFresh(depth);
      assert.deepEqual([c.nodes, c.bestMove, c.score, c.pv], [r.nodes, r.bestMove, r.score, r.pv], `bench position ${i} at depth ${depth}`);
      nodes += c.nodes;
    });
  }
  assert.ok(nodes > 50_000, `${nodes} nodes`);
});

test('core search: the bench is deterministic, the same nodes and moves on every run', () => {
  const a = runBench(wasmCoreModule(), 5);
  const b = runBench(wasmCoreModule(), 5);
  assert.deepEqual(a.positions.map((p) => [p.nodes, p.bestMove]), b.positions.map((p) => [p.nodes, p.bestMove]));
});

test('core search: node and time limits, mate and stalemate at the root', () => {
  const core = loadWasmCore();
  const start = unwrap(positionFromFen(BENCH_POSITIONS[1]!));
  core.setPosition(start);
  core.newGame();
  const byNodes = core.search({ nodes: 20_000 });
  assert.ok(byNodes.bestMove !== 0 && byNodes.depth >= 3, `depth ${byNodes.depth}`);
  assert.ok(byNodes.nodes >= 20_000 && byNodes.nodes < 200_000, `nodes ${byNodes.nodes}`);
  // The hard time limit ends the search: after its 150 ms (a lower bound, which load only makes
  // longer) and long before a node backstop no 150 ms reaches (a search that misses its clock
  // ends there, so the test fails instead of hanging).
  const backstop = 20_000_000;
  const t0 = Date.now();
  const byTime = core.search({ hardMs: 150, nodes: backstop });
  const took = Date.now() - t0;
  assert.ok(byTime.bestMove !== 0 && byTime.stopped, 'a move, from a search its clock stopped');
  assert.ok(byTime.nodes < backstop, `${byTime.nodes} nodes: the search went on past its hard time limit, to the node backstop`);
  assert.ok(took >= 150, `ended after ${took} ms, before its 150 ms`);

  core.setPosition(unwrap(positionFromFen('6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1')));
  const mate = core.searchFresh(6);
  assert.equal(mate.score, 32000 - 1, 'mate in one');
  core.setPosition(unwrap(positionFromFen('4R1k1/5ppp/8/8/8/8/8/6K1 b - - 1 1')));
  assert.deepEqual([core.searchFresh(4).bestMove, core.searchFresh(4).score], [0, -32000], 'mated');
  core.setPosition(unwrap(positionFromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1')));
  assert.deepEqual([core.searchFresh(4).bestMove, core.searchFresh(4).score], [0, 0], 'stalemate');
});

test('core search: no legal move, repetitions, the fifty-move rule and insufficient material', () => {
  const e = engine(1);
  e.setPosition('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1');
  assert.deepEqual([e.go({ depth: 5 }).bestMove, e.go({ depth: 5 }).score], [0, -MATE], 'mated');
  e.setPosition('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
  assert.deepEqual([e.go({ depth: 5 }).bestMove, e.go({ depth: 5 }).score], [0, 0], 'stalemate');
  // With 99 half-moves played, any move that is not a capture or pawn move draws.
  e.setPosition('8/8/8/8/8/4k3/8/R3K3 w - - 99 80');
  assert.equal(e.go({ depth: 6 }).score, 0, 'fifty moves');
  e.setPosition('8/8/8/8/8/4k3/8/R3K3 w - - 0 80');
  assert.ok(e.go({ depth: 6 }).score > 300, 'the same position, a win with the fifty-move count at 0');
  // A mate on the hundredth half-move wins: checkmate takes precedence over the fifty-move rule
  // (FIDE Laws 9.3, 5.1.1), as in Stockfish; so does a mate in two that ends on it.
  e.setPosition('7k/8/6K1/8/8/8/8/R7 w - - 99 80');
  assert.deepEqual([e.go({ depth: 6 }).bestMove, e.go({ depth: 6 }).score], [unwrap(parseUci(unwrap(positionFromFen('7k/8/6K1/8/8/8/8/R7 w - - 99 80')), 'a1a8')), MATE - 1], 'mate on the hundredth half-move');
  e.setPosition('7k/8/5K2/8/8/8/8/1R6 w - - 97 80');
  assert.equal(e.go({ depth: 8 }).score, MATE - 3, 'mate in two ending on the hundredth half-move');
  e.setPosition('7k/8/5K2/8/8/8/8/1R6 w - - 98 80');
  assert.equal(e.go({ depth: 8 }).score, 0, 'the same mate in two one half-move too late');
  const core = loadWasmCore();
  core.setPosition(unwrap(positionFromFen('8/8/8/8/8/4k3/8/1B2K3 w - - 0 1')), false);
  assert.equal(core.isDraw(), true, 'KBK');
  const pos = unwrap(positionFromFen(STARTING_FEN));
  for (const san of ['Nf3', 'Nf6', 'Ng1', 'Ng8']) {
    core.setPosition(pos);
    assert.equal(core.isDraw(), false, `before ${san}`);
    pos.play(unwrap(parseSan(pos, san)));
  }
  core.setPosition(pos);
  assert.equal(core.isDraw(), true, 'the start position again');
  // With the search's root given, a repetition of a position before it needs a third occurrence.
  assert.equal(core.isDraw(-1, 4), false, 'the second occurrence, the first before the root');
  assert.equal(core.isDraw(-1, 0), false, 'the second occurrence, the first at the root');
  for (const san of ['Nf3', 'Nf6', 'Ng1', 'Ng8']) pos.play(unwrap(parseSan(pos, san)));
  core.setPosition(pos);
  assert.equal(core.isDraw(-1, 4), true, 'the third occurrence');
  assert.equal(core.isDraw(-1, 3), true, 'the second occurrence after the root');
});

test('core search: a move back to a position of the game before the root is a draw only as its third occurrence', () => {
  // King and rook against king: Black can go back to e8 once (its second time there) or, with
  // one more round in the game, for the third time (a draw by repetition).
  const e = engine();
  const round = ['a1a2', 'e8d8', 'a2a1'];
  e.setPosition('4k3/8/8/8/8/8/8/R3K3 w - - 0 1', round);
  const twice = e.go({ depth: 12 });
  assert.ok(twice.score < -300, `a lost position, not a draw by going back to e8 once: ${twice.score}`);
  e.setPosition('4k3/8/8/8/8/8/8/R3K3 w - - 0 1', [...round, 'd8e8', ...round]);
  const thrice = e.go({ depth: 12 });
  assert.deepEqual([thrice.score, thrice.bestMove], [0, (59 << 6) | 60], 'e8 for the third time draws');
});

test('core search: MultiPV lines are distinct, best first; searchmoves restricts the root; node and depth limits', () => {
  const e = engine();
  e.settings.multiPV = 3;
  e.setPosition(STARTING_FEN);
  const r = e.go({ depth: 6 });
  assert.equal(r.lines?.length, 3);
  assert.equal(new Set(r.lines!.map((l) => l.move)).size, 3);
  assert.ok(r.lines![0]!.score >= r.lines![1]!.score && r.lines![1]!.score >= r.lines![2]!.score);
  e.settings.multiPV = 1;
  const only = unwrap(parseSan(e.pos, 'a3'));
  assert.equal(e.go({ depth: 5, searchmoves: [only] }).bestMove, only);
  const n = e.go({ nodes: 5000 });
  assert.ok(n.nodes >= 5000 && n.nodes < 5000 + 2048, `${n.nodes} nodes`);
  assert.equal(e.go({ depth: 4 }).depth, 4);
});

test('core search: a fixed movetime is thought through to its end, even when the best move never changes', () => {
  // A clock game may stop early on a stable best move; `go movetime` promises the full time.
  const e = engine();
  e.settings.moveOverhead = 0;
  e.setPosition(STARTING_FEN);
  const r = e.go({ movetime: 300 });
  assert.ok(r.time >= 300, `searched ${r.time} ms`);
  assert.ok(r.bestMove !== 0 && r.depth >= 1);
});

/** The first `n` records of the WAC suite (Win at Chess, 300 tactical positions). */
const firstWac = (n: number): string[] =>
  readFileSync(new URL('../../../shared/data/suites/wac_300.epd', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, n);

test('core search: solves most of the first 20 WAC positions with 30 000 nodes each', () => {
  const lines = firstWac(20);
  const e = engine(16);
  let solved = 0;
  for (const line of lines) {
    const rec = unwrap(parseEpd(line));
    e.newGame();
    e.setPosition(rec.fen);
    const bm = rec.ops.get('bm')!.map((s) => unwrap(parseSan(e.pos, s)));
    if (bm.includes(e.go({ nodes: 30000 }).bestMove)) solved++;
  }
  assert.ok(solved >= 16, `${solved}/20 solved`);
});

test('core search: every line reported is legal, a failed aspiration window\'s included', () => {
  // A node's window can close to one (alpha = beta - 1), and its children then write no PV;
  // on WAC.007 at depth 7 with three lines, the second line failed low at depth 7 once showed
  // a move from another subtree at its fourth ply. A start 10 s back makes the core report
  // every failed window (it does from 2 s on), so that the lines a GUI sees then are checked.
  const lines = firstWac(20);
  const core = loadWasmCore();
  let reports = 0;
  let bounds = 0;
  for (const { fen } of lines.map((l) => unwrap(parseEpd(l)))) {
    core.setPosition(unwrap(positionFromFen(fen)));
    core.newGame();
    core.search(
      { depth: 7, multiPV: 3, startMs: Date.now() - 10_000 },
      {
        report: (k, depth, bound) => {
          reports++;
          if (bound !== 0) bounds++;
          const pos = unwrap(positionFromFen(fen));
          for (const [ply, m] of core.linePv(k).entries()) {
            assert.ok(legalMoves(pos).includes(m), `${fen}: line ${k + 1} at depth ${depth} (bound ${bound}): ply ${ply + 1} of its PV is not legal`);
            pos.play(m);
          }
        },
      },
    );
  }
  assert.ok(reports > 300 && bounds > 20, `${reports} lines, ${bounds} of them bounds`);
});

test('core search: a search stopped after a failed aspiration window reports the bound it has, as Stockfish does', () => {
  // Its last line is the window's bound, not an exact score (UCI upperbound/lowerbound):
  // WAC.001 at 3000 nodes failed low at depth 8 and was stopped in the search that followed,
  // and its last line said `score cp 446` where the score was at most that.
  const lines = firstWac(20);
  const core = loadWasmCore();
  let bounded = 0;
  for (const { fen } of lines.map((l) => unwrap(parseEpd(l)))) {
    for (const nodes of [3000, 7000]) {
      core.setPosition(unwrap(positionFromFen(fen)));
      core.newGame();
      const reports: { depth: number; bound: number; score: number }[] = [];
      // A start 10 s back makes the core report every failed window, so the last is known.
      const r = core.search({ nodes, startMs: Date.now() - 10_000 }, { report: (k, depth, bound, score) => void (k === 0 && reports.push({ depth, bound, score })) });
      const last = reports.at(-1)!;
      if (!r.stopped || last.bound === 0) continue;
      bounded++;
      // The iteration it ends had failed a window (a second failure of the wider window is
      // not reported before the stop, so the scores may differ).
      const before = reports.at(-2)!;
      assert.ok(before.depth === last.depth && before.bound !== 0, `${fen} at ${nodes} nodes: a bound at depth ${last.depth} with no failed window before it`);
    }
  }
  assert.ok(bounded >= 3, `${bounded} stopped searches ended on a bound`);
});

// Exchange values worked out by hand with P 100, N 320, B 330, R 500, Q 950.
const SEE_CASES: [string, string, number, string][] = [
  ['1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1', 'e1e5', 100, 'undefended pawn'],
  // N takes pawn, N takes N, R takes N, B takes R, Q (x-ray behind the rook) takes B, Q (x-ray
  // behind the bishop) takes Q: best for White is to stop after losing the knight for a pawn.
  ['1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1', 'd3e5', -220, 'x-rays on both sides'],
  ['4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1', 'e4d5', 100, 'pawn takes pawn'],
  ['4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1', 'd2d5', -850, 'queen takes a defended pawn'],
  ['4k3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1', 'd2d5', 500, 'rook takes undefended rook'],
  ['3rk3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1', 'd2d5', 500, 'doubled rooks: R takes R, R takes R, R takes R'],
  ['4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1', 'e4d5', 950, 'pawn takes queen'],
  ['4k3/4r3/8/8/8/8/8/4RK2 w - - 0 1', 'e1e7', 0, 'rook takes rook, king takes rook'],
  ['4k3/4r3/8/8/8/8/4R3/4RK2 w - - 0 1', 'e2e7', 500, 'the king may not recapture a defended rook'],
  ['4k3/3pr3/8/8/8/8/8/4RK2 w - - 0 1', 'e1e7', 0, 'rook takes rook, pawn takes rook'],
  ['4k3/8/8/2p5/8/8/8/1R2K3 w - - 0 1', 'b1b4', -500, 'a quiet move to an attacked square loses the piece'],
  ['4k3/8/8/2p5/8/8/8/1R2K3 w - - 0 1', 'b1b2', 0, 'a quiet move to a safe square'],
  ['4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1', 'e5d6', 0, 'en passant counts as an even trade'],
];

test('core search: SEE with a threshold is true exactly up to the exchange value', () => {
  const core = loadWasmCore();
  for (const [fen, uci, value, why] of SEE_CASES) {
    const pos = unwrap(positionFromFen(fen));
    const m = unwrap(parseUci(pos, uci));
    core.setPosition(pos, false);
    assert.equal(core.seeGe(m, value), true, `${why}: see >= ${value}`);
    assert.equal(core.seeGe(m, value + 1), false, `${why}: not see >= ${value + 1}`);
  }
});

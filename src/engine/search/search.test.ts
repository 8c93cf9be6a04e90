import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { unwrap } from '../../core/result.js';
import { parseEpd } from '../../notation/epd.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { parseSan } from '../../notation/san.js';
import { makeUci } from '../../notation/uci.js';
import { runBench } from '../bench.js';
import { Engine } from '../engine.js';
import { MATE, mateInMoves } from '../score.js';
import { TranspositionTable } from '../tt.js';
import { isDraw } from './draw.js';
import { SearchThread } from './thread.js';

test('finds mates with the exact distance', () => {
  const cases: [string, number, string][] = [
    ['6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', 1, 'd1d8'],
    ['2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1', 2, 'g3g6'],
    ['5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1', 2, 'c6c4'],
    ['7k/8/5QK1/8/8/8/8/8 b - - 0 1', -1, 'h8g8'],
  ];
  const e = new Engine({ hashMB: 8 });
  for (const [fen, mate, move] of cases) {
    e.newGame();
    e.setPosition(fen);
    const r = e.go({ depth: 2 * Math.abs(mate) + 6 });
    assert.equal(mateInMoves(r.score), mate, fen);
    assert.equal(makeUci(r.bestMove), move, fen);
  }
});

test('go mate stops as soon as a mate that short is proven', () => {
  const e = new Engine({ hashMB: 8 });
  e.setPosition('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1');
  const r = e.go({ mate: 1 });
  assert.equal(r.score, MATE - 1);
  assert.ok(r.depth <= 3, `stopped at depth ${r.depth}`);
});

test('no legal move: bestmove 0 with a mate or draw score', () => {
  const e = new Engine({ hashMB: 1 });
  e.setPosition('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1');
  assert.deepEqual([e.go({ depth: 5 }).bestMove, e.go({ depth: 5 }).score], [0, -MATE]);
  e.setPosition('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
  assert.deepEqual([e.go({ depth: 5 }).bestMove, e.go({ depth: 5 }).score], [0, 0]);
});

test('repetitions, the fifty-move rule and insufficient material are draws', () => {
  const tt = new TranspositionTable(1);
  const pos = unwrap(positionFromFen(STARTING_FEN));
  const t = new SearchThread(pos, tt);
  for (const m of ['g1f3', 'g8f6', 'f3g1', 'f6g8']) {
    assert.equal(isDraw(t), false);
    pos.play(unwrap(parseSan(pos, m.length === 4 ? 'N' + m.slice(2) : m)));
  }
  assert.equal(isDraw(t), true, 'the start position again');
  t.pos = unwrap(positionFromFen('8/8/8/8/8/4k3/8/R3K3 w - - 100 80'));
  assert.equal(isDraw(t), true, 'fifty moves');
  t.pos = unwrap(positionFromFen('8/8/8/8/8/4k3/8/1B2K3 w - - 0 1'));
  assert.equal(isDraw(t), true, 'KBK');
  // With 99 half-moves played, any move that is not a capture or pawn move draws.
  const e = new Engine({ hashMB: 1 });
  e.setPosition('8/8/8/8/8/4k3/8/R3K3 w - - 99 80');
  assert.equal(e.go({ depth: 6 }).score, 0);
});

test('multipv returns distinct lines, best first; searchmoves restricts the root', () => {
  const e = new Engine({ hashMB: 8 });
  e.settings.multiPV = 3;
  e.setPosition(STARTING_FEN);
  const r = e.go({ depth: 6 });
  assert.equal(r.lines?.length, 3);
  const moves = r.lines!.map((l) => l.move);
  assert.equal(new Set(moves).size, 3);
  assert.ok(r.lines![0]!.score >= r.lines![1]!.score && r.lines![1]!.score >= r.lines![2]!.score);
  e.settings.multiPV = 1;
  const only = unwrap(parseSan(e.pos, 'a3'));
  assert.equal(e.go({ depth: 5, searchmoves: [only] }).bestMove, only);
});

test('node limit and depth limit are honoured', () => {
  const e = new Engine({ hashMB: 8 });
  e.setPosition(STARTING_FEN);
  const r = e.go({ nodes: 5000 });
  assert.ok(r.nodes >= 5000 && r.nodes < 5000 + 2048, `${r.nodes} nodes`);
  assert.equal(e.go({ depth: 4 }).depth, 4);
});

test('bench is deterministic: the same node count on every run', () => {
  const a = runBench(4);
  const b = runBench(4);
  assert.equal(a.nodes, b.nodes);
  assert.deepEqual(a.positions.map((p) => p.bestMove), b.positions.map((p) => p.bestMove));
});

test('solves most of the first 20 WAC positions with 30 000 nodes each', () => {
  const file = new URL('../../../../../shared/data/suites/wac_300.epd', import.meta.url);
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, 20);
  const e = new Engine({ hashMB: 16 });
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

test('a fixed movetime is thought through to its end, even when the best move never changes', () => {
  // A clock game may stop early on a stable best move; `go movetime` promises the full time.
  const e = new Engine({ hashMB: 8 });
  e.settings.moveOverhead = 0;
  e.setPosition(STARTING_FEN);
  const r = e.go({ movetime: 300 });
  assert.ok(r.time >= 300, `searched ${r.time} ms`);
  assert.ok(r.depth >= 4);
});

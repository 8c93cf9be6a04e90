import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { makeFen, positionFromFen, STARTING_FEN } from '../notation/fen.js';
import { makeUci } from '../notation/uci.js';
import { OUT } from './attacks.js';
import { MOVE_NULL } from './move.js';
import { generateLegal, legalMoves } from './movegen.js';
import type { Position } from './position.js';
import { unwrap } from './result.js';
import { KING, NO_SQUARE } from './types.js';

const SUITE = new URL('../../../../shared/data/suites/perft_standard.epd', import.meta.url);
const LINES = readFileSync(SUITE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
const FENS = LINES.map((l) => l.split(';')[0]!.trim());
/** The suite's own depth-2 counts (absent on two lines): how many reply pairs must be played. */
const D2 = LINES.map((l) => /;D2 (\d+)/.exec(l)?.[1]);

/** Everything `undo` must give back, as one comparable value. */
function snapshot(pos: Position): string {
  return [
    Array.from(pos.board).join(','),
    Array.from(pos.bbLo).join(','),
    Array.from(pos.bbHi).join(','),
    Array.from(pos.kingSq).join(','),
    pos.turn,
    pos.castling,
    pos.epSquare,
    pos.halfmoves,
    pos.keyLo,
    pos.keyHi,
    pos.ply,
  ].join('|');
}

/** Incremental state against state recomputed from the board; returns what disagrees. */
function inconsistency(pos: Position): string | undefined {
  const lo = new Int32Array(16);
  const hi = new Int32Array(16);
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq]!;
    if (p === 0) continue;
    if (sq < 32) {
      lo[p]! |= 1 << sq;
      lo[p & 8]! |= 1 << sq;
    } else {
      hi[p]! |= 1 << (sq - 32);
      hi[p & 8]! |= 1 << (sq - 32);
    }
    if ((p & 7) === KING && pos.kingSq[p >> 3] !== sq) return `king square ${pos.kingSq[p >> 3]} instead of ${sq}`;
  }
  for (let i = 0; i < 16; i++) {
    if (lo[i] !== pos.bbLo[i] || hi[i] !== pos.bbHi[i]) return `bitboard ${i}`;
  }
  pos.computeKey();
  if (OUT[0] !== pos.keyLo || OUT[1] !== pos.keyHi) return 'key';
  return undefined;
}

test('play keeps bitboards, king squares and key exact, and undo restores everything, to two plies of every standard perft position', () => {
  assert.equal(FENS.length, 128);
  const buf = new Uint16Array(256 * 3);
  for (const [k, fen] of FENS.entries()) {
    let pairs = 0;
    const pos = unwrap(positionFromFen(fen));
    const root = snapshot(pos);
    const end = generateLegal(pos, buf, 0);
    for (let i = 0; i < end; i++) {
      const m = buf[i]!;
      pos.play(m);
      const bad = inconsistency(pos);
      if (bad) assert.fail(`${fen} ${makeUci(m, pos.chess960)}: ${bad}`);
      const child = snapshot(pos);
      const end2 = generateLegal(pos, buf, end);
      for (let j = end; j < end2; j++) {
        pos.play(buf[j]!);
        const bad2 = inconsistency(pos);
        if (bad2) assert.fail(`${fen} ${makeUci(m, false)} ${makeUci(buf[j]!, false)}: ${bad2}`);
        assert.equal(pos.moveAt(1), buf[j]);
        assert.equal(pos.moveAt(2), m);
        pos.undo();
        pairs++;
      }
      assert.equal(snapshot(pos), child, `${fen} ${makeUci(m, false)}: undo of the reply`);
      pos.undo();
      assert.equal(snapshot(pos), root, `${fen} ${makeUci(m, false)}: undo`);
    }
    if (D2[k] !== undefined) assert.equal(pairs, Number(D2[k]), `${fen}: perft 2`);
  }
});

test('the halfmove clock, en-passant square and castling rights come back exactly', () => {
  const cases: [fen: string, uci: string, after: [ep: number, castling: number, halfmoves: number]][] = [
    // A capture resets a large clock; undo must restore it unclamped by the packing.
    ['4k3/8/8/8/8/8/3p4/R3K2R w KQ - 65535 200', 'e1d2', [NO_SQUARE, 0, 0]],
    ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 80', 'a1a8', [NO_SQUARE, 1 | 4, 0]],
    ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 80', 'h1h2', [NO_SQUARE, 2 | 4 | 8, 8]],
    // Double push beside an enemy pawn keeps the e.p. square (Polyglot's rule); without one it does not.
    ['4k3/8/8/8/3p4/8/4P3/4K3 w - - 3 40', 'e2e4', [20, 0, 0]],
    ['4k3/8/8/8/8/8/4P3/4K3 w - - 3 40', 'e2e4', [NO_SQUARE, 0, 0]],
    ['4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 40', 'e5d6', [NO_SQUARE, 0, 0]],
    ['4k3/1P6/8/8/8/8/8/4K3 w - - 12 40', 'b7b8n', [NO_SQUARE, 0, 0]],
  ];
  for (const [fen, uci, [ep, castling, halfmoves]] of cases) {
    const pos = unwrap(positionFromFen(fen));
    const before = snapshot(pos);
    const m = legalMoves(pos).find((x) => makeUci(x, false) === uci);
    assert.ok(m !== undefined, `${fen}: ${uci} is legal`);
    pos.play(m);
    assert.deepEqual([pos.epSquare, pos.castling, pos.halfmoves], [ep, castling, halfmoves], `${fen} ${uci}`);
    assert.equal(inconsistency(pos), undefined, `${fen} ${uci}`);
    pos.undo();
    assert.equal(snapshot(pos), before, `${fen} ${uci}: undo`);
  }
});

test('a null move flips the side and drops the e.p. square; undo brings both back', () => {
  const pos = unwrap(positionFromFen('4k3/8/8/3pP3/8/8/8/4K3 w - d6 5 40'));
  const before = snapshot(pos);
  pos.playNull();
  assert.deepEqual([pos.turn, pos.epSquare, pos.halfmoves, pos.moveAt(1)], [1, NO_SQUARE, 6, MOVE_NULL]);
  assert.equal(inconsistency(pos), undefined);
  assert.equal(makeFen(pos), '4k3/8/8/3pP3/8/8/8/4K3 b - - 6 40');
  pos.undo();
  assert.equal(snapshot(pos), before);
});

test('games longer than the initial state stack grow it, and clone copies the history', () => {
  const pos = unwrap(positionFromFen(STARTING_FEN));
  const start = snapshot(pos);
  const buf = new Uint16Array(256);
  const played: number[] = [];
  const keys: string[] = [];
  let seed = 12345;
  // Deterministic pseudo-random walk; null moves now and then, when not in check.
  while (played.length < 700) {
    keys.push(`${pos.keyLo},${pos.keyHi}`);
    const n = generateLegal(pos, buf, 0);
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    if (n === 0 || (seed % 13 === 0 && !pos.inCheck())) {
      if (n === 0 && pos.inCheck()) break;
      pos.playNull();
      played.push(MOVE_NULL);
    } else {
      const m = buf[(seed >>> 8) % n]!;
      pos.play(m);
      played.push(m);
    }
  }
  assert.ok(played.length > 256, `walk of ${played.length} plies`);
  assert.equal(inconsistency(pos), undefined);
  const copy = pos.clone();
  for (let back = 1; back <= played.length; back++) assert.equal(pos.moveAt(back), played[played.length - back]);
  for (const p of [pos, copy]) {
    for (let i = played.length - 1; i >= 0; i--) {
      p.undo();
      assert.equal(`${p.keyLo},${p.keyHi}`, keys[i], `undo to ply ${i}`);
    }
    assert.equal(snapshot(p), start);
  }
});

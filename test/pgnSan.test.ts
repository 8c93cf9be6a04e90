/**
 * The replay SAN matchers (`sanToMove` with its candidate-only `resolveSan`, and the byte lexer
 * `sanBytesToMove`) must give exactly what the all-legal-moves matcher gave, for legal, illegal,
 * ambiguous and unreadable input, in real game positions and in the perft suites' tricky ones
 * (castling, en passant, promotions, pins, Chess960). The bulk SAN writer `writeSan` must give
 * exactly what `makeSan` gives.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import { legalMoves } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { makeFen, positionFromFen } from '../src/notation/fen.js';
import { makeSan, sanToMove } from '../src/notation/san.js';
import { makeUci } from '../src/notation/uci.js';
import { parsePgn } from '../src/pgn/parser.js';
import { sanBytesToMove } from '../src/pgn/sanBytes.js';
import { writeSan } from '../src/pgn/sanWriter.js';
import { referenceSanToMove } from './pgnSanReference.js';

const DATA = new URL('../../../shared/data/', import.meta.url);
const enc = new TextEncoder();

/** Deterministic pseudo-random numbers (xorshift32). */
function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function check(pos: Position, text: string): void {
  const want = referenceSanToMove(pos, text);
  const got = sanToMove(pos, text);
  if (got !== want) assert.fail(`sanToMove("${text}") = ${got}, reference ${want}, in ${makeFen(pos)}`);
  const bytes = enc.encode(` ${text}`);
  const fromBytes = sanBytesToMove(pos, bytes, 1, bytes.length);
  if (fromBytes !== want) assert.fail(`sanBytesToMove("${text}") = ${fromBytes}, reference ${want}, in ${makeFen(pos)}`);
}

const FILES = 'abcdefgh';
const PIECES = ['', 'P', 'N', 'B', 'R', 'Q', 'K'];

/** Every way of writing each legal move, plus every piece to every square, plus noise. */
function checkPosition(pos: Position, rand: () => number): number {
  let n = 0;
  for (const m of legalMoves(pos)) {
    const san = makeSan(pos, m);
    if (writeSan(pos, m) !== san) assert.fail(`writeSan gives ${writeSan(pos, m)}, makeSan ${san}, in ${makeFen(pos)}`);
    const uci = makeUci(m, pos.chess960);
    const forms = [san, san.replace(/[+#]$/, ''), uci, `${uci.slice(0, 2)}-${uci.slice(2)}`, `${san}!?`, `${san}e.p.`];
    const letter = san[0]! >= 'A' && san[0]! <= 'Z' && san[0] !== 'O' ? san[0]! : '';
    forms.push(`${letter}${uci.slice(0, 2)}x${uci.slice(2, 4)}`, `${letter}${uci.slice(0, 4)}`);
    if (uci.length === 5) forms.push(`${uci.slice(0, 4)}=${uci[4]!.toUpperCase()}`, san.replace('=', ''));
    // Reversible algebraic notation names the captured piece, rightly or wrongly.
    if (san.includes('x')) for (const p of 'PNBRQK') forms.push(san.replace('x', `x${p}`), `${letter}${uci.slice(0, 2)}:${p}${uci.slice(2)}`);
    for (const f of forms) {
      check(pos, f);
      n++;
    }
  }
  for (const piece of PIECES) {
    for (let sq = 0; sq < 64; sq++) {
      const square = FILES[sq & 7]! + String((sq >> 3) + 1);
      check(pos, piece + square);
      n++;
      const r = rand();
      if (r < 0.25) {
        const dis = r < 0.125 ? FILES[Math.floor(r * 64)]! : String(Math.floor((r - 0.125) * 64) + 1);
        check(pos, `${piece}${dis}x${square}`);
        n++;
      }
      if ((sq < 8 || sq >= 56) && (piece === '' || r > 0.75)) for (const p of ['=Q', 'N', '=b', 'r']) check(pos, piece + square + p);
    }
  }
  for (const c of ['O-O', 'O-O-O', '0-0', '0-0-0', 'o-o', 'OO', 'O-O-O-O', 'Kg1', 'Kc1', 'Kg8', 'Kc8', 'Kxh1', 'Kxa8', 'e1g1', 'e8c8', 'e1h1']) {
    check(pos, c);
    n++;
  }
  const alphabet = 'abcdefgh12345678NBRQKPxO0o-=+#!?e.p ';
  for (let k = 0; k < 40; k++) {
    let s = '';
    const len = 1 + Math.floor(rand() * 7);
    for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    check(pos, s);
    n++;
  }
  return n;
}

test('SAN matchers agree with the all-legal-moves reference in real game positions', () => {
  const text = gunzipSync(readFileSync(new URL('games/pgnmentor_players_sample2000.pgn.gz', DATA)));
  const games: number[][] = [];
  let current: number[] = [];
  parsePgn(text, {
    beginGame: () => (current = []),
    move: (_pos, m) => void current.push(m),
    endGame: () => void (games.length < 40 && games.push(current)),
  });
  const rand = rng(7);
  let positions = 0;
  let checks = 0;
  for (const moves of games) {
    const pos = unwrap(positionFromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
    for (let i = 0; i < moves.length; i++) {
      if (i % 6 === 0) {
        checks += checkPosition(pos, rand);
        positions++;
      }
      pos.play(moves[i]!);
    }
  }
  assert.ok(positions > 500, `${positions} positions`);
  assert.ok(checks > 500 * 500);
});

test('SAN matchers agree in the perft suites (castling, en passant, promotion, pins, Chess960)', () => {
  const rand = rng(11);
  const lines = [
    ...readFileSync(new URL('suites/perft_standard.epd', DATA), 'utf8').split('\n'),
    ...readFileSync(new URL('suites/perft_chess960.epd', DATA), 'utf8').split('\n').slice(0, 40),
  ].filter((l) => l.trim() !== '');
  let positions = 0;
  for (const line of lines) {
    const pos = unwrap(positionFromFen(line.split(';')[0]!.trim()));
    checkPosition(pos, rand);
    positions++;
    // One ply deeper: en passant and check evasions appear after the suites' double pushes and checks.
    for (const m of legalMoves(pos).slice(0, 3)) {
      pos.play(m);
      checkPosition(pos, rand);
      pos.undo();
      positions++;
    }
  }
  assert.ok(positions > 600);
});

test('the captured piece of reversible algebraic notation is read and must be the piece captured', () => {
  // polyglot make-book reads "exPd5" and "Nf3xPe5"; python-chess and chessops do not.
  const pos = unwrap(positionFromFen('r1bqkbnr/pppp1ppp/2n5/3Pp3/8/5N2/PPP2PPP/RNBQKB1R w KQkq e6 0 4'));
  const uciOf = (text: string): string | number => {
    const m = sanToMove(pos, text);
    const bytes = enc.encode(text);
    assert.equal(sanBytesToMove(pos, bytes, 0, bytes.length), m, text);
    return m >= 0 ? makeUci(m, false) : m;
  };
  for (const s of ['NxPe5', 'Nf3xPe5', 'N:Pe5', 'NxPe5+']) assert.equal(uciOf(s), 'f3e5', s);
  for (const s of ['dxPe6', 'd5xPe6', 'dxPe6 e.p.']) assert.equal(uciOf(s), 'd5e6', s);
  for (const s of ['dxNc6', 'd5xNc6']) assert.equal(uciOf(s), 'd5c6', s);
  // A wrong captured piece, or one on an empty square, is an illegal move.
  for (const s of ['NxQe5', 'dxPc6', 'dxNe6', 'NxPg5', 'Bf1xPb5']) assert.equal(uciOf(s), -2, s);
  const ucis: string[] = [];
  parsePgn(enc.encode('[Result "1-0"]\n\n1. e4 d5 2. exPd5 Qd8xPd5 3. Nc3 Qd8 4. d4 e5 5. d4xPe5 Qd8xQd1+ 6. Ke1xQd1 1-0\n'), {
    move: (p, m) => void ucis.push(makeUci(m, p.chess960)),
    error: (e) => assert.fail(e.message),
  });
  assert.deepEqual(ucis, ['e2e4', 'd7d5', 'e4d5', 'd8d5', 'b1c3', 'd5d8', 'd2d4', 'e7e5', 'd4e5', 'd8d1', 'e1d1']);
});

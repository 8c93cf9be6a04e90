import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { unwrap } from '../../core/result.js';
import { BLACK, MAX_MOVES, WHITE } from '../../core/types.js';
import { positionFromFen, STARTING_FEN } from '../../notation/fen.js';
import { makeSan } from '../../notation/san.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { countLines, dumpLines, formatLineCounts, formatPercent } from './lines.js';
import { PgBoard } from './pgOrder.js';
import { PolyglotReader } from './reader.js';

const OUT = new URL('../../../../../shared/docs/polyglot-vectors/out/', import.meta.url);
const text = (name: string): string => readFileSync(new URL(name, OUT), 'latin1');
const book = (name: string): PolyglotReader => unwrap(PolyglotReader.from(readFileSync(new URL(name, OUT)), name));

test('dump-book vectors are reproduced byte for byte', () => {
  const table: [string, number, string][] = [
    ['main_min1', WHITE, 'main_min1.dump_white.txt'],
    ['main_min1', BLACK, 'main_min1.dump_black.txt'],
    ['transcycle', WHITE, 'transcycle.dump_white.txt'],
    ['transcycle_b', BLACK, 'transcycle_b.dump_black.txt'],
    ['rounding', WHITE, 'rounding.dump_white.txt'],
  ];
  for (const [name, colour, expected] of table) {
    assert.equal(dumpLines(book(`${name}.bin`), colour, `${name}.bin`), text(expected), expected);
  }
});

test('info-book vectors: the rows, normal and -exact', () => {
  // The files hold PolyGlot's banner line, then the rows (main_min1: once plain, once -exact).
  const rows = (s: string): string[] => s.split('PolyGlot 2.0.4 by Fabien Letouzey.\n').filter((x) => x !== '');
  const main = rows(text('main_min1.info.txt'));
  assert.equal(formatLineCounts(countLines(book('main_min1.bin'))), main[0]);
  assert.equal(formatLineCounts(countLines(book('main_min1.bin'), true)), main[1]);
  assert.equal(formatLineCounts(countLines(book('transcycle.bin'))), rows(text('transcycle.info.txt'))[0]);
});

test('shares print like C printf("%.0f"): halves go to the even neighbour', () => {
  const table: [number, string][] = [
    [87.5, '88'],
    [12.5, '12'],
    [0.5, '0'],
    [1.5, '2'],
    [2.5, '2'],
    [44.44444, '44'],
    [99.6, '100'],
    [100, '100'],
    [0, '0'],
  ];
  for (const [v, s] of table) assert.equal(formatPercent(v), s, String(v));
});

test("PolyGlot's move order: piece list (king first, then a1…h8), then directions", () => {
  const order = (fen: string, moves: string[] = [], uci = false): string[] => {
    const board = new PgBoard(unwrap(positionFromFen(fen)));
    for (const u of moves) board.play(unwrap(parseUci(board.pos, u)));
    const buf = new Uint16Array(MAX_MOVES);
    const n = board.legalMoves(buf, 0);
    return Array.from(buf.subarray(0, n), (m) => (uci ? makeUci(m) : makeSan(board.pos, m)));
  };
  assert.deepEqual(order(STARTING_FEN), ['Na3', 'Nc3', 'Nf3', 'Nh3', 'a3', 'a4', 'b3', 'b4', 'c3', 'c4', 'd3', 'd4', 'e3', 'e4', 'f3', 'f4', 'g3', 'g4', 'h3', 'h4']);
  // Pawn: capture towards a, capture towards h, push; promotions N, B, R, Q; castling last, h-side first.
  assert.deepEqual(order('4k3/8/8/8/8/8/8/4K2R w K - 0 1').slice(-1), ['O-O']);
  assert.deepEqual(order('1n1nk3/2P5/8/8/8/8/8/4K3 w - - 0 1', [], true).slice(5), [
    'c7b8n', 'c7b8b', 'c7b8r', 'c7b8q', 'c7d8n', 'c7d8b', 'c7d8r', 'c7d8q', 'c7c8n', 'c7c8b', 'c7c8r', 'c7c8q',
  ]);
  // Black's list is Ke8, then a7…h7, then a8…h8, so pawns move before the queen; a capture
  // refills the victim's slot with the last piece of the list: after 2...Qxd5 White's h-pawn
  // takes the e-pawn's slot and moves before the f- and g-pawns.
  assert.deepEqual(order(STARTING_FEN, ['e2e4', 'd7d5', 'e4d5']).slice(0, 8), ['Kd7', 'a6', 'a5', 'b6', 'b5', 'c6', 'c5', 'e6']);
  const white = order(STARTING_FEN, ['e2e4', 'd7d5', 'e4d5', 'd8d5']);
  assert.equal(white[0], 'Ke2');
  assert.deepEqual(white.slice(-6), ['h3', 'h4', 'f3', 'f4', 'g3', 'g4']);
});

/**
 * Make/unmake speed alone: every legal move of a set of positions played and taken back, with
 * move generation outside the timed loop. tabiya's `play`/`undo` against chess.js's own
 * make/undo (`_makeMove`/`_undoMove`, what its `perft()` uses) and chessops's `clone` + `play`
 * (it has no undo), measured in the same run. The positions are the 128 of the standard perft
 * suite: openings, middlegames, endgames, castling, en passant and promotions.
 *
 *   npm run bench -- perftMake [--seconds S] [--suite FILE.epd]
 */
import { readFileSync } from 'node:fs';
import { Chess as OpsChess } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import type { Move as OpsMove } from 'chessops/types';
import { Chess as ChessJs } from 'chess.js';
import { generateLegal } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { positionFromFen } from '../src/notation/fen.js';
import { benchArgs } from './args.js';

const DEFAULT_SUITE = '../shared/data/suites/perft_standard.epd';

type JsInternals = { _moves(o: { legal: boolean }): unknown[]; _makeMove(m: unknown): void; _undoMove(): void };

function readFens(file: string): string[] {
  const fens: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const fen = line.split(';')[0]!.trim();
    if (fen !== '') fens.push(fen);
  }
  if (fens.length === 0) throw new Error(`${file}: no positions`);
  return fens;
}

/**
 * Each timed sample lasts at least this long, whatever the program's speed, so that every
 * program's best sample is picked from windows of the same length: on a shared machine a window
 * of a millisecond often escapes the other jobs where one of 100 ms does not.
 */
const SAMPLE_MS = 50;

/** Best make+undo pairs per second over samples of repeated passes of `pass` (which returns its pair count). */
function measure(pass: () => number, seconds: number): { pairs: number; pps: number } {
  let pairs = pass(); // warm-up
  for (let i = 0; i < 3; i++) pass();
  let best = 0;
  const deadline = performance.now() + seconds * 1000;
  let runs = 0;
  while (runs < 3 || performance.now() < deadline) {
    const t0 = performance.now();
    let elapsed = 0;
    pairs = 0;
    do {
      pairs += pass();
      elapsed = performance.now() - t0;
    } while (elapsed < SAMPLE_MS);
    const pps = pairs / (elapsed / 1000);
    if (pps > best) best = pps;
    runs++;
  }
  return { pairs, pps: best };
}

function tabiyaPass(positions: Position[], moves: Uint16Array, offsets: Int32Array): number {
  for (let p = 0; p < positions.length; p++) {
    const pos = positions[p]!;
    for (let i = offsets[p]!; i < offsets[p + 1]!; i++) {
      pos.play(moves[i]!);
      pos.undo();
    }
  }
  return moves.length;
}

const fmt = (x: number): string => (x / 1e6).toFixed(2).padStart(7) + ' M/s';

export function main(args: string[]): void {
  const { seconds, suite } = benchArgs('perftMake', args, {
    usage: '[--seconds S] [--suite FILE.epd]',
    options: {
      seconds: { kind: 'number', default: 2, min: 0, arg: 'S', help: 'seconds of samples for each program' },
      suite: { kind: 'string', default: DEFAULT_SUITE, arg: 'FILE.epd', help: 'the positions, one FEN or EPD a line' },
    },
  }).values;
  const fens = readFens(suite);

  const positions = fens.map((fen) => unwrap(positionFromFen(fen)));
  const buf = new Uint16Array(256 * positions.length);
  const offsets = new Int32Array(positions.length + 1);
  let n = 0;
  for (let p = 0; p < positions.length; p++) {
    offsets[p] = n;
    n = generateLegal(positions[p]!, buf, n);
  }
  offsets[positions.length] = n;
  const moves = buf.slice(0, n);

  const games = fens.map((fen) => new ChessJs(fen) as unknown as JsInternals);
  const jsMoves = games.map((g) => g._moves({ legal: true }));
  const ops = fens.map((fen) => OpsChess.fromSetup(opsParseFen(fen).unwrap()).unwrap());
  const opsMoves: OpsMove[][] = ops.map((pos) => {
    const out: OpsMove[] = [];
    for (const [from, dests] of pos.allDests()) {
      const promo = pos.board.pawn.has(from) && from >> 3 === (pos.turn === 'white' ? 6 : 1);
      for (const to of dests) {
        for (const promotion of promo ? (['queen', 'rook', 'bishop', 'knight'] as const) : [undefined]) out.push({ from, to, promotion });
      }
    }
    return out;
  });
  const jsCount = jsMoves.reduce((a, m) => a + m.length, 0);
  const opsCount = opsMoves.reduce((a, m) => a + m.length, 0);
  if (jsCount !== n || opsCount !== n) throw new Error(`legal move counts differ: tabiya ${n}, chess.js ${jsCount}, chessops ${opsCount}`);

  const ours = measure(() => tabiyaPass(positions, moves, offsets), seconds);
  const js = measure(() => {
    for (let p = 0; p < games.length; p++) {
      const g = games[p]!;
      for (const m of jsMoves[p]!) {
        g._makeMove(m);
        g._undoMove();
      }
    }
    return jsCount;
  }, seconds);
  const chessops = measure(() => {
    for (let p = 0; p < ops.length; p++) {
      const pos = ops[p]!;
      for (const m of opsMoves[p]!) pos.clone().play(m);
    }
    return opsCount;
  }, seconds);

  console.log(`make + undo pairs per second over ${n} legal moves of ${positions.length} positions (best ${SAMPLE_MS} ms sample of ~${seconds} s each), Node ${process.version}`);
  console.log('tabiya        chess.js      chessops      vs chess.js  vs chessops');
  console.log(
    `${fmt(ours.pps)}  ${fmt(js.pps)}  ${fmt(chessops.pps)}  ${(ours.pps / js.pps).toFixed(1).padStart(10)}x  ${(ours.pps / chessops.pps).toFixed(1).padStart(10)}x`,
  );
  console.log(`tabiya: ${(1e9 / ours.pps).toFixed(1)} ns per make + undo`);
}

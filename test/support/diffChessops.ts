/**
 * Differential checking against chessops (the rules library lichess uses): random playouts;
 * after every move the legal move set, the FEN, the SAN of every legal move and the game-end
 * flags must agree, undo must restore every position, and the incremental Polyglot key must
 * equal the key computed from scratch. Shared by the tests and scripts/diff-chessops.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Chess } from 'chessops/chess';
import { parseFen as opsParseFen, makeFen as opsMakeFen } from 'chessops/fen';
import { makeSan as opsMakeSan } from 'chessops/san';
import { makeUci as opsMakeUci } from 'chessops/util';
import type { NormalMove } from 'chessops/types';
import { generateLegal } from '../../src/core/movegen.js';
import { OUT } from '../../src/core/attacks.js';
import { positionFromFen, makeFen } from '../../src/notation/fen.js';
import { makeSan } from '../../src/notation/san.js';
import { makeUci } from '../../src/notation/uci.js';
import { unwrap } from '../../src/core/result.js';
import type { Position } from '../../src/core/position.js';
import { rng } from './rng.js';

const buf = new Uint16Array(256);

function ourMoves(pos: Position): string[] {
  const n = generateLegal(pos, buf, 0);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(makeUci(buf[i]!, true));
  return out.sort();
}

function opsMoves(ch: Chess): string[] {
  const out: string[] = [];
  for (const [from, dests] of ch.allDests()) {
    for (const to of dests) {
      const isPromo = ch.board.pawn.has(from) && (to >> 3 === 7 || to >> 3 === 0);
      if (isPromo) for (const role of ['knight', 'bishop', 'rook', 'queen'] as const) out.push(opsMakeUci({ from, to, promotion: role }));
      else out.push(opsMakeUci({ from, to }));
    }
  }
  return out.sort();
}

function compare(pos: Position, ch: Chess, ctx: string, withSan: boolean): void {
  const ours = ourMoves(pos);
  const theirs = opsMoves(ch);
  assert.deepEqual(ours, theirs, `legal moves differ ${ctx}`);
  assert.equal(makeFen(pos), opsMakeFen(ch.toSetup()), `FEN differs ${ctx}`);
  const noMoves = ours.length === 0;
  assert.equal(pos.inCheck(), ch.isCheck(), `check flag ${ctx}`);
  assert.equal(noMoves && pos.inCheck(), ch.isCheckmate(), `checkmate flag ${ctx}`);
  assert.equal(noMoves && !pos.inCheck(), ch.isStalemate(), `stalemate flag ${ctx}`);
  assert.equal(pos.isInsufficientMaterial(), ch.isInsufficientMaterial(), `insufficient material ${ctx}`);
  pos.computeKey();
  assert.ok(OUT[0] === pos.keyLo && OUT[1] === pos.keyHi, `incremental key differs from scratch ${ctx}`);
  if (withSan) {
    const n = generateLegal(pos, buf, 0);
    const moves = Array.from(buf.subarray(0, n));
    for (const m of moves) {
      const uci = makeUci(m, true);
      const opsMove = { from: parseSq(uci.slice(0, 2)), to: parseSq(uci.slice(2, 4)), promotion: promoRole(uci[4]) } as NormalMove;
      assert.equal(makeSan(pos, m), opsMakeSan(ch, opsMove), `SAN of ${uci} differs ${ctx}`);
    }
  }
}

const parseSq = (s: string): number => (s.charCodeAt(1) - 49) * 8 + s.charCodeAt(0) - 97;
const promoRole = (c: string | undefined): NormalMove['promotion'] =>
  c === 'q' ? 'queen' : c === 'r' ? 'rook' : c === 'b' ? 'bishop' : c === 'n' ? 'knight' : undefined;

export function playout(fen: string, random: () => number, maxPlies: number, sanEvery = 1): number {
  const pos = unwrap(positionFromFen(fen));
  const ch = Chess.fromSetup(opsParseFen(fen).unwrap()).unwrap();
  let plies = 0;
  for (; plies < maxPlies; plies++) {
    const ctx = `after ${plies} plies from ${fen} at ${makeFen(pos)}`;
    compare(pos, ch, ctx, plies % sanEvery === 0);
    const n = generateLegal(pos, buf, 0);
    if (n === 0 || pos.isInsufficientMaterial() || pos.halfmoves >= 100) break;
    const m = buf[Math.floor(random() * n)]!;
    const uci = makeUci(m, true);
    ch.play({ from: parseSq(uci.slice(0, 2)), to: parseSq(uci.slice(2, 4)), promotion: promoRole(uci[4]) } as NormalMove);
    pos.play(m);
  }
  // Unwind completely: undo must restore every position exactly.
  const finalFen = makeFen(pos);
  while (pos.ply > 0) pos.undo();
  assert.equal(makeFen(pos), makeFen(unwrap(positionFromFen(fen))), `undo chain from ${finalFen}`);
  return plies;
}

const SHARED = new URL('../../../../shared/data/', import.meta.url);

/** Start positions: the initial position, the perft suite's edge cases, real endgames. */
export function startPositions(): { initial: string; suite: string[]; endgames: string[] } {
  const suite = readFileSync(new URL('suites/perft_standard.epd', SHARED), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(';')[0]!.trim());
  const endgames = gunzipSync(readFileSync(new URL('books/endgames.epd.gz', SHARED)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 20000);
  return { initial: suite[0]!, suite, endgames };
}

/** Runs `games` playouts of at most `maxPlies`; half from the start, a quarter each from the suite and endgames. */
export function runPlayouts(seed: number, games: number, maxPlies: number): number {
  const random = rng(seed);
  const { initial, suite, endgames } = startPositions();
  let plies = 0;
  for (let g = 0; g < games; g++) {
    const pick = g % 4;
    const fen = pick < 2 ? initial : pick === 2 ? suite[Math.floor(random() * suite.length)]! : endgames[Math.floor(random() * endgames.length)]!;
    plies += playout(fen, random, maxPlies);
  }
  return plies;
}

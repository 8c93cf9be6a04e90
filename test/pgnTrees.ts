/**
 * Random annotated games (legal moves, nested variations, comments with [%clk]/[%eval], NAGs,
 * awkward tag values, set-up positions) for round-trip and oracle tests.
 */
import { legalMoves } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { makeSan } from '../src/notation/san.js';
import type { PgnGame, PgnNode } from '../src/pgn/game.js';

const WORDS = ['good', 'bad', 'Müller', 'naïve', '“quoted”', '[%clk 0:01:02]', '[%eval -0.35]', 'a', 'ÉLO', 'x;y', '%pct', '(paren)', 'long-word-without-spaces'];
const FENS = [STARTING_FEN, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 12'];

function comment(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 6);
  return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]!).join(' ');
}

function line(pos: Position, rand: () => number, length: number, depth: number): PgnNode[] {
  const nodes: PgnNode[] = [];
  let played = 0;
  for (let i = 0; i < length; i++) {
    const moves = legalMoves(pos);
    if (moves.length === 0) break;
    const m = moves[Math.floor(rand() * moves.length)]!;
    const node: PgnNode = { san: makeSan(pos, m), move: m };
    if (rand() < 0.15) node.nags = [1 + Math.floor(rand() * 200)];
    if (rand() < 0.2) node.comments = [comment(rand)];
    if (depth < 3 && rand() < 0.15 && moves.length > 1) {
      node.variations = [];
      const alternatives = 1 + Math.floor(rand() * 2);
      for (let k = 0; k < alternatives; k++) {
        const alt = moves[Math.floor(rand() * moves.length)]!;
        if (alt === m) continue;
        pos.play(alt);
        const v: PgnNode = { san: '', move: alt };
        pos.undo();
        v.san = makeSan(pos, alt);
        pos.play(alt);
        const rest = line(pos, rand, Math.floor(rand() * 6), depth + 1);
        pos.undo();
        if (rand() < 0.3) v.before = [comment(rand)];
        node.variations.push([v, ...rest]);
      }
      if (node.variations.length === 0) delete node.variations;
    }
    nodes.push(node);
    pos.play(m);
    played++;
  }
  for (let i = 0; i < played; i++) pos.undo();
  return nodes;
}

/** A random game tree; `plain` leaves out comments, NAGs and variations. */
export function randomGame(rand: () => number, plain = false): PgnGame {
  const fen = FENS[Math.floor(rand() * FENS.length)]!;
  const pos = unwrap(positionFromFen(fen));
  const moves = line(pos, rand, 10 + Math.floor(rand() * 60), plain ? 99 : 0);
  if (plain) {
    for (const n of moves) {
      delete n.comments;
      delete n.nags;
    }
  }
  const result = ['1-0', '0-1', '1/2-1/2', '*'][Math.floor(rand() * 4)]!;
  const tags: [string, string][] = [
    ['Event', `Event "${Math.floor(rand() * 100)}" \\ x`],
    ['Site', 'Zürich'],
    ['Date', '2024.??.??'],
    ['Round', '1'],
    ['White', 'Müller, Hans'],
    ['Black', 'O\'Brien'],
    ['Result', result],
    ['WhiteElo', String(2000 + Math.floor(rand() * 800))],
  ];
  if (fen !== STARTING_FEN) tags.push(['SetUp', '1'], ['FEN', fen]);
  const game: PgnGame = { tags, moves, result };
  if (!plain && rand() < 0.3) game.comments = [comment(rand)];
  return game;
}

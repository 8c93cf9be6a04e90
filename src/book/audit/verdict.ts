/**
 * One position of a book audit: the engine searches the position for its best move, then each
 * book move alone (UCI `go searchmoves`), both to the same depth or node count, and a move's
 * loss is what it scores below the best. A move that seems to lose more than the margin is
 * confirmed by a deeper search (2 plies more, or 4 times the nodes) of the position and of the
 * move, whose verdict replaces the first: a shallow search misjudges a few sound moves (on the
 * bundled master book at depth 10, all 4 of its 3,765 moves it flagged, each cleared at depth
 * 12 and by Stockfish), and only the few suspects pay for the deeper look. Each position starts from an empty hash table
 * (`newGame`), and so does each book move's search, so a verdict does not depend on which
 * positions were searched before it, on which thread, nor on the order the book lists its moves
 * in: an audit resumed after a kill, run on more threads, or of a .bin and a .tbk of the same
 * games, says the same.
 * Browser-safe (the engine is handed in).
 */
import type { Engine, GoLimits } from '../../engine/engine.js';
import { MATE, isMateScore } from '../../engine/score.js';
import { makeUci, parseUci } from '../../notation/uci.js';

/** What to search a position with. */
export interface AuditLimits {
  depth?: number;
  nodes?: number;
}

/** A position handed to a search thread. */
export interface AuditTask {
  index: number;
  fen: string;
  /** The book moves to check, UCI. */
  moves: string[];
  /** Losses above this many centipawns are confirmed by a deeper search (the margin). */
  confirmAbove: number;
}

export interface MoveVerdict {
  uci: string;
  /** Centipawns for the side to move after searching this move alone (mates: see toCentipawns). */
  score: number;
  /** Centipawns the move loses against the best move (0 for the best). */
  loss: number;
  /** The line after the move that refutes it (or the expected continuation), UCI. */
  refutation: string[];
  depth: number;
  /**
   * The move the loss is measured against: the best of the search at the move's own depth
   * (after a confirming search, the position's best may be another, found deeper). Absent in
   * journals written before it was kept: the position's best then.
   */
  best?: string;
  /** Searched again deeper because its loss passed the margin (the verdict is the deeper one). */
  confirmed: boolean;
}

export interface PositionVerdict {
  index: number;
  fen: string;
  best: string;
  bestScore: number;
  /** The best move's line, UCI. */
  bestLine: string[];
  depth: number;
  nodes: number;
  moves: MoveVerdict[];
}

/**
 * A score in centipawns, with mates as ±10000 less the plies to mate, so that a loss against a
 * mate is large but finite (it fits the notes' 16-bit field) and a slower mate still ranks below
 * a faster one.
 */
export const MATE_CENTIPAWNS = 10000;
export function toCentipawns(score: number): number {
  if (!isMateScore(score)) return score;
  return score > 0 ? MATE_CENTIPAWNS - (MATE - score) : -(MATE_CENTIPAWNS - (MATE + score));
}

/** A loss as people read it: pawns, or "mate" where the move allows a mate the best move does not. */
export function lossText(loss: number): string {
  return loss >= MATE_CENTIPAWNS / 2 ? 'mate' : (loss / 100).toFixed(2);
}

/** The limits of a confirming search: 2 plies deeper, or 4 times the nodes. */
export function deeper(limits: AuditLimits): AuditLimits {
  return limits.depth !== undefined ? { depth: limits.depth + 2 } : { nodes: (limits.nodes ?? 0) * 4 };
}

/** Searches one position and its book moves; throws on a FEN or move the engine rejects. */
export function auditPosition(engine: Engine, task: AuditTask, limits: AuditLimits): PositionVerdict {
  const first = searchPosition(engine, task.fen, task.moves, limits);
  const suspects = first.moves.filter((m) => m.loss > task.confirmAbove).map((m) => m.uci);
  if (suspects.length === 0) return { index: task.index, ...first };
  const deep = searchPosition(engine, task.fen, suspects, deeper(limits));
  return {
    index: task.index,
    ...deep,
    nodes: first.nodes + deep.nodes,
    moves: first.moves.map((m) => {
      const d = deep.moves.find((x) => x.uci === m.uci);
      return d === undefined ? m : { ...d, confirmed: true };
    }),
  };
}

/** The best move of a position and the verdicts of `moves` against it, at `limits`. */
function searchPosition(engine: Engine, fen: string, moves: readonly string[], limits: AuditLimits): Omit<PositionVerdict, 'index'> {
  const go: GoLimits = { depth: limits.depth, nodes: limits.nodes };
  // An empty hash table for each position: the verdict does not depend on what came before.
  engine.newGame();
  engine.setPosition(fen);
  const pos = engine.pos;
  const uci = (m: number): string => makeUci(m, pos.chess960);
  const root = engine.go(go);
  let nodes = root.nodes;
  const searched: { uci: string; score: number; pv: string[]; depth: number }[] = [];
  const rootBest = root.bestMove === 0 ? '' : uci(root.bestMove);
  for (const text of moves) {
    const m = parseUci(pos, text);
    if (!m.ok) throw new Error(`${fen}: book move ${text}: ${m.error.message}`);
    if (text === rootBest) {
      searched.push({ uci: text, score: toCentipawns(root.score), pv: root.pv.slice(1).map(uci), depth: root.depth });
      continue;
    }
    // Each book move from an empty hash table too: what the searches before it left there
    // would make its verdict depend on the order the book lists its moves in (a .bin and a
    // .tbk of the same games list them differently) and on which other moves were checked.
    engine.newGame();
    engine.setPosition(fen);
    const r = engine.go({ ...go, searchmoves: [m.value] });
    nodes += r.nodes;
    searched.push({ uci: text, score: toCentipawns(r.score), pv: r.pv.slice(1).map(uci), depth: r.depth });
  }
  // A book move searched alone may score above the full search's best (the searches differ a
  // little): the best is then that move, so no loss is negative.
  let best = rootBest;
  let bestScore = toCentipawns(root.score);
  let bestLine = root.pv.map(uci);
  for (const s of searched) {
    if (s.score > bestScore) {
      best = s.uci;
      bestScore = s.score;
      bestLine = [s.uci, ...s.pv];
    }
  }
  return {
    fen,
    best,
    bestScore,
    bestLine,
    depth: root.depth,
    nodes,
    moves: searched.map((s) => ({ uci: s.uci, score: s.score, loss: bestScore - s.score, refutation: s.pv, depth: s.depth, best, confirmed: false })),
  };
}

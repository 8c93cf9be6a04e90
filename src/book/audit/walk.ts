/**
 * The positions a book audit looks at: a breadth-first walk from the start position (and any
 * other root, such as the [FEN] starts a `.tbk` keeps) through the book's moves, each position
 * once however many move orders reach it (Polyglot keys: transpositions meet). A position
 * enters with the book moves that pass the thresholds, and the walk goes on through those moves
 * only: a line played in fewer games than the threshold is not followed, as its later moves are
 * played in fewer games still. Breadth first, so positions come in move order (ply, then the
 * book's order of moves) and the first line found to a position is a shortest one.
 * Browser-safe: the book is a `probe` callback.
 */
import { legalMoves } from '../../core/movegen.js';
import type { Position } from '../../core/position.js';
import { keyToHex } from '../../core/zobrist.js';
import { makeFen } from '../../notation/fen.js';
import { makeUci } from '../../notation/uci.js';

/** A book move as the audit sees it. */
export interface AuditBookMove {
  move: number;
  /** Games behind the move (.tbk), or null where the book keeps weights only (.bin). */
  games: number | null;
  weight: number;
}

/** A position to audit: where it is, how it was reached, and the book moves to check. */
export interface AuditPosition {
  /** Walk order (0 first). */
  index: number;
  key: string;
  fen: string;
  /** Plies from its root. */
  ply: number;
  /** The root's FEN and the moves (UCI) from it that first reached the position. */
  root: string;
  line: string[];
  moves: { uci: string; games: number | null; weight: number }[];
}

export interface WalkOptions {
  /** Positions at this ply or deeper are not audited (nor walked into). */
  maxPly: number;
  /** Stop after this many positions (a guard for huge books; Infinity: all). */
  limit?: number;
}

/** The book moves `probe` gives that are legal in `pos`. */
export function legalBookMoves(pos: Position, probe: (pos: Position) => AuditBookMove[]): AuditBookMove[] {
  const legal = legalMoves(pos);
  return probe(pos).filter((m) => legal.includes(m.move));
}

/** `pos` as a position to audit, with its book moves; `line` (UCI) leads from `root` (a FEN) to it in `ply` plies. */
export function auditPosition(pos: Position, book: readonly AuditBookMove[], index: number, ply: number, root: string, line: string[]): AuditPosition {
  return {
    index,
    key: keyToHex(pos.keyHi, pos.keyLo),
    fen: makeFen(pos),
    ply,
    root,
    line,
    moves: book.map((m) => ({ uci: makeUci(m.move, pos.chess960), games: m.games, weight: m.weight })),
  };
}

/**
 * Every position reachable from `roots` through the book moves `probe` returns (already
 * filtered by the caller's thresholds), with those moves. `probe` sees the position as it is;
 * it must not keep or change it.
 */
export function walkBook(roots: readonly Position[], probe: (pos: Position) => AuditBookMove[], opts: WalkOptions): { positions: AuditPosition[]; seen: Set<string> } {
  const seen = new Set<string>();
  const positions: AuditPosition[] = [];
  const limit = opts.limit ?? Infinity;
  let frontier: { pos: Position; root: string; line: string[] }[] = [];
  for (const r of roots) {
    const key = keyToHex(r.keyHi, r.keyLo);
    if (seen.has(key)) continue;
    seen.add(key);
    frontier.push({ pos: r.clone(), root: makeFen(r), line: [] });
  }
  for (let ply = 0; ply < opts.maxPly && frontier.length > 0 && positions.length < limit; ply++) {
    const next: typeof frontier = [];
    for (const { pos, root, line } of frontier) {
      if (positions.length >= limit) break;
      const book = legalBookMoves(pos, probe);
      if (book.length === 0) continue;
      positions.push(auditPosition(pos, book, positions.length, ply, root, line));
      for (const m of book) {
        pos.play(m.move);
        const key = keyToHex(pos.keyHi, pos.keyLo);
        if (!seen.has(key)) {
          seen.add(key);
          next.push({ pos: pos.clone(), root, line: [...line, makeUci(m.move, pos.chess960)] });
        }
        pos.undo();
      }
    }
    frontier = next;
  }
  return { positions, seen };
}

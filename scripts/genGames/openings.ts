/**
 * Opening names as Lichess gives them: the ECO code and name of the last position of a game
 * that has a name in lichess-org/chess-openings (CC0; ../shared/data/openings/*.tsv), matched
 * by position, so transpositions get the same name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Position } from '../../src/core/position.js';
import { parsePgn } from '../../src/pgn/parser.js';

export interface Openings {
  /** `[ECO "…"]` and `[Opening "…"]` header lines of opening i, ready to write. */
  headers: Uint8Array[];
  /** The opening named at a position (Polyglot key halves), or -1. */
  find(keyLo: number, keyHi: number): number;
  /** The deepest ply of a named position. */
  maxPly: number;
}

/** The names of `dir`'s a.tsv … e.tsv (columns eco, name, pgn). */
export function loadOpenings(dir: string): Openings {
  const rows: { eco: string; name: string; pgn: string }[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.tsv')).sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n').slice(1)) {
      const [eco, name, pgn] = line.split('\t');
      if (eco && name && pgn) rows.push({ eco, name, pgn });
    }
  }
  const byKey = new Map<number, number>();
  const encoder = new TextEncoder();
  const headers = rows.map((r) => encoder.encode(`[ECO "${r.eco}"]\n[Opening "${r.name}"]\n`));
  let maxPly = 0;
  let pos: Position | undefined;
  let plies = 0;
  // Each row's moves as one game; the position after its last move gets its name (a later
  // row naming the same position wins, as in the list's own order).
  const text = rows.map((r) => `${r.pgn} *\n\n`).join('');
  let row = 0;
  parsePgn(text, {
    endTags: (p) => void ((pos = p), (plies = 0)),
    move: () => void plies++,
    endGame: () => {
      byKey.set(keyOf(pos!.keyLo, pos!.keyHi), row++);
      maxPly = Math.max(maxPly, plies);
    },
    error: (e) => {
      throw new Error(`${dir}: opening ${rows[row]?.name}: ${e.message}`);
    },
  });
  return { headers, maxPly, find: (lo, hi) => byKey.get(keyOf(lo, hi)) ?? -1 };
}

/** 53 bits of the 64-bit key as one exact number: a false match over the 8 M positions of the master games has odds of about 1 in 300,000. */
const keyOf = (lo: number, hi: number): number => (hi >>> 0) * 0x200000 + (lo >>> 11);

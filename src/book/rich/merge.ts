/**
 * Merging rich books (Terra's `mergebooks`): statistics of a move present in both are added
 * (fixed and dynamic W/D/L, ratings, make-book's counters saturating at 65535), the first
 * book's user value wins when both have one, and moves below `minGames` fixed games are left
 * out unless they carry a user value or dynamic statistics (hand-set and learned knowledge is
 * not thrown away by a count filter). The result is flagged MERGED: its Polyglot export is
 * approximate, since make-book's halving depends on the order games were seen.
 */
import { EF_POSTBOOK, FLAG_EXACT, FLAG_MERGED, USER_NONE } from './format.js';
import { loadTable } from './load.js';
import type { RichBook } from './reader.js';
import type { RichTable } from './table.js';
import type { BookInfo } from './writer.js';
import { bookTime } from './clock.js';

export interface MergeResult {
  table: RichTable;
  info: BookInfo;
  /** Rows to write. */
  keep: (r: number) => boolean;
  shared: number;
  dropped: number;
}

export function mergeRich(books: readonly RichBook[], minGames = 0): MergeResult {
  const first = books[0]!;
  const extra = books.slice(1).reduce((n, b) => n + b.size, 0);
  const { table: t, info } = loadTable(first, extra);
  let shared = 0;
  let games = info.games;
  let learned = info.learnedGames;
  for (const book of books.slice(1)) {
    const { table: s, info: i } = loadTable(book);
    games += i.games;
    learned += i.learnedGames;
    // In B's first-seen order, so B's new moves follow A's in make-book's sense too.
    const order = Array.from({ length: s.size }, (_, r) => r).sort((a, b) => s.seq[a]! - s.seq[b]!);
    for (const q of order) {
      const before = t.size;
      const r = t.findOrCreate(s.keyLo[q]!, s.keyHi[q]!, s.move[q]!, s.flags[q]! & 1);
      if (t.size === before) shared++;
      else t.flags[r] = s.flags[q]!;
      t.wins[r]! += s.wins[q]!;
      t.draws[r]! += s.draws[q]!;
      t.losses[r]! += s.losses[q]!;
      t.rated[r]! += s.rated[q]!;
      t.eloSum[r]! += s.eloSum[q]!;
      t.dynWins[r]! += s.dynWins[q]!;
      t.dynDraws[r]! += s.dynDraws[q]!;
      t.dynLosses[r]! += s.dynLosses[q]!;
      t.pgN[r] = Math.min(0xffff, t.pgN[r]! + s.pgN[q]!);
      t.pgSum[r] = Math.min(0xffff, t.pgSum[r]! + s.pgSum[q]!);
      if (t.user[r] === USER_NONE) t.user[r] = s.user[q]!;
      if ((s.flags[q]! & EF_POSTBOOK) === 0) t.flags[r]! &= ~EF_POSTBOOK;
      const n = t.evalN[r]! + s.evalN[q]!;
      if (n > 0) t.evalCp[r] = Math.round((t.evalCp[r]! * t.evalN[r]! + s.evalCp[q]! * s.evalN[q]!) / n);
      t.evalN[r] = Math.min(0xffff, n);
      if (t.learn[r] === 0) t.learn[r] = s.learn[q]!;
    }
  }
  let dropped = 0;
  const keep = (r: number): boolean => {
    const fixed = t.wins[r]! + t.draws[r]! + t.losses[r]!;
    const dyn = t.dynWins[r]! + t.dynDraws[r]! + t.dynLosses[r]!;
    if (t.user[r] !== USER_NONE || dyn > 0) return true;
    // Rows without known games (imported from a .bin, or only unfinished games) cannot be judged by count.
    if (fixed === 0) return t.pgSum[r]! > 0 || t.pgN[r]! > 0 || t.learn[r] !== 0;
    if (fixed < minGames) {
      dropped++;
      return false;
    }
    return true;
  };
  return {
    table: t,
    keep,
    shared,
    get dropped() {
      return dropped;
    },
    info: {
      flags: (info.flags & ~FLAG_EXACT) | FLAG_MERGED,
      games,
      maxPly: info.maxPly,
      minGames: Math.max(info.minGames, minGames),
      learnedGames: learned,
      changes: info.changes + 1,
      created: bookTime(),
      meta: { mergedFrom: books.map((b) => b.name), minGames },
    },
  };
}

/**
 * A rich book as a Polyglot `.bin`, with make-book's options (polyglot.md §2.4-2.5).
 *
 * Three cases, as the header says (format.ts):
 *
 *   - exact: the book holds make-book's own counters (n, sum, halved as it halves) and the
 *     order it creates entries in, because its games were counted in one pass in PGN order
 *     (`book make`, then any `book add` with the same max-ply). The filters and the stable sort
 *     then give make-book's file byte for byte.
 *   - imported: the book came from a `.bin`; its weights and learn fields are written back in
 *     their original order (a round trip gives the same file). Game counts are unknown, so
 *     --min-games and --min-score cannot be applied.
 *   - approximate: merged books, or counts taken in several passes: weights are recomputed
 *     from W/D/L (2·wins + draws), halving a position while one of its moves has 16,384 games
 *     or more, which equals make-book whenever no halving order matters.
 */
import { COUNT_MAX, sortEntries, type MakeOptions } from '../polyglot/make.js';
import { ENTRY_SIZE as BIN_ENTRY, encodeMove, writeEntry } from '../polyglot/format.js';
import { EF_BLACK, EF_POSTBOOK, USER_NONE, exportKind } from './format.js';
import type { RichBook } from './reader.js';
import { loadTable } from './load.js';

/** make-book's options (minGame defaults to 3, as in make-book). */
export interface ExportOptions extends MakeOptions {
  /** Moves with a user value get it as their weight (0: left out). Not make-book's output. */
  userValues?: boolean;
}

export interface ExportResult {
  bytes: Uint8Array;
  kept: number;
  kind: 'exact' | 'imported' | 'approximate';
  /** Why the output may differ from make-book's, when it may. */
  notes: string[];
}

export function exportPolyglot(book: RichBook, opts: ExportOptions = {}): ExportResult {
  const { table: t } = loadTable(book);
  const kind = exportKind(book.header);
  const notes: string[] = [];
  const minGame = opts.minGame ?? 3;
  const minScore = (opts.minScore ?? 0) / 100;
  const drop = opts.colour === 'white' ? 1 : opts.colour === 'black' ? 0 : -1;
  const size = t.size;
  const n = new Float64Array(size);
  const sum = new Float64Array(size);
  for (let r = 0; r < size; r++) {
    if (kind === 'approximate') {
      n[r] = t.wins[r]! + t.draws[r]! + t.losses[r]!;
      sum[r] = 2 * t.wins[r]! + t.draws[r]!;
    } else {
      n[r] = t.pgN[r]!;
      sum[r] = t.pgSum[r]!;
    }
  }
  if (kind === 'approximate') {
    notes.push('the book was merged or counted in several passes: weights are recomputed from W/D/L (2·wins + draws), which can differ from make-book where it halved a position');
    for (let r = 0; r < size; r++) {
      while (n[r]! >= COUNT_MAX) {
        t.rowsOf(t.keyLo[r]!, t.keyHi[r]!, (q) => {
          n[q] = Math.ceil(n[q]! / 2);
          sum[q] = Math.ceil(sum[q]! / 2);
        });
      }
    }
  }
  if (kind === 'imported' && ((opts.minGame !== undefined && opts.minGame > 1) || minScore > 0)) {
    notes.push('the book was imported from a .bin without game counts: --min-games and --min-score are not applied');
  }
  if (kind === 'exact' && book.header.minGames > Math.max(minGame, 1)) {
    notes.push(`the book was built with --min-games ${book.header.minGames}: moves seen fewer times are not in it, so a lower --min-games cannot be matched`);
  }
  if (opts.userValues) notes.push('user values replace weights (--user-values): not make-book output');
  const bySeq = new Int32Array(size);
  {
    const zero = new Uint32Array(size);
    const seq = new Uint32Array(size);
    for (let r = 0; r < size; r++) seq[r] = t.seq[r]!;
    const order = sortEntries(size, zero, seq, new Uint16Array(size));
    bySeq.set(order);
  }
  const hi = new Uint32Array(size);
  const lo = new Uint32Array(size);
  const mv = new Uint16Array(size);
  const wt = new Uint16Array(size);
  const ln = new Uint32Array(size);
  let k = 0;
  for (let j = 0; j < size; j++) {
    const r = bySeq[j]!;
    if ((t.flags[r]! & EF_POSTBOOK) !== 0 && t.pgN[r] === 0) continue;
    if (drop >= 0 && (t.flags[r]! & EF_BLACK ? 1 : 0) === drop) continue;
    let w: number;
    if (kind === 'imported') {
      w = sum[r]!;
    } else {
      if (n[r]! < minGame || sum[r] === 0 || sum[r]! / n[r]! / 2 < minScore) continue;
      w = opts.uniform ? 1 : Math.min(sum[r]!, 0xffff);
    }
    if (opts.userValues && t.user[r] !== USER_NONE) {
      w = t.user[r]!;
      if (w === 0) continue;
    }
    hi[k] = t.keyHi[r]!;
    lo[k] = t.keyLo[r]!;
    mv[k] = encodeMove(t.move[r]!);
    wt[k] = w;
    ln[k] = t.learn[r]!;
    k++;
  }
  // An imported book keeps its file order (sorted by key already); otherwise make-book's
  // stable sort: key ascending, weight descending, first seen first.
  const order = sortEntries(k, hi, lo, kind === 'imported' && !opts.userValues ? new Uint16Array(k) : wt);
  const bytes = new Uint8Array(k * BIN_ENTRY);
  for (let j = 0; j < k; j++) {
    const i = order[j]!;
    writeEntry(bytes, j, hi[i]!, lo[i]!, mv[i]!, wt[i]!, ln[i]!);
  }
  return { bytes, kept: k, kind, notes };
}

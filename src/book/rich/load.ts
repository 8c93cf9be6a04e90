/**
 * A book back into a RichTable, for changing it (add, set, annotate, learn, merge): every
 * entry becomes a row, decoded straight from the bytes in 1 MiB chunks, with its first-seen
 * number kept so that later games continue make-book's creation order.
 */
import {
  E_DRAWS, E_DYN_DRAWS, E_DYN_LOSSES, E_DYN_WINS, E_ELO_SUM, E_EVAL, E_EVAL_N, E_FLAGS, E_KEY_HI, E_KEY_LO, E_LEARN, E_LOSSES,
  E_MOVE, E_PG_N, E_PG_SUM, E_RATED, E_SEQ, E_USER, E_WINS, ENTRY_SIZE, getU16, getU32,
} from './format.js';
import type { RichBook } from './reader.js';
import { RichTable } from './table.js';
import type { BookInfo } from './writer.js';

/** The book's rows and header, ready to change and write back. */
export function loadTable(book: RichBook, extra = 0): { table: RichTable; info: BookInfo } {
  const h = book.header;
  const t = new RichTable(h.entries + extra);
  const per = (1 << 20) / ENTRY_SIZE;
  for (let first = 0; first < h.entries; first += per) {
    const count = Math.min(per, h.entries - first);
    const b = book.source.read(h.entriesOffset + first * ENTRY_SIZE, count * ENTRY_SIZE);
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    for (let j = 0; j < count; j++) {
      const o = j * ENTRY_SIZE;
      const r = t.append(getU32(b, o + E_KEY_LO) | 0, getU32(b, o + E_KEY_HI) | 0, getU16(b, o + E_MOVE), b[o + E_FLAGS]!);
      t.index(r);
      t.user[r] = b[o + E_USER]!;
      t.wins[r] = getU32(b, o + E_WINS);
      t.draws[r] = getU32(b, o + E_DRAWS);
      t.losses[r] = getU32(b, o + E_LOSSES);
      t.rated[r] = getU32(b, o + E_RATED);
      t.dynWins[r] = getU32(b, o + E_DYN_WINS);
      t.dynDraws[r] = getU32(b, o + E_DYN_DRAWS);
      t.dynLosses[r] = getU32(b, o + E_DYN_LOSSES);
      t.eloSum[r] = view.getFloat64(o + E_ELO_SUM);
      t.pgN[r] = getU16(b, o + E_PG_N);
      t.pgSum[r] = getU16(b, o + E_PG_SUM);
      t.evalCp[r] = getU16(b, o + E_EVAL);
      t.evalN[r] = getU16(b, o + E_EVAL_N);
      t.seq[r] = getU32(b, o + E_SEQ);
      t.learn[r] = getU32(b, o + E_LEARN);
    }
  }
  t.nextSeq = h.nextSeq;
  return {
    table: t,
    info: {
      flags: h.flags,
      games: h.games,
      maxPly: h.maxPly,
      minGames: h.minGames,
      learnedGames: h.learnedGames,
      changes: h.changes,
      created: h.created,
      meta: h.meta,
    },
  };
}

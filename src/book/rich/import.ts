/**
 * A Polyglot `.bin` as a rich book. A `.bin` entry is (key, move, weight, learn): no games, no
 * results, not even the side to move. What can be kept is kept: the weight (as make-book's sum,
 * so probes and export show it), the learn field, and the file order (export writes the same
 * file back).
 *
 * The core move and the side to move need the position, which a key does not give. The book is
 * therefore walked from the start position through its own moves (both sides), which resolves
 * every entry on a line from the start; the rest (positions reachable only from outside the
 * book) keep a position-free reading of the Polyglot move: promotions from the promotion field,
 * e1h1/e1a1/e8h8/e8a8 as castling, the side to move guessed from the from-square's rank half.
 * Probing by position matches moves by their Polyglot form, so such guesses never give a wrong
 * move, only a possibly wrong colour filter on export (reported as `unresolved`).
 */
import { CASTLING, KIND_MASK, PROMOTION } from '../../core/move.js';
import type { Position } from '../../core/position.js';
import { unwrap } from '../../core/result.js';
import { STARTING_FEN, positionFromFen } from '../../notation/fen.js';
import { generateLegal } from '../../core/movegen.js';
import { MAX_MOVES } from '../../core/types.js';
import { encodeMove, pgFrom, pgPromotion, pgTo } from '../polyglot/format.js';
import type { PolyglotReader } from '../polyglot/reader.js';
import { FLAG_IMPORTED, EF_BLACK } from './format.js';
import { RichTable } from './table.js';
import type { BookInfo } from './writer.js';
import { bookTime } from './clock.js';

export interface ImportResult {
  table: RichTable;
  info: BookInfo;
  entries: number;
  /** Entries reached from the start position (move and colour known). */
  resolved: number;
  /** Entries whose move is not legal in any position reached (kept with a position-free reading). */
  unresolved: number;
}

/** Walks at most this many positions (a guard against pathological books). */
const WALK_LIMIT = 4_000_000;

export function importPolyglot(bin: PolyglotReader, name: string): ImportResult {
  const size = bin.size;
  const move = new Uint16Array(size);
  const black = new Int8Array(size).fill(-1);
  // Walk the book's lines from the start, resolving every entry met.
  const seen = new Set<string>();
  const stack: Position[] = [unwrap(positionFromFen(STARTING_FEN))];
  const buf = new Uint16Array(MAX_MOVES);
  let walked = 0;
  while (stack.length > 0 && walked < WALK_LIMIT) {
    const pos = stack.pop()!;
    const id = `${pos.keyHi}:${pos.keyLo}`;
    if (seen.has(id)) continue;
    seen.add(id);
    walked++;
    const first = bin.lowerBound(pos.keyHi, pos.keyLo);
    const entries = bin.entriesOf(pos.keyHi, pos.keyLo);
    if (entries.length === 0) continue;
    const n = generateLegal(pos, buf, 0);
    for (let j = 0; j < entries.length; j++) {
      const pm = entries[j]!.move;
      for (let i = 0; i < n; i++) {
        const m = buf[i]!;
        if (encodeMove(m) !== pm) continue;
        move[first + j] = m;
        black[first + j] = pos.turn;
        const next = pos.clone();
        next.play(m);
        stack.push(next);
        break;
      }
    }
  }
  const table = new RichTable(size);
  let resolved = 0;
  for (let i = 0; i < size; i++) {
    const e = bin.entry(i);
    let m = move[i]!;
    let b = black[i]!;
    if (b >= 0) resolved++;
    else {
      m = positionFree(e.move);
      b = (pgFrom(e.move) >>> 3) >= 4 ? 1 : 0;
    }
    const r = table.append(e.keyLo | 0, e.keyHi | 0, m, b ? EF_BLACK : 0);
    table.index(r);
    table.pgSum[r] = e.weight;
    table.learn[r] = e.learn;
    table.seq[r] = i;
  }
  table.nextSeq = size;
  return {
    table,
    entries: size,
    resolved,
    unresolved: size - resolved,
    info: {
      flags: FLAG_IMPORTED,
      games: 0,
      maxPly: 0,
      minGames: 0,
      learnedGames: 0,
      changes: 1,
      created: bookTime(),
      meta: { importedFrom: name, entries: size, resolved, unresolved: size - resolved },
    },
  };
}

/** A core move read from a Polyglot move without its position (see the module comment). */
export function positionFree(pm: number): number {
  const from = pgFrom(pm);
  const to = pgTo(pm);
  const promo = pgPromotion(pm);
  const base = (from << 6) | to;
  if (promo > 0) return base | PROMOTION | ((promo - 1) << 12);
  if ((from === 4 && (to === 7 || to === 0)) || (from === 60 && (to === 63 || to === 56))) return (base & ~KIND_MASK) | CASTLING;
  return base;
}

/**
 * Reading a version 2 `.tbk` book (container.ts): probes straight on the file through
 * positional reads, never loading it whole. Browser-safe: the bytes come from a `ByteSource`
 * (an ArrayBuffer, or a file in Node).
 *
 * A position is found in the stored positions (a binary search of the in-memory block index,
 * then one block), or else through the single-position index, which names the one game that
 * reached it: the game is replayed until the key appears (and if it never does, the position
 * is not in the book). Notes (learning, user values, comments, audit verdicts) and make-book's
 * halved counters are small and read into memory when the book is opened.
 *
 *   const book = unwrap(TbkBook.open(source, 'book.tbk'));
 *   book.probe(pos);                  // RichEntry[] of the legal book moves
 *   book.probe(pos, { speeds: new Set([2]) });   // counts of blitz games only (a split book)
 */
import { generateLegal } from '../../core/movegen.js';
import { Position } from '../../core/position.js';
import { err, ok, type Result } from '../../core/result.js';
import { MAX_MOVES } from '../../core/types.js';
import { encodeMove } from '../polyglot/format.js';
import { BookError } from '../polyglot/select.js';
import { FLAG_PARTIAL, SECTION, SUPERBLOCK, readSuperblock, type BookFields, type SectionRef, type Slot } from './container.js';
import { crc32, type Crc32 } from './format.js';
import { GameReader } from './gameReader.js';
import { IllegalMoveCode, RESULT_BLACK, RESULT_DRAW, RESULT_UNFINISHED, RESULT_WHITE, damagedGame, type GameRecord } from './games.js';
import { SEEK_MOVE, seekKey } from './gameSeek.js';
import { Notes, type Note } from './notes.js';
import { BlockIndex, BlockReader, type CellStats, type MoveStats, type StoredPosition } from './positions.js';
import { isPinned, memorySource, type ByteSource, type PinnedSource, type RichEntry } from './reader.js';
import { Retrieval } from './retrieval.js';
import { cellOf, cellPasses, isOpenFilter, monthOf, ratingBand, type SplitFilter, type SplitKinds } from './splits.js';
import { USER_UNSET } from './types.js';

/** make-book's counters of a hot position (halving.ts), by move. */
interface Halved {
  keyLo: number;
  moves: Uint16Array;
  n: Uint16Array;
  sum: Uint16Array;
}

/** A move of a book position with everything the book knows about it. */
export interface BookEntry extends RichEntry {
  unfinished: number;
  nag: number;
  comment: string;
  forbidden: boolean;
  audit: Note['audit'];
  /** The game of a move seen in one game only (a single position), else -1. */
  game: number;
}

const BUF = new Uint16Array(MAX_MOVES);

export class TbkBook {
  readonly fields: BookFields;
  readonly meta: Record<string, unknown>;
  readonly notes: Notes;
  readonly splits: SplitKinds;
  private readonly sections = new Map<number, SectionRef>();
  private readonly blocks: BlockIndex;
  /** make-book's counters of hot positions, by key high word (then keyLo within). */
  private readonly halved = new Map<number, Halved[]>();
  private readonly singles: Retrieval | undefined;
  readonly games: GameReader | undefined;
  readonly fens: [number, string][];
  private readonly replayPos = new Position();
  /** Where the stored positions start in the file. */
  private readonly positionsAt: number;
  /** 1 for each block whose CRC-32 has been checked (the first time a probe read it). */
  private readonly checked: Uint8Array;
  /** The source, when it shows bytes in place (a file's page cache, bytes in memory). */
  private readonly pinned: PinnedSource | undefined;
  private readonly blockReader: BlockReader;

  private constructor(
    readonly source: ByteSource,
    readonly name: string,
    readonly slot: Slot,
    readonly which: 'A' | 'B',
    private readonly crc: Crc32,
  ) {
    this.fields = slot.fields;
    for (const s of slot.sections) this.sections.set(s.id, s);
    this.splits = { rating: (slot.fields.splits & 1) !== 0, speed: (slot.fields.splits & 2) !== 0, month: (slot.fields.splits & 4) !== 0 };
    const small = (id: number): Uint8Array => {
      const s = this.sections.get(id);
      if (s === undefined) return new Uint8Array(0);
      const b = source.read(s.offset, s.length).slice();
      if (b.length !== s.length) throw new RangeError(`section ${id} is cut short`);
      if ((crc(b, 0) >>> 0) !== s.crc) throw new RangeError(`section ${id} fails its checksum`);
      return b;
    };
    const text = new TextDecoder('utf-8', { fatal: true });
    const metaBytes = small(SECTION.META);
    this.meta = metaBytes.length === 0 ? {} : (JSON.parse(text.decode(metaBytes)) as Record<string, unknown>);
    const fensBytes = small(SECTION.FENS);
    this.fens = fensBytes.length === 0 ? [] : (JSON.parse(text.decode(fensBytes)) as [number, string][]);
    this.blocks = new BlockIndex(small(SECTION.BLOCKS));
    const problem = this.blocks.validate(this.sections.get(SECTION.POSITIONS)?.length ?? 0);
    if (problem !== undefined) throw new RangeError(problem);
    this.positionsAt = this.sections.get(SECTION.POSITIONS)?.offset ?? 0;
    this.checked = new Uint8Array(this.blocks.count);
    this.pinned = isPinned(source) ? source : undefined;
    this.blockReader = new BlockReader(new Uint8Array(0), 0, 0, name);
    decodeHalved(small(SECTION.HALVED), this.halved);
    this.notes = Notes.decode(small(SECTION.NOTES), name);
    this.games = this.gameReader(0);
    const singles = this.sections.get(SECTION.SINGLES);
    if (singles !== undefined) {
      const r = Retrieval.open({ size: singles.length, read: (o, n) => source.read(singles.offset + o, n) });
      if (!r.ok) throw new RangeError(`section singles is damaged (${r.error.message})`);
      this.singles = r.value;
      if (this.games === undefined) throw new RangeError('single positions without games');
    }
  }

  /** Opens a book; a damaged or foreign file is an error naming the book and what is wrong. */
  static open(data: ByteSource | Uint8Array | ArrayBuffer, name = 'book', crc: Crc32 = (b, c) => crc32(b, c)): Result<TbkBook, BookError> {
    const source = data instanceof Uint8Array || data instanceof ArrayBuffer ? memorySource(data) : data;
    const sb = readSuperblock(source.read(0, SUPERBLOCK), source.size, crc);
    if (typeof sb === 'string') return err(new BookError('ERR_TBK_HEADER', `${name}: ${sb}`));
    try {
      return ok(new TbkBook(source, name, sb.slot, sb.which, crc));
    } catch (e) {
      return err(new BookError('ERR_TBK_DAMAGED', `${name}: ${(e as Error).message}`));
    }
  }

  /** A reader of the book's games (window: bytes read at once, for sequential reading; 0 for random access). */
  gameReader(window: number): GameReader | undefined {
    const games = this.sections.get(SECTION.GAMES);
    const moves = this.sections.get(SECTION.MOVES);
    if (games === undefined || moves === undefined) return undefined;
    const source = this.source;
    return new GameReader(
      { readAt: (o, n) => source.read(games.offset + o, n), size: games.length },
      { readAt: (o, n) => source.read(moves.offset + o, n), size: moves.length },
      this.fens,
      window,
      this.name,
    );
  }

  /** make-book's counters of a position where it halved them (hot), by move; undefined elsewhere. */
  halvedCounters(keyHi: number, keyLo: number): { moves: Uint16Array; n: Uint16Array; sum: Uint16Array } | undefined {
    return this.halvedOf(keyHi >>> 0, keyLo >>> 0);
  }

  private halvedOf(hi: number, lo: number): Halved | undefined {
    const l = this.halved.get(hi);
    if (l === undefined) return undefined;
    for (const h of l) if (h.keyLo === lo) return h;
    return undefined;
  }

  /** The game the single-position index names for a key (-1 without an index); unverified. */
  singleGame(keyHi: number, keyLo: number): number {
    return this.singles === undefined ? -1 : this.singles.get(keyHi, keyLo);
  }

  get partial(): boolean {
    return (this.fields.flags & FLAG_PARTIAL) !== 0;
  }

  section(id: number): SectionRef | undefined {
    return this.sections.get(id);
  }

  /** Number of stored positions' blocks, and games. */
  get blockCount(): number {
    return this.blocks.count;
  }

  /** Checks the CRC-32 of every section against the slot. */
  verify(crc: Crc32 = (b, c) => crc32(b, c)): Result<void, BookError> {
    for (const s of this.slot.sections) {
      let c = 0;
      const chunk = 1 << 22;
      for (let o = 0; o < s.length; o += chunk) c = crc(this.source.read(s.offset + o, Math.min(chunk, s.length - o)), c);
      if ((c >>> 0) !== s.crc) return err(new BookError('ERR_TBK_CHECKSUM', `${this.name}: section ${sectionName(s.id)} fails its checksum: the file is damaged`));
    }
    return ok(undefined);
  }

  /** The stored position of a key, if it is one (`cells: false`: a split book's cells left out). */
  stored(keyHi: number, keyLo: number, cells = true): StoredPosition | undefined {
    const hi = keyHi >>> 0;
    const lo = keyLo >>> 0;
    const b = this.blocks.find(hi, lo);
    if (b < 0) return undefined;
    const r = this.blockReader;
    const at = this.locateBlock(b);
    r.reset(this.blockData, at, at + this.blocks.length[b]!, this.blocks.firstHi[b]!, this.blocks.firstLo[b]!);
    try {
      return r.find(hi, lo, cells);
    } catch (e) {
      throw e instanceof BookError ? e : new BookError('ERR_TBK_DAMAGED', (e as Error).message);
    }
  }

  /** The array the last `locateBlock` left its block in. */
  private blockData: Uint8Array = new Uint8Array(0);

  /**
   * Makes block `b` readable at `blockData[returned index]` (valid until the next read of the
   * source). Its CRC-32 is checked the first time it is read: the file does not change under an
   * open book (every rewrite is a new file renamed into place, notes are appended), so a block
   * that passed once passes again, and a probe that comes back to it does not pay the check.
   */
  private locateBlock(b: number): number {
    const offset = this.positionsAt + this.blocks.offset[b]!;
    const length = this.blocks.length[b]!;
    let at = 0;
    if (this.pinned !== undefined) {
      at = this.pinned.locate(offset, length);
      this.blockData = this.pinned.data;
    } else this.blockData = this.source.read(offset, length);
    if (this.blockData.length < at + length) throw new BookError('ERR_TBK_READ', `${this.name}: position block ${b} is cut short: the file is shorter than when it was opened`);
    if (this.checked[b] === 0) {
      if ((this.crc(this.blockData.subarray(at, at + length), 0) >>> 0) !== this.blocks.crc[b]) throw new BookError('ERR_TBK_CHECKSUM', `${this.name}: position block ${b} fails its checksum: the file is damaged`);
      this.checked[b] = 1;
    }
    return at;
  }

  /** Every stored position of block `b`, decoded (the block's CRC checked). */
  blockPositions(b: number): StoredPosition[] {
    const at = this.locateBlock(b);
    const r = new BlockReader(this.blockData, this.blocks.firstHi[b]!, this.blocks.firstLo[b]!, this.name, at, at + this.blocks.length[b]!);
    const out: StoredPosition[] = [];
    try {
      while (!r.done) out.push(r.next());
    } catch (e) {
      throw new BookError('ERR_TBK_DAMAGED', (e as Error).message);
    }
    return out;
  }

  /**
   * The single position of a key: the game that reached it, the ply and the move played, or
   * undefined. The index may name a game for a key that is not in the book; replaying it tells.
   * With the position itself (`target`), a replay that can no longer reach it stops early.
   */
  single(keyHi: number, keyLo: number, target?: Position): { game: number; ply: number; move: number; black: boolean; record: GameRecord } | undefined {
    if (this.singles === undefined || this.games === undefined) return undefined;
    const g = this.singles.get(keyHi, keyLo);
    if (g >= this.games.count) return undefined;
    const rec = this.games.record(g);
    const bytes = this.games.codesOf(rec);
    const pos = this.replayPos;
    this.games.setStart(g, pos);
    let ply: number;
    try {
      ply = seekKey(pos, bytes, 0, rec.codes, keyHi, keyLo, target);
    } catch (e) {
      throw e instanceof IllegalMoveCode ? damagedGame(this.name, g, e) : e;
    }
    return ply < 0 ? undefined : { game: g, ply, move: SEEK_MOVE[0]!, black: pos.turn === 1, record: rec };
  }

  /** Every move the book holds for a key (stored, single, notes), legality unchecked. */
  movesOf(keyHi: number, keyLo: number, filter: SplitFilter = {}, target?: Position): BookEntry[] {
    const hi = keyHi >>> 0;
    const lo = keyLo >>> 0;
    const out: BookEntry[] = [];
    const stored = this.stored(hi, lo, !isOpenFilter(filter));
    const halved = this.halvedOf(hi, lo);
    if (stored !== undefined) {
      stored.moves.forEach((m, rank) => {
        const s = filtered(m, filter);
        if (s === undefined) return;
        let pgN = s.wins + s.draws + s.losses + s.unfinished;
        let pgSum = 2 * s.wins + s.draws + s.unfinished;
        if (halved !== undefined && isOpenFilter(filter)) {
          const j = halved.moves.indexOf(m.move);
          if (j >= 0) {
            pgN = halved.n[j]!;
            pgSum = halved.sum[j]!;
          }
        }
        out.push(entry(hi, lo, stored.black, m.move, s, Math.min(pgN, 0xffff), Math.min(pgSum, 0xffff), rank, -1, m.weight, m.learn));
      });
    } else {
      const s = this.single(hi, lo, target);
      if (s !== undefined) {
        const cell = this.cellOfGame(s.record);
        const stats = gameStats(s.record, s.black, cell);
        if (cellPasses(filter, cell)) out.push(entry(hi, lo, s.black, s.move, stats, 1, 2 * stats.wins + stats.draws + stats.unfinished, 0, s.game));
      }
    }
    for (const n of this.notes.of(hi, lo)) {
      let e = out.find((x) => x.move === n.move);
      if (e === undefined) {
        e = entry(hi, lo, n.black, n.move, ZERO, 0, 0, out.length, -1);
        out.push(e);
      }
      applyNote(e, n);
    }
    return out;
  }

  /** The moves of the book that are legal in `pos`, with `move` as generated there. */
  probe(pos: Position, filter: SplitFilter = {}): BookEntry[] {
    const stored = this.movesOf(pos.keyHi, pos.keyLo, filter, pos);
    if (stored.length === 0) return stored;
    const n = generateLegal(pos, BUF, 0);
    const out: BookEntry[] = [];
    for (const e of stored) {
      const pm = encodeMove(e.move);
      for (let i = 0; i < n; i++) {
        const m = BUF[i]!;
        if (m === e.move || encodeMove(m) === pm) {
          out.push(m === e.move ? e : { ...e, move: m });
          break;
        }
      }
    }
    return out;
  }

  /** The split cell of a game, as the book's splits see it. */
  cellOfGame(r: GameRecord): number {
    return cellOf(this.splits, ratingBand(r.whiteElo, r.blackElo), r.speed, r.month);
  }
}

const ZERO: CellStats = { cell: 0, wins: 0, draws: 0, losses: 0, unfinished: 0, rated: 0, ratingSum: 0 };

/** The statistics of one game's move, from the mover's side. */
function gameStats(r: GameRecord, black: boolean, cell: number): CellStats {
  const won = r.result === (black ? RESULT_BLACK : RESULT_WHITE);
  const lost = r.result === (black ? RESULT_WHITE : RESULT_BLACK);
  const elo = black ? r.blackElo : r.whiteElo;
  return {
    cell,
    wins: won ? 1 : 0,
    draws: r.result === RESULT_DRAW ? 1 : 0,
    losses: lost ? 1 : 0,
    unfinished: r.result === RESULT_UNFINISHED ? 1 : 0,
    rated: elo > 0 ? 1 : 0,
    ratingSum: elo,
  };
}

/** A move's statistics under a filter: totals when the filter is open, else the sum of the cells that pass. */
function filtered(m: MoveStats, filter: SplitFilter): CellStats | undefined {
  if (isOpenFilter(filter)) return m;
  if (m.cells === undefined) return cellPasses(filter, 0) ? m : undefined;
  const s = { ...ZERO };
  for (const c of m.cells) {
    if (!cellPasses(filter, c.cell)) continue;
    s.wins += c.wins;
    s.draws += c.draws;
    s.losses += c.losses;
    s.unfinished += c.unfinished;
    s.rated += c.rated;
    s.ratingSum += c.ratingSum;
  }
  return s.wins + s.draws + s.losses + s.unfinished > 0 ? s : undefined;
}

function entry(keyHi: number, keyLo: number, black: boolean, move: number, s: CellStats, pgN: number, pgSum: number, rank: number, game: number, weight?: number, learn?: number): BookEntry {
  return {
    index: -1,
    keyHi,
    keyLo,
    black,
    move,
    wins: s.wins,
    draws: s.draws,
    losses: s.losses,
    unfinished: s.unfinished,
    ratedGames: s.rated,
    eloSum: s.ratingSum,
    avgElo: s.rated > 0 ? Math.round(s.ratingSum / s.rated) : 0,
    dynWins: 0,
    dynDraws: 0,
    dynLosses: 0,
    userValue: USER_UNSET,
    postBook: false,
    evalCp: 0,
    evalCount: 0,
    pgN,
    pgSum,
    weight: weight ?? pgSum,
    firstSeen: rank,
    learn: learn ?? 0,
    nag: 0,
    comment: '',
    forbidden: false,
    audit: undefined,
    game,
  };
}

function applyNote(e: BookEntry, n: Note): void {
  const w = e as { -readonly [K in keyof BookEntry]: BookEntry[K] };
  w.postBook = n.postBook && e.wins + e.draws + e.losses + e.unfinished === 0;
  w.dynWins = n.dynWins;
  w.dynDraws = n.dynDraws;
  w.dynLosses = n.dynLosses;
  w.userValue = n.userValue;
  w.evalCp = n.evalCp;
  w.evalCount = n.evalCount;
  w.nag = n.nag;
  w.comment = n.comment;
  w.forbidden = n.forbidden;
  w.audit = n.audit;
  if (n.learn !== 0) w.learn = n.learn;
}

/** The HALVED section: u32 count, then per position u32 key high, u32 key low, u16 moves, and per move u16 move, u16 n, u16 sum. */
export function encodeHalved(list: readonly { keyHi: number; keyLo: number; moves: Uint16Array; n: Uint16Array; sum: Uint16Array }[]): Uint8Array {
  let size = 4;
  for (const h of list) size += 10 + 6 * h.moves.length;
  const b = new Uint8Array(size);
  const v = new DataView(b.buffer);
  v.setUint32(0, list.length, true);
  let o = 4;
  for (const h of list) {
    v.setUint32(o, h.keyHi >>> 0, true);
    v.setUint32(o + 4, h.keyLo >>> 0, true);
    v.setUint16(o + 8, h.moves.length, true);
    o += 10;
    for (let j = 0; j < h.moves.length; j++) {
      v.setUint16(o, h.moves[j]!, true);
      v.setUint16(o + 2, h.n[j]!, true);
      v.setUint16(o + 4, h.sum[j]!, true);
      o += 6;
    }
  }
  return b;
}

function decodeHalved(b: Uint8Array, into: Map<number, Halved[]>): void {
  if (b.length === 0) return;
  const v = new DataView(b.buffer, b.byteOffset, b.length);
  if (b.length < 4) throw new RangeError('halved counters cut short');
  const count = v.getUint32(0, true);
  let o = 4;
  for (let i = 0; i < count; i++) {
    if (o + 10 > b.length) throw new RangeError('halved counters cut short');
    const hi = v.getUint32(o, true);
    const lo = v.getUint32(o + 4, true);
    const k = v.getUint16(o + 8, true);
    o += 10;
    if (o + 6 * k > b.length) throw new RangeError('halved counters cut short');
    const h: Halved = { keyLo: lo, moves: new Uint16Array(k), n: new Uint16Array(k), sum: new Uint16Array(k) };
    for (let j = 0; j < k; j++) {
      h.moves[j] = v.getUint16(o, true);
      h.n[j] = v.getUint16(o + 2, true);
      h.sum[j] = v.getUint16(o + 4, true);
      o += 6;
    }
    const l = into.get(hi);
    if (l === undefined) into.set(hi, [h]);
    else l.push(h);
  }
  if (o !== b.length) throw new RangeError('halved counters have trailing bytes');
}

export function sectionName(id: number): string {
  return Object.entries(SECTION).find(([, v]) => v === id)?.[0].toLowerCase() ?? `#${id}`;
}

export { monthOf };

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
import { BookError, positionOf, type Probed } from '../polyglot/select.js';
import { FLAG_PARTIAL, SECTION, SUPERBLOCK, readSuperblock, tbkVersion, type BookFields, type SectionRef, type Slot } from './container.js';
import { crc32, type Crc32 } from './format.js';
import { GameReader } from './gameReader.js';
import { BookMoves, type BookEntry } from './bookMoves.js';
import { GAME_RECORD_SIZE, IllegalMoveCode, RESULT_BLACK, RESULT_DRAW, RESULT_UNFINISHED, RESULT_WHITE, codeBytes, damagedGame, type GameRecord } from './games.js';
import { SEEK_MOVE, seekKey } from './gameSeek.js';
import { Notes } from './notes.js';
import { BlockIndex, BlockReader, type StoredPosition } from './positions.js';
import { headerError, isPinned, memorySource, type ByteSource, type PinnedSource } from './reader.js';
import { Retrieval } from './retrieval.js';
import { cellOf, cellPasses, isOpenFilter, monthOf, ratingBand, type SplitFilter, type SplitKinds } from './splits.js';

/** make-book's counters of a hot position (halving.ts), by move. */
interface Halved {
  keyLo: number;
  moves: Uint16Array;
  n: Uint16Array;
  sum: Uint16Array;
}

export type { BookEntry } from './bookMoves.js';

/** A version 2 book of up to this size is checked whole when opened to be probed (about 15 ms for 64 MiB). */
export const VERIFY_WHOLE_BYTES = 64 * 2 ** 20;

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
  private singles: Retrieval | undefined;
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
  /** Where the games' records and moves start in the file, and the moves' length. */
  private readonly gamesAt: number;
  private readonly movesAt: number;
  private readonly movesLength: number;
  /** The object API's moves, filled then turned into entries. */
  private readonly scratch = new BookMoves();

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
      if (b.length !== s.length) throw new RangeError(`section ${sectionName(id)} is cut short: the file is damaged`);
      if ((crc(b, 0) >>> 0) !== s.crc) throw new BookError('ERR_TBK_CHECKSUM', `section ${sectionName(id)} (${byteRange(s.offset, s.length)}) fails its checksum: the file is damaged`, undefined, s.offset);
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
    this.gamesAt = this.sections.get(SECTION.GAMES)?.offset ?? 0;
    this.movesAt = this.sections.get(SECTION.MOVES)?.offset ?? 0;
    this.movesLength = this.sections.get(SECTION.MOVES)?.length ?? 0;
    const singles = this.sections.get(SECTION.SINGLES);
    if (singles !== undefined) {
      const r = Retrieval.open(this.pinned === undefined ? { size: singles.length, read: (o, n) => source.read(singles.offset + o, n) } : pinnedSection(this.pinned, singles));
      if (!r.ok) throw new RangeError(`section singles is damaged (${r.error.message})`);
      this.singles = r.value;
      if (this.games === undefined) throw new RangeError('single positions without games');
    }
  }

  /**
   * Opens a book; a damaged or foreign file is an error naming the book and what is wrong. Bytes
   * in memory (a book fetched by a page) of up to VERIFY_WHOLE_BYTES are checked whole, as Node's
   * `openAnyRichBook` checks such a file: a probe reads the games, moves and single-position
   * sections without their CRC-32, so a flipped byte there would change a result silently.
   */
  static open(data: ByteSource | Uint8Array | ArrayBuffer, name = 'book', crc: Crc32 = (b, c) => crc32(b, c)): Result<TbkBook, BookError> {
    const inMemory = data instanceof Uint8Array || data instanceof ArrayBuffer;
    const source = inMemory ? memorySource(data) : data;
    const head = source.read(0, Math.min(SUPERBLOCK, source.size));
    const sb = readSuperblock(head, source.size, crc);
    if (typeof sb === 'string') {
      // A page that fetched the wrong file (a server's HTML page, a Polyglot book, a gzip) or a
      // version 1 book hears what it has, as `RichBook.open` and the command line say it.
      if (tbkVersion(head) === 1) return err(new BookError('ERR_TBK_HEADER', `${name}: a version 1 .tbk book, which this reader (version 2) cannot read: open it with RichBook.open, or make it version 2 with tabiya book upgrade`, name, 0));
      return err(headerError(name, sb, head, source.size));
    }
    let book: TbkBook;
    try {
      book = new TbkBook(source, name, sb.slot, sb.which, crc);
    } catch (e) {
      if (e instanceof BookError) return err(new BookError(e.code, `${name}: ${e.message}`, name, e.offset));
      return err(new BookError('ERR_TBK_DAMAGED', `${name}: ${(e as Error).message}`));
    }
    if (inMemory && source.size <= VERIFY_WHOLE_BYTES) {
      const v = book.verify(crc);
      if (!v.ok) return v;
    }
    return ok(book);
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

  /** Every hot position's make-book counters (the HALVED section), keys unsigned. */
  halvedPositions(): { keyHi: number; keyLo: number; moves: Uint16Array; n: Uint16Array; sum: Uint16Array }[] {
    return [...this.halved].flatMap(([keyHi, l]) => l.map((h) => ({ keyHi, ...h })));
  }

  private halvedOf(hi: number, lo: number): Halved | undefined {
    const l = this.halved.get(hi);
    if (l === undefined) return undefined;
    for (const h of l) if (h.keyLo === lo) return h;
    return undefined;
  }

  /** Bytes of the single-position index (0 without one). */
  get singlesBytes(): number {
    return this.singles === undefined ? 0 : (this.sections.get(SECTION.SINGLES)?.length ?? 0);
  }

  /**
   * Reads the single-position index into memory, for a job that looks up every position of
   * every game (a rebuild's replay): the lookups fall at random across the index, and once it
   * outgrows the file's page cache each of them would cost a read from the file. The caller
   * counts its bytes (`singlesBytes`) against its memory budget. Into `bytes` when given (a
   * shared buffer, for threads that replay together), which already holds the index when
   * `filled`.
   */
  holdSingles(bytes?: Uint8Array, filled = false): void {
    const s = this.sections.get(SECTION.SINGLES);
    if (s === undefined || this.singles === undefined) return;
    if (bytes !== undefined && bytes.length !== s.length) throw new RangeError(`the single-position index takes ${s.length} bytes, not ${bytes.length}`);
    bytes ??= new Uint8Array(s.length);
    const chunk = 1 << 24;
    if (!filled) for (let at = 0; at < s.length; at += chunk) bytes.set(this.source.read(s.offset + at, Math.min(chunk, s.length - at)), at);
    const r = Retrieval.open(bytes);
    if (!r.ok) throw new RangeError(`section singles is damaged (${r.error.message})`);
    this.singles = r.value;
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
      if ((c >>> 0) !== s.crc) return err(new BookError('ERR_TBK_CHECKSUM', `${this.name}: section ${sectionName(s.id)} (${byteRange(s.offset, s.length)}) fails its checksum: the file is damaged`, this.name, s.offset));
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
      if ((this.crc(this.blockData.subarray(at, at + length), 0) >>> 0) !== this.blocks.crc[b]) throw new BookError('ERR_TBK_CHECKSUM', `${this.name}: position block ${b} (${byteRange(offset, length)}) fails its checksum: the file is damaged`, this.name, offset);
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
    const ply = this.seek(g, pos, bytes, 0, rec.codes, keyHi, keyLo, target);
    return ply < 0 ? undefined : { game: g, ply, move: SEEK_MOVE[0]!, black: pos.turn === 1, record: rec };
  }

  /**
   * Every move the book holds for a key (stored, single, notes), legality unchecked, into `out`
   * (emptied first) without building an object a move; returns their number. With the position
   * itself (`target`), the replay of a single position's game stops as soon as the game can no
   * longer reach it.
   */
  collect(keyHi: number, keyLo: number, out: BookMoves, filter: SplitFilter = {}, target?: Position): number {
    const hi = keyHi >>> 0;
    const lo = keyLo >>> 0;
    out.count = 0;
    const open = isOpenFilter(filter);
    const b = this.blocks.find(hi, lo);
    let stored = false;
    if (b >= 0) {
      const r = this.blockReader;
      const at = this.locateBlock(b);
      r.reset(this.blockData, at, at + this.blocks.length[b]!, this.blocks.firstHi[b]!, this.blocks.firstLo[b]!);
      try {
        stored = r.seek(hi, lo);
        if (stored) r.movesInto(out, filter, open);
      } catch (e) {
        throw e instanceof BookError ? e : new BookError('ERR_TBK_DAMAGED', (e as Error).message);
      }
    }
    if (stored) {
      const halved = open ? this.halvedOf(hi, lo) : undefined;
      for (let i = 0; i < out.count; i++) {
        if (halved !== undefined) {
          const j = halved.moves.indexOf(out.move[i]!);
          if (j >= 0) {
            out.pgN[i] = halved.n[j]!;
            out.pgSum[i] = halved.sum[j]!;
          }
        }
        // A move with an imported weight (a .bin merged in) and games of its own (another book's)
        // weighs both, as its export does (tbkExport.ts).
        out.weight[i] = out.weight[i]! < 0 ? out.pgSum[i]! : Math.min(0xffff, out.weight[i]! + out.pgSum[i]!);
      }
    } else this.singleInto(hi, lo, out, filter, target);
    const notes = this.notes.of(hi, lo);
    for (let k = 0; k < notes.length; k++) {
      const n = notes[k]!;
      let i = out.indexOf(n.move);
      if (i < 0) i = out.push(n.move, n.black, 0, 0, 0, 0, 0, 0, 0, 0, 0, out.count, 0, -1);
      out.note[i] = n;
    }
    return out.count;
  }

  /** seekKey in game `g`, whose damaged move codes are the book's error naming the game. */
  private seek(g: number, pos: Position, b: Uint8Array, o: number, codes: number, hi: number, lo: number, target: Position | undefined): number {
    try {
      return seekKey(pos, b, o, codes, hi, lo, target);
    } catch (e) {
      throw e instanceof IllegalMoveCode ? damagedGame(this.name, g, e) : e;
    }
  }

  /**
   * A single position's move into `out`: the game the index names, replayed until the key
   * appears (nothing when it does not: the key is not in the book). The game's record and moves
   * are read in place when the source allows it.
   */
  private singleInto(hi: number, lo: number, out: BookMoves, filter: SplitFilter, target: Position | undefined): void {
    const games = this.games;
    if (this.singles === undefined || games === undefined) return;
    const g = this.singles.get(hi, lo);
    if (g >= games.count) return;
    const pos = this.replayPos;
    const src = this.pinned;
    let ply: number;
    let white: number;
    let blackElo: number;
    let month: number;
    let flags: number;
    if (src !== undefined) {
      const r = src.locate(this.gamesAt + g * GAME_RECORD_SIZE, GAME_RECORD_SIZE);
      const d = src.data;
      const movesOffset = (d[r]! | (d[r + 1]! << 8) | (d[r + 2]! << 16)) + d[r + 3]! * 0x1000000 + (d[r + 4]! | (d[r + 5]! << 8)) * 0x100000000;
      const codes = d[r + 6]! | (d[r + 7]! << 8);
      white = d[r + 8]! | (d[r + 9]! << 8);
      blackElo = d[r + 10]! | (d[r + 11]! << 8);
      month = d[r + 12]! | (d[r + 13]! << 8);
      flags = d[r + 14]!;
      const length = codeBytes(codes);
      if (movesOffset + length > this.movesLength) throw new BookError('ERR_TBK_DAMAGED', `${this.name}: game ${g} lies outside the moves section: the file is damaged`);
      games.setStart(g, pos);
      const at = src.locate(this.movesAt + movesOffset, length);
      ply = this.seek(g, pos, src.data, at, codes, hi, lo, target);
    } else {
      const rec = games.record(g);
      const bytes = games.codesOf(rec);
      games.setStart(g, pos);
      ply = this.seek(g, pos, bytes, 0, rec.codes, hi, lo, target);
      white = rec.whiteElo;
      blackElo = rec.blackElo;
      month = rec.month;
      flags = rec.result | (rec.speed << 2);
    }
    if (ply < 0) return;
    const result = flags & 3;
    if (!cellPasses(filter, cellOf(this.splits, ratingBand(white, blackElo), (flags >>> 2) & 7, month))) return;
    const black = pos.turn === 1;
    const wins = result === (black ? RESULT_BLACK : RESULT_WHITE) ? 1 : 0;
    const losses = result === (black ? RESULT_WHITE : RESULT_BLACK) ? 1 : 0;
    const draws = result === RESULT_DRAW ? 1 : 0;
    const unfinished = result === RESULT_UNFINISHED ? 1 : 0;
    const elo = black ? blackElo : white;
    const sum = 2 * wins + draws + unfinished;
    out.push(SEEK_MOVE[0]!, black, wins, draws, losses, unfinished, elo > 0 ? 1 : 0, elo, 1, sum, sum, 0, 0, g);
  }

  /** Every move the book holds for a key (stored, single, notes), legality unchecked. */
  movesOf(keyHi: number, keyLo: number, filter: SplitFilter = {}, target?: Position): BookEntry[] {
    this.collect(keyHi, keyLo, this.scratch, filter, target);
    return this.scratch.toEntries(keyHi >>> 0, keyLo >>> 0);
  }

  /**
   * The moves of the book that are legal in `pos`, with `move` as generated there, into `out`
   * (no object a move); returns their number.
   */
  probeMoves(board: Probed, out: BookMoves, filter: SplitFilter = {}): number {
    const pos = positionOf(board);
    const held = this.collect(pos.keyHi, pos.keyLo, out, filter, pos);
    if (held === 0) return 0;
    let n = -1;
    let k = 0;
    for (let i = 0; i < held; i++) {
      const move = out.move[i]!;
      // A single position's move was decoded in the game's own position: when that is `pos`
      // square for square, the move is legal here as it stands, and no move generation is needed.
      if (out.game[i]! >= 0 && samePosition(this.replayPos, pos)) {
        out.moveTo(i, k++);
        continue;
      }
      if (n < 0) n = generateLegal(pos, BUF, 0);
      const pm = encodeMove(move);
      for (let j = 0; j < n; j++) {
        const m = BUF[j]!;
        if (m === move || encodeMove(m) === pm) {
          out.moveTo(i, k);
          out.move[k++] = m;
          break;
        }
      }
    }
    out.count = k;
    return k;
  }

  /** The moves of the book that are legal in `pos`, with `move` as generated there. */
  probe(board: Probed, filter: SplitFilter = {}): BookEntry[] {
    const pos = positionOf(board);
    this.probeMoves(pos, this.scratch, filter);
    return this.scratch.toEntries(pos.keyHi >>> 0, pos.keyLo >>> 0);
  }

  /** The split cell of a game, as the book's splits see it. */
  cellOfGame(r: GameRecord): number {
    return cellOf(this.splits, ratingBand(r.whiteElo, r.blackElo), r.speed, r.month);
  }
}

/** The HALVED section: u32 count, then per position u32 key high, u32 key low, u16 moves, and per move u16 move, u16 n, u16 sum. */
/** The bytes encodeHalved gives for positions with these numbers of moves. */
export function halvedLength(list: readonly { moves: { length: number } }[]): number {
  let size = 4;
  for (const h of list) size += 10 + 6 * h.moves.length;
  return size;
}

export function encodeHalved(list: readonly { keyHi: number; keyLo: number; moves: Uint16Array; n: Uint16Array; sum: Uint16Array }[]): Uint8Array {
  const size = halvedLength(list);
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

/** Whether two positions hold the same pieces on the same squares, side to move, castling rights and en passant square. */
function samePosition(a: Position, b: Position): boolean {
  if (a.turn !== b.turn || a.castling !== b.castling || a.epSquare !== b.epSquare) return false;
  const x = a.board;
  const y = b.board;
  for (let i = 0; i < 64; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** A section of a source that shows its bytes in place, as a source of its own. */
function pinnedSection(source: PinnedSource, s: SectionRef): PinnedSource {
  return {
    size: s.length,
    read: (o, n) => source.read(s.offset + o, n),
    locate: (o, n) => source.locate(s.offset + o, n),
    get data() {
      return source.data;
    },
  };
}

export function sectionName(id: number): string {
  return Object.entries(SECTION).find(([, v]) => v === id)?.[0].toLowerCase() ?? `#${id}`;
}

export { monthOf };

/** Where a damaged part lies in the file, for a message: compare it with a good copy (`cmp -l`). */
function byteRange(offset: number, length: number): string {
  return `bytes ${offset} to ${offset + length - 1}`;
}

/**
 * The properties of test/book-fuzz.test.ts (fast-check), run in a worker thread so that the test
 * can stop one that hangs: both book readers, on random bytes and on real books built here from
 * real games, truncated, extended, with bytes flipped or entries swapped, read in memory and
 * through positional reads of a file. Each run reports its input through `progress` first, so a
 * hang names the input it hung on.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { openBook } from '../../src/book/node/openBook.js';
import { openRichBook } from '../../src/book/node/richFile.js';
import { PolyglotReader } from '../../src/book/polyglot/reader.js';
import { BookError, type BookMove } from '../../src/book/polyglot/select.js';
import { exportPolyglot } from '../../src/book/rich/export.js';
import { RichGameVisitor } from '../../src/book/rich/build.js';
import { FLAG_EXACT, TBK_MAGIC, bookChecksum, putU32 } from '../../src/book/rich/format.js';
import { RichBook, type ByteSource, type RichEntry } from '../../src/book/rich/reader.js';
import { RichTable } from '../../src/book/rich/table.js';
import { encodeBook } from '../../src/book/rich/writer.js';
import { generateLegal } from '../../src/core/movegen.js';
import type { Position } from '../../src/core/position.js';
import { unwrap } from '../../src/core/result.js';
import { MAX_MOVES } from '../../src/core/types.js';
import { parsePgn } from '../../src/pgn/parser.js';
import type { PgnVisitor } from '../../src/pgn/visitor.js';

const SAMPLE = new URL('../../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url);

/** A real rich book from the first 300 games (16 plies), its Polyglot export, and positions of those games. */
interface RealBooks {
  tbk: Uint8Array;
  bin: Uint8Array;
  positions: Position[];
  /** Entries the positions find in the intact `.tbk`. */
  seen: number;
}

function realBooks(): RealBooks {
  const games = gunzipSync(readFileSync(SAMPLE)).toString('latin1').split(/\n\n(?=\[Event )/).slice(0, 300).join('\n\n');
  const table = new RichTable();
  const counter = new RichGameVisitor(table, 16);
  const positions: Position[] = [];
  const collect: PgnVisitor = {
    move(pos, _m, ply) {
      if (ply >= 8) return false;
      if (positions.length < 120) positions.push(pos.clone());
      return true;
    },
  };
  parsePgn(games, counter);
  parsePgn(games, collect);
  const tbk = encodeBook(table, { flags: FLAG_EXACT, games: counter.games, maxPly: 16, minGames: 0, learnedGames: 0, changes: 1, created: 0, meta: { fuzz: true } });
  const book = unwrap(RichBook.open(tbk, 'real.tbk'));
  const real = { tbk, bin: exportPolyglot(book, { minGame: 1 }).bytes, positions, seen: 0 };
  real.seen = probeRich(real, book, 'real.tbk');
  return real;
}

/** A change to a book: cut, extended, bytes flipped, two 16-byte blocks swapped. */
type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'extend'; bytes: Uint8Array }
  | { kind: 'flip'; flips: [number, number][] }
  | { kind: 'swap'; i: number; j: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('extend' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }) }),
  fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }),
);

function mutate(original: Uint8Array, m: Mutation): Uint8Array {
  const n = original.length;
  switch (m.kind) {
    case 'truncate':
      return original.slice(0, m.at % (n + 1));
    case 'extend':
      return Uint8Array.from([...original, ...m.bytes]);
    case 'flip': {
      const out = original.slice();
      for (const [at, x] of m.flips) out[at % n]! ^= x;
      return out;
    }
    case 'swap': {
      const out = original.slice();
      const blocks = Math.floor(n / 16);
      const a = (m.i % blocks) * 16;
      const b = (m.j % blocks) * 16;
      out.set(original.subarray(b, b + 16), a);
      out.set(original.subarray(a, a + 16), b);
      return out;
    }
  }
}

/** A short description of a run's input, for the report of a hang. */
function describe(m: Mutation | Uint8Array): string {
  if (m instanceof Uint8Array) return `${m.length} random bytes starting ${Buffer.from(m.subarray(0, 24)).toString('hex')}`;
  return JSON.stringify(m, (_k, v: unknown) => (v instanceof Uint8Array ? `${v.length} bytes` : v));
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The only failure allowed: a BookError naming the file, with a stable code (and the byte, for an entry). */
export function expectBookError(e: unknown, name: string): void {
  if (!(e instanceof BookError)) throw e;
  assert.equal(e.file, name, e.message);
  assert.ok(e.message.startsWith(`${name}: `), e.message);
  assert.match(e.code, /^ERR_(BOOK|TBK)_[A-Z_]+$/);
  if (e.code === 'ERR_TBK_ENTRY' || e.code === 'ERR_TBK_UNSORTED') assert.ok(Number.isInteger(e.offset), e.message);
}

const BUF = new Uint16Array(MAX_MOVES);
function isLegal(pos: Position, move: number): boolean {
  const n = generateLegal(pos, BUF, 0);
  for (let i = 0; i < n; i++) if (BUF[i] === move) return true;
  return false;
}

/** What no book can hold: a move not legal where it is offered, counts beyond what the format or the ratings allow. */
function assertPossible(pos: Position, e: RichEntry): void {
  const games = e.wins + e.draws + e.losses;
  assert.ok(isLegal(pos, e.move), 'a legal move');
  assert.ok(games <= 0xffffffff && e.dynWins + e.dynDraws + e.dynLosses <= 0xffffffff, `${games} games`);
  assert.ok(e.ratedGames <= games, `${e.ratedGames} rated of ${games}`);
  if (e.ratedGames > 0) assert.ok(e.avgElo >= 100 && e.avgElo <= 4000, `average Elo ${e.avgElo}`);
  else assert.equal(e.eloSum, 0);
  assert.ok(e.userValue === -1 || (e.userValue >= 0 && e.userValue <= 100), `user value ${e.userValue}`);
  if (e.postBook) assert.equal(games, 0, 'a PostBook record has no games');
  assert.ok(Math.abs(e.evalCp) <= 30000);
}

/** Probes every position; BookErrors allowed, every entry handed out checked. Returns the entries seen. */
function probeRich(real: Pick<RealBooks, 'positions'>, book: RichBook, name: string): number {
  let seen = 0;
  for (const pos of real.positions) {
    try {
      for (const e of book.probe(pos)) {
        assertPossible(pos, e);
        seen++;
      }
    } catch (e) {
      expectBookError(e, name);
    }
  }
  return seen;
}

function checkBinMoves(pos: Position, moves: readonly BookMove[]): void {
  for (const m of moves) {
    assert.ok(isLegal(pos, m.move), 'a legal move');
    assert.ok(m.weight >= 1 && m.weight <= 0xffff);
  }
}

const source = (bytes: Uint8Array): ByteSource => ({ size: bytes.length, read: (o, n) => bytes.subarray(o, o + n) });

export interface FuzzRun {
  runs: number;
  seed: number;
  /** Called with each run's input before the readers see it. */
  progress: (input: string) => void;
}

/** .tbk: the real book changed at random, read in memory, through positional reads, and now and then from a file on disk. */
export function fuzzTbkMutations({ runs, seed, progress }: FuzzRun): void {
  const real = realBooks();
  assert.ok(real.seen > 100, `${real.seen} entries seen in the original`);
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-book-fuzz-'));
  const file = join(dir, 'fuzz.tbk');
  try {
    fc.assert(
      fc.property(mutation, fc.boolean(), fc.nat(9), (m, reseal, where) => {
        progress(`${describe(m)}${reseal ? ', checksum written again' : ''}`);
        const bytes = mutate(real.tbk, m);
        // A tool that writes the checksum again over the damage: only the entry checks can see it.
        if (reseal && bytes.length >= 28) putU32(bytes, 24, bookChecksum(bytes));
        const memory = RichBook.open(bytes, 'fuzz.tbk');
        if (same(bytes, real.tbk)) assert.ok(memory.ok && probeRich(real, memory.value, 'fuzz.tbk') === real.seen, 'the original reads as before');
        else if (!reseal) assert.ok(!memory.ok, 'a changed book in memory is refused (checksum, header or size)');
        if (memory.ok) probeRich(real, memory.value, 'fuzz.tbk');
        else expectBookError(memory.error, 'fuzz.tbk');
        // Positional reads skip the checksum: the header, order and entry checks stand alone.
        const positional = RichBook.open(source(bytes), 'fuzz.tbk');
        if (positional.ok) probeRich(real, positional.value, 'fuzz.tbk');
        else expectBookError(positional.error, 'fuzz.tbk');
        if (where !== 0) return;
        writeFileSync(file, bytes);
        let opened: ReturnType<typeof openRichBook> | undefined;
        try {
          opened = openRichBook(file, { memoryLimit: 0 });
        } catch (e) {
          expectBookError(e, file);
          return;
        }
        try {
          probeRich(real, opened.book, file);
        } finally {
          opened.close();
        }
      }),
      { numRuns: runs, seed },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** .tbk: random bytes, bare or behind a valid signature with plausible sizes. */
export function fuzzTbkRandom({ runs, seed, progress }: FuzzRun): void {
  const real = realBooks();
  const head = new TextEncoder().encode(TBK_MAGIC);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3000 }), fc.boolean(), fc.boolean(), (random, signed, sizes) => {
      const bytes = signed ? Uint8Array.from([...head, ...random]) : random;
      // Version 1, header and entry sizes 64: the reader goes past its first checks.
      if (signed && sizes && bytes.length >= 14) bytes.set([0, 1, 0, 64, 0, 64], 8);
      progress(describe(bytes));
      for (const data of [bytes, source(bytes)]) {
        const r = RichBook.open(data, 'random.tbk');
        if (r.ok) probeRich(real, r.value, 'random.tbk');
        else expectBookError(r.error, 'random.tbk');
      }
    }),
    { numRuns: runs, seed },
  );
}

/** .bin: the real book changed at random, random bytes, random whole entries; in memory and on disk. */
export async function fuzzBin({ runs, seed, progress }: FuzzRun): Promise<void> {
  const real = realBooks();
  const original = unwrap(PolyglotReader.from(real.bin, 'real.bin'));
  assert.ok(real.positions.some((p) => original.moves(p).length > 0), 'the original has moves');
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-book-fuzz-'));
  const file = join(dir, 'fuzz.bin');
  const data = fc.oneof(
    mutation.map((m) => ({ bytes: mutate(real.bin, m), what: describe(m) })),
    fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({ bytes, what: describe(bytes) })),
    // Whole random entries: the right size, so only the order check stands before a lookup.
    fc.array(fc.uint8Array({ minLength: 16, maxLength: 16 }), { maxLength: 60 }).map((es) => {
      const bytes = Uint8Array.from(es.flatMap((e) => [...e]));
      return { bytes, what: describe(bytes) };
    }),
  );
  try {
    await fc.assert(
      fc.asyncProperty(data, fc.nat(4), async ({ bytes, what }, where) => {
        progress(what);
        const memory = PolyglotReader.from(bytes, 'fuzz.bin');
        if (memory.ok) {
          assert.equal(bytes.length % 16, 0);
          for (const pos of real.positions) checkBinMoves(pos, memory.value.moves(pos));
        } else expectBookError(memory.error, 'fuzz.bin');
        if (where !== 0) return;
        writeFileSync(file, bytes);
        let book: Awaited<ReturnType<typeof openBook>>;
        try {
          book = await openBook(file, { memoryLimit: 0 });
        } catch (e) {
          expectBookError(e, file);
          return;
        }
        try {
          for (const pos of real.positions) {
            try {
              checkBinMoves(pos, await book.moves(pos));
            } catch (e) {
              expectBookError(e, file);
            }
          }
        } finally {
          await book.close();
        }
      }),
      { numRuns: runs, seed },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

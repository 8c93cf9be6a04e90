/**
 * Probes of a version 2 book read on disk against a full in-memory decoding of the same book:
 * every position of every game of the sample (and one random move off each), through a page
 * cache small enough to evict all the time; a flipped byte in a position block is reported on
 * the first probe that reads the block, and on every one after; the page cache returns the
 * file's bytes whatever the order of reads; the typed-array API answers what the object API
 * answers, and the engine's book candidates are the same read through either.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastCrc32 } from '../src/book/node/richFile.js';
import { buildTbk } from '../src/book/node/tbkBuild.js';
import { FileReader, changeNotes } from '../src/book/node/tbkFile.js';
import { openAnyRichBook } from '../src/book/node/openTbk.js';
import { BookMoves } from '../src/book/rich/bookMoves.js';
import { RichBookSource } from '../src/engine/richBookSource.js';
import { encodeMove } from '../src/book/polyglot/format.js';
import { BookError } from '../src/book/polyglot/select.js';
import { SECTION, type SectionRef } from '../src/book/rich/container.js';
import { RESULT_BLACK, RESULT_DRAW, RESULT_UNFINISHED, RESULT_WHITE, replayCodes, type GameRecord } from '../src/book/rich/games.js';
import { repeatsOf, type StoredPosition } from '../src/book/rich/positions.js';
import { TbkBook, sectionName, type BookEntry } from '../src/book/rich/tbkBook.js';
import { memorySource } from '../src/book/rich/reader.js';
import { generateLegal } from '../src/core/movegen.js';
import { Position } from '../src/core/position.js';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { MAX_MOVES } from '../src/core/types.js';

const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-tbk-probe-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
process.env.SOURCE_DATE_EPOCH = '1700000000';

const key = (hi: number, lo: number): string => `${hi >>> 0}:${lo >>> 0}`;

function openFile(path: string, cacheBytes: number): { book: TbkBook; file: FileReader } {
  const file = new FileReader(path, cacheBytes);
  const r = TbkBook.open(file, path, fastCrc32);
  if (!r.ok) throw r.error;
  return { book: r.value, file };
}

/** What a probe must answer, as a string: move and statistics of each move, sorted. */
function answer(list: readonly BookEntry[]): string {
  return list
    .map((e) => [e.move, e.black, e.wins, e.draws, e.losses, e.unfinished, e.ratedGames, e.eloSum, e.pgN, e.pgSum, e.game].join(','))
    .sort()
    .join(' ');
}

/** The expected answer for a stored position (every move in the block, decoded whole). */
function storedAnswer(p: StoredPosition, book: TbkBook, legal: (m: number) => number): string {
  const h = book.halvedCounters(p.keyHi, p.keyLo);
  return p.moves
    .map((m) => {
      // make-book counts each occurrence: the games and their repeats.
      let pgN = m.wins + m.draws + m.losses + m.unfinished + repeatsOf(m);
      let pgSum = 2 * (m.wins + (m.repeatWins ?? 0)) + m.draws + (m.repeatDraws ?? 0) + m.unfinished + (m.repeatUnfinished ?? 0);
      const j = h === undefined ? -1 : Array.from(h.moves).indexOf(m.move);
      if (j >= 0) {
        pgN = h!.n[j]!;
        pgSum = h!.sum[j]!;
      }
      return [legal(m.move), p.black, m.wins, m.draws, m.losses, m.unfinished, m.rated, m.ratingSum, Math.min(pgN, 0xffff), Math.min(pgSum, 0xffff), -1].join(',');
    })
    .filter((s) => !s.startsWith('-1,'))
    .sort()
    .join(' ');
}

/** The expected answer for a position seen in one game: that game's move, from the mover's side. */
function singleAnswer(r: GameRecord, game: number, move: number, black: boolean): string {
  const wins = r.result === (black ? RESULT_BLACK : RESULT_WHITE) ? 1 : 0;
  const losses = r.result === (black ? RESULT_WHITE : RESULT_BLACK) ? 1 : 0;
  const draws = r.result === RESULT_DRAW ? 1 : 0;
  const unfinished = r.result === RESULT_UNFINISHED ? 1 : 0;
  const elo = black ? r.blackElo : r.whiteElo;
  return [move, black, wins, draws, losses, unfinished, elo > 0 ? 1 : 0, elo, 1, 2 * wins + draws + unfinished, game].join(',');
}

test('every position of a real book: probes on disk (a tiny page cache) and in memory answer what a full decoding says', async () => {
  const path = join(tmp, 'sample.tbk');
  await buildTbk(path, { inputs: [SAMPLE_GZ], tmpDir: tmp });
  const bytes = new Uint8Array(readFileSync(path));
  const mem = TbkBook.open(bytes, path);
  assert.ok(mem.ok);
  const inMemory = mem.value;
  // 16 pages: every probe evicts, and blocks straddle pages.
  const { book, file } = openFile(path, 16 * 4096);

  // The whole book decoded: every stored position, and where each key first appears in the games.
  const stored = new Map<string, StoredPosition>();
  for (let b = 0; b < inMemory.blockCount; b++) for (const p of inMemory.blockPositions(b)) stored.set(key(p.keyHi, p.keyLo), p);
  const games = inMemory.gameReader(1 << 16)!;
  const first = new Map<string, { game: number; move: number; black: boolean; games: number }>();
  const replay = (visit: (p: Position, m: number, g: number) => void): void => {
    const pos = new Position();
    for (let g = 0; g < games.count; g++) {
      const rec = games.record(g);
      const { bytes: codes, offset } = games.codes(g);
      games.setStart(g, pos);
      replayCodes(pos, codes, offset, rec.codes, (p, m) => {
        visit(p, m, g);
        return true;
      });
    }
  };
  let lastGame = -1;
  let seenHere = new Set<string>();
  replay((p, m, g) => {
    if (g !== lastGame) seenHere = new Set();
    lastGame = g;
    const k = key(p.keyHi, p.keyLo);
    const f = first.get(k);
    if (f === undefined) first.set(k, { game: g, move: m, black: p.turn === 1, games: 1 });
    else if (!seenHere.has(k)) f.games++;
    seenHere.add(k);
  });

  const buf = new Uint16Array(MAX_MOVES);
  let storedHits = 0;
  let singleHits = 0;
  let misses = 0;
  let checked = 0;
  let lines = 0;
  const check = (pos: Position): void => {
    const k = key(pos.keyHi, pos.keyLo);
    const n = generateLegal(pos, buf, 0);
    const legal = (m: number): number => {
      for (let i = 0; i < n; i++) if (buf[i] === m) return m;
      for (let i = 0; i < n; i++) if (encodeMove(buf[i]!) === encodeMove(m)) return buf[i]!;
      return -1;
    };
    let want = '';
    const s = stored.get(k);
    const f = first.get(k);
    if (s !== undefined) {
      want = storedAnswer(s, inMemory, legal);
      storedHits++;
    } else if (f !== undefined) {
      assert.equal(f.games, 1, `position ${k} is in ${f.games} games but not stored`);
      want = singleAnswer(games.record(f.game), f.game, legal(f.move), f.black);
      singleHits++;
    } else misses++;
    const got = book.probe(pos);
    const text = answer(got);
    if (text !== want) assert.equal(text, want, `position ${k}`);
    if (++checked % 16 === 0) {
      assert.deepEqual(inMemory.probe(pos), got, `position ${k}: in memory against on disk`);
      // The replay that gives up early finds what the whole replay finds.
      assert.deepEqual(book.single(pos.keyHi, pos.keyLo, pos), book.single(pos.keyHi, pos.keyLo));
    }
  };
  // Every position of the games, and one random legal move off each (mostly not in the book).
  const off = new Position();
  let seed = 7;
  replay((p) => {
    lines++;
    check(p);
    const n = generateLegal(p, buf, 0);
    seed = (Math.imul(seed, 1103515245) + 12345) | 0;
    if (n === 0) return;
    off.copyFrom(p);
    off.play(buf[(seed >>> 0) % n]!);
    check(off);
  });
  assert.ok(lines > 150_000 && storedHits > 20_000 && singleHits > 100_000 && misses > 10_000, `${lines} positions: ${storedHits} stored, ${singleHits} single, ${misses} misses`);
  const c = file.cacheStats;
  assert.ok(c.misses > 100_000, `the cache evicted (${c.hits} hits, ${c.misses} misses)`);
  file.close();
});

test('a split book: a lookup that skips the cells reads the same totals as the whole decoding, for every stored position', async () => {
  const path = join(tmp, 'split.tbk');
  await buildTbk(path, { inputs: [SAMPLE_GZ], tmpDir: tmp, split: { rating: true, speed: true, month: true } });
  const { book, file } = openFile(path, 16 * 4096);
  let positions = 0;
  let cells = 0;
  for (let b = 0; b < book.blockCount; b++) {
    for (const p of book.blockPositions(b)) {
      const withCells = book.stored(p.keyHi, p.keyLo);
      assert.deepEqual(withCells, p);
      const without = book.stored(p.keyHi, p.keyLo, false)!;
      for (const m of p.moves) {
        if (m.cells !== undefined) cells += m.cells.length;
        delete m.cells;
      }
      assert.deepEqual(without, p);
      positions++;
    }
  }
  assert.ok(positions > 4000 && cells > positions * 2, `${positions} positions, ${cells} cells`);
  file.close();
});

test('a flipped byte in a position block is reported by the first probe that reads the block, and by every one after', async () => {
  const path = join(tmp, 'sample.tbk');
  const good = readFileSync(path);
  const opened = TbkBook.open(new Uint8Array(good), path);
  assert.ok(opened.ok);
  const whole = opened.value;
  const b = Math.floor(whole.blockCount / 2);
  const victim = whole.blockPositions(b)[3]!;
  const elsewhere = whole.blockPositions(0)[0]!;
  const bad = Buffer.from(good);
  // A byte of the victim block's middle (block offsets: the index in memory; the 24-byte line's offset field).
  const positions = whole.section(SECTION.POSITIONS)!;
  const index = whole.section(SECTION.BLOCKS)!;
  const line = good.subarray(index.offset + b * 24, index.offset + (b + 1) * 24);
  const start = positions.offset + line.readUInt32LE(8);
  bad[start + (line.readUInt32LE(16) >>> 1)]! ^= 0x10;
  const damaged = join(tmp, 'flipped.tbk');
  writeFileSync(damaged, bad);
  for (const cache of [16 * 4096, 64 << 20]) {
    const { book, file } = openFile(damaged, cache);
    assert.ok(book.stored(elsewhere.keyHi, elsewhere.keyLo) !== undefined, 'other blocks read as before');
    for (let i = 0; i < 3; i++) {
      assert.throws(
        () => book.stored(victim.keyHi, victim.keyLo),
        (e: unknown) => e instanceof BookError && e.code === 'ERR_TBK_CHECKSUM' && e.message === `${damaged}: position block ${b} (bytes ${start} to ${start + line.readUInt32LE(16) - 1}) fails its checksum: the file is damaged` && e.file === damaged && e.offset === start,
      );
    }
    file.close();
  }
  // The same bytes in memory, read through a source (bytes given as they are are checked whole
  // at opening: the next test).
  const mem = TbkBook.open(memorySource(new Uint8Array(bad)), damaged);
  assert.ok(mem.ok);
  assert.throws(() => mem.value.stored(victim.keyHi, victim.keyLo), /position block \d+ \(bytes \d+ to \d+\) fails its checksum/);
});

test('a book cut short while open (a copy still being written, truncate) says so, not that a block fails its checksum', () => {
  const path = join(tmp, 'sample.tbk');
  const good = readFileSync(path);
  const whole = unwrap(TbkBook.open(new Uint8Array(good), path));
  // A block in the middle: the last one may share its page with the section after it, read at opening.
  const middle = whole.blockPositions(Math.floor(whole.blockCount / 2))[0]!;
  const first = whole.blockPositions(0)[0]!;
  const cut = join(tmp, 'cut.tbk');
  for (const cache of [16 * 4096, 64 << 20]) {
    writeFileSync(cut, good);
    const { book, file } = openFile(cut, cache);
    assert.ok(book.stored(first.keyHi, first.keyLo) !== undefined);
    const positions = whole.section(SECTION.POSITIONS)!;
    truncateSync(cut, positions.offset + 100);
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => book.stored(middle.keyHi, middle.keyLo),
        (e: unknown) => e instanceof BookError && e.code === 'ERR_TBK_READ' && e.message === `${cut}: the file is shorter than when it was opened (${good.length} bytes then, ${positions.offset + 100} now): it was cut, or is still being written`,
      );
    }
    file.close();
  }
});

test('a flipped byte in a section read whole at opening names the section, not its number', () => {
  const path = join(tmp, 'sample.tbk');
  const good = readFileSync(path);
  const opened = TbkBook.open(new Uint8Array(good), path);
  assert.ok(opened.ok);
  const index = opened.value.section(SECTION.BLOCKS)!;
  const bad = Buffer.from(good);
  bad[index.offset + 5]! ^= 4;
  const r = TbkBook.open(new Uint8Array(bad), 'damaged.tbk');
  assert.ok(!r.ok);
  // The section's bytes, so that a copy can be compared (`cmp -l`) where the damage is.
  assert.equal(r.error.message, `damaged.tbk: section blocks (bytes ${index.offset} to ${index.offset + index.length - 1}) fails its checksum: the file is damaged`);
  assert.equal(r.error.offset, index.offset);
});

test('a book small enough to be read whole is checked whole when opened to be probed: a flipped byte of a game is refused, not a changed result', () => {
  const path = join(tmp, 'sample.tbk');
  const good = readFileSync(path);
  const opened = TbkBook.open(new Uint8Array(good), path);
  assert.ok(opened.ok);
  for (const id of [SECTION.GAMES, SECTION.MOVES, SECTION.SINGLES]) {
    const s: SectionRef = opened.value.section(id)!;
    const bad = Buffer.from(good);
    bad[s.offset + (s.length >>> 1)]! ^= 2;
    const damaged = join(tmp, `section-${id}.tbk`);
    writeFileSync(damaged, bad);
    assert.throws(
      () => openAnyRichBook(damaged).close(),
      (e: unknown) => e instanceof BookError && e.code === 'ERR_TBK_CHECKSUM' && / fails its checksum: the file is damaged$/.test(e.message),
      `section ${id}`,
    );
    // The same bytes in memory, as a page fetches a book: refused at opening too, where probes
    // answered with a game's result changed or a position seen once lost.
    const mem = TbkBook.open(new Uint8Array(bad), 'fetched.tbk');
    assert.ok(!mem.ok, `section ${id} in memory`);
    assert.equal(mem.error.code, 'ERR_TBK_CHECKSUM');
    assert.equal(mem.error.message, `fetched.tbk: section ${sectionName(id)} (bytes ${s.offset} to ${s.offset + s.length - 1}) fails its checksum: the file is damaged`);
  }
  openAnyRichBook(path).close();
  assert.ok(TbkBook.open(new Uint8Array(good), 'fetched.tbk').ok);
});

test('the page cache gives the file bytes back for reads of every size, in any order, as it evicts', () => {
  const path = join(tmp, 'pages.bin');
  const data = new Uint8Array(300_000 + 123);
  let s = 1;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    data[i] = s >>> 24;
  }
  writeFileSync(path, data);
  for (const pages of [2, 5, 64]) {
    const f = new FileReader(path, pages * 4096);
    for (let i = 0; i < 20_000; i++) {
      s = (Math.imul(s, 1103515245) + 12345) | 0;
      const offset = (s >>> 0) % (data.length + 100);
      s = (Math.imul(s, 1103515245) + 12345) | 0;
      const r = (s >>> 0) % 100;
      const length = r < 70 ? r : r < 95 ? 4000 + r * 13 : 40_000 + r;
      const want = data.subarray(offset, Math.min(offset + length, data.length));
      if (i % 2 === 0) assert.deepEqual(f.read(offset, length), want, `read ${offset}+${length}`);
      else {
        const at = f.locate(offset, length);
        assert.deepEqual(f.data.subarray(at, at + want.length), want, `locate ${offset}+${length}`);
      }
    }
    assert.ok(f.cacheStats.hits > 0 && f.cacheStats.misses > 0);
    f.close();
  }
});

test('typed arrays: probeMoves answers what probe answers, notes included, and the engine reads the same book candidates either way', async () => {
  const path = join(tmp, 'typed.tbk');
  await buildTbk(path, { inputs: [SAMPLE_GZ], tmpDir: tmp });
  const start = unwrap(positionFromFen(STARTING_FEN));
  const buf = new Uint16Array(MAX_MOVES);
  const n = generateLegal(start, buf, 0);
  const afterE4 = start.clone();
  afterE4.play(buf.subarray(0, n).find((m) => (m >>> 6) % 64 === 12 && m % 64 === 28)!);
  // Notes of every kind: learning on a book move, a user value, and a PostBook move no game played.
  changeNotes(path, (b) => {
    const e4 = b.movesOf(start.keyHi, start.keyLo)[0]!;
    Object.assign(b.notes.edit(start.keyHi, start.keyLo, e4.move, false), { dynWins: 3, dynDraws: 1, dynLosses: 2, userValue: 75, comment: 'main line' });
    const unplayed = Array.from(buf.subarray(0, generateLegal(afterE4, buf, 0))).find((m) => b.movesOf(afterE4.keyHi, afterE4.keyLo).every((x) => x.move !== m))!;
    Object.assign(b.notes.edit(afterE4.keyHi, afterE4.keyLo, unplayed, true), { postBook: true, dynWins: 1, evalCp: 35, evalCount: 1 });
    return { result: undefined };
  });
  const book = openAnyRichBook(path);
  const moves = new BookMoves();
  const typedSource = new RichBookSource(book);
  const objectSource = new RichBookSource({ name: book.name, probe: (p) => book.probe(p) });
  const games = book.v2!.gameReader(1 << 16)!;
  let compared = 0;
  let single = 0;
  const pos = new Position();
  for (let g = 0; g < 300; g++) {
    const rec = games.record(g);
    const { bytes, offset } = games.codes(g);
    games.setStart(g, pos);
    replayCodes(pos, bytes, offset, rec.codes, (p) => {
      const objects = book.probe(p) as BookEntry[];
      const count = book.probeMoves!(p, moves);
      assert.equal(count, objects.length);
      for (let i = 0; i < count; i++) {
        const e = objects[i]!;
        const note = moves.note[i];
        assert.deepEqual(
          [moves.move[i], moves.black[i] === 1, moves.wins[i], moves.draws[i], moves.losses[i], moves.unfinished[i], moves.rated[i], moves.ratingSum[i], moves.avgElo(i), moves.pgN[i], moves.pgSum[i], moves.weight[i], moves.rank[i], moves.game[i], note?.dynWins ?? 0, note?.userValue ?? -1],
          [e.move, e.black, e.wins, e.draws, e.losses, e.unfinished, e.ratedGames, e.eloSum, e.avgElo, e.pgN, e.pgSum, e.weight, e.firstSeen, e.game, e.dynWins, e.userValue],
        );
        if (e.game >= 0) single++;
      }
      assert.deepEqual(typedSource.candidates(p), objectSource.candidates(p));
      compared++;
      return true;
    });
  }
  assert.ok(compared > 20_000 && single > 10_000, `${compared} positions, ${single} single moves`);
  // The notes: learning and the user value on 1.e4; the PostBook move is the engine's, not a book candidate.
  const e4 = book.probe(start)[0]!;
  assert.deepEqual([e4.dynWins, e4.dynDraws, e4.dynLosses, e4.userValue], [3, 1, 2, 75]);
  const post = (book.probe(afterE4) as BookEntry[]).filter((e) => e.postBook);
  assert.equal(post.length, 1);
  assert.ok(typedSource.candidates(afterE4).every((c) => c.move !== post[0]!.move));
  assert.deepEqual(typedSource.candidates(afterE4), objectSource.candidates(afterE4));
  book.close();
});

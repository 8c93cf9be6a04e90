/**
 * Rich books (.tbk) against truth: statistics against an independent count made with chessops
 * straight from the PGN; Polyglot export against the real `polyglot make-book` (Debian binary,
 * skipped when missing) and its halving vector; `book add` continuing one pass; import of a
 * .bin written back unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan as opsParseSan, makeSan as opsMakeSan } from 'chessops/san';
import { makeFen as opsMakeFen } from 'chessops/fen';
import { addToRichBook, makeRichBook } from '../src/book/node/richMake.js';
import { openRichBook, updateRichBook } from '../src/book/node/richFile.js';
import { learnGameSync } from '../src/book/node/richLearn.js';
import { setUserValue } from '../src/book/rich/annotate.js';
import { exportPolyglot, type ExportOptions } from '../src/book/rich/export.js';
import { importPolyglot } from '../src/book/rich/import.js';
import { encodeBook } from '../src/book/rich/writer.js';
import { RichBook } from '../src/book/rich/reader.js';
import { PolyglotReader } from '../src/book/polyglot/reader.js';
import { unwrap } from '../src/core/result.js';
import { keyToHex } from '../src/core/zobrist.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { makeSan, parseSan } from '../src/notation/san.js';

const POLYGLOT = '/usr/games/polyglot';
const SAMPLE_GZ = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url));
const VECTORS = fileURLToPath(new URL('../../../shared/docs/polyglot-vectors/', import.meta.url));
const noPolyglot = existsSync(POLYGLOT) ? false : 'polyglot is not installed (apt-get install polyglot)';

const tmp = mkdtempSync(join(tmpdir(), 'tabiya-tbk-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const sampleText = gunzipSync(readFileSync(SAMPLE_GZ)).toString('utf8');
const sample = join(tmp, 'sample.pgn');
writeFileSync(sample, sampleText);

function polyglotBook(pgn: string, args: string[]): Uint8Array {
  const out = join(tmp, 'theirs.bin');
  rmSync(out, { force: true });
  const r = spawnSync(POLYGLOT, ['make-book', '-pgn', pgn, '-bin', out, ...args], { cwd: tmp, encoding: 'utf8' });
  assert.match(r.stdout, /all done!\s*$/, r.stdout.slice(-300));
  return new Uint8Array(readFileSync(out));
}

async function make(inputs: string[], name: string, maxPly?: number): Promise<RichBook> {
  const out = join(tmp, name);
  const errors: string[] = [];
  await makeRichBook(out, { inputs, maxPly, onError: (e) => errors.push(e.message) });
  assert.deepEqual(errors, []);
  return openRichBook(out, { verify: true }).book;
}

test('statistics equal an independent count made with chessops from the PGN (1,000 games, 24 plies)', async () => {
  const MAX_PLY = 24;
  const text = sampleText.split(/\n(?=\[Event )/).slice(0, 1000).join('\n');
  const input = join(tmp, 'count.pgn');
  writeFileSync(input, text);
  const book = await make([input], 'count.tbk', MAX_PLY);
  // Independent count: chessops replays each game; pairs are keyed by FEN and SAN.
  const counts = new Map<string, { fen: string; san: string; w: number; d: number; l: number; rated: number; elo: number }>();
  let games = 0;
  let moves = 0;
  for (const g of parsePgn(text)) {
    const result = g.headers.get('Result');
    const white = result === '1-0' ? 1 : result === '0-1' ? -1 : result === '1/2-1/2' ? 0 : undefined;
    assert.notEqual(white, undefined, 'the sample has only finished games');
    games++;
    const pos = startingPosition(g.headers).unwrap();
    let ply = 0;
    for (const node of g.moves.mainline()) {
      if (ply++ >= MAX_PLY) break;
      const move = opsParseSan(pos, node.san);
      assert.ok(move, node.san);
      const fen = opsMakeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
      const san = opsMakeSan(pos, move);
      const mover = pos.turn === 'white' ? white! : -white!;
      const eloTag = Number(g.headers.get(pos.turn === 'white' ? 'WhiteElo' : 'BlackElo'));
      const id = `${fen}|${san}`;
      const c = counts.get(id) ?? { fen, san, w: 0, d: 0, l: 0, rated: 0, elo: 0 };
      if (mover > 0) c.w++;
      else if (mover < 0) c.l++;
      else c.d++;
      if (Number.isInteger(eloTag) && eloTag >= 100) {
        c.rated++;
        c.elo += eloTag;
      }
      counts.set(id, c);
      pos.play(move);
      moves++;
    }
  }
  assert.equal(book.header.games, games);
  // The book keys positions by Polyglot key, which merges FENs differing only in an e.p. square
  // nobody can use: aggregate the independent count the same way.
  const byKey = new Map<string, { w: number; d: number; l: number; rated: number; elo: number }>();
  for (const c of counts.values()) {
    const pos = unwrap(positionFromFen(`${c.fen} 0 1`));
    const id = `${keyToHex(pos.keyHi, pos.keyLo)}|${c.san}`;
    const a = byKey.get(id) ?? { w: 0, d: 0, l: 0, rated: 0, elo: 0 };
    a.w += c.w;
    a.d += c.d;
    a.l += c.l;
    a.rated += c.rated;
    a.elo += c.elo;
    byKey.set(id, a);
  }
  assert.equal(book.size, byKey.size, 'one entry per (position, move)');
  let total = 0;
  let checked = 0;
  const seenFen = new Set<string>();
  for (const c of counts.values()) {
    if (seenFen.has(c.fen)) continue;
    seenFen.add(c.fen);
    const pos = unwrap(positionFromFen(`${c.fen} 0 1`));
    for (const e of book.probe(pos)) {
      const id = `${keyToHex(pos.keyHi, pos.keyLo)}|${makeSan(pos, e.move)}`;
      const want = byKey.get(id);
      assert.ok(want, `${id} is in the book but not in the count`);
      assert.deepEqual([e.wins, e.draws, e.losses, e.ratedGames, e.eloSum], [want.w, want.d, want.l, want.rated, want.elo], id);
      checked++;
    }
  }
  for (let i = 0; i < book.size; i++) {
    const e = book.entry(i);
    total += e.wins + e.draws + e.losses;
  }
  assert.equal(total, moves, 'every counted move is in exactly one entry');
  assert.ok(checked >= byKey.size * 0.99, `${checked} of ${byKey.size} entries checked by position`);
});

const EXPORTS: [string[], ExportOptions][] = [
  [[], {}],
  [['-min-game', '2', '-min-score', '50', '-only-black'], { minGame: 2, minScore: 50, colour: 'black' }],
  [['-min-game', '1', '-uniform', '-only-white'], { minGame: 1, uniform: true, colour: 'white' }],
];

test('export equals polyglot make-book on the same games (whole games and -max-ply 20)', { skip: noPolyglot }, async () => {
  const whole = await make([sample], 'whole.tbk');
  for (const [args, o] of EXPORTS) {
    const ours = exportPolyglot(whole, o);
    assert.equal(ours.kind, 'exact');
    assert.deepEqual(ours.notes, []);
    assert.ok(Buffer.from(ours.bytes).equals(polyglotBook(sample, args)), `make-book ${args.join(' ')}`);
  }
  const short = await make([sample], 'short.tbk', 20);
  assert.ok(Buffer.from(exportPolyglot(short, { minGame: 2 }).bytes).equals(polyglotBook(sample, ['-max-ply', '20', '-min-game', '2'])));
});

test("export reproduces make-book's halving (polyglot-vectors/out/halving.bin), also when the games come in two runs", async () => {
  const g = (result: string, moves: string, n: number): string => `[Result "${result}"]\n\n${moves} ${result}\n\n`.repeat(n);
  const first = join(tmp, 'halving1.pgn');
  const second = join(tmp, 'halving2.pgn');
  writeFileSync(first, g('1/2-1/2', '1. d4 d5', 101) + g('1-0', '1. e4 e5', 10000));
  writeFileSync(second, g('1-0', '1. e4 e5', 6384) + g('0-1', '1. e4 e5', 5) + g('1/2-1/2', '1. d4 d5', 3));
  const expected = new Uint8Array(readFileSync(join(VECTORS, 'out/halving.bin')));
  const path = join(tmp, 'halving.tbk');
  await makeRichBook(path, { inputs: [first] });
  const s = await addToRichBook(path, { inputs: [second] });
  assert.equal(s.exportKind, 'exact');
  const book = openRichBook(path, { verify: true }).book;
  const out = exportPolyglot(book, { minGame: 1 });
  assert.ok(Buffer.from(out.bytes).equals(expected), 'halving.bin');
  // W/D/L are not halved.
  const start = unwrap(positionFromFen(STARTING_FEN));
  const e4 = book.probe(start).find((e) => e.move === unwrap(parseSan(start, 'e4')))!;
  assert.deepEqual([e4.wins, e4.draws, e4.losses, e4.weight], [16384, 0, 5, 16384]);
});

test('book add continues one pass: make(A) + add(B) exports as make(A + B)', { skip: noPolyglot }, async () => {
  const games = sampleText.split(/\n(?=\[Event )/);
  const a = join(tmp, 'a.pgn');
  const b = join(tmp, 'b.pgn');
  writeFileSync(a, games.slice(0, 1200).join('\n'));
  writeFileSync(b, games.slice(1200).join('\n'));
  const path = join(tmp, 'ab.tbk');
  await makeRichBook(path, { inputs: [a], maxPly: 30 });
  await addToRichBook(path, { inputs: [b] });
  const book = openRichBook(path, { verify: true }).book;
  assert.equal(book.header.games, 2000);
  assert.equal(book.header.maxPly, 30);
  assert.ok(Buffer.from(exportPolyglot(book, { minGame: 1 }).bytes).equals(polyglotBook(sample, ['-max-ply', '30', '-min-game', '1'])));
  // A different max-ply makes the export approximate, and says so.
  const other = join(tmp, 'ab2.tbk');
  await makeRichBook(other, { inputs: [a], maxPly: 30 });
  const s = await addToRichBook(other, { inputs: [b], maxPly: 20 });
  assert.equal(s.exportKind, 'approximate');
  assert.match(s.notes.join(), /max-ply 20 differs/);
  const out = exportPolyglot(openRichBook(other).book, {});
  assert.equal(out.kind, 'approximate');
  assert.ok(out.notes.length > 0);
});

test('book add after set and learn: a move known before its first game takes its creation order from that game', async () => {
  const g = (moves: string, n = 1): string => `[Result "1-0"]\n\n${moves} 1-0\n\n`.repeat(n);
  const a = join(tmp, 'tieA.pgn');
  const b = join(tmp, 'tieB.pgn');
  writeFileSync(a, g('1. e4 e5', 3));
  // Weight ties that make-book breaks by first sight: g4 before h4, d3 before a3.
  writeFileSync(b, g('1. g4 e5') + g('1. h4 e5') + g('1. e4 e5 2. d3') + g('1. e4 e5 2. a3') + g('1. g4 e5') + g('1. h4 e5'));
  const oneRun = join(tmp, 'tieAB.tbk');
  await makeRichBook(oneRun, { inputs: [a, b] });
  const expected = exportPolyglot(openRichBook(oneRun).book, { minGame: 1 }).bytes;
  const path = join(tmp, 'tie.tbk');
  await makeRichBook(path, { inputs: [a] });
  // h4 enters by book set, a3 as a PostBook move, both before any game played them.
  const start = unwrap(positionFromFen(STARTING_FEN));
  const h4 = unwrap(parseSan(start, 'h4'));
  updateRichBook(path, (t) => setUserValue(t, start.keyLo, start.keyHi, h4, 0, 50));
  learnGameSync(path, { startFen: STARTING_FEN, moves: ['e2e4', 'e7e5', 'a2a3'], result: '1-0', engineColor: 0 });
  const s = await addToRichBook(path, { inputs: [b] });
  assert.equal(s.exportKind, 'exact');
  const out = exportPolyglot(openRichBook(path, { verify: true }).book, { minGame: 1 });
  assert.deepEqual(out.notes, []);
  assert.ok(Buffer.from(out.bytes).equals(Buffer.from(expected)), 'same tie order as one run over the games');
});

test('lookups: the same moves from memory, an ArrayBuffer and positional reads of the file, in O(log n) reads', async () => {
  const path = join(tmp, 'look.tbk');
  await makeRichBook(path, { inputs: [sample], maxPly: 16 });
  const file = readFileSync(path);
  const mem = openRichBook(path).book;
  const fromBuffer = unwrap(RichBook.open(file.buffer.slice(file.byteOffset, file.byteOffset + file.length), 'look.tbk'));
  const disk = openRichBook(path, { memoryLimit: 0 });
  // A source without `bytes` takes the positional-read path; counting its reads bounds the search.
  let reads = 0;
  const counted = unwrap(RichBook.open({ size: file.length, read: (o, n) => (reads++, file.subarray(o, o + n)) }, 'look.tbk'));
  for (const b of [fromBuffer, disk.book, counted]) assert.ok(b.verify().ok);
  const limit = Math.ceil(Math.log2(mem.size)) + 2;
  let seed = 7;
  const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 0;
  let hits = 0;
  for (let k = 0; k < 2000; k++) {
    const e = k % 2 === 0 ? mem.entry(rnd() % mem.size) : undefined;
    const hi = e?.keyHi ?? rnd();
    const lo = e?.keyLo ?? rnd();
    const want = mem.movesOf(hi, lo);
    if (want.length > 0) hits++;
    assert.deepEqual(fromBuffer.movesOf(hi, lo), want);
    assert.deepEqual(disk.book.movesOf(hi, lo), want);
    const before = reads;
    assert.deepEqual(counted.movesOf(hi, lo), want);
    assert.ok(reads - before <= limit + want.length, `${reads - before} reads for ${want.length} moves in ${mem.size} entries`);
  }
  assert.ok(hits >= 1000);
  const start = unwrap(positionFromFen(STARTING_FEN));
  assert.deepEqual(disk.book.probe(start), mem.probe(start));
  disk.close();
});

test('the rich-book core is browser-safe: nothing reachable from it imports a Node module', () => {
  const roots = ['../src/book/rich/index.js', '../src/book/select/index.js', '../src/engine/richBookSource.js'];
  const seen = new Set<string>();
  const outside: string[] = [];
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
      else outside.push(`${file}: ${spec}`);
    }
  };
  for (const r of roots) walk(fileURLToPath(new URL(r, import.meta.url)));
  assert.ok(seen.size > 20, `${seen.size} modules walked`);
  assert.deepEqual(outside, []);
});

test('import of a .bin: moves resolved from the start position, export writes the same file back', () => {
  for (const name of ['main_min1', 'filters_min1', 'halving']) {
    const bytes = new Uint8Array(readFileSync(join(VECTORS, `out/${name}.bin`)));
    const bin = unwrap(PolyglotReader.from(bytes, name));
    const imported = importPolyglot(bin, name);
    assert.equal(imported.entries, bin.size);
    const book = unwrap(RichBook.open(encodeBook(imported.table, imported.info), `${name}.tbk`));
    const back = exportPolyglot(book, {});
    assert.equal(back.kind, 'imported');
    assert.ok(Buffer.from(back.bytes).equals(bytes), `${name} round trip`);
  }
  const bin = unwrap(PolyglotReader.from(new Uint8Array(readFileSync(join(VECTORS, 'out/main_min1.bin'))), 'main'));
  const imported = importPolyglot(bin, 'main');
  const book = unwrap(RichBook.open(encodeBook(imported.table, imported.info)));
  const start = unwrap(positionFromFen(STARTING_FEN));
  assert.deepEqual(
    book.probe(start).map((e) => [makeSan(start, e.move), e.weight]),
    [['c4', 1], ['d4', 1], ['e4', 4], ['h4', 3]],
  );
  // Castling and en passant entries are on lines from the start position: resolved with their kind.
  assert.ok(imported.resolved > 0);
});

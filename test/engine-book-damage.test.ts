/**
 * A damaged book given to the engine (`tabiya uci`, `tabiya xboard` as real processes on
 * pipes): the damage is reported (UCI `info string`, xboard `telluser`) naming the file, and the
 * engine plays on without the book: it searches and answers a legal move, as it does with no
 * book at all, instead of crashing or playing from garbage counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY_SIZE as BIN_ENTRY, encodeMove, writeEntry } from '../src/book/polyglot/format.js';
import { E_WINS, readHeader } from '../src/book/rich/format.js';
import { unwrap } from '../src/core/result.js';
import { STARTING_FEN, positionFromFen } from '../src/notation/fen.js';
import { parseUci } from '../src/notation/uci.js';
import { EngineProcess } from './engineProcess.js';
import { Engine } from '../src/engine/engine.js';
import { LocalHost } from '../src/engine/host.js';
import { loadEngineBook } from '../src/node/engineBook.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { tbkBytes, type BookRow } from './support/tbk.js';

/** A book that plays 1.f3 (ten won games) when it is used. */
const ROWS: BookRow[] = [
  { line: '', move: 'f2f3', wdl: [10, 0, 0] },
  { line: '', move: 'e2e4', wdl: [1, 0, 0] },
];

/** The books: intact, a count byte flipped (the checksum catches it), truncated, a .bin cut short. */
function books(dir: string): { intact: string; damaged: { path: string; says: RegExp }[] } {
  const bytes = tbkBytes(ROWS);
  const h = readHeader(bytes, bytes.length);
  assert.ok(typeof h !== 'string');
  const intact = join(dir, 'fool.tbk');
  writeFileSync(intact, bytes);
  const flipped = bytes.slice();
  flipped[h.entriesOffset + E_WINS]! ^= 0xff;
  writeFileSync(join(dir, 'flipped.tbk'), flipped);
  writeFileSync(join(dir, 'cut.tbk'), bytes.subarray(0, bytes.length - 10));
  const start = unwrap(positionFromFen(STARTING_FEN));
  const bin = new Uint8Array(BIN_ENTRY);
  writeEntry(bin, 0, start.keyHi, start.keyLo, encodeMove(unwrap(parseUci(start, 'f2f3'))), 100, 0);
  writeFileSync(join(dir, 'cut.bin'), bin.subarray(0, 12));
  writeFileSync(join(dir, 'empty.bin'), new Uint8Array(0));
  return {
    intact,
    damaged: [
      { path: join(dir, 'flipped.tbk'), says: /flipped\.tbk: checksum mismatch .*the file is damaged; playing without a book/ },
      { path: join(dir, 'cut.tbk'), says: /cut\.tbk: truncated or damaged: the header announces 2 entries .*; playing without a book/ },
      { path: join(dir, 'cut.bin'), says: /cut\.bin: size 12 is not a multiple of 16.*; playing without a book/ },
      // Valid but empty: never what the engine was given a book for, so said too.
      { path: join(dir, 'empty.bin'), says: /empty\.bin: the book is empty \(0 entries\); playing without a book/ },
    ],
  };
}

/**
 * A sparse .bin of `bytes`: zero entries (key 0, sorted before any real key) that take no disk
 * space, then the start position's entry, 1.f3, last.
 */
function sparseBin(path: string, bytes: number): string {
  const start = unwrap(positionFromFen(STARTING_FEN));
  const last = new Uint8Array(BIN_ENTRY);
  writeEntry(last, 0, start.keyHi, start.keyLo, encodeMove(unwrap(parseUci(start, 'f2f3'))), 100, 0);
  const fd = openSync(path, 'w');
  writeSync(fd, last, 0, BIN_ENTRY, bytes - BIN_ENTRY);
  closeSync(fd);
  return path;
}

const LEGAL_FROM_START = new Set(['a2a3', 'a2a4', 'b2b3', 'b2b4', 'c2c3', 'c2c4', 'd2d3', 'd2d4', 'e2e3', 'e2e4', 'f2f3', 'f2f4', 'g2g3', 'g2g4', 'h2h3', 'h2h4', 'b1a3', 'b1c3', 'g1f3', 'g1h3']);

test('uci: a damaged book is reported with info string and the engine searches without it', { timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-uci-damage-'));
  const e = new EngineProcess('uci');
  t.after(() => {
    e.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const { intact, damaged } = books(dir);
  e.send('uci');
  await e.expect(/^uciok$/);
  e.send('setoption name OwnBook value true');
  e.send('setoption name BookPolicy value gnu-best');
  // The intact book is played from: its move comes without a search.
  e.send(`setoption name BookFile value ${intact}`);
  e.send('position startpos');
  let from = e.lines.length;
  e.send('go depth 2');
  assert.equal(await e.expect(/^bestmove /), 'bestmove f2f3');
  assert.ok(!e.lines.slice(from).some((l) => l.text.startsWith('info depth')), 'a book move, no search');
  for (const { path, says } of damaged) {
    from = e.lines.length;
    e.send(`setoption name BookFile value ${path}`);
    assert.match(await e.expect(/^info string /), says);
    e.send('position startpos');
    e.send('go depth 2');
    const best = (await e.expect(/^bestmove /)).split(' ')[1]!;
    assert.ok(LEGAL_FROM_START.has(best), `${best} is a legal move`);
    assert.ok(e.lines.slice(from).some((l) => l.text.startsWith('info depth 2 ')), `${path}: the engine searched`);
    // Back to the intact book, so that the next damaged one is a change of file.
    e.send(`setoption name BookFile value ${intact}`);
  }
  e.send('isready');
  await e.expect(/^readyok$/);
  assert.equal(await e.quit(), 0);
});

test('xboard: a damaged book is reported with telluser, bk says why, the engine still moves', { timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-xboard-damage-'));
  const e = new EngineProcess('xboard');
  t.after(() => {
    e.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const { damaged } = books(dir);
  const flipped = damaged[0]!;
  e.send('xboard');
  e.send('protover 2');
  await e.expect(/^feature .*done=1/);
  e.send('option OwnBook=1');
  e.send(`option BookFile=${flipped.path}`);
  assert.match(await e.expect(/^telluser /), flipped.says);
  e.send('bk');
  assert.match(await e.expect(/^ /), /flipped\.tbk: checksum mismatch/);
  e.send('new');
  e.send('sd 2');
  e.send('go');
  const move = (await e.expect(/^move /)).split(' ')[1]!;
  assert.ok(LEGAL_FROM_START.has(move), `${move} is a legal move`);
  assert.equal(await e.quit(), 0);
});

test('uci: commands piped at start-up are answered in their order: the bad book\'s message before the readyok after it', { timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-uci-order-'));
  const e = new EngineProcess('uci');
  t.after(() => {
    e.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  const text = join(dir, 'text.bin');
  writeFileSync(text, 'not a book\n');
  // All at once, before the search thread has started: a go follows the isready at once.
  for (const line of ['uci', 'setoption name OwnBook value true', `setoption name BookFile value ${text}`, 'isready', 'position startpos', 'go depth 3']) e.send(line);
  await e.expect(/^bestmove /);
  const said = e.lines.map((l) => l.text).filter((l) => /^(info string|readyok|bestmove)/.test(l));
  assert.match(said[0]!, /^info string .*text\.bin: .*playing without a book$/);
  assert.equal(said[1], 'readyok');
  assert.match(said[2]!, /^bestmove /);
  assert.equal(await e.quit(), 0);
});

test('uci and xboard: a .bin over 2 GiB is searched on disk, as PolyGlot seeks in its book file, and played from', { timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-uci-bigbin-'));
  const uci = new EngineProcess('uci');
  const xb = new EngineProcess('xboard');
  t.after(() => {
    uci.kill();
    xb.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  // Read whole, the file could not be read at all.
  const big = sparseBin(join(dir, 'big.bin'), 3 * 2 ** 30);
  uci.send('uci');
  await uci.expect(/^uciok$/);
  uci.send('setoption name OwnBook value true');
  uci.send('setoption name BookPolicy value polyglot-best');
  uci.send(`setoption name BookFile value ${big}`);
  uci.send('position startpos');
  const from = uci.lines.length;
  uci.send('go depth 2');
  assert.equal(await uci.expect(/^bestmove /), 'bestmove f2f3');
  assert.ok(!uci.lines.slice(from).some((l) => l.text.startsWith('info string')), uci.since(from).join('\n'));
  assert.equal(await uci.quit(), 0);
  xb.send('xboard');
  xb.send('protover 2');
  await xb.expect(/^feature .*done=1/);
  xb.send(`option BookFile=${big}`);
  xb.send('new');
  xb.send('bk');
  assert.match(await xb.expect(/^ /), /^ f3 /);
  assert.equal(await xb.quit(), 0);
});

test('a GUI switching books: the book given before lets go of its file', { skip: !existsSync('/proc/self/fd') && 'needs /proc/self/fd' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-book-switch-'));
  try {
    const { intact } = books(dir);
    // Over 64 MiB, so searched on disk through an open file.
    const big = sparseBin(join(dir, 'big.bin'), 128 * 2 ** 20);
    const openOn = (path: string): number => readdirSync('/proc/self/fd').filter((f) => {
      try {
        return readlinkSync(`/proc/self/fd/${f}`) === path;
      } catch {
        return false;
      }
    }).length;
    const errors: string[] = [];
    const host = new LocalHost(new Engine({ wasm: wasmCoreModule() }), loadEngineBook);
    host.onError = (m) => errors.push(m);
    for (let i = 0; i < 3; i++) {
      host.configure({ ownBook: true, bookFile: big });
      assert.equal(openOn(big), 1, 'the book on disk is open while it is the book');
      host.configure({ bookFile: intact });
      assert.equal(openOn(big), 0, 'and closed when another book is given');
    }
    host.configure({ bookFile: '' });
    assert.equal(openOn(intact), 0);
    assert.deepEqual(errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The engine playing from a rich book (`.tbk`): the policy's choice, BookDepth, the avoid list
 * kept out of the search, book-aware statistics, and learning that rewrites the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { legalMoves } from '../src/core/movegen.js';
import { unwrap } from '../src/core/result.js';
import { makeUci } from '../src/notation/uci.js';
import { RichBook } from '../src/book/rich/reader.js';
import { openRichBook } from '../src/book/node/richFile.js';
import { explainPolicy, parsePolicy, seededRandom } from '../src/book/select/index.js';
import { BookProbe } from '../src/engine/bookProbe.js';
import { Engine } from '../src/engine/engine.js';
import { wasmCoreModule } from '../src/node/wasmCore.js';
import { RichBookSource } from '../src/engine/richBookSource.js';
import { loadEngineBook } from '../src/node/engineBook.js';
import { positionAfter, tbkBytes, type BookRow } from './support/tbk.js';

/** After 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 White mates with Qxf7. */
const MATE_LINE = 'e2e4 e7e5 d1h5 b8c6 f1c4 g8f6';

const ROWS: BookRow[] = [
  { line: '', move: 'e2e4', wdl: [40, 30, 30] },
  { line: '', move: 'd2d4', wdl: [35, 40, 25] },
  { line: '', move: 'g1f3', wdl: [5, 3, 2], user: 100 },
  { line: '', move: 'b1c3', wdl: [1, 0, 9] },
  { line: 'e2e4', move: 'e7e5', wdl: [20, 10, 20], own: [3, 0, 1] },
  { line: 'e2e4', move: 'c7c5', wdl: [30, 10, 20], own: [0, 1, 4] },
  // The mate is in the book but set to "never": Terra's avoid list keeps it out of the search too.
  { line: MATE_LINE, move: 'h5f7', wdl: [9, 0, 0], user: 0 },
  { line: MATE_LINE, move: 'c4f7', wdl: [0, 0, 9] },
];

const book = (): RichBook => unwrap(RichBook.open(tbkBytes(ROWS), 'constructed.tbk'));
const uci = (line: string, m: number): string => makeUci(m, positionAfter(line).chess960);

test('a constructed .tbk through RichBookSource: the policy sees every statistic', () => {
  const source = new RichBookSource(book());
  const start = positionAfter('');
  const moves = source.probe(start);
  assert.deepEqual(moves.map((m) => uci('', m.move)).sort(), ['b1c3', 'd2d4', 'e2e4', 'g1f3']);
  // Terra: g1f3 is set to 100, so it is always played.
  const probe = new BookProbe(source, { random: seededRandom(1) });
  assert.equal(uci('', probe.choose(start)), 'g1f3');
  // GNU Chess best: the largest weight 2·40 + 30 = 110 (e2e4) over 2·35 + 40 = 110? d2d4 is 110 too: the first wins.
  probe.policy = parsePolicy({ policy: 'gnu-best', BookUserValues: false });
  const best = uci('', probe.choose(start));
  const w = (u: string): number => 2 * ROWS.find((r) => r.line === '' && r.move === u)!.wdl![0] + ROWS.find((r) => r.line === '' && r.move === u)!.wdl![1];
  assert.equal(w(best), Math.max(w('e2e4'), w('d2d4'), w('g1f3'), w('b1c3')));
  probe.policy = parsePolicy({ policy: 'gnu-worst', BookUserValues: false });
  assert.equal(uci('', probe.choose(start)), 'b1c3');
  // After 1.e4: own results decide (3-0-1 is 75% > TerraLimit 40; 0-1-4 is 10%: avoid list).
  probe.policy = parsePolicy({});
  const afterE4 = positionAfter('e2e4');
  const rows = explainPolicy(probe.policy, source.probe(afterE4));
  assert.deepEqual(Object.fromEntries(rows.map((r) => [uci('e2e4', r.move), r.probability])), { c7c5: 0, e7e5: 1 });
  assert.deepEqual(probe.avoided(afterE4).map((m) => uci('e2e4', m)), ['c7c5']);
  // Book-aware search: White's statistics at the start, Black's after 1.e4, own games included.
  assert.equal(probe.knowsWell(start, 0), true);
  assert.equal(probe.knowsWell(afterE4, 1), true, '50 + 60 fixed and 9 own games for Black');
});

test('the engine plays the policy move, stops at BookDepth, and keeps the avoid list out of its search', () => {
  const engine = new Engine({ hashMB: 4, wasm: wasmCoreModule() });
  engine.book = new BookProbe(new RichBookSource(book()), { random: seededRandom(3) });
  engine.settings.ownBook = true;
  engine.setPosition(undefined, []);
  const first = engine.go({ depth: 4 });
  assert.deepEqual([uci('', first.bestMove), first.reason, first.nodes], ['g1f3', 'book', 0]);
  engine.setPosition(undefined, ['e2e4']);
  assert.equal(uci('e2e4', engine.go({ depth: 4 }).bestMove), 'e7e5');
  engine.settings.bookDepth = 1;
  assert.notEqual(engine.go({ depth: 3 }).reason, 'book', 'past BookDepth the engine searches');
  engine.settings.bookDepth = 0;

  // Out of book by policy (the only moves are avoided) the search never plays an avoided move,
  // not even the mate it would otherwise find at once.
  const line = MATE_LINE.split(' ');
  engine.setPosition(undefined, line);
  const r = engine.go({ depth: 4 });
  assert.notEqual(r.reason, 'book');
  assert.notEqual(uci(MATE_LINE, r.bestMove), 'h5f7');
  engine.settings.ownBook = false;
  engine.newGame();
  assert.equal(uci(MATE_LINE, engine.go({ depth: 4 }).bestMove), 'h5f7', 'without the book the mate is found');
});

test('book-aware search on a .tbk: the PV reaching positions the book knows well (by W/D/L) stops the search', () => {
  // 3...Kxf7 is the best move at every depth, so that the PV reaches the book from depth 4 on.
  const root = 'e2e4 e7e5 d1h5 b8c6 h5f7';
  const engine = new Engine({ hashMB: 8, wasm: wasmCoreModule() });
  engine.setPosition(undefined, root.split(' '));
  const plain = engine.go({ depth: 9 });
  assert.equal(plain.depth, 9);
  const best = uci(root, plain.bestMove);
  // Every position after the engine's move and any reply, with 12 games scoring 10/12 for the mover (the engine's side).
  const rows: BookRow[] = [];
  const after = positionAfter(`${root} ${best}`);
  for (const reply of legalMoves(after)) {
    const line = `${root} ${best} ${makeUci(reply, false)}`;
    const next = legalMoves(positionAfter(line))[0];
    if (next !== undefined) rows.push({ line, move: makeUci(next, false), wdl: [8, 4, 0] });
  }
  const known = unwrap(RichBook.open(tbkBytes(rows), 'aware.tbk'));
  engine.book = new BookProbe(new RichBookSource(known));
  engine.settings.bookAwareSearch = true;
  engine.newGame();
  const aware = engine.go({ depth: 9 });
  assert.equal(aware.reason, 'book-pv');
  assert.equal(uci(root, aware.bestMove), best);
  assert.ok(aware.depth < 9, `stopped at depth ${aware.depth}`);
  // The same positions with a losing record for the engine's side are not "known well".
  const bad = unwrap(RichBook.open(tbkBytes(rows.map((r) => ({ ...r, wdl: [0, 4, 8] as [number, number, number] }))), 'bad.tbk'));
  engine.book = new BookProbe(new RichBookSource(bad));
  engine.newGame();
  const unaffected = engine.go({ depth: 9 });
  assert.notEqual(unaffected.reason, 'book-pv');
  assert.equal(unaffected.depth, 9);
});

test('learning through the engine loader rewrites the .tbk and the engine reads the new statistics', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-richbook-'));
  try {
    const path = join(dir, 'learn.tbk');
    writeFileSync(path, tbkBytes(ROWS));
    const source = loadEngineBook(path) as RichBookSource;
    assert.ok(source instanceof RichBookSource);
    const probe = new BookProbe(source);
    const before = source.probe(positionAfter('')).find((m) => uci('', m.move) === 'd2d4')!;
    assert.deepEqual([before.dynWins, before.dynDraws, before.dynLosses], [0, 0, 0]);
    // White (the engine) plays 1.d4, Black 1...e5, then White 2.Nf3 (out of book: PostBook) and loses.
    await probe.learn({ startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: ['d2d4', 'e7e5', 'g1f3', 'e5d4'], result: '0-1', engineColor: 0, evals: [null, null, -35] });
    const after = source.probe(positionAfter('')).find((m) => uci('', m.move) === 'd2d4')!;
    assert.deepEqual([after.dynWins, after.dynDraws, after.dynLosses], [0, 0, 1]);
    const post = source.probe(positionAfter('d2d4 e7e5')).find((m) => uci('d2d4 e7e5', m.move) === 'g1f3')!;
    assert.deepEqual([post.postBook, post.dynLosses, post.evalCp], [true, 1, -35]);
    const onDisk = openRichBook(path, { verify: true });
    assert.equal(onDisk.book.probe(positionAfter('')).find((m) => uci('', m.move) === 'd2d4')!.dynLosses, 1);
    onDisk.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

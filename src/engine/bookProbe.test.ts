import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeMove } from '../book/polyglot/format.js';
import { PolyglotReader } from '../book/polyglot/reader.js';
import { BookError } from '../book/polyglot/select.js';
import { encodeBook, type EntryInput } from '../book/polyglot/writer.js';
import { legalMoves } from '../core/movegen.js';
import type { Position } from '../core/position.js';
import { unwrap } from '../core/result.js';
import { STARTING_FEN, positionFromFen } from '../notation/fen.js';
import { parseSan } from '../notation/san.js';
import { BookProbe, polyglotSource, type BookCandidate, type BookSource } from './bookProbe.js';
import { wasmCoreModule } from '../node/wasmCore.js';
import { Engine } from './engine.js';

const start = (): Position => unwrap(positionFromFen(STARTING_FEN));
const mv = (pos: Position, san: string): number => unwrap(parseSan(pos, san));

function fakeSource(cands: (pos: Position) => BookCandidate[]): BookSource {
  return { name: 'fake', candidates: cands };
}

test('choose follows the policy and never plays moves below minWeight', () => {
  const pos = start();
  const e4 = mv(pos, 'e4');
  const d4 = mv(pos, 'd4');
  const c4 = mv(pos, 'c4');
  const src = fakeSource(() => [
    { move: e4, weight: 30 },
    { move: d4, weight: 10 },
    { move: c4, weight: 0 },
  ]);
  assert.equal(new BookProbe(src, { policy: 'best' }).choose(pos), e4);
  // PolyGlot's reservoir pick over shares 7500 and 2500: one draw per move, the second
  // replaces e4 with d4 when rand_int(10000) < 2500.
  const seq = [0.5, 0.24, 0.5, 0.26];
  const weighted = new BookProbe(src, { policy: 'weighted', random: () => seq.shift()! });
  assert.deepEqual([weighted.choose(pos), weighted.choose(pos)], [d4, e4]);
  const uniform = new BookProbe(src, { policy: 'uniform', random: () => 0.99 });
  assert.equal(uniform.choose(pos), d4, 'weight-0 moves are not candidates');
  assert.equal(new BookProbe(src).choose(pos, [c4]), 0, 'restricted to an unplayable move: out of book');
  assert.equal(new BookProbe(fakeSource(() => [])).choose(pos), 0);
});

test('knowsWell: by weight for Polyglot sources, by score for sources with results', () => {
  const pos = start();
  const e4 = mv(pos, 'e4');
  assert.equal(new BookProbe(fakeSource(() => [{ move: e4, weight: 0 }]), { minKnownWeight: 1 }).knowsWell(pos, 0), false);
  assert.equal(new BookProbe(fakeSource(() => [{ move: e4, weight: 3 }]), { minKnownWeight: 1 }).knowsWell(pos, 0), true);
  // White to move; White scored 8/10 with e4: good for White, bad for Black.
  const stats = new BookProbe(fakeSource(() => [{ move: e4, weight: 1, wins: 7, draws: 2, losses: 1 }]), { minGames: 10, minScore: 0.55 });
  assert.equal(stats.knowsWell(pos, 0), true);
  assert.equal(stats.knowsWell(pos, 1), false);
  const few = new BookProbe(fakeSource(() => [{ move: e4, weight: 1, wins: 5, draws: 0, losses: 0 }]), { minGames: 10 });
  assert.equal(few.knowsWell(pos, 0), false, 'too few games');
});

test('a Polyglot book read from bytes gives its legal moves with weights', () => {
  const pos = start();
  const entries: EntryInput[] = [
    { key: { hi: pos.keyHi >>> 0, lo: pos.keyLo >>> 0 }, move: encodeMove(mv(pos, 'e4')), weight: 5 },
    { key: { hi: pos.keyHi >>> 0, lo: pos.keyLo >>> 0 }, move: encodeMove(mv(pos, 'Nf3')), weight: 2 },
  ];
  const book = new BookProbe(polyglotSource(unwrap(PolyglotReader.from(encodeBook(entries), 'test.bin'))), { policy: 'best' });
  assert.deepEqual(book.candidates(pos).map((c) => [c.move, c.weight]), [[mv(pos, 'e4'), 5], [mv(pos, 'Nf3'), 2]]);
  assert.equal(book.choose(pos), mv(pos, 'e4'));
  pos.play(mv(pos, 'e4'));
  assert.equal(book.choose(pos), 0);
});

/** A Polyglot book that knows every position after `first` and any reply (the root side to move). */
function bookAfter(root: Position, first: number): Uint8Array {
  const entries: EntryInput[] = [];
  const p = root.clone();
  p.play(first);
  for (const reply of legalMoves(p)) {
    p.play(reply);
    const next = legalMoves(p)[0];
    if (next !== undefined) entries.push({ key: { hi: p.keyHi >>> 0, lo: p.keyLo >>> 0 }, move: encodeMove(next), weight: 4 });
    p.undo();
  }
  return encodeBook(entries);
}

test('book-aware search stops deepening when the PV reaches a book position (seed 000, Deliverable 3)', () => {
  // 1.e4 e5 2.Qh5 Nc6 3.Qxf7+: the best move, Kxf7, is the same at every depth, so that the PV
  // reaches the book from the first depth the book-aware search looks at (4).
  const fen = 'r1bqkbnr/pppp1Qpp/2n5/4p3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 3';
  const engine = new Engine({ hashMB: 8, wasm: wasmCoreModule() });
  engine.setPosition(fen);
  const plain = engine.go({ depth: 9 });
  assert.equal(plain.reason, undefined);
  assert.equal(plain.depth, 9);

  // Book: every position after the engine's own choice and any reply.
  const book = unwrap(PolyglotReader.from(bookAfter(engine.pos, plain.bestMove), 'constructed.bin'));
  engine.book = new BookProbe(polyglotSource(book));
  engine.settings.bookAwareSearch = true;
  engine.newGame();
  const aware = engine.go({ depth: 9 });
  assert.equal(aware.reason, 'book-pv');
  assert.equal(aware.bestMove, plain.bestMove);
  assert.ok(aware.depth < 9 && aware.nodes < plain.nodes, `stopped at depth ${aware.depth} after ${aware.nodes} nodes (plain: ${plain.nodes})`);

  // A book that only knows the positions after some other move changes nothing.
  const other = legalMoves(engine.pos).find((m) => m !== plain.bestMove)!;
  engine.book = new BookProbe(polyglotSource(unwrap(PolyglotReader.from(bookAfter(engine.pos, other), 'other.bin'))));
  engine.newGame();
  const unaffected = engine.go({ depth: 9 });
  assert.equal(unaffected.reason, undefined);
  assert.equal(unaffected.depth, 9);
});

test('OwnBook: in book the book move is played without a search; BookDepth leaves the book', () => {
  const engine = new Engine({ hashMB: 1, wasm: wasmCoreModule() });
  const pos = start();
  const nf3 = mv(pos, 'Nf3');
  engine.book = new BookProbe(fakeSource((p) => (p.ply === 0 && p.keyLo === pos.keyLo ? [{ move: nf3, weight: 1 }] : [])));
  engine.settings.ownBook = true;
  engine.setPosition(STARTING_FEN);
  const r = engine.go({ depth: 6 });
  assert.deepEqual([r.bestMove, r.reason, r.nodes], [nf3, 'book', 0]);
  engine.settings.bookDepth = 1;
  engine.setPosition('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2');
  assert.notEqual(engine.go({ depth: 3 }).reason, 'book', 'past BookDepth plies the engine searches');
  engine.settings.bookDepth = 0;
  engine.settings.ownBook = false;
  engine.setPosition(STARTING_FEN);
  assert.notEqual(engine.go({ depth: 3 }).reason, 'book');
});

test('a source that fails while probing (a damaged entry on disk) puts the book out of play: reported once, the engine searches', () => {
  const failures: string[] = [];
  let calls = 0;
  const damaged: BookSource = {
    name: 'big.tbk',
    candidates() {
      calls++;
      throw new BookError('ERR_TBK_ENTRY', 'big.tbk: entry 7 (byte 512) is damaged: unknown flags 0x40', 'big.tbk', 512);
    },
  };
  const book = new BookProbe(damaged, { policy: 'best', onFailure: (m) => failures.push(m) });
  const engine = new Engine({ hashMB: 1, wasm: wasmCoreModule() });
  engine.book = book;
  engine.settings.ownBook = true;
  engine.settings.bookAwareSearch = true;
  engine.setPosition(STARTING_FEN);
  const r = engine.go({ depth: 3 });
  assert.notEqual(r.reason, 'book');
  assert.equal(r.depth, 3);
  assert.ok(legalMoves(start()).includes(r.bestMove));
  assert.deepEqual(failures, ['big.tbk: entry 7 (byte 512) is damaged: unknown flags 0x40; playing on without the book']);
  assert.equal(book.failure, failures[0]);
  assert.equal(calls, 1, 'the failed source is not asked again');
  assert.equal(book.choose(start()), 0);
});

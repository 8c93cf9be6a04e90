/**
 * Fuzzing the text formats: FEN, EPD, SAN and UCI moves, and `Board.push`. Real positions from
 * ../shared/data, mutated, and random ones must either parse or come back as the module's typed
 * error naming what is wrong and where (the FEN field, the EPD column), never throw or hang. What
 * parses must be what it claims: a FEN that is accepted is a legal position that prints and
 * reads back to the same position and key; a move that is accepted is legal. chessops is the
 * oracle: it must agree on every FEN and move, except where docs/notation.md says it differs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Chess } from 'chessops/chess';
import { makeFen as opsMakeFen, parseFen as opsParseFen } from 'chessops/fen';
import { makeSan as opsMakeSan, parseSan as opsParseSan } from 'chessops/san';
import { makeUci as opsMakeUci, parseUci as opsParseUci } from 'chessops/util';
import fc from 'fast-check';
import { OUT } from '../src/core/attacks.js';
import { legalMoves } from '../src/core/movegen.js';
import type { Position } from '../src/core/position.js';
import { ParseError } from '../src/core/result.js';
import { Board } from '../src/board.js';
import { EpdError, makeEpd, parseEpd } from '../src/notation/epd.js';
import { FenError, legalEpSquare, makeFen, positionFromFen, STARTING_FEN, type FenField } from '../src/notation/fen.js';
import { makeSan, parseSan } from '../src/notation/san.js';
import { makeUci, parseUci } from '../src/notation/uci.js';
import { budget } from './support/budget.js';
import { mutateText, realEpdLines, realFens, runs, textMutation } from './support/fuzzInputs.js';
import { rng } from './support/rng.js';
import { assertLinear, withinHangBound } from './support/timeBounds.js';

const FIELDS: readonly FenField[] = ['fen', 'board', 'turn', 'castling', 'ep', 'halfmoves', 'fullmoves'];

/** A message a person can read on one line: short and without control characters. */
function checkMessage(e: ParseError, input: string): void {
  assert.match(e.code, /^ERR_[A-Z_]+$/, input);
  assert.ok(e.message.length >= 10 && e.message.length <= 400, `message of ${e.message.length} characters for ${JSON.stringify(input.slice(0, 200))}`);
  // eslint-disable-next-line no-control-regex
  assert.ok(!/[\u0000-\u001f\u007f]/.test(e.message), `control character in ${JSON.stringify(e.message)}`);
}

// ----- FEN ---------------------------------------------------------------------------------------

const mutatedFen = fc
  .tuple(fc.nat(), fc.array(textMutation('pnbrqkPNBRQK12345678/ -wKQkqabcdefghABCDEFGH09x~[]+_'), { maxLength: 4 }))
  .map(([pick, edits]) => {
    const fens = realFens();
    return mutateText(fens[pick % fens.length]!, edits);
  });

/** Random boards with a king each (pawns kept off the back ranks, so most are legal) and random other fields. */
const randomFen = fc
  .tuple(
    fc.array(fc.oneof({ arbitrary: fc.constant(''), weight: 4 }, { arbitrary: fc.constantFrom(...'PNBRQpnbrq'), weight: 1 }), { minLength: 64, maxLength: 64 }),
    fc.nat(63),
    fc.nat(63),
    fc.constantFrom('w', 'b'),
    fc.constantFrom('-', 'KQkq', 'K', 'q', 'Kk', 'HAha', 'B', 'e', 'Qq'),
    fc.constantFrom('-', 'e3', 'e6', 'd6', 'c3', 'a6', 'h3'),
    fc.constantFrom('0 1', '5 40', '150 1', '0 0', '99999999999999999999 99999999999999999999'),
  )
  .map(([squares, wk, bk, turn, castling, ep, counters]) => {
    const sq = squares.map((p, i) => (p.toLowerCase() === 'p' && (i < 8 || i >= 56) ? '' : p));
    sq[wk] = 'K';
    sq[bk] = 'k';
    const ranks: string[] = [];
    for (let r = 0; r < 8; r++) {
      let out = '';
      let empty = 0;
      for (let f = 0; f < 8; f++) {
        const p = sq[r * 8 + f]!;
        if (p === '') empty++;
        else {
          if (empty > 0) out += empty;
          empty = 0;
          out += p;
        }
      }
      ranks.push(empty > 0 ? out + empty : out);
    }
    return `${ranks.join('/')} ${turn} ${castling} ${ep} ${counters}`;
  });

/**
 * Why tabiya and chessops may disagree on accepting a FEN (docs/notation.md), or undefined.
 * `tabiya` is tabiya's error code (undefined: accepted), `chessops` chessops's.
 */
function documentedDifference(fen: string, tabiya: string | undefined, chessops: string | undefined): string | undefined {
  const fields = fen.trim().split(/\s+/);
  if (/[_~[\]+]/.test(fen) || (fields[0]!.match(/\//g) ?? []).length > 7) return 'chessops reads variant and URL notation';
  if (fen !== fen.trim()) return 'tabiya ignores blanks around the FEN';
  if (fields.slice(4).some((f) => /^\d{5,}$/.test(f))) return 'tabiya clamps huge move counters';
  if (tabiya === 'ERR_FEN_EP' && chessops === undefined) return 'tabiya refuses an e.p. square on the wrong rank';
  if (tabiya === undefined && chessops === 'ERR_CASTLING') return 'tabiya drops castling rights it cannot hold';
  return undefined;
}

/** Why tabiya and chessops may write different FENs for a position both accept, or undefined. */
function documentedFenDifference(ours: string, theirs: string): string | undefined {
  const [board, turn, castling, ep] = theirs.split(' ');
  if (`${board} ${turn} ${castling} -` !== ours || ep === undefined || ep === '-') return undefined;
  // A pawn cannot have just passed a square that is not empty.
  const file = ep.charCodeAt(0) - 97;
  const row = board!.split('/')[8 - Number(ep[1])]!.replace(/\d/g, (d) => '.'.repeat(Number(d)));
  return row[file] === '.' ? undefined : 'chessops keeps an e.p. square that is occupied';
}

function opsLegalMoves(pos: Chess): string[] {
  const out: string[] = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      if (pos.board.pawn.has(from) && (to >> 3 === 7 || to >> 3 === 0)) {
        for (const promotion of ['knight', 'bishop', 'rook', 'queen'] as const) out.push(opsMakeUci({ from, to, promotion }));
      } else out.push(opsMakeUci({ from, to }));
    }
  }
  return out.sort();
}

/** What an accepted position must be, whatever the text it came from. */
function checkLegalPosition(pos: Position, input: string): void {
  const fen = makeFen(pos);
  const board = fen.split(' ')[0]!;
  assert.equal(board.split('K').length, 2, `White has not one king: ${fen} from ${JSON.stringify(input)}`);
  assert.equal(board.split('k').length, 2, `Black has not one king: ${fen} from ${JSON.stringify(input)}`);
  const ranks = board.split('/');
  assert.ok(!/[pP]/.test(ranks[0]!) && !/[pP]/.test(ranks[7]!), `pawn on a back rank: ${fen}`);
  const them = pos.turn ^ 1;
  assert.ok(!pos.isAttacked(pos.kingSq[them]!, pos.turn, pos.bbLo[0]! | pos.bbLo[8]!, pos.bbHi[0]! | pos.bbHi[8]!), `the side not to move is in check: ${fen}`);
  // The incremental key is the key computed from scratch, and printing then reading gives both back.
  pos.computeKey();
  assert.ok(OUT[0] === pos.keyLo && OUT[1] === pos.keyHi, `key of ${fen} is not the key computed from scratch`);
  const again = positionFromFen(fen);
  assert.ok(again.ok, `${fen} (printed from ${JSON.stringify(input)}) does not read back`);
  assert.equal(makeFen(again.value), fen);
  assert.deepEqual(legalMoves(again.value), legalMoves(pos));
  // FEN shows an e.p. square only when the capture is legal; the Polyglot key counts it whenever a
  // pawn stands beside (docs/notation.md). The e.p. square of every double push keeps the key.
  const exact = positionFromFen(makeFen(pos, { epAlways: true }));
  assert.ok(exact.ok && exact.value.keyLo === pos.keyLo && exact.value.keyHi === pos.keyHi, `${fen} reads back with another key`);
  if (legalEpSquare(pos) === pos.epSquare) assert.ok(again.value.keyLo === pos.keyLo && again.value.keyHi === pos.keyHi, `${fen} reads back with another key`);
}

test('fuzz: mutated and random FENs parse to legal positions that round-trip, or to a FenError naming the field; chessops agrees but for documented differences', (t) => {
  let accepted = 0;
  const differences = new Map<string, number>();
  fc.assert(
    fc.property(fc.oneof(mutatedFen, randomFen), (fen) => {
      const r = withinHangBound(() => fen, () => positionFromFen(fen));
      if (!r.ok) {
        assert.ok(r.error instanceof FenError && FIELDS.includes(r.error.field), `${String(r.error)} for ${JSON.stringify(fen)}`);
        checkMessage(r.error, fen);
      } else {
        accepted++;
        checkLegalPosition(r.value, fen);
      }
      const setup = opsParseFen(fen);
      const ops = setup.isOk ? Chess.fromSetup(setup.value) : setup;
      if (r.ok !== ops.isOk) {
        const why = documentedDifference(fen, r.ok ? undefined : r.error.code, ops.isOk ? undefined : ops.error.message);
        if (why === undefined) {
          assert.fail(`undocumented difference on ${JSON.stringify(fen)}: tabiya ${r.ok ? 'accepts' : r.error.code}, chessops ${ops.isOk ? 'accepts' : ops.error.message}`);
        }
        differences.set(why, (differences.get(why) ?? 0) + 1);
      } else if (r.ok && ops.isOk) {
        // Counters differ by design (each clamps its own way); the position must not.
        const ours = makeFen(r.value).split(' ').slice(0, 4).join(' ');
        const theirs = opsMakeFen(ops.value.toSetup()).split(' ').slice(0, 4).join(' ');
        if (ours !== theirs) {
          const why = documentedFenDifference(ours, theirs);
          if (why === undefined) assert.fail(`from ${JSON.stringify(fen)}: tabiya reads ${ours}, chessops ${theirs}`);
          differences.set(why, (differences.get(why) ?? 0) + 1);
          return; // chessops may then capture e.p. onto the occupied square
        }
        assert.deepEqual(legalMoves(r.value).map((m) => makeUci(m, true)).sort(), opsLegalMoves(ops.value), `legal moves of ${ours}`);
      }
    }),
    runs(7, 3000, 300000),
  );
  t.diagnostic(`${accepted} FENs accepted; differences from chessops: ${JSON.stringify([...differences])}`);
  assert.ok(accepted > budget(400, 40000), `only ${accepted} FENs accepted: the generators test little`);
});

// ----- EPD ---------------------------------------------------------------------------------------

const mutatedEpd = fc
  .tuple(fc.nat(), fc.array(textMutation('pnbrqkPNBRQK12345678/ -wKQkq;"\\abcdefgh bm am id c0 D1 hmvc fmvn'), { minLength: 1, maxLength: 4 }))
  .map(([pick, edits]) => {
    const lines = realEpdLines();
    return mutateText(lines[pick % lines.length]!, edits);
  });

test('fuzz: mutated EPD lines parse, or give an EpdError with the column; what parses writes back to the same record', () => {
  fc.assert(
    fc.property(mutatedEpd, (line) => {
      const r = withinHangBound(() => line, () => parseEpd(line));
      if (!r.ok) {
        assert.ok(r.error instanceof EpdError, String(r.error));
        assert.ok(r.error.column >= 1 && r.error.column <= line.length + 1, `column ${r.error.column} outside ${JSON.stringify(line)}`);
        checkMessage(r.error, line);
        return;
      }
      const pos = positionFromFen(r.value.fen);
      if (!pos.ok) {
        assert.ok(pos.error instanceof FenError, String(pos.error));
        checkMessage(pos.error, r.value.fen);
        return;
      }
      const again = parseEpd(makeEpd(pos.value, r.value.ops));
      assert.ok(again.ok, `${makeEpd(pos.value, r.value.ops)} (written from ${JSON.stringify(line)}) does not read back`);
      // Line breaks inside a quoted operand cannot be written in a one-line record: spaces.
      assert.deepEqual(again.value.ops, new Map([...r.value.ops].map(([op, xs]) => [op, xs.map((x) => x.replace(/[\r\n]+/g, ' '))])));
      const back = positionFromFen(again.value.fen);
      assert.ok(back.ok && makeFen(back.value, { epd: true }) === makeFen(pos.value, { epd: true }));
    }),
    runs(11, 3000, 300000),
  );
});

// ----- SAN, UCI, Board.push ------------------------------------------------------------------------

let positions: string[] | undefined;

/** Real positions, and positions from random games (castling, e.p., promotions, checks). */
function movePositions(): string[] {
  if (positions === undefined) {
    const random = rng(5);
    positions = realFens().filter((_, i) => i % 7 === 0);
    for (const start of [STARTING_FEN, 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', '8/2P5/8/8/8/8/5p2/K6k w - - 0 1', 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9']) {
      for (let g = 0; g < 20; g++) {
        const pos = positionFromFen(start);
        assert.ok(pos.ok);
        for (let k = 0; k < 60; k++) {
          const moves = legalMoves(pos.value);
          if (moves.length === 0) break;
          pos.value.play(moves[Math.floor(random() * moves.length)]!);
          positions.push(makeFen(pos.value));
        }
      }
    }
  }
  return positions;
}

const moveText = fc.tuple(
  fc.nat(),
  fc.nat(),
  fc.constantFrom('tabiya SAN', 'chessops SAN', 'UCI', 'random'),
  fc.string({ maxLength: 8 }),
  fc.array(textMutation('abcdefgh12345678NBRQKPnbrqkpxX-:=+#!?O0o. ep()'), { maxLength: 3 }),
);

test('fuzz: SAN and UCI moves, written or mutated, parse to legal moves (as chessops reads them) or to an error', () => {
  fc.assert(
    fc.property(moveText, ([pick, which, kind, random, edits]) => {
      const all = movePositions();
      const fen = all[pick % all.length]!;
      const pos = positionFromFen(fen);
      assert.ok(pos.ok);
      const ops = Chess.fromSetup(opsParseFen(fen).unwrap()).unwrap();
      const moves = legalMoves(pos.value);
      if (moves.length === 0) return;
      const before = makeFen(pos.value);
      const m = moves[which % moves.length]!;
      const written =
        kind === 'tabiya SAN' ? makeSan(pos.value, m) : kind === 'UCI' ? makeUci(m, pos.value.chess960) : kind === 'chessops SAN' ? opsMakeSan(ops, opsParseUci(makeUci(m, true))!) : random;
      const text = mutateText(written, edits);
      const san = withinHangBound(() => text, () => parseSan(pos.value, text));
      const uci = parseUci(pos.value, text);
      assert.equal(makeFen(pos.value), before, 'parsing changed the position');
      for (const r of [san, uci]) {
        if (r.ok) assert.ok(moves.includes(r.value), `${JSON.stringify(text)} read as an illegal move in ${before}`);
        else checkMessage(r.error, text);
      }
      // chessops reads a subset of what tabiya reads (docs/notation.md): the same move.
      const theirs = opsParseSan(ops, text);
      if (theirs !== undefined) {
        assert.ok(san.ok, `chessops reads ${JSON.stringify(text)} as ${opsMakeUci(theirs)} in ${fen}, tabiya does not`);
        assert.equal(makeUci(san.value, true), opsMakeUci(theirs), `${JSON.stringify(text)} in ${fen}`);
      }
      // What tabiya reads names the move's destination (or is castling).
      if (san.ok && !/^[O0o-]+[+#!? ]*$/.test(text.trim())) {
        const squares = [...text.replace(/e\.p\./g, '').matchAll(/[a-h][1-8]/g)].map((x) => x[0]);
        const to = makeUci(san.value, false).slice(2, 4);
        const viaRook = makeUci(san.value, true).slice(2, 4);
        assert.ok(squares.at(-1) === to || squares.at(-1) === viaRook, `${JSON.stringify(text)} read as ${makeUci(san.value, false)} in ${fen}`);
      }
      if (uci.ok) assert.ok([makeUci(uci.value, false), makeUci(uci.value, true)].includes(text.trim().toLowerCase()), `UCI ${JSON.stringify(text)} read as ${makeUci(uci.value)}`);
      const board = Board.fromPosition(pos.value);
      try {
        board.push(text);
      } catch (e) {
        assert.ok(e instanceof ParseError, `Board.push(${JSON.stringify(text)}) threw ${String(e)}`);
        assert.equal(board.fen(), before, 'a refused move changed the board');
      }
    }),
    runs(13, 3000, 300000),
  );
});

// ----- huge inputs -------------------------------------------------------------------------------

const HUGE: [string, (n: number) => string][] = [
  ['FEN with a huge counter', (n) => `${STARTING_FEN.slice(0, -4)} ${'9'.repeat(n)} 1`],
  ['FEN with a huge castling field', (n) => `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w ${'KQkq'.repeat(n / 4)} - 0 1`],
  ['FEN with a huge rank', (n) => `${'1'.repeat(n)}/8/8/8/8/8/8/8 w - - 0 1`],
  ['FEN of blanks', (n) => ' '.repeat(n)],
  ['EPD with a huge string', (n) => `${STARTING_FEN.slice(0, -4)} id "${'a'.repeat(n)}";`],
  ['EPD with many operations', (n) => `${STARTING_FEN.slice(0, -4)} ${'bm e4; '.repeat(n / 7)}`],
  ['EPD with many operands', (n) => `${STARTING_FEN.slice(0, -4)} bm ${'e4 '.repeat(n / 3)};`],
  ['SAN of many glyphs', (n) => `e4${'!?+'.repeat(n / 3)}`],
  ['SAN of many e.p. suffixes', (n) => `exd6${'e.p.'.repeat(n / 4)}`],
];

test('linear time: huge FEN, EPD and SAN texts', () => {
  const start = positionFromFen(STARTING_FEN);
  assert.ok(start.ok);
  for (const [name, make] of HUGE) {
    assertLinear(name, make, (text) => {
      positionFromFen(text);
      const r = parseEpd(text);
      if (r.ok) positionFromFen(r.value.fen);
      parseSan(start.value, text);
      parseUci(start.value, text);
    }, budget(1 << 18, 1 << 20));
  }
});

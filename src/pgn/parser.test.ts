import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PgnParser, parsePgn } from './parser.js';
import { makeUci } from '../notation/uci.js';
import type { PgnGameError } from './visitor.js';

const PGN = '[Event "a"]\n[Result "1-0"]\n\n1. e4 {c} e5 2. Nf3 (2. f4) Nc6 3. Bb5 1-0\n\n[Event "b"]\n\n1. d4 d5 2. Zz9 *\n\n[Event "c"]\n\n1. c4 e5 0-1\n';

test('endTags returning false skips the movetext; endGame still follows', () => {
  const seen: string[] = [];
  let moves = 0;
  const p = parsePgn(PGN, {
    tag: (n, v) => void (n === 'Event' && seen.push(v)),
    endTags: () => false,
    move: () => void moves++,
    endGame: (r) => void seen.push(r),
  });
  assert.equal(moves, 0);
  assert.deepEqual(seen, ['a', '1-0', 'b', '*', 'c', '0-1']);
  assert.equal(p.games, 3); // unread moves cannot be wrong
});

test('a visitor with tagNames hears those tags only, and the parser still sets up [FEN] games', () => {
  const text = '[Event "x"]\n[White "A"]\n[WhiteElo "2400"]\n[WhiteEl "1"]\n[Whiteelo "2"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/4K2R w K - 0 1"]\n\n1. O-O Kd4 *\n';
  const all: string[] = [];
  parsePgn(text, { tag: (n) => void all.push(n) });
  assert.deepEqual(all, ['Event', 'White', 'WhiteElo', 'WhiteEl', 'Whiteelo', 'SetUp', 'FEN']);
  const heard: [string, string][] = [];
  let castled = false;
  const p = parsePgn(text, {
    tagNames: ['WhiteElo', 'Result'],
    tag: (n, v) => void heard.push([n, v]),
    move: (pos, _m, ply) => void (ply === 0 && (castled = pos.board[4] === 6)),
  });
  // A name that only begins like a wanted one, or differs in case, is not it.
  assert.deepEqual(heard, [['WhiteElo', '2400']]);
  assert.ok(castled, 'the game was played from its FEN');
  assert.equal(p.games, 1);
});

test('move returning false stops the replay of that game only', () => {
  const plies: number[] = [];
  const p = parsePgn(PGN, { move: (_pos, _m, ply) => (plies.push(ply), ply < 1) });
  assert.deepEqual(plies, [0, 1, 0, 1, 0, 1]);
  assert.equal(p.games, 3);
});

test('replay off: structure and SAN text only', () => {
  const san: string[] = [];
  const p = parsePgn(PGN, { san: (s, d) => void (d === 0 && san.push(s)), move: () => assert.fail('no replay') }, { replay: false });
  assert.equal(p.games, 3);
  assert.deepEqual(san, ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'd4', 'd5', 'Zz9', 'c4', 'e5']);
});

test('gameText gives each valid game as written, whatever the chunking', () => {
  const whole: string[] = [];
  const dec = new TextDecoder();
  parsePgn(PGN, { gameText: (b) => void whole.push(dec.decode(b)) });
  assert.deepEqual(whole, ['[Event "a"]\n[Result "1-0"]\n\n1. e4 {c} e5 2. Nf3 (2. f4) Nc6 3. Bb5 1-0', '[Event "c"]\n\n1. c4 e5 0-1']);
  const bytes = new TextEncoder().encode(PGN);
  for (const size of [1, 3, 16]) {
    const parts: string[] = [];
    const p = new PgnParser({ gameText: (b) => void parts.push(dec.decode(b)) });
    p.begin('x');
    for (let i = 0; i < bytes.length; i += size) p.push(bytes.subarray(i, i + size));
    p.end();
    assert.deepEqual(parts, whole, `chunks of ${size}`);
  }
});

test('a piece of a file reports locations relative to the whole file', () => {
  const errors: PgnGameError[] = [];
  const p = new PgnParser({ error: (e) => void errors.push(e) });
  p.begin('big.pgn', { line: 1001, gamesBefore: 40 });
  p.push(new TextEncoder().encode(PGN));
  p.end();
  assert.deepEqual(errors.map((e) => [e.file, e.line, e.column, e.game]), [['big.pgn', 1008, 13, 42]]);
});

test('after a broken game the reader starts again past its result token, so games without tags after it are read, whatever the chunking', () => {
  // Game 2 is broken (Bxx); its result ends it. A "1-0" in its comment, or after ";", does not;
  // nor does a result inside a variation (the game goes on to its own result).
  const text =
    '1. e4 e5 *\n\n1. e4 e5 2. Nf3 {won 1-0 later} Nc6 3. Bxx ; 0-1 here\n a6 1-0\n\n1. d4 d5 *\n' +
    '1. c4 (1. b3 1/2-1/2) e5 2. Qxx e4 0-1 1. g3 *\n[Event "x"]\n\n1. f4 1-0\n';
  const bytes = new TextEncoder().encode(text);
  const expected = { games: [['e2e4 e7e5', '*'], ['d2d4 d7d5', '*'], ['g2g3', '*'], ['f2f4', '1-0']], errors: [[3, 'unreadable-move'], [7, 'unmatched-parenthesis']] };
  for (const size of [bytes.length, 1, 2, 5]) {
    const games: string[][] = [];
    const errors: [number, string][] = [];
    let moves: string[] = [];
    const p = new PgnParser({
      move: (pos, m) => void moves.push(makeUci(m, pos.chess960)),
      endGame: (r) => {
        games.push([moves.join(' '), r]);
        moves = [];
      },
      error: (e) => {
        errors.push([e.line, e.kind]);
        moves = [];
      },
    });
    p.begin('x');
    for (let i = 0; i < bytes.length; i += size) p.push(bytes.subarray(i, i + size));
    p.end();
    assert.deepEqual({ games, errors }, expected, `chunks of ${size}`);
  }
});

/**
 * The reader against hand-made nasty inputs: every tolerance the PGN world needs, and every
 * kind of broken game, each reported with its exact location and followed by a good game that
 * must still be read. Every case is also read in chunks of 1..7 bytes: same result.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommentCommands } from '../src/pgn/annotations.js';
import type { PgnLimits, PgnParserOptions } from '../src/pgn/parser.js';
import type { PgnErrorKind } from '../src/pgn/visitor.js';
import { read, type ReadResult } from './pgnEvents.js';

const GOOD = '\n\n[Event "good"]\n\n1. d4 d5 2. c4 *\n';

interface Case {
  name: string;
  input: string | Uint8Array;
  hooks?: 'main' | 'all';
  limits?: Partial<PgnLimits>;
  /** Main-line moves (UCI) of each valid game. */
  games?: string[][];
  /** Errors: kind, line, column, game. */
  errors?: [PgnErrorKind, number, number, number][];
  check?(r: ReadResult): void;
}

/** Line and column (1-based) of the first occurrence of `needle` in `text`. */
function at(text: string, needle: string, from = 0): [number, number] {
  const i = text.indexOf(needle, from);
  assert.ok(i >= 0, `"${needle}" not in the input`);
  const before = text.slice(0, i).split(/\r\n|\r|\n/);
  return [before.length, before[before.length - 1]!.length + 1];
}

const D4 = ['d2d4', 'd7d5', 'c2c4'];
const ILLEGAL = '[Event "bad"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Ke7 4. Qxe8 *' + GOOD;
const AMBIGUOUS = '1. d4 d5 2. Nf3 Nf6 3. Nd2 e6 *' + GOOD;
const BAD_TAG = '[Event "unterminated]\n[Site "x"]\n\n1. e4 *' + GOOD;
const NULL_IN_CHECK = '1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- *' + GOOD;
const PLIES = '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 *' + GOOD;
const LONG = '[Event "long"]\n\n' + '1. Nf3 Nf6 2. Ng1 Ng8 '.repeat(20) + '*' + GOOD;
const MISSING = '[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6\n[Event "b"]\n\n1. c4 *';

const cases: Case[] = [
  { name: 'empty input', input: '', games: [], errors: [] },
  { name: 'only whitespace and newlines', input: ' \n\r\n\t\n', games: [], errors: [] },
  {
    name: 'move numbers in every spelling',
    input: '1.e4 e5 2. Nf3 2...Nc6 3 Bb5 a6 4.Ba4 Nf6 *',
    games: [['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6', 'b5a4', 'g8f6']],
  },
  {
    name: 'brace and line comments, escape lines, comments between games',
    input: '% generated\n{ file comment }\n[Event "x"]\n; between tags\n[Site "y"]\n\n{start} 1. e4 {a} ; rest\ne5 {multi\nline} 2. Nf3 *',
    games: [['e2e4', 'e7e5', 'g1f3']],
    hooks: 'all',
    check: (r) => {
      assert.deepEqual(r.games[0]!.tags, { Event: 'x', Site: 'y' });
      assert.deepEqual(r.log.filter((l) => l.startsWith('comment')), ['comment "start" 0', 'comment "a" 0', 'comment " rest" 0', 'comment "multi\\nline" 0']);
    },
  },
  {
    name: 'NAGs and glyphs',
    input: '1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 Nf6 $201 +- 5. O-O = *',
    hooks: 'all',
    check: (r) => {
      assert.equal(r.games[0]!.moves.length, 9);
      assert.deepEqual(r.log.filter((l) => l.startsWith('nag')).map((l) => Number(l.split(' ')[1])), [1, 2, 3, 4, 5, 6, 14, 201, 18, 10]);
    },
  },
  {
    name: 'nested variations are skipped unread by a main-line reader',
    input: '1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Zz9)) 2. c4) 1... e5 (1... c5 2. Nf3) 2. Nf3 *',
    hooks: 'main',
    games: [['e2e4', 'e7e5', 'g1f3']],
  },
  {
    name: 'nested variations are replayed when asked for',
    input: '1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3)) 2. c4) 1... e5 (1... c5 2. Nf3) 2. Nf3 *',
    hooks: 'all',
    games: [['e2e4', 'e7e5', 'g1f3']],
    check: (r) =>
      assert.deepEqual(r.log.filter((l) => /^(\(|\)|vmove)/.test(l)), [
        '( 1', 'vmove 0 d2d4 1', 'vmove 1 d7d5 1', '( 2', 'vmove 1 g8f6 2', 'vmove 2 c2c4 2', '( 3', 'vmove 2 g1f3 3', ') 3', ') 2',
        'vmove 2 c2c4 1', ') 1', '( 1', 'vmove 1 c7c5 1', 'vmove 2 g1f3 1', ') 1',
      ]),
  },
  {
    name: 'an illegal move in a variation breaks the game only when variations are read',
    input: '1. e4 (1. Zz9) e5 *' + GOOD,
    hooks: 'all',
    games: [D4],
    errors: [['unreadable-move', 1, 11, 1]],
  },
  {
    name: 'every result token',
    input: '1. e4 1-0\n1. e4 0-1\n1. e4 1/2-1/2\n1. e4 *\n1. e4 ½-½\n1. e4 1/2\n',
    check: (r) => assert.deepEqual(r.games.map((g) => g.result), ['1-0', '0-1', '1/2-1/2', '*', '1/2-1/2', '1/2-1/2']),
  },
  {
    name: '[%clk] and [%eval] are exposed',
    input: '1. e4 {[%clk 0:03:00] [%eval 0.25]} e5 {[%eval #-3,20] good} [%clk 0:02:59] *',
    hooks: 'all',
    check: (r) => {
      const comments = r.log.filter((l) => l.startsWith('comment')).map((l) => JSON.parse(l.slice(8, l.lastIndexOf(' '))) as string);
      const a = parseCommentCommands(comments[0]!);
      assert.equal(a.clock, 180);
      assert.deepEqual(a.eval, { cp: 25 });
      const b = parseCommentCommands(comments[1]!);
      assert.deepEqual(b.eval, { mate: -3, depth: 20 });
      assert.equal(b.text, 'good');
      assert.equal(r.games[0]!.moves.length, 2);
    },
  },
  {
    name: 'byte-order mark and CRLF',
    input: '\uFEFF[Event "bom"]\r\n\r\n1. e4 e5 *\r\n\r\n[Event "2"]\r\n\r\n1. d4 Ke7 *\r\n\r\n[Event "3"]\r\n\r\n1. c4 *',
    games: [['e2e4', 'e7e5'], ['c2c4']],
    errors: [['illegal-move', 7, 7, 2]],
    check: (r) => assert.equal(r.games[0]!.tags.Event, 'bom'),
  },
  {
    name: 'byte-order marks of joined files (cat, zstdcat of monthly dumps), also while skipping a broken game',
    input: '\uFEFF[Event "a"]\n\n1. e4 *\n\n\uFEFF[Event "b"]\n\n1. d4 Ke7 *\n\n\uFEFF[Event "c"]\n\n1. c4 *\n\n\uFEFF[Event "d"]\n\n1. Nf3 *\n',
    games: [['e2e4'], ['c2c4'], ['g1f3']],
    errors: [['illegal-move', 7, 7, 2]],
    check: (r) => assert.deepEqual(r.games.map((g) => g.tags.Event), ['a', 'c', 'd']),
  },
  {
    name: 'CR-only line ends',
    input: '[Event "mac"]\r\r1. e4 e5 *\r\r[Event "2"]\r\r1. d4 Ke7 *\r\r[Event "3"]\r\r1. c4 *',
    games: [['e2e4', 'e7e5'], ['c2c4']],
    errors: [['illegal-move', 7, 7, 2]],
  },
  {
    name: 'Latin-1, Windows-1252 and UTF-8 text',
    input: new Uint8Array([
      ...new TextEncoder().encode('[Event "Jönköping"]\n[White "M'), 0xfc, ...new TextEncoder().encode('ller"]\n[Black "'),
      0x93, 0x51, 0x94, 0x20, 0x80, ...new TextEncoder().encode('"]\n\n1. e4 *'),
    ]),
    check: (r) => assert.deepEqual(r.games[0]!.tags, { Event: 'Jönköping', White: 'Müller', Black: '“Q” €' }),
  },
  {
    name: 'castling with zeros and en-passant suffixes',
    input: '1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 4. Nf3 Be7 5. Bc4 0-0 6. 0-0 a6 7. d4 b6 8. d5 c5 9. dxc6e.p. *',
    games: [['e2e4', 'g8f6', 'e4e5', 'd7d5', 'e5d6', 'e7d6', 'g1f3', 'f8e7', 'f1c4', 'e8g8', 'e1g1', 'a7a6', 'd2d4', 'b7b6', 'd4d5', 'c7c5', 'd5c6']],
  },
  {
    name: 'null moves are passed to a visitor that handles them',
    input: '1. e4 -- 2. d4 Z0 3. c4 *',
    hooks: 'all',
    games: [['e2e4', '--', 'd2d4', '--', 'c2c4']],
  },
  {
    name: 'the UCI null move 0000 is a null move, not a move number to skip',
    input: '1. e4 0000 2. d4 0000 3. c4 *',
    hooks: 'all',
    games: [['e2e4', '--', 'd2d4', '--', 'c2c4']],
  },
  {
    name: 'a null move ends the main line for a visitor without nullMove',
    input: '1. e4 -- 2. d4 Z0 3. c4 *',
    hooks: 'main',
    games: [['e2e4']],
  },
  {
    name: 'a null move in check is illegal',
    input: NULL_IN_CHECK,
    hooks: 'all',
    games: [D4],
    errors: [['illegal-move', ...at(NULL_IN_CHECK, '--'), 1]],
  },
  {
    name: '[FEN] and [SetUp] games, White or Black to move',
    input:
      '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n\n1. e4 Kd7 2. e5 *\n\n' +
      '[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]\n\n1... e5 2. Nf3 *',
    games: [['e2e4', 'e8d7', 'e4e5'], ['e7e5', 'g1f3']],
  },
  {
    name: 'Chess960: king and rook swap squares',
    input: '[Variant "Chess960"]\n[FEN "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9"]\n\n9. O-O Nc5 *',
    games: [['f1g1', 'e6c5']],
  },
  {
    name: 'tags without moves, several tags on a line, unescaped quotes',
    input: '[Event "empty"]\n[Result "*"]\n\n*\n\n[White "a"] [Black "b"]\n[Event "The "Big" Open"]\n[Site "Esc \\"q\\" \\\\"]\n\n1. e4 *',
    games: [[], ['e2e4']],
    check: (r) => assert.deepEqual(r.games[1]!.tags, { White: 'a', Black: 'b', Event: 'The "Big" Open', Site: 'Esc "q" \\' }),
  },
  { name: 'illegal move', input: ILLEGAL, games: [D4], errors: [['illegal-move', ...at(ILLEGAL, 'Ke7'), 1]] },
  { name: 'ambiguous move', input: AMBIGUOUS, games: [D4], errors: [['ambiguous-move', ...at(AMBIGUOUS, 'Nd2'), 1]] },
  { name: 'garbage byte', input: '1. e4 e5 2. @@@ *' + GOOD, games: [D4], errors: [['bad-token', 1, 13, 1]] },
  { name: 'garbage word', input: '1. e4 hello *' + GOOD, games: [D4], errors: [['unreadable-move', 1, 7, 1]] },
  // A NUL read as a space would leave the novelty mark N and the legal move f3.
  { name: 'NUL inside a move', input: '1. e4 e5 2. N\x00f3 *' + GOOD, games: [D4], errors: [['bad-token', 1, 14, 1]] },
  { name: 'escape byte between moves', input: '1. e4 \x1b e5 *' + GOOD, games: [D4], errors: [['bad-token', 1, 7, 1]] },
  {
    name: 'tab, vertical tab, form feed and a final Ctrl-Z are white space',
    input: '[Event "a"]\n\n1.\te4\x0be5\x0c2. Nf3 *\n' + GOOD + '\x1a',
    games: [['e2e4', 'e7e5', 'g1f3'], D4],
  },
  { name: 'stray closing brace', input: '1. e4 } e5 *' + GOOD, games: [D4], errors: [['bad-token', 1, 7, 1]] },
  { name: 'unmatched ")"', input: '1. e4 ) e5 *' + GOOD, games: [D4], errors: [['unmatched-parenthesis', 1, 7, 1]] },
  { name: 'variation not closed before the result', input: '1. e4 (1. d4 e5 *' + GOOD, games: [D4], errors: [['unmatched-parenthesis', 1, 17, 1]] },
  {
    name: 'variation not closed before the next game',
    input: '[Event "a"]\n\n1. e4 (1. d4 e5\n\n[Event "b"]\n\n1. c4 *',
    games: [['c2c4']],
    errors: [['unmatched-parenthesis', 5, 1, 1]],
  },
  { name: 'missing result before the next game', input: MISSING, games: [['c2c4']], errors: [['missing-result', 4, 1, 1]] },
  { name: 'missing result at the end of the file', input: GOOD + '\n[Event "x"]\n\n1. e4 e5', games: [D4], errors: [['missing-result', 9, 9, 2]] },
  { name: 'file ends inside a comment', input: GOOD + '\n1. e4 {never closed', games: [D4], errors: [['truncated', 7, 20, 2]] },
  { name: 'file ends inside a variation', input: GOOD + '\n1. e4 (1. d4', games: [D4], errors: [['truncated', 7, 13, 2]] },
  { name: 'file ends inside a tag', input: GOOD + '\n[Event "cut', games: [D4], errors: [['truncated', 7, 1, 2]] },
  {
    name: 'a game with tags only, then the next game',
    input: '[Event "a"]\n[Site "s"]\n\n[Event "b"]\n[Site "t"]\n\n1. e4 *',
    games: [['e2e4']],
    errors: [['missing-result', 4, 1, 1]],
    check: (r) => assert.deepEqual(r.games[0]!.tags, { Event: 'b', Site: 't' }),
  },
  { name: 'file ends after the tags', input: GOOD + '\n[Event "x"]\n', games: [D4], errors: [['missing-result', 8, 1, 2]] },
  {
    name: 'unclosed comment stops at the next [Event',
    input: '[Event "a"]\n\n1. e4 {oops e5 *\n\n[Event "b"]\n\n1. c4 *',
    games: [['c2c4']],
    errors: [['truncated', 5, 1, 1]],
  },
  { name: 'unknown variant', input: '[Variant "Atomic"]\n\n1. e4 *' + GOOD, games: [D4], errors: [['unknown-variant', 3, 1, 1]] },
  { name: 'bad FEN', input: '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n1. e4 *' + GOOD, games: [D4], errors: [['bad-fen', 3, 1, 1]] },
  { name: 'bad tag', input: BAD_TAG, games: [D4], errors: [['bad-tag', 1, 1, 1]] },
  { name: 'tag without a value', input: '[Event]\n\n1. e4 *' + GOOD, games: [D4], errors: [['bad-tag', 1, 1, 1]] },
  { name: 'unbraced [%clk] command in movetext', input: '1. e4 [%clk 0:01:00] e5 *', games: [['e2e4', 'e7e5']] },
  { name: 'prose, not PGN', input: 'This is not a chess file.\nJust text.\n' + GOOD, games: [D4], errors: [['unreadable-move', 1, 1, 1]] },
  {
    name: 'too many plies',
    input: PLIES,
    limits: { maxPlies: 8 },
    games: [D4],
    errors: [['too-long', ...at(PLIES, 'Nf3', 40), 1]],
  },
  { name: 'variations nested too deep', input: '1. e4 (1. d4 (1. c4 (1. b3))) *' + GOOD, hooks: 'all', limits: { maxDepth: 2 }, games: [D4], errors: [['too-long', 1, 21, 1]] },
  {
    name: 'game longer than the byte limit',
    input: LONG,
    limits: { maxGameBytes: 200 },
    games: [D4],
    // The first token that starts more than 200 bytes after the game's first byte.
    errors: [['too-long', 3, LONG.slice(16).split(' ').reduce((col, w) => (16 + col - 1 <= 200 ? col + w.length + 1 : col), 1), 1]],
  },
  {
    name: 'comment longer than the token limit',
    input: `1. e4 {${'x'.repeat(300)}} *` + GOOD,
    hooks: 'all',
    limits: { maxTokenBytes: 64 },
    games: [D4],
    check: (r) => assert.deepEqual(r.errors.map((e) => [e.kind, e.game]), [['too-long', 1]]),
  },
  // Found by the fuzz suite (test/pgn-fuzz.test.ts); each input is the minimal one it found.
  {
    name: 'tags without movetext, then after a blank line a game starting with [Event: the game is read',
    input: '[Variant "\u0000hess960"]' + GOOD,
    games: [D4],
    errors: [['missing-result', 3, 1, 1]],
  },
  {
    name: 'a tag line over the token limit is too long whatever the chunking',
    input: '([Event "Titled Tue 14th Jul Final"]\n\n1. e4 *' + GOOD,
    limits: { maxTokenBytes: 16 },
    games: [D4],
    errors: [['unmatched-parenthesis', 1, 2, 1], ['too-long', 1, 2, 2]],
  },
  {
    name: 'a comment over the token limit is judged where it ends, whatever the chunking',
    input: '1. e4 {a comment over the limit\n\n[Site "x"]\n\n1. d4 *} e5 *' + GOOD,
    hooks: 'all',
    limits: { maxTokenBytes: 16 },
    games: [D4],
    errors: [['too-long', 1, 7, 1]],
  },
  {
    name: 'a comment past the game byte limit is judged where it ends, whatever the chunking',
    input: '1. e4 {a comment longer than the whole game may be\n\n[Site "x"]\n\n1. d4 *} e5 *' + GOOD,
    limits: { maxGameBytes: 40 },
    games: [D4],
    errors: [['too-long', 1, 7, 1]],
  },
  {
    name: 'an unclosed comment over the limit breaks only its own game (not a later escape line)',
    input: '1. e4 {' + 'x'.repeat(40) + '\n[Event "b"]\n\n1. d4\n% escape\nd5 *',
    hooks: 'all',
    limits: { maxTokenBytes: 16 },
    games: [['d2d4', 'd7d5']],
    errors: [['truncated', 2, 1, 1]],
  },
  {
    name: 'control characters and long tokens from the input are quoted short in messages',
    input: '[\u0000vent "x"]\n\n1. e4 *\n\n[Event "y"]\n\n1. ' + 'a'.repeat(300) + ' *' + GOOD,
    games: [D4],
    errors: [['bad-tag', 1, 1, 1], ['unreadable-move', 7, 4, 2]],
    check: (r) => {
      assert.match(r.errors[0]!.message, /"\[\\x00vent "x"\]"/);
      assert.ok(r.errors[1]!.message.length < 150, r.errors[1]!.message);
    },
  },
  {
    name: 'invisible characters in a bad token are shown (a byte-order mark before a move, a zero-width space)',
    input: '1. e4 \uFEFFe5 *\n\n[Event "y"]\n\n1. d4 \u200Bd5 \u00A0 *' + GOOD,
    games: [D4],
    errors: [['bad-token', 1, 7, 1], ['bad-token', 5, 7, 2]],
    check: (r) => {
      assert.equal(r.errors[0]!.message, 'unexpected "\\ufeffe5"');
      assert.equal(r.errors[1]!.message, 'unexpected "\\u200bd5"');
    },
  },
];

function verify(c: Case, r: ReadResult): void {
  if (c.games !== undefined) assert.deepEqual(r.games.map((g) => g.moves), c.games);
  if (c.errors !== undefined) assert.deepEqual(r.errors.map((e) => [e.kind, e.line, e.column, e.game]), c.errors);
  for (const e of r.errors) {
    assert.equal(e.file, 'test.pgn');
    assert.ok(e.message.length > 10, e.message);
  }
  c.check?.(r);
}

for (const c of cases) {
  test(`robustness: ${c.name}`, () => {
    const options: PgnParserOptions & { hooks?: 'main' | 'all' } = { hooks: c.hooks ?? 'main', limits: c.limits };
    const whole = read(c.input, options);
    verify(c, whole);
    for (let chunk = 1; chunk <= 7; chunk++) {
      const parts = read(c.input, { ...options, chunk });
      assert.deepEqual(parts.log, whole.log, `chunks of ${chunk} bytes`);
    }
  });
}

test('robustness: random bytes are reported, never crash or hang', () => {
  let x = 12345;
  const bytes = new Uint8Array(20000).map(() => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 24;
  });
  const r = read(bytes);
  assert.ok(r.errors.length >= 1);
  assert.ok(r.errors.every((e) => e.line >= 1 && e.column >= 1 && e.game >= 1));
  const after = read(new Uint8Array([...bytes, ...new TextEncoder().encode('\n\n[Event "x"]\n\n1. e4 e5 *\n')]));
  assert.deepEqual(after.games.at(-1)!.moves, ['e2e4', 'e7e5']);
});

/**
 * Fuzzing the PGN reader with mutated real games (test/support/fuzzInputs.ts), each followed by
 * a known good game. Whatever the damage, the reader must not throw or hang, must report every
 * broken game once with a kind, a message and a location inside the input, must still read the
 * good game after it, must see the same thing whatever the chunking, and every game it accepts
 * must stand on its own: read alone it gives the same game, its moves (variations included) are
 * legal for chessops, and writing it out and reading it back gives it again. Pathological
 * megabytes (nesting, one huge comment or token, floods of brackets) must cost linear time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Chess } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import { parseUci as opsParseUci } from 'chessops/util';
import fc from 'fast-check';
import { MOVE_NULL } from '../src/core/move.js';
import { makeUci } from '../src/notation/uci.js';
import { parseCommentCommands } from '../src/pgn/annotations.js';
import { gameTag, readGames, type PgnGame, type PgnNode } from '../src/pgn/game.js';
import { PgnParser, type PgnLimits } from '../src/pgn/parser.js';
import { readPgn } from '../src/pgn/reader.js';
import type { PgnGameError, PgnVisitor } from '../src/pgn/visitor.js';
import { writeGame } from '../src/pgn/writer.js';
import { budget } from './support/budget.js';
import { byteMutation, concat, mutateBytes, realGames, runs } from './support/fuzzInputs.js';
import { assertLinear, withinHangBound } from './support/timeBounds.js';
import { read } from './pgnEvents.js';

const encoder = new TextEncoder();
const latin1 = new TextDecoder('latin1');
const SENTINEL = '[Event "sentinel"]\n[Site "?"]\n[Result "1/2-1/2"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1/2-1/2\n';
const SENTINEL_MOVES = ['e2e4', 'c7c5', 'g1f3', 'd7d6', 'd2d4', 'c5d4', 'f3d4', 'g8f6', 'b1c3', 'a7a6'];
const KINDS = new Set(['illegal-move', 'ambiguous-move', 'unreadable-move', 'bad-token', 'bad-tag', 'bad-fen', 'unknown-variant', 'unmatched-parenthesis', 'missing-result', 'truncated', 'too-long']);

/** Some real games, mutated. */
const damagedGames = fc
  .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.array(byteMutation, { minLength: 1, maxLength: 5 }))
  .map(([picks, mutations]) => {
    const games = realGames();
    let body: Uint8Array = encoder.encode(picks.map((p) => games[p % games.length]!).join("\n"));
    for (const m of mutations) body = mutateBytes(body, m);
    return body;
  });

/** Chunk sizes a stream might deliver, used in turn. */
const chunking = fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 });

const show = (input: Uint8Array): string => JSON.stringify(latin1.decode(input).slice(0, 3000));

/** Every error: a known kind, a short printable message, a place inside the input. */
function checkErrors(errors: readonly PgnGameError[], input: Uint8Array, file = 'test.pgn'): void {
  const lines = latin1.decode(input).split(/\r\n|\r|\n/);
  for (const e of errors) {
    const bad = (why: string): never => assert.fail(`${why}: ${JSON.stringify(e)}\ninput: ${show(input)}`);
    if (!KINDS.has(e.kind)) bad('unknown kind');
    if (e.file !== file || e.game < 1) bad('no file or game');
    if (e.line < 1 || e.line > lines.length) bad('line outside the input');
    if (e.column < 1 || e.column > lines[e.line - 1]!.length + 1) bad('column outside its line');
    if (e.message.length < 10 || e.message.length > 400) bad('message empty or unbounded');
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(e.message)) bad('control character in the message');
  }
}

/** Each game begins once and then ends once: with its result, or with its error. */
function checkPairing(log: readonly string[]): void {
  let open = false;
  for (const l of log) {
    if (l.startsWith('begin ')) {
      assert.ok(!open, `a game began inside another\n${log.join('\n')}`);
      open = true;
    } else if (l.startsWith('end ') || l.startsWith('error ')) {
      assert.ok(open, `"${l}" without a game\n${log.join('\n')}`);
      open = false;
    }
  }
}

test('fuzz: mutated real games never throw or hang; broken games are located, the next game is read, chunking changes nothing, each game stands alone', () => {
  let broken = 0;
  fc.assert(
    fc.property(damagedGames, fc.constantFrom('main' as const, 'all' as const), chunking, (body, hooks, chunk) => {
      const input = concat(body, encoder.encode('\n\n' + SENTINEL));
      const whole = withinHangBound(() => show(input), () => read(input, { hooks, texts: true }));
      broken += whole.errors.length;
      const last = whole.games.at(-1);
      if (last?.tags.Event !== 'sentinel') assert.fail(`the good game after the damaged one was not read\ninput: ${show(input)}\n${whole.log.join('\n')}`);
      assert.deepEqual(last.moves, SENTINEL_MOVES);
      checkErrors(whole.errors, input);
      checkPairing(whole.log);
      assert.deepEqual(read(input, { hooks, chunk }).log, whole.log, `chunks of ${chunk.join(', ')} bytes read differently\ninput: ${show(input)}`);
      assert.equal(whole.texts.length, whole.games.length);
      whole.texts.forEach((text, i) => {
        const alone = read(text, { hooks });
        assert.deepEqual(alone.errors, [], `game ${i + 1} read alone fails\n${latin1.decode(text)}`);
        assert.deepEqual(alone.games.map((g) => g.moves), [whole.games[i]!.moves]);
      });
    }),
    runs(20240611, 300, 30000),
  );
  // The mutations must break games, or the run proves nothing.
  assert.ok(broken > budget(150, 15000), `${broken} broken games`);
});

/** The chessops position a game starts from. */
function startOf(game: PgnGame): Chess {
  if (game.fen === undefined) return Chess.default();
  // Four fields: chessops reads at most four digits in the counters, which do not matter here.
  return Chess.fromSetup(opsParseFen(game.fen.split(' ').slice(0, 4).join(' ')).unwrap()).unwrap();
}

/** Plays a line (and its variations) in chessops: every move must be legal there. */
function replayInChessops(pos: Chess, line: readonly PgnNode[]): void {
  for (const node of line) {
    for (const v of node.variations ?? []) replayInChessops(pos.clone(), v);
    if (node.move === MOVE_NULL) {
      pos.turn = pos.turn === 'white' ? 'black' : 'white';
      pos.epSquare = undefined;
      continue;
    }
    const uci = makeUci(node.move!, true); // king takes rook, as chessops encodes castling
    const move = opsParseUci(uci);
    assert.ok(move !== undefined && pos.isLegal(move), `chessops finds ${uci} (${node.san}) illegal`);
    pos.play(move);
  }
}

const plain = (g: PgnGame): unknown => ({ comments: g.comments, moves: g.moves, result: g.result });
const exportName = /^[A-Za-z0-9][A-Za-z0-9_+#=:-]*$/;

test('fuzz: games read as trees from mutated input replay in chessops, variations too, and survive write → read', () => {
  fc.assert(
    fc.property(damagedGames, (input) => {
      const { games } = withinHangBound(() => show(input), () => readGames(input));
      for (const game of games) {
        replayInChessops(startOf(game), game.moves);
        const text = writeGame(game);
        const back = readGames(text);
        assert.deepEqual(back.errors, [], text);
        assert.equal(back.games.length, 1, text);
        const again = back.games[0]!;
        assert.deepEqual(plain(again), plain(game), text);
        assert.equal(writeGame(again), text, 'writing is not a fixpoint');
        // Tags keep their values (the writer turns line breaks and tabs into spaces).
        for (const [name, value] of game.tags) {
          if (exportName.test(name) && gameTag(game, name) === value && name !== 'Result') {
            assert.equal(gameTag(again, name), value.replace(/[\r\n\t]+/g, ' '), text);
          }
        }
      }
    }),
    runs(7, 150, 15000),
  );
});

const tightLimits: fc.Arbitrary<Partial<PgnLimits>> = fc.record(
  {
    maxGameBytes: fc.integer({ min: 1, max: 3000 }),
    maxTokenBytes: fc.integer({ min: 1, max: 200 }),
    maxTags: fc.integer({ min: 0, max: 8 }),
    maxPlies: fc.integer({ min: 0, max: 40 }),
    maxDepth: fc.integer({ min: 0, max: 4 }),
  },
  { requiredKeys: [] },
);

test('fuzz: under tight limits, every limit is decided the same way whatever the chunking', () => {
  fc.assert(
    fc.property(damagedGames, tightLimits, fc.constantFrom('main' as const, 'all' as const), fc.boolean(), chunking, (body, limits, hooks, replay, chunk) => {
      const input = concat(body, encoder.encode('\n\n' + SENTINEL));
      const whole = withinHangBound(() => show(input), () => read(input, { hooks, limits, replay }));
      checkErrors(whole.errors, input);
      checkPairing(whole.log);
      const parts = read(input, { hooks, limits, replay, chunk });
      assert.deepEqual(parts.log, whole.log, `chunks of ${chunk.join(', ')} bytes read differently under ${JSON.stringify(limits)}\ninput: ${show(input)}`);
    }),
    runs(99, 300, 30000),
  );
});

test('fuzz: a damaged .gz file ends with a located error and never throws', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabiya-pgn-fuzz-'));
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), fc.array(byteMutation, { maxLength: 3 }), async (picks, mutations) => {
        const games = realGames();
        let gz = gzipSync(encoder.encode(picks.map((p) => games[p % games.length]!).join('\n')));
        for (const m of mutations) gz = Buffer.from(mutateBytes(gz, m));
        const path = join(dir, 'games.pgn.gz');
        writeFileSync(path, gz);
        const errors: PgnGameError[] = [];
        let begun = 0;
        const summary = await readPgn([path], { beginGame: () => void begun++, error: (e) => void errors.push(e) });
        assert.equal(summary.games + summary.errors, begun);
        assert.equal(summary.errors, errors.length);
        for (const e of errors) {
          assert.equal(e.file, path);
          assert.ok(KINDS.has(e.kind) && e.line >= 1 && e.column >= 1 && e.game >= 1 && e.message.length > 0, JSON.stringify(e));
        }
      }),
      runs(3, 20, 2000),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fuzz: comment commands are read from any text without throwing', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('[%', '[%clk ', '[%eval ', ']', '#', '-', ',', ':', '.', ' ')), { maxLength: 20 }), (parts) => {
      const c = parseCommentCommands(parts.join(''));
      if (c.clock !== undefined) assert.ok(Number.isFinite(c.clock));
      if (c.eval !== undefined) assert.ok(Number.isFinite('cp' in c.eval ? c.eval.cp : c.eval.mate));
    }),
    runs(5, 500, 50000),
  );
});

// ----- pathological inputs: time proportional to size ------------------------------------------

const ALL_HOOKS: PgnVisitor = {
  tag() {},
  move() {},
  variationMove() {},
  beginVariation() {},
  comment() {},
  nag() {},
  error() {},
  gameText() {},
};
const repeat = (piece: string, prefix = '', suffix = '') => (size: number): Uint8Array => encoder.encode(prefix + piece.repeat(Math.max(1, Math.floor((size - prefix.length) / piece.length))) + suffix);

/** One pathological kind of input each; sizes in bytes. */
const PATHOLOGICAL: [string, (size: number) => Uint8Array, Partial<PgnLimits>?][] = [
  ['variations nested 100k deep', repeat('(', '1. e4 ')],
  ['nested variations with moves', repeat('(e5 ', '1. e4 ')],
  ['unmatched ")"', repeat(')')],
  ['"{" flood', repeat('{')],
  ['one huge comment', (n) => encoder.encode(`1. e4 {${'a'.repeat(n - 12)}} *`)],
  ['"[" flood', repeat('[')],
  ['one line of many tags', (n) => encoder.encode(Array.from({ length: Math.floor(n / 12) }, (_, i) => `[t${i} "v"]`).join('') + '\n\n1. e4 *\n'), { maxTags: 1e6 }],
  ['tags split by blank lines', (n) => encoder.encode(Array.from({ length: Math.floor(n / 12) }, (_, i) => `[t${i} "v"]\n\n`).join(''))],
  ['one huge token', repeat('a', '1. ')],
  ['one huge tag value', (n) => encoder.encode(`[Event "${'a'.repeat(n - 20)}"]\n\n1. e4 *`)],
  ['one huge move number', repeat('1')],
  ['unclosed "[%" command', repeat('a', '1. e4 [%')],
  ['non-ASCII bytes', (n) => new Uint8Array(n).fill(0xc3)],
  ['NUL bytes', (n) => new Uint8Array(n)],
  ['CR line ends', repeat('\r')],
  ['"[Event " lines in an unclosed comment', repeat('\n[Event ', '1. e4 {')],
  ['NAGs', repeat('$1 ', '1. e4 ')],
  ['results', repeat('* ')],
  ['null moves', repeat('-- ', '1. e4 e5 ')],
  ['unclosed comment commands', (n) => encoder.encode(`1. e4 {${'[%a '.repeat(Math.floor(n / 4))}} *`)],
];

const SIZE = budget(1 << 18, 1 << 20);

function parseAll(input: Uint8Array, limits: Partial<PgnLimits> | undefined, chunk: number): void {
  const comments: string[] = [];
  const parser = new PgnParser({ ...ALL_HOOKS, comment: (t) => void comments.push(t) }, { limits });
  parser.begin('x');
  for (let i = 0; i < input.length; i += chunk) parser.push(input.subarray(i, i + chunk));
  parser.end();
  for (const c of comments) parseCommentCommands(c);
}

for (const [name, make, limits] of PATHOLOGICAL) {
  test(`linear time: ${name}, whole and in 4 KiB chunks`, () => {
    assertLinear(name, make, (input) => parseAll(input, limits, input.length || 1), SIZE);
    assertLinear(`${name}, 4 KiB chunks`, make, (input) => parseAll(input, limits, 4096), SIZE);
  });
}

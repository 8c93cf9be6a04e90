/**
 * The web page's line (src/web/line.ts, bundled for the page and here for Node): PGN in reads
 * what tabiya and other tools write (tags with brackets in their values, several tags on a
 * line, comments, variations, NAGs); PGN out is export format, read back by chessops.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Chess } from 'chess.js';
import { parsePgn } from 'chessops/pgn';

interface LineApi {
  startFen: string;
  moves: string[];
  sans: string[];
  loadPgn(text: string): void;
  pgn(tags?: Record<string, string>, result?: string): string;
}

const dir = mkdtempSync(join(tmpdir(), 'tabiya-web-line-'));
let Line: new () => LineApi;

before(async () => {
  const src = fileURLToPath(new URL('../../src/web/line.ts', import.meta.url));
  const r = await build({ entryPoints: [src], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
  const file = join(dir, 'line.mjs');
  writeFileSync(file, r.outputFiles[0]!.text);
  Line = ((await import(pathToFileURL(file).href)) as { Line: new () => LineApi }).Line;
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('Load PGN reads tag values with brackets, several tags on a line, comments, variations and NAGs', () => {
  const line = new Line();
  line.loadPgn(
    '[Event "Test [blitz]"] [Site "?"]\n[White "Engine [dev] \\"x\\""]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 {a comment with ) and ]} e5 (1... c5 2. Nf3 $1) 2. Nf3!? Nc6 $14 3. Bb5 a6 1-0\n',
  );
  assert.deepEqual(line.moves, ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6']);
  // A set-up start, and the first of two games.
  const fen = 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20';
  line.loadPgn(`[FEN "${fen}"]\n[SetUp "1"]\n\n20... O-O 21. O-O-O *\n\n[Event "second"]\n\n1. d4 *\n`);
  assert.equal(line.startFen, fen);
  assert.deepEqual(line.moves, ['e8g8', 'e1c1']);
});

test('Load PGN names what is wrong with the game', () => {
  const line = new Line();
  assert.throws(() => line.loadPgn('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n'), /line 3: .*Ke3/);
  assert.throws(() => line.loadPgn('just words'), /line 1: |no game/);
  assert.throws(() => line.loadPgn(''), /no game in the text/);
});

test('the PGN of the line is export format that chessops reads back, tags escaped', () => {
  const line = new Line();
  const sans = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'Re1', 'b5', 'Bb3', 'd6', 'c3', 'O-O', 'h3', 'Nb8', 'd4', 'Nbd7'];
  const chess = new Chess();
  for (const s of sans) chess.move(s);
  line.loadPgn(chess.pgn());
  const out = line.pgn({ White: 'O"Brien \\ x', Black: 'Engine [dev]' }, '*');
  for (const l of out.split('\n')) assert.ok(l.length <= 79, `${l.length} columns: ${l}`);
  // chessops reads the escapes of PGN 8.1.1 (chess.js does not).
  const [game] = parsePgn(out);
  assert.equal(game!.headers.get('White'), 'O"Brien \\ x');
  assert.equal(game!.headers.get('Black'), 'Engine [dev]');
  assert.deepEqual([...game!.moves.mainline()].map((n) => n.san), sans);
  // And the page reads its own PGN back.
  const again = new Line();
  again.loadPgn(out);
  assert.deepEqual(again.moves, line.moves);
});

test('Chess960: castling played on the board stays castling (king takes rook), also when the king does not move', () => {
  const line = new Line() as LineApi & { set(fen: string, moves: readonly string[]): void; play(uci: string): boolean; fen(): string };
  line.set('rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1', []);
  assert.ok(line.play('b1a1'));
  assert.deepEqual(line.moves, ['b1a1']);
  assert.deepEqual(line.sans, ['O-O-O']);
  // The rook went to d1: the position after the line is castling's, not the king step Kc1's.
  assert.equal(line.fen(), 'rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1');
  line.set('nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w KQkq - 0 1', ['a1b3', 'a8b6']);
  assert.ok(line.play('c1b1'));
  assert.equal(line.fen(), '1rk3rn/pppppppp/1n6/8/8/1N6/PPPPPPPP/2KR2RN b kq - 3 2');
  // A 960 game read from PGN keeps its castling too.
  line.loadPgn('[Variant "Chess960"]\n[FEN "nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w KQkq - 0 1"]\n\n1. O-O O-O-O *\n');
  assert.deepEqual(line.moves, ['c1g1', 'c8b8']);
  assert.equal(line.fen(), 'n1kr2rn/pppppppp/8/8/8/8/PPPPPPPP/NR3RKN w - - 2 2');
  // Its PGN says Chess960, and chessops reads the castling back as such.
  const out = line.pgn();
  assert.match(out, /\[Variant "Chess960"\]\n\[SetUp "1"\]/);
  const [game] = parsePgn(out);
  assert.deepEqual([...game!.moves.mainline()].map((n) => n.san), ['O-O', 'O-O-O']);
  // A standard start from a position is not Chess960.
  line.set('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', ['e7e5']);
  assert.doesNotMatch(line.pgn(), /Variant/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STARTING_FEN } from '../notation/fen.js';
import { parsePgn } from '../pgn/parser.js';
import type { GameRecord } from './game.js';
import { formatGamePgn, moveComment, scoreText } from './pgnOut.js';
import { INFINITE_TC } from './tc.js';

const TC = { ...INFINITE_TC, infinite: false, baseMs: 10_000, incMs: 100 };

function record(over: Partial<GameRecord> = {}): GameRecord {
  return {
    result: '1-0',
    reason: 'White mates',
    termination: 'normal',
    number: 3,
    round: 1,
    white: 'Engine "A"',
    black: 'B',
    whiteTc: TC,
    blackTc: TC,
    fen: STARTING_FEN,
    chess960: false,
    moves: [
      { uci: 'e2e4', san: 'e4', book: true },
      { uci: 'e7e5', san: 'e5', book: true },
      { uci: 'd1h5', san: 'Qh5', book: false, score: { kind: 'cp', value: 97 }, depth: 18, timeMs: 250 },
      { uci: 'b8c6', san: 'Nc6', book: false, score: { kind: 'cp', value: -5 }, depth: 12, timeMs: 40 },
      { uci: 'f1c4', san: 'Bc4', book: false, timeMs: 1200 },
      { uci: 'g8f6', san: 'Nf6', book: false, score: { kind: 'mate', value: -1 }, depth: 3, timeMs: 1 },
      { uci: 'h5f7', san: 'Qxf7#', book: false, score: { kind: 'mate', value: 1 }, depth: 1, timeMs: 3 },
    ],
    openingSource: 'x',
    startedAt: new Date(2024, 0, 2, 3, 4, 5),
    durationMs: 65_000,
    ...over,
  };
}

test('move comments: score in pawns from the mover, depth, time; book moves', () => {
  const m = record().moves;
  assert.deepEqual(m.map(moveComment), ['book', 'book', '+0.97/18 0.25s', '-0.05/12 0.040s', '1.20s', '-M1/3 0.001s', '+M1/1 0.003s']);
  assert.equal(scoreText({ kind: 'cp', value: 0 }), '+0.00');
});

test('the PGN reads back with our reader: tags, moves, comments, result', () => {
  const text = formatGamePgn(record(), { event: 'Test', site: 'here', round: '2', minimal: false });
  const tags = new Map<string, string>();
  const sans: string[] = [];
  const comments: string[] = [];
  let result = '';
  const p = parsePgn(text, {
    tag: (n, v) => void tags.set(n, v),
    san: (s) => void sans.push(s),
    comment: (c) => void comments.push(c.replace(/\s+/g, ' ')),
    endGame: (r) => void (result = r),
  });
  assert.equal(p.errors, 0);
  assert.equal(p.games, 1);
  assert.equal(tags.get('White'), 'Engine "A"');
  assert.equal(tags.get('Round'), '2');
  assert.equal(tags.get('Date'), '2024.01.02');
  assert.equal(tags.get('PlyCount'), '7');
  assert.equal(tags.get('TimeControl'), '10+0.1');
  assert.equal(tags.get('Termination'), 'normal');
  assert.equal(tags.get('GameDuration'), '00:01:05');
  assert.equal(tags.has('FEN'), false);
  assert.deepEqual(sans, ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']);
  assert.equal(comments.at(-1), '+M1/1 0.003s, White mates');
  assert.equal(result, '1-0');
});

test('set-up positions carry FEN and SetUp; min output drops comments but keeps the reason', () => {
  const fen = '4k3/8/8/8/8/8/4P3/4K3 b - - 0 40';
  const rec = record({ fen, moves: [{ uci: 'e8d7', san: 'Kd7', book: false, timeMs: 5 }], result: '1/2-1/2', reason: 'Draw by adjudication', termination: 'adjudication' });
  const text = formatGamePgn(rec, { event: '?', site: '?', round: '1', minimal: true });
  assert.match(text, /\[FEN "4k3\/8\/8\/8\/8\/8\/4P3\/4K3 b - - 0 40"\]\n\[SetUp "1"\]/);
  assert.match(text, /40\.\.\. Kd7 \{Draw by adjudication\} 1\/2-1\/2/);
  // Only the tags the PGN standard requires, as cutechess-cli's min writes them.
  assert.deepEqual([...text.matchAll(/^\[(\w+) /gm)].map((m) => m[1]), ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'FEN', 'SetUp']);
  const full = formatGamePgn(rec, { event: '?', site: '?', round: '1', minimal: false });
  assert.match(full, /^\[PlyCount "1"\]$/m);
  assert.match(full, /^\[Termination "adjudication"\]$/m);
});

test('a game without moves (an engine failed to start) still reads back', () => {
  const text = formatGamePgn(record({ moves: [], result: '0-1', reason: "White's connection stalls", detail: 'no answer to "uci" within 10 ms', termination: 'stalled connection' }), {
    event: '?',
    site: '?',
    round: '1',
    minimal: false,
  });
  let result = '';
  const p = parsePgn(text, { endGame: (r) => void (result = r) });
  assert.equal(p.errors, 0);
  assert.equal(result, '0-1');
  assert.match(text, /\{White's connection stalls: no answer to "uci" within 10 ms\} 0-1/);
});

test('an engine text with braces in the last comment stays as the engine wrote it, not glued into another move', () => {
  const said = 'e2}{e4';
  const text = formatGamePgn(record({ result: '0-1', reason: `White makes an illegal move: ${said}`, detail: `illegal move "${said}" in the position after 6 plies (White to move)`, termination: 'illegal move' }), {
    event: '?',
    site: '?',
    round: '1',
    minimal: false,
  });
  const comments: string[] = [];
  const p = parsePgn(text, { comment: (c) => void comments.push(c.replace(/\s+/g, ' ')) });
  assert.equal(p.errors, 0);
  const last = comments[comments.length - 1]!;
  assert.ok(last.includes('illegal move: e2)(e4'), last);
  assert.ok(!last.includes('e2e4'), `the record must not name the legal e2e4: ${last}`);
});

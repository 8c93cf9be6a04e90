import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { positionFromFen } from '../notation/fen.js';
import { readPgn } from '../pgn/reader.js';
import type { PgnVisitor } from '../pgn/visitor.js';
import { parseLabeled, RESULT_TEXT } from './labels.js';
import { PositionSampler, type SampleOptions } from './sample.js';

const source = (name: string, text: string) => ({ name, chunks: [new TextEncoder().encode(text)] });

/** Runs a sampler, recording each emitted line with the Result tag of the game it came from. */
async function sample(text: string, opts: SampleOptions): Promise<{ sampler: PositionSampler; lines: { line: string; tag: string }[] }> {
  const lines: { line: string; tag: string }[] = [];
  let tag = '';
  const sampler = new PositionSampler(opts, (line) => lines.push({ line, tag }));
  const v: PgnVisitor = {
    beginGame: () => sampler.beginGame(),
    tag: (name, value) => {
      if (name === 'Result') tag = value;
    },
    move: (pos, m, ply) => sampler.move(pos, m, ply),
    endGame: (r) => sampler.endGame(r),
    error: (e) => sampler.error(e),
  };
  await readPgn([source('games.pgn', text)], v);
  return { sampler, lines };
}

const GAME = `[Event "t"]
[Result "1-0"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Bb5+ c6 5. Bc4 Nf6 6. Nf3 e6 7. O-O Be7 1-0

[Event "broken"]
[Result "0-1"]

1. e4 e5 2. Ke3 Ke6 0-1

[Event "unfinished"]
[Result "*"]

1. d4 d5 2. c4 e6 *
`;

test('candidates leave out the opening plies, positions in check and positions right after a capture', async () => {
  // Plies 0..13; left out: after exd5, after Qxd5 (captures), after Bb5+ (check). Castling is no capture.
  const all = await sample(GAME, { skipPlies: 0, perGame: 100, seed: 1, minPieces: 2 });
  assert.equal(all.sampler.counts.candidates, 11);
  const skip = await sample(GAME, { skipPlies: 2, perGame: 100, seed: 1, minPieces: 2 });
  assert.equal(skip.sampler.counts.candidates, 9);
  assert.equal(all.sampler.counts.bad, 1, 'the game with an illegal move is skipped and counted');
  assert.match(all.sampler.errors[0]!, /^games\.pgn:9: game 2: /);
  assert.equal(all.sampler.counts.unfinished, 1);
  const none = await sample(GAME, { skipPlies: 1000, perGame: 100, seed: 1, minPieces: 2 });
  assert.equal(none.lines.length, 0);
  assert.equal(none.sampler.counts.noCandidate, 1);
});

test('on real master games: labels are the game results, positions are legal and not in check, runs repeat', async () => {
  const text = gunzipSync(readFileSync(new URL('../../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url))).toString('utf8');
  const games = text.split(/\n(?=\[Event )/).slice(0, 150).join('\n');
  const opts = { skipPlies: 16, perGame: 4, seed: 5, minPieces: 5 };
  const a = await sample(games, opts);
  const c = a.sampler.counts;
  assert.equal(c.games, 150);
  assert.ok(a.lines.length > 400, `${a.lines.length} positions`);
  assert.equal(a.lines.length, c.written);
  assert.equal(c.byResult['1-0'] + c.byResult['0-1'] + c.byResult['1/2-1/2'], c.written);
  for (const { line, tag } of a.lines) {
    const r = parseLabeled(line);
    assert.ok(r.ok, line);
    assert.equal(RESULT_TEXT[r.value.result], tag, line);
    const pos = positionFromFen(r.value.fen);
    assert.ok(pos.ok, line);
    assert.ok(!pos.value.inCheck(), line);
  }
  assert.ok(c.resolved > 0, 'some positions were changed by the quiescence search');
  const b = await sample(games, opts);
  assert.deepEqual(b.lines, a.lines);
  const other = await sample(games, { ...opts, seed: 6 });
  assert.notDeepEqual(other.lines, a.lines);
});

/**
 * Acceptance: the whole 389,323-game collection, streamed from its .gz, gives the game count,
 * result counts and total plies that pgn-extract 19.04 gives (`pgn-extract -s --plycount`,
 * PlyCount tags summed; results as in ../shared/data/README.md). About 15-25 s on one core.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { readPgn } from '../src/pgn/reader.js';

const FILE = fileURLToPath(new URL('../../../shared/data/games/pgnmentor_players_dedup.pgn.gz', import.meta.url));

test('the full collection: games, results and plies equal pgn-extract', async () => {
  const results: Record<string, number> = {};
  let plies = 0;
  let resultTags = 0;
  const summary = await readPgn(FILE, {
    tag(name, value) {
      if (name === 'Result' && value !== '*') resultTags++;
    },
    move() {
      plies++;
    },
    endGame(result) {
      results[result] = (results[result] ?? 0) + 1;
    },
  });
  assert.equal(summary.errors, 0);
  assert.equal(summary.games, 389_323);
  assert.deepEqual(results, { '1-0': 138_640, '1/2-1/2': 151_085, '0-1': 99_598 });
  assert.equal(plies, 32_412_278);
  assert.equal(resultTags, 389_323);
});

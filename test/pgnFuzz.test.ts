/**
 * A brief fuzz run over mutated real games (scripts/pgn-fuzz.mjs runs the long one): no crash,
 * no hang, every broken game reported with a location, the next good game still read.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { RICH_SEEDS, fuzzCase, rng, type FuzzCounts } from './pgnFuzz.js';

const sample = gunzipSync(readFileSync(new URL('../../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url))).toString('utf8');
const seeds = [...sample.split(/\n\n(?=\[Event )/).slice(0, 300), ...RICH_SEEDS];

test('fuzz: 600 mutated inputs', () => {
  const rand = rng(20240611);
  const counts: FuzzCounts = { inputs: 0, errors: 0, games: 0 };
  for (let i = 0; i < 600; i++) fuzzCase(seeds, rand, counts);
  assert.equal(counts.inputs, 600);
  // Mutations must actually break games, or the run proves nothing.
  assert.ok(counts.errors > 200, `${counts.errors} errors`);
});

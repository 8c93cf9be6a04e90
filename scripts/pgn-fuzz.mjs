#!/usr/bin/env node
// Long PGN fuzz run: `npm run build && node scripts/pgn-fuzz.mjs [--cases N] [--seed S] [--seconds T]`.
// Mutates real games (../shared/data sample) and checks the reader's invariants on each case
// (see test/pgnFuzz.ts). Stops at the first failure and prints it with the seed that repeats it.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { RICH_SEEDS, fuzzCase, rng } from '../dist/test/pgnFuzz.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const cases = opt('cases', 100000);
const seconds = opt('seconds', Infinity);
const seed = opt('seed', Date.now() % 2147483647);

const sample = gunzipSync(readFileSync(new URL('../../shared/data/games/pgnmentor_players_sample2000.pgn.gz', import.meta.url))).toString('utf8');
const seeds = [...sample.split(/\n\n(?=\[Event )/), ...RICH_SEEDS];
const counts = { inputs: 0, errors: 0, games: 0 };
const started = Date.now();
let slowest = 0;
for (let i = 0; i < cases && (Date.now() - started) / 1000 < seconds; i++) {
  // One generator per case, so a failure is repeated by its (seed, case) alone.
  const rand = rng(seed + i * 7919);
  const t0 = performance.now();
  try {
    fuzzCase(seeds, rand, counts);
  } catch (e) {
    process.stderr.write(`FAILED at case ${i} (seed ${seed}): ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
    break;
  }
  slowest = Math.max(slowest, performance.now() - t0);
  if (i % 5000 === 4999) process.stderr.write(`${i + 1} cases, ${counts.errors} broken games reported, slowest case ${slowest.toFixed(1)} ms\n`);
}
const secs = (Date.now() - started) / 1000;
process.stdout.write(
  `seed ${seed}: ${counts.inputs} cases in ${secs.toFixed(1)} s, ${counts.games} games read, ${counts.errors} broken games reported, slowest case ${slowest.toFixed(1)} ms\n`,
);

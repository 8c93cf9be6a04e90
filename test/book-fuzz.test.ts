/**
 * Property-based fuzzing of both book readers (fast-check; the properties are in
 * test/support/bookFuzz.ts): random bytes, and real books built from real games, truncated,
 * extended, with bytes flipped or entries swapped, read in memory and through positional reads of
 * a file. Opening and probing never throw anything but a BookError that names the file (and the
 * byte of a damaged entry), and never hand out impossible counts; a `.tbk` read in memory is
 * checked whole, so any change to it is refused.
 *
 * Never hangs: each property runs in a worker thread that reports every input before reading
 * it; a worker silent for HANG_MS (thousands of times what a run needs) is stopped and the test
 * fails naming the input it hung on.
 *
 * Budgets: test/support/budget.ts (short in `npm test`, long in `npm run fuzz`); a failure
 * prints fast-check's seed and counterexample, and TABIYA_SEED repeats the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { budget, seed } from './support/budget.js';
import type { FuzzMessage, FuzzProperty } from './support/bookFuzzWorker.js';

const RUNS = budget(150, 5000);
const SEED = seed(20261125);
const HANG_MS = 60_000;

/** Runs a property in a worker; resolves with the number of runs, rejects on failure or hang. */
function fuzz(property: FuzzProperty): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./support/bookFuzzWorker.js', import.meta.url), { workerData: { property, runs: RUNS, seed: SEED } });
    let last = 'the set-up (building the books)';
    let watchdog: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        void worker.terminate();
        reject(new Error(`${property}: no answer for ${HANG_MS / 1000} s, hung on ${last} (seed ${SEED})`));
      }, HANG_MS);
    };
    arm();
    worker.on('message', (m: FuzzMessage) => {
      if (m.type === 'run') {
        last = `run ${m.n}: ${m.input}`;
        arm();
        return;
      }
      clearTimeout(watchdog);
      void worker.terminate();
      if (m.type === 'done') resolve(m.runs);
      else reject(new Error(`${property}: ${m.message}`));
    });
    worker.on('error', (e) => {
      clearTimeout(watchdog);
      reject(e);
    });
  });
}

test(`fuzz .tbk: a real book changed at random, in memory, through positional reads and from a file (${RUNS} runs)`, { timeout: 3_600_000 }, async () => {
  assert.ok((await fuzz('tbk-mutations')) >= RUNS);
});

test(`fuzz .tbk: random bytes, bare or behind a valid signature (${RUNS} runs)`, { timeout: 3_600_000 }, async () => {
  assert.ok((await fuzz('tbk-random')) >= RUNS);
});

test(`fuzz .bin: a real book changed at random, random bytes and random entries, in memory and on disk (${RUNS} runs)`, { timeout: 3_600_000 }, async () => {
  assert.ok((await fuzz('bin')) >= RUNS);
});

/**
 * Runs one property of test/support/bookFuzz.ts in a worker thread for test/book-fuzz.test.ts,
 * posting each run's input before the readers see it (so a hang names its input), then the
 * outcome.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { fuzzBin, fuzzTbkMutations, fuzzTbkRandom, type FuzzRun } from './bookFuzz.js';

export type FuzzProperty = 'tbk-mutations' | 'tbk-random' | 'bin';

export type FuzzMessage = { type: 'run'; n: number; input: string } | { type: 'done'; runs: number } | { type: 'failed'; message: string };

const PROPERTIES: Record<FuzzProperty, (run: FuzzRun) => void | Promise<void>> = {
  'tbk-mutations': fuzzTbkMutations,
  'tbk-random': fuzzTbkRandom,
  bin: fuzzBin,
};

const port = parentPort;
if (port) {
  const { property, runs, seed } = workerData as { property: FuzzProperty; runs: number; seed: number };
  const post = (m: FuzzMessage): void => port.postMessage(m);
  let n = 0;
  try {
    await PROPERTIES[property]({ runs, seed, progress: (input) => post({ type: 'run', n: ++n, input }) });
    post({ type: 'done', runs: n });
  } catch (e) {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  }
}

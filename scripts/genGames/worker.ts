/**
 * A generator thread: given the shared corpus, makes the batches the main thread asks for and
 * sends their bytes back (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Corpus } from './corpus.js';
import { GameGenerator, type GeneratorOptions } from './generator.js';
import { makePlayers } from './players.js';

export interface WorkerSetup {
  corpus: Corpus;
  openingHeaders: Uint8Array[];
  players: number;
  options: GeneratorOptions;
}

export interface BatchRequest {
  index: number;
  from: number;
  to: number;
}

const setup = workerData as WorkerSetup;
const generator = new GameGenerator(setup.corpus, makePlayers(setup.players, setup.options.seed), setup.openingHeaders, setup.options);
parentPort!.on('message', (r: BatchRequest) => {
  const bytes = generator.batch(r.index, r.from, r.to).slice();
  parentPort!.postMessage({ index: r.index, bytes }, [bytes.buffer]);
});

/**
 * Worker thread of a `.bin` build and of a sharded rich build with `--threads N`
 * (tbkParallel.ts): parses chunks of PGN (tbkParseChunk.ts) for the main thread, which takes
 * them in input order. The input is a shared buffer; the plies and the games' records are
 * copied: nothing is transferred (book/sharedBuffers.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkParser, type ParseRequest, type ParseSetup } from './tbkParseChunk.js';

export type { ParseRequest, ParseSetup, ParsedGames } from './tbkParseChunk.js';

if (parentPort !== null) {
  const port = parentPort;
  const parser = new ChunkParser(workerData as ParseSetup);
  port.on('message', (req: ParseRequest) => port.postMessage(parser.parse(req)));
}

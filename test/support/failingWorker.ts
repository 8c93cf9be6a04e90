/**
 * A search thread that fails at its first `go`, as a bug in the search would make it fail:
 * for the tests of what the worker host and the engine loop do then (src/node/workerHost.test.ts).
 */
import { parentPort } from 'node:worker_threads';

const port = parentPort!;
port.postMessage({ type: 'ready' });
port.on('message', (msg: { type: string }) => {
  if (msg.type === 'sync') port.postMessage({ type: 'synced' });
  if (msg.type === 'go') throw new Error('search fell over');
});

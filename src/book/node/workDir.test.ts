/**
 * A scratch-disk failure inside a build thread keeps its wording: the error crosses from the
 * worker as a plain Error with its fields copied, and reviveWorkerError makes the ScratchError
 * again, so the user reads which output failed and that --tmp-dir moves the scratch files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { ScratchError, reviveWorkerError } from './workDir.js';

test('a ScratchError thrown in a worker thread is a ScratchError again on the main thread, with the output named', async () => {
  const module = new URL('./workDir.js', import.meta.url).href;
  const code = `import(${JSON.stringify(module)}).then((m) => { throw new m.ScratchError('/scratch/tabiya-x', 'no space left on device'); });`;
  const raw = await new Promise<unknown>((resolve) => new Worker(code, { eval: true }).on('error', resolve));
  assert.ok(!(raw instanceof ScratchError), 'what crosses the thread boundary is a plain error');
  const e = reviveWorkerError(raw);
  console.log('#', JSON.stringify(raw), (raw as Error).message);
  assert.ok(e instanceof ScratchError);
  assert.equal(e.forOutput('book.tbk').message, 'book.tbk: cannot write: no space left on device (writing scratch files in /scratch; --tmp-dir chooses where they go)');
  const other = new Error('something else');
  assert.equal(reviveWorkerError(other), other);
});

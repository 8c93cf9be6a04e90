/**
 * A tuner worker thread. Two jobs: build traces for a slice of the labelled lines, and compute
 * the loss (and gradient) of its range of a shared trace store for the weights the main thread
 * wrote into shared memory. Partial sums go to the worker's own slot of a shared output array,
 * and the main thread adds the slots in a fixed order, so results do not depend on timing.
 */
import { parentPort } from 'node:worker_threads';
import { buildTraces } from './build.js';
import { exactLossRange, lossGradRange, lossRange } from './linear.js';
import { TraceStore, type TraceBuffers } from './traceStore.js';

export type TuneWorkerRequest =
  | { type: 'build'; lines: string[]; lineNos: Int32Array; resolve: boolean }
  | { type: 'attach'; store: TraceBuffers; weights: SharedArrayBuffer; out: SharedArrayBuffer; slot: number; from: number; to: number }
  | { type: 'loss'; K: number; exact?: boolean }
  | { type: 'grad'; K: number };

export type TuneWorkerReply =
  | { type: 'progress'; done: number }
  | { type: 'built'; store: TraceBuffers; counts: ReturnType<typeof buildTraces>['counts']; errors: ReturnType<typeof buildTraces>['errors'] }
  | { type: 'done' };

const port = parentPort;
if (port) {
  let store: TraceStore | null = null;
  let weights: Float64Array = new Float64Array(0);
  let out: Float64Array = new Float64Array(0);
  let from = 0;
  let to = 0;
  let width = 0;
  let slot = 0;
  const reply = (r: TuneWorkerReply, transfer?: ArrayBuffer[]): void => port.postMessage(r, transfer);
  port.on('message', (msg: TuneWorkerRequest) => {
    switch (msg.type) {
      case 'build': {
        const r = buildTraces(msg.lines, msg.lineNos, { resolve: msg.resolve, onProgress: (done) => reply({ type: 'progress', done }) });
        const b = r.store.buffers();
        const transfer = [b.start, b.index, b.coef, b.phase, b.scaleW, b.scaleB, b.result, b.white, b.labelEval, b.target] as ArrayBuffer[];
        reply({ type: 'built', store: b, counts: r.counts, errors: r.errors }, transfer);
        return;
      }
      case 'attach':
        store = TraceStore.fromBuffers(msg.store);
        weights = new Float64Array(msg.weights);
        out = new Float64Array(msg.out);
        width = 1 + weights.length;
        slot = msg.slot;
        from = msg.from;
        to = msg.to;
        reply({ type: 'done' });
        return;
      case 'loss':
        out[slot * width] = (msg.exact ? exactLossRange : lossRange)(store!, weights, msg.K, from, to);
        reply({ type: 'done' });
        return;
      case 'grad': {
        const grad = out.subarray(slot * width + 1, (slot + 1) * width);
        grad.fill(0);
        out[slot * width] = lossGradRange(store!, weights, msg.K, from, to, grad);
        reply({ type: 'done' });
        return;
      }
    }
  });
}

/**
 * Worker thread of `book make --threads N`: a `Partition` (book/polyglot/partition.ts) behind
 * a message port. Chunks and parts are shared buffers, passed by reference; the finished
 * partition is copied: nothing is transferred (book/sharedBuffers.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MakeOptions } from '../polyglot/make.js';
import { Partition, type FinishedPartition, type ParsedChunk, type PartitionSetup } from '../polyglot/partition.js';

export type ToWorker =
  | { type: 'parse'; id: number; file: string; bytes: Uint8Array }
  | { type: 'part'; id: number; data: Int32Array; length: number }
  | { type: 'finish'; options: MakeOptions };

export type FromWorker =
  | ({ type: 'parsed' } & ParsedChunk)
  | { type: 'ack'; ids: number[] }
  | ({ type: 'finished' } & FinishedPartition);

if (parentPort !== null) {
  const port = parentPort;
  const partition = new Partition(workerData as PartitionSetup);
  port.on('message', (m: ToWorker) => {
    if (m.type === 'parse') {
      const r = partition.parse(m.id, m.file, m.bytes);
      const msg: FromWorker = { type: 'parsed', ...r };
      port.postMessage(msg);
    } else if (m.type === 'part') {
      const ids = partition.part(m.id, m.data, m.length);
      if (ids.length > 0) port.postMessage({ type: 'ack', ids } satisfies FromWorker);
    } else {
      const r = partition.finish(m.options);
      port.postMessage({ type: 'finished', ...r } satisfies FromWorker);
    }
  });
}

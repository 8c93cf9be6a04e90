/**
 * Worker thread of a long book job (bookJob.ts): runs the job, passes its progress, broken games
 * and temporaries to the main thread, and answers with its result or its error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { joinTemps, type TempLink } from '../../node/tempFiles.js';
import type { BookJob, JobMessage } from './bookJob.js';
import { buildTbk } from './tbkBuild.js';
import { addToTbk, mergeTbk, mergeTbkToBin, openForRebuild } from './tbkCombine.js';
import { exportTbkToBin } from './tbkExport.js';
import { learnFromPgn } from './richLearn.js';
import { mergeFiles } from './mergeFiles.js';

const port = parentPort!;
const post = (m: JobMessage): void => port.postMessage(m);
const { job, temps } = workerData as { job: BookJob; temps: TempLink };
joinTemps(temps);
const callbacks = {
  onProgress: (...args: unknown[]) => post({ kind: 'call', name: 'onProgress', args }),
  onFinishProgress: (...args: unknown[]) => post({ kind: 'call', name: 'onFinishProgress', args }),
  onError: (...args: unknown[]) => post({ kind: 'call', name: 'onError', args }),
};

async function run(): Promise<unknown> {
  switch (job.kind) {
    case 'merge':
      return mergeTbk(job.paths, job.output, { ...job.opts, onProgress: callbacks.onProgress });
    case 'mergeToBin':
      return mergeTbkToBin(job.paths, job.output, { ...job.opts, onProgress: callbacks.onProgress });
    case 'add':
      return addToTbk(job.path, { ...job.opts, ...callbacks });
    case 'build':
      return buildTbk(job.output, { ...job.opts, ...callbacks });
    case 'learn':
      return learnFromPgn(job.path, job.inputs, { ...job.opts, onProgress: callbacks.onProgress, onError: callbacks.onError });
    case 'mergeBins':
      return mergeFiles(job.paths, job.output, { ...job.opts, onProgress: callbacks.onProgress });
    case 'export': {
      // `book export`'s own checks and errors (CliErrors naming the book) come with it.
      const { runExportJob } = await import('../../cli/commands/richExport.js');
      return runExportJob(job.job, {
        onGames: (done, total) => callbacks.onProgress(done, total),
        onKeys: (share) => callbacks.onFinishProgress(Math.round(share * 1000) / 10, 100, '%'),
      });
    }
    case 'exportBin': {
      const { book, file } = openForRebuild(job.path);
      try {
        const parts: Uint8Array[] = [];
        await exportTbkToBin(book, {}, (b) => parts.push(b.slice()));
        return Buffer.concat(parts);
      } finally {
        file.close();
      }
    }
  }
}

/**
 * An error as plain data: postMessage's structured clone keeps an Error's message and stack
 * but not its own fields (a BookError's `code`, which the CLI turns into its message).
 */
function plainError(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
  return { name: e.name, message: e.message, stack: e.stack, fields };
}

run().then(
  (result) => post({ kind: 'done', result }),
  (error: unknown) => post({ kind: 'failed', error: plainError(error) }),
);

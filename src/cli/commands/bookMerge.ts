/**
 * `tabiya book merge A.bin B.bin [C.bin…] -o OUT.bin`: polyglot merge-book (2.0.x rule: weights
 * of a move present in both books are added, A's order and learn data kept), except that
 * weights saturate at 65535 unless --polyglot-compat asks for PolyGlot's wrap-around;
 * --priority first gives PolyGlot 1.4's rule (A wins every key it has).
 */
import { runBookJob } from '../../book/node/bookJob.js';
import { startProgress, type Progress } from '../../node/progress.js';
import { checkOutputs } from '../../node/outputs.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';

export interface BookMergeCliOptions {
  output: string;
  priority?: string;
  polyglotCompat?: boolean;
  json?: boolean;
  force?: boolean;
  quiet?: boolean;
}

/** Why `book merge` never writes into one of its inputs (docs/books.md, docs/rich-books.md). */
export const MERGE_IN_PLACE = 'a merge adds counts, so a merge into an input that is run twice counts the other books twice; merge into a new file, then rename it';

export async function bookMergeCommand(files: string[], opts: BookMergeCliOptions): Promise<void> {
  const priority = opts.priority ?? 'sum';
  if (priority !== 'sum' && priority !== 'first') throw new CliError(`--priority: "${priority}" is not sum or first`, 2);
  if (files.length < 2) throw new CliError('book merge needs at least two books', 2);
  checkOutputs([{ path: opts.output, kind: 'polyglot' }], files, { force: opts.force, sameFileHint: MERGE_IN_PLACE });
  const t0 = performance.now();
  let result;
  // On a worker thread (bookJob.ts), as the merge of .tbk books: a merge of big books is seconds
  // of synchronous work, and on the main thread a Ctrl-C waited for it, the merged book was put
  // in place and the run ended with exit 0.
  let bar: Progress | undefined;
  const onProgress = (done: number, total: number): void => {
    bar ??= startProgress({ label: 'book merge', total, unit: 'entries', quiet: opts.quiet });
    bar.update(done);
  };
  try {
    result = await runBookJob({ kind: 'mergeBins', paths: files, output: opts.output, opts: { priority, wrap: opts.polyglotCompat === true } }, { onProgress });
  } catch (e) {
    throw e instanceof Error && 'code' in e ? new CliError(e.message, 1) : e;
  } finally {
    bar?.stop();
  }
  const { stats, entries, warnings } = result;
  if (!opts.json) for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
  const seconds = (performance.now() - t0) / 1000;
  report(opts.json, { output: opts.output, inputs: files, priority, wrap: opts.polyglotCompat === true, ...stats, entries, warnings, seconds }, () => {
    const lines = [
      `merged ${files.join(' + ')}: ${entries.join(' + ')} entries, ${stats.sharedKeys} positions ${files.length > 2 ? 'of a later book already in the books before it' : 'in both'}`,
      priority === 'sum' ? `${stats.summed} weights added${stats.overflowed > 0 ? `, ${stats.overflowed} over 65535 (${opts.polyglotCompat ? 'wrapped' : 'saturated'})` : ''}` : `${stats.skipped} entries of the later book skipped`,
      `wrote ${opts.output}: ${stats.written} entries in ${seconds.toFixed(2)} s`,
    ];
    return lines.join('\n');
  }, opts.output);
}

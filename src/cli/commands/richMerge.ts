/**
 * `tabiya book merge A.tbk B.tbk [C.tbk…] -o OUT.tbk [--min-games N]` (Terra's mergebooks):
 * statistics added, games concatenated, the first book's user values, NAGs and comments win,
 * learning added, moves below N games left out. The partial books of a sharded build
 * (`book make --shard I/N`) merge into exactly the book a single build writes, as a `.tbk` or,
 * with `-o OUT.bin`, as make-book's `.bin`. Version 1 inputs are read through an upgraded copy;
 * the inputs are never changed.
 */
import { join } from 'node:path';
import { runBookJob } from '../../book/node/bookJob.js';
import { defaultThreads } from '../../book/node/makeBook.js';
import { upgradeV1 } from '../../book/node/tbkUpgrade.js';
import { WorkDir } from '../../book/node/workDir.js';
import { checkOutputs } from '../../node/outputs.js';
import { MERGE_IN_PLACE } from './bookMerge.js';
import { CliError, intOption, sizeOption } from '../errors.js';
import { report } from '../output.js';
import { startProgress } from '../../node/progress.js';
import { bookErrors, tbkFileVersion } from './richCommon.js';

export interface RichMergeCliOptions {
  output: string;
  minGames?: string;
  memory?: string;
  threads?: string;
  tmpDir?: string;
  json?: boolean;
  force?: boolean;
  quiet?: boolean;
}

/** A bar over the merge's writing phase (by key: see KeyProgress in tbkCombine.ts), rows as the extra. */
function mergeProgress(opts: RichMergeCliOptions): { onProgress(share: number, rows: number): void; stop(): void } {
  const bar = startProgress({ label: 'merging', total: 100, unit: '%', quiet: opts.quiet });
  return {
    onProgress: (share, rows) => bar.update(Math.round(share * 1000) / 10, `${rows} rows`),
    stop: () => bar.stop(),
  };
}

/** Version 2 paths of the inputs: version 1 books upgraded into copies in `work`. */
function v2Inputs(files: string[], work: WorkDir): { paths: string[]; notes: string[] } {
  const notes: string[] = [];
  const paths = files.map((f, i) => {
    const v = tbkFileVersion(f);
    if (v !== 1) return f;
    const copy = join(work.path, `v1-${i}.tbk`);
    upgradeV1(f, copy);
    notes.push(`${f} is a version 1 book: read through an upgraded copy (the file itself is unchanged)`);
    return copy;
  });
  return { paths, notes };
}

export async function richMergeCommand(files: string[], opts: RichMergeCliOptions): Promise<void> {
  if (files.length < 1) throw new CliError('book merge needs books to merge', 2);
  for (const f of files) if (!f.toLowerCase().endsWith('.tbk')) throw new CliError(`${f}: merging into a .tbk needs .tbk inputs (convert a .bin with book import)`, 2);
  // Not given: the shards' own --min-games, or 0 (every move) for other books (mergeTbk).
  const minGames = intOption('--min-games', opts.minGames, 0);
  const memory = sizeOption('--memory', opts.memory);
  checkOutputs([{ path: opts.output, kind: 'tbk' }], files, { force: opts.force, sameFileHint: MERGE_IN_PLACE });
  const work = new WorkDir(opts.tmpDir);
  try {
    const { paths, notes } = v2Inputs(files, work);
    const progress = mergeProgress(opts);
    const r = await bookErrors(() => runBookJob({ kind: 'merge', paths, output: opts.output, opts: { minGames, memory, tmpDir: opts.tmpDir, names: files, threads: threadsOf(opts.threads) } }, { onProgress: progress.onProgress })).finally(() => progress.stop());
    if (files.length < 2 && r.partials === 0) throw new CliError('book merge needs at least two books (or the partial books of a sharded build)', 2);
    if (!opts.json) for (const n of notes) process.stderr.write(`note: ${n}\n`);
    report(opts.json, { ...r, inputs: files, notes }, () =>
      [
        r.partials > 0 ? `merged ${r.partials} shards: ${r.games} games` : `merged ${files.join(' + ')}: ${r.games} games`,
        `entries           ${r.entries} (${r.storedPositions} positions stored, ${r.singlePositions} seen in one game)`,
        `wrote ${opts.output}: ${r.bytesWritten} bytes in ${r.seconds.toFixed(2)} s`,
      ].join('\n'),
    );
  } finally {
    work.remove();
  }
}

/** `book merge A.tbk B.tbk -o OUT.bin`: the Polyglot book of the merged rich books (shards: the single build's .bin). */
export async function richMergeToBinCommand(files: string[], opts: RichMergeCliOptions): Promise<void> {
  // Not given: the shards' own --min-games, or make-book's 3 (mergeTbkToBin).
  const minGame = intOption('--min-games', opts.minGames, 0, 65535);
  const memory = sizeOption('--memory', opts.memory);
  checkOutputs([{ path: opts.output, kind: 'polyglot' }], files, { force: opts.force, sameFileHint: MERGE_IN_PLACE });
  const t0 = performance.now();
  const work = new WorkDir(opts.tmpDir);
  try {
    const { paths } = v2Inputs(files, work);
    const progress = mergeProgress(opts);
    const r = await bookErrors(() => runBookJob({ kind: 'mergeToBin', paths, output: opts.output, opts: { minGame, memory, tmpDir: opts.tmpDir, threads: threadsOf(opts.threads) } }, { onProgress: progress.onProgress })).finally(() => progress.stop());
    const seconds = (performance.now() - t0) / 1000;
    report(opts.json, { output: opts.output, inputs: files, minGames: r.minGame, games: r.games, kept: r.kept, bytes: r.bytes, seconds }, () => `wrote ${opts.output}: ${r.kept} entries from ${r.games} games in ${seconds.toFixed(2)} s`);
  } finally {
    work.remove();
  }
}

/** `--threads`: a count, or "auto" (one per core); default 1. */
function threadsOf(text: string | undefined): number {
  return text === undefined ? 1 : text === 'auto' ? defaultThreads() : intOption('--threads', text, 1, 64)!;
}

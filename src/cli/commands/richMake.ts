/**
 * `tabiya book make PGN... -o X.tbk` and `tabiya book add X.tbk PGN...`: games counted into a
 * rich book with the Polyglot builder's filters. make-book's finishing options (--min-score,
 * --only-white/--only-black, --uniform) shape the Polyglot export, so they belong to
 * `book export` and are refused here; --min-games, when given, leaves rarer moves out of the
 * .tbk (Terra's createbook "minimum number of games"); without it every move is kept.
 */
import { MIN_GAMES_A_THREAD } from '../../book/node/singlesThreads.js';
import { runBookJob } from '../../book/node/bookJob.js';
import { DEFAULT_MEMORY, buildTbk, type TbkBuildOptions, type TbkBuildSummary } from '../../book/node/tbkBuild.js';
import { MIN_THREAD_LOG, THREAD_RESERVE, memoryForThreadCount, threadsFor } from '../../book/node/tbkRanges.js';
import { parseShard } from '../../book/node/shards.js';
import { parseSplits, type SplitKinds } from '../../book/rich/splits.js';
import { checkOutputs } from '../../node/outputs.js';
import { formatRate } from '../../node/progress.js';
import { CliError, intOption, sizeOption } from '../errors.js';
import { report } from '../output.js';
import { emptyBookNote } from './bookMake.js';
import { defaultThreads } from '../../book/node/makeBook.js';
import { checkInputs } from './pgnCommon.js';
import { PgnJob, bookErrors, filtersOf, tbkFileVersion } from './richCommon.js';
import { addToRichBook } from '../../book/node/richMake.js';

export interface RichMakeCliOptions {
  output?: string;
  maxPly?: string;
  minGames?: string;
  minScore?: string;
  colour?: string;
  uniform?: boolean;
  minElo?: string;
  player?: string[];
  white?: string[];
  black?: string[];
  result?: string[];
  fromStart?: boolean;
  dateFrom?: string;
  dateTo?: string;
  tag?: string[];
  threads?: string;
  memory?: string;
  tmpDir?: string;
  split?: string;
  shard?: string;
  errors?: string;
  quiet?: boolean;
  json?: boolean;
  force?: boolean;
}

/** Which options the user gave (commander's value source), to tell defaults from choices. */
export type GivenOptions = (name: string) => boolean;

export async function richMakeCommand(files: string[], opts: RichMakeCliOptions, given: GivenOptions): Promise<void> {
  checkInputs(files);
  if (opts.output === undefined || opts.output === '-') throw new CliError('book make: a .tbk book needs a file name (-o X.tbk)', 2);
  checkOutputs([{ path: opts.output, kind: 'tbk', instead: `use tabiya book add ${opts.output} to count more games into it` }], files, { force: opts.force });
  const notes: string[] = [];
  // colour is set by the --only-white/--only-black handlers, which leave no value source.
  for (const [name, key] of [['--min-score', 'minScore'], ['--only-white/--only-black', 'colour'], ['--uniform', 'uniform']] as const) {
    if (key === 'colour' ? opts.colour !== undefined : given(key)) {
      throw new CliError(`${name} shapes the Polyglot export of a .tbk: give it to book export (tabiya book export ${opts.output} -o X.bin ${name.split('/')[0]} ...)`, 2);
    }
  }
  const threads = opts.threads === undefined ? 1 : opts.threads === 'auto' ? defaultThreads() : intOption('--threads', opts.threads, 1, 64)!;
  let split: SplitKinds | undefined;
  let shard;
  try {
    split = opts.split === undefined ? undefined : parseSplits(opts.split);
    shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  } catch (e) {
    throw new CliError((e as Error).message, 2);
  }
  if (typeof shard === 'string') throw new CliError(`--shard: ${shard}`, 2);
  const filter = filtersOf(opts);
  const memory = sizeOption('--memory', opts.memory);
  // Said before the long read, not after it: the memory gives fewer threads a useful log.
  const ranged = shard === undefined ? threadsFor(memory ?? DEFAULT_MEMORY, threads) : threads;
  if (ranged < threads) {
    const note = `--threads ${threads} with --memory ${formatBudget(memory ?? DEFAULT_MEMORY)}: ${ranged} thread${ranged > 1 ? 's own' : ' owns'} key ranges (each thread beyond the first sets aside ${formatBudget(THREAD_RESERVE)}, and a thread's log needs ${formatBudget(MIN_THREAD_LOG)}); --memory ${formatBudget(memoryForThreadCount(threads))} gives all ${threads} their own`;
    notes.push(note);
    if (!opts.json && !opts.quiet) process.stderr.write(`note: ${note}\n`);
  }
  const job = new PgnJob('book make', opts);
  const build: TbkBuildOptions = {
    inputs: files,
    maxPly: intOption('--max-ply', opts.maxPly ?? '1024', 1),
    minGames: given('minGames') ? intOption('--min-games', opts.minGames, 0, 65535) : 0,
    split,
    shard,
    memory,
    tmpDir: opts.tmpDir,
    threads,
    rangeThreads: ranged,
    filter,
  };
  const callbacks = { onProgress: job.onProgress, onFinishProgress: job.onFinishProgress, onError: job.onError };
  // A shard finishes on the thread that counted it: in a worker, so that Ctrl-C is not held
  // until its book is written (bookJob.ts). A full build's finish is in its range workers.
  const s = await bookErrors(() => (shard === undefined ? buildTbk(opts.output!, { ...build, ...callbacks }) : runBookJob({ kind: 'build', output: opts.output!, opts: build }, callbacks))).finally(() =>
    job.stop(),
  );
  if (s.entries === 0 && shard !== undefined && s.gamesRead + s.gamesSkipped === 0) {
    notes.push(`shard ${shard.index}/${shard.count} of ${files[0]} holds no game (the file has fewer games than shards, or games longer than a shard's byte range): an empty part, which the merge takes`);
  } else if (s.entries === 0) notes.push(emptyBookNote(s.output, s.gamesUsed, s.positions, `--min-games ${build.minGames}`));
  printSummary(s, notes, job, opts.json, shard === undefined ? undefined : `shard ${shard.index}/${shard.count}`, opts.quiet ? 0 : ranged < threads ? 1 : 0);
}

export async function richAddCommand(book: string, files: string[], opts: RichMakeCliOptions): Promise<void> {
  checkInputs(files);
  checkOutputs([{ path: book, kind: 'tbk', mode: 'update' }], files);
  const filter = filtersOf(opts);
  const job = new PgnJob('book add', opts);
  if (tbkFileVersion(book) === 1) {
    // A version 1 book grows as a version 1 book (tabiya book upgrade converts it).
    const s1 = await bookErrors(() =>
      addToRichBook(book, { inputs: files, maxPly: intOption('--max-ply', opts.maxPly, 1), filter, onProgress: job.onProgress, onError: job.onError }),
    ).finally(() => job.stop());
    if (!opts.json) for (const n of s1.notes) process.stderr.write(`note: ${n}\n`);
    report(opts.json, { ...s1, skippedGames: job.skipped }, () => `games read        ${s1.gamesRead}\nentries           ${s1.entries} (${s1.entries - s1.entriesBefore} new)\nwrote ${s1.output}: ${s1.bytesWritten} bytes in ${s1.seconds.toFixed(2)} s`);
    return;
  }
  const threads = opts.threads === undefined ? 1 : opts.threads === 'auto' ? defaultThreads() : intOption('--threads', opts.threads, 1, 64)!;
  const s = await bookErrors(() =>
    runBookJob(
      {
        kind: 'add',
        path: book,
        opts: {
          inputs: files,
          maxPly: intOption('--max-ply', opts.maxPly, 1),
          memory: sizeOption('--memory', opts.memory),
          tmpDir: opts.tmpDir,
          filter,
          threads,
        },
      },
      { onProgress: job.onProgress, onFinishProgress: job.onFinishProgress, onError: job.onError },
    ),
  ).finally(() => job.stop());
  if (s.replayThreads !== undefined && s.replayThreads < threads) s.notes.push(replayThreadsNote(s.replayThreads, threads));
  printSummary(s, s.notes, job, opts.json);
}

/** Why an add replayed the book on fewer threads than asked. */
export function replayThreadsNote(used: number, asked: number): string {
  return `the book's games were replayed on ${used === 1 ? 'one thread' : `${used} threads`}, not ${asked}: a thread takes at least ${MIN_GAMES_A_THREAD.toLocaleString('en-US')} of them`;
}

/** A --memory value at least `bytes`: "1.7G", "850M" (rounded up). */
export function formatBudget(bytes: number): string {
  const g = bytes / 2 ** 30;
  return g >= 1 ? `${(Math.ceil(g * 10) / 10).toFixed(1)}G` : `${Math.ceil(bytes / 2 ** 20)}M`;
}

function printSummary(s: TbkBuildSummary, notes: string[], job: PgnJob, json: boolean | undefined, shard?: string, said = 0): void {
  if (!json) for (const n of notes.slice(said)) process.stderr.write(`note: ${n}\n`);
  report(json, { ...s, notes, skippedGames: job.skipped }, () => {
    const filtered = Object.entries(s.gamesFiltered).filter(([, n]) => n > 0);
    const gps = (s.gamesRead + s.gamesSkipped) / Math.max(s.seconds, 1e-6);
    const lines = [`games read        ${s.gamesRead}${s.gamesSkipped > 0 ? `, ${s.gamesSkipped} broken and skipped` : ''}`];
    if (filtered.length > 0) lines.push(`games filtered    ${filtered.map(([k, n]) => `${n} (${k})`).join(', ')}; ${s.gamesUsed} used`);
    lines.push(`positions scanned ${s.positions}`);
    if (shard !== undefined) lines.push(`${shard}: ${s.entries} rows, to be merged with the other shards (tabiya book merge)`);
    else lines.push(`entries           ${s.entries} (${s.storedPositions} positions stored, ${s.singlePositions} seen in one game)`);
    if (s.replayThreads !== undefined) lines.push(`replayed on       ${s.replayThreads === 1 ? 'one thread' : `${s.replayThreads} threads`} (the book's games, for its single positions)`);
    if (s.runs > 0) lines.push(`spilled           ${s.runs} sorted runs (--memory${s.memoryToFit === undefined ? '' : `; ${formatBudget(s.memoryToFit)} would keep them in memory`})`);
    lines.push(`wrote ${s.output}: ${s.bytesWritten} bytes in ${s.seconds.toFixed(2)} s (${formatRate(gps)} games/s)`);
    return lines.join('\n');
  });
}

/**
 * `tabiya book learn X.tbk games.pgn --player NAME [--post-book N]`: book learning from the games
 * NAME played (rules in rich/learn.ts; evaluations read from move comments).
 */
import { runBookJob } from '../../book/node/bookJob.js';
import { checkOutputs } from '../../node/outputs.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { checkInputs } from './pgnCommon.js';
import { PgnJob, bookErrors } from './richCommon.js';

export interface RichLearnCliOptions {
  player?: string;
  postBook?: string;
  errors?: string;
  quiet?: boolean;
  json?: boolean;
}

export async function richLearnCommand(file: string, pgns: string[], opts: RichLearnCliOptions): Promise<void> {
  checkInputs(pgns);
  checkOutputs([{ path: file, kind: 'tbk', mode: 'update' }], pgns);
  if (opts.player === undefined || opts.player.trim() === '') throw new CliError('book learn: --player NAME is required (the player whose moves learn)', 2);
  const job = new PgnJob('book learn', opts);
  const postBook = intOption('--post-book', opts.postBook ?? '10', 0, 1000);
  // On a worker thread (bookJob.ts), as book add: the change of a big book is seconds of
  // synchronous work, and waiting for another writer's lock blocks; on the main thread a Ctrl-C
  // waited for both, and the run then exited 130 with the games learned anyway (a second run
  // would have learned them twice).
  const s = await bookErrors(() =>
    runBookJob({ kind: 'learn', path: file, inputs: pgns, opts: { player: opts.player!, postBook } }, { onProgress: job.onProgress, onError: job.onError }),
  ).finally(() => job.stop());
  report(opts.json, { book: file, player: opts.player, ...s, skipped: job.skipped }, () =>
    [
      `games read         ${s.gamesRead}${s.gamesSkipped > 0 ? `, ${s.gamesSkipped} broken and skipped` : ''}; ${s.notPlayer} without ${opts.player}, ${s.unfinished} unfinished`,
      `games learned      ${s.gamesLearned}${s.withEvals > 0 ? ` (${s.withEvals} with evaluations)` : ''}`,
      `book moves         ${s.bookMoves} updated, ${s.userValued} left alone (user value)`,
      `PostBook moves     ${s.postBookMoves} (${s.postBookNew} new)`,
    ].join('\n'),
  );
}

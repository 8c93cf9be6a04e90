/**
 * `tabiya tune data PGN... -o positions.epd`: labelled quiet positions from games, for
 * `tune fit` (see src/tune/sample.ts for what is drawn and what is left out).
 */
import { AtomicFileSync } from '../../book/node/atomicWrite.js';
import { checkOutputs } from '../../node/outputs.js';
import { startProgress } from '../../node/progress.js';
import { readPgn } from '../../pgn/reader.js';
import { PositionSampler } from '../../tune/sample.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { checkInputs, checkRead } from './pgnCommon.js';

export interface TuneDataOptions {
  output: string;
  skipPlies?: string;
  perGame?: string;
  seed?: string;
  minPieces?: string;
  quiet?: boolean;
  json?: boolean;
  force?: boolean;
}

export async function tuneDataCommand(pgn: string[], opts: TuneDataOptions): Promise<void> {
  checkInputs(pgn);
  const skipPlies = intOption('--skip-plies', opts.skipPlies, 0, 10000) ?? 16;
  const perGame = intOption('--per-game', opts.perGame, 1, 10000) ?? 10;
  const seed = intOption('--seed', opts.seed, 0, 2 ** 32 - 1) ?? 1;
  const minPieces = intOption('--min-pieces', opts.minPieces, 2, 32) ?? 5;
  checkOutputs([{ path: opts.output, kind: 'text' }], pgn, { force: opts.force });
  const out = new AtomicFileSync(opts.output);
  const enc = new TextEncoder();
  let buffered: string[] = [];
  const flush = (): void => {
    if (buffered.length === 0) return;
    out.write(enc.encode(buffered.join('\n') + '\n'));
    buffered = [];
  };
  const sampler = new PositionSampler({ skipPlies, perGame, seed, minPieces }, (line) => {
    buffered.push(line);
    if (buffered.length >= 4096) flush();
  });
  const bar = startProgress({ label: 'tune data', total: 0, unit: 'games', quiet: opts.quiet });
  const t0 = performance.now();
  try {
    const summary = await readPgn(pgn, sampler, { onProgress: (p) => bar.update(p.games, `${sampler.counts.written} positions`) });
    if (summary.unreadable.length > 0) {
      // What was read before the damage is said, as pgn stats says it (docs/cli.md).
      const why = summary.unreadable.map((u) => u.message).join('; ');
      throw new CliError(`${why}; ${sampler.counts.games} games read before that (${sampler.counts.written} positions); ${opts.output} was not written`, 1);
    }
    checkRead(summary, opts.output);
    // A training file of nothing hides the mistake (a wrong file, an EPD given for a PGN).
    const c = sampler.counts;
    if (c.games === 0) {
      const first = sampler.errors[0];
      throw new CliError(`tune data: no readable game in ${pgn.join(', ')}${first === undefined ? ' (empty, or only comments)' : ` (${c.bad} broken; the first: ${first})`}; ${opts.output} was not written`, 1);
    }
    if (c.written === 0) {
      // Why, from what was counted: blaming --skip-plies and --min-pieces when every game was
      // unfinished or had a contradicted result sent users to the wrong option.
      const why = [
        [c.unfinished, 'unfinished'],
        [c.resultConflict, 'whose [Result] tag and movetext disagree'],
        [c.noCandidate, `without a candidate position after ply ${skipPlies}`],
        [c.inCheck + c.mate, 'positions left in check or with a mate in sight'],
        [c.fewPieces, `positions under ${minPieces} pieces`],
        [c.duplicates, 'duplicate positions'],
      ]
        .filter(([n]) => (n as number) > 0)
        .map(([n, what]) => `${n} ${what}`);
      warnSkipped(sampler, opts.quiet);
      throw new CliError(`tune data: ${c.games} game${c.games === 1 ? '' : 's'} read but no position to write${why.length > 0 ? ` (${why.join(', ')})` : ''}; ${opts.output} was not written`, 1);
    }
    flush();
    out.commit();
  } catch (e) {
    out.abort();
    if (e instanceof CliError || (e instanceof Error && 'code' in e)) throw e;
    throw new CliError(`tune data: ${(e as Error).message}`, 1);
  } finally {
    bar.stop();
  }
  const c = sampler.counts;
  warnSkipped(sampler, opts.quiet);
  const seconds = (performance.now() - t0) / 1000;
  report(opts.json, { output: opts.output, ...c, seconds: Math.round(seconds * 10) / 10 }, () =>
    [
      `games      ${c.games} read, ${c.bad} broken (skipped), ${c.unfinished} unfinished, ${c.resultConflict} whose [Result] tag and movetext disagree (skipped), ${c.noCandidate} without a candidate position`,
      `candidates ${c.candidates} (after ply ${skipPlies}, not in check, not right after a capture); up to ${perGame} a game drawn`,
      `written    ${c.written} positions to ${opts.output}: 1-0 ${c.byResult['1-0']}, 1/2-1/2 ${c.byResult['1/2-1/2']}, 0-1 ${c.byResult['0-1']}`,
      `           ${c.resolved} changed by the quiescence search; left out: ${c.inCheck} in check, ${c.mate} mate in sight, ${c.fewPieces} under ${minPieces} pieces, ${c.duplicates} duplicates`,
      `time       ${seconds.toFixed(1)} s`,
    ].join('\n'),
    opts.output,
  );
}

/** The first broken games and games with a contradicted result, each named by file and line. */
function warnSkipped(sampler: PositionSampler, quiet: boolean | undefined): void {
  if (quiet === true) return;
  const c = sampler.counts;
  for (const e of sampler.errors.slice(0, 10)) process.stderr.write(`warning: ${e} (game skipped)\n`);
  if (c.bad > 10) process.stderr.write(`warning: ${c.bad} broken games skipped in all\n`);
  for (const e of sampler.conflicts.slice(0, 10)) process.stderr.write(`warning: ${e} (game skipped)\n`);
  if (c.resultConflict > 10) process.stderr.write(`warning: ${c.resultConflict} games whose [Result] tag and movetext disagree skipped in all\n`);
}

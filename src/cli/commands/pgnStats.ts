/**
 * `tabiya pgn stats FILE...`: reads every game, replays and validates every main-line move, and
 * prints counts: games, broken games by kind (with the first locations), results, plies,
 * ratings, years.
 */
import { quote } from '../../core/result.js';
import { formatRate } from '../../node/progress.js';
import { readPgn } from '../../pgn/reader.js';
import { PgnStats } from '../../pgn/stats.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { checkInputs, checkRead, formatError, inputName, progressOf } from './pgnCommon.js';

export interface PgnStatsOptions {
  json?: boolean;
  quiet?: boolean;
  errors?: string;
  strict?: boolean;
}

const pct = (n: number, total: number): string => (total > 0 ? `${((100 * n) / total).toFixed(1)}%` : '-');
/** `n games`, or `1 game`. */
const games = (n: number): string => `${n} game${n === 1 ? '' : 's'}`;

export async function pgnStatsCommand(files: string[], opts: PgnStatsOptions): Promise<void> {
  checkInputs(files);
  const perKind = intOption('--errors', opts.errors ?? '3', 0, 1_000_000)!;
  const stats = new PgnStats(perKind);
  const progress = progressOf('pgn stats', opts.quiet);
  const summary = await readPgn(files, stats, { onProgress: progress.onProgress });
  progress.stop();
  const r = stats.report();
  const out = {
    games: summary.games,
    errors: summary.errors,
    gamesRead: summary.games + summary.errors,
    files: summary.files,
    bytes: summary.bytes,
    seconds: Math.round(summary.seconds * 1000) / 1000,
    gamesPerSecond: Math.round((summary.games + summary.errors) / Math.max(summary.seconds, 1e-6)),
    errorsByKind: summary.errorsByKind,
    withoutGames: summary.withoutGames,
    unreadable: summary.unreadable,
    ...r,
  };
  report(opts.json, out, () => {
    if (out.gamesRead === 0) return `games: none in ${files.map(inputName).join(', ')} (${out.bytes} bytes read)`;
    const lines = [
      `games: ${out.games} valid, ${out.errors} broken (${out.gamesRead} read) from ${out.files} file(s) in ${out.seconds.toFixed(1)} s, ${formatRate(out.gamesPerSecond)} games/s`,
    ];
    const kinds = Object.entries(out.errorsByKind);
    if (kinds.length > 0) {
      lines.push(`broken games by kind: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
      for (const e of r.firstErrors) lines.push(`  ${formatError(e)}`);
    }
    const res = r.results;
    lines.push(
      `results: 1-0 ${res['1-0']} (${pct(res['1-0']!, out.games)}), 1/2-1/2 ${res['1/2-1/2']} (${pct(res['1/2-1/2']!, out.games)}), ` +
        `0-1 ${res['0-1']} (${pct(res['0-1']!, out.games)}), * ${res['*']}` +
        (r.resultTagMismatches > 0 ? `; ${games(r.resultTagMismatches)} whose [Result] tag differs from the movetext` : ''),
    );
    for (const m of r.firstResultTagMismatches) {
      lines.push(`  ${m.file}:${m.line}: game ${m.game}${m.part === undefined ? '' : ` of ${m.part}`}: [Result ${quote(m.tag, 40)}] but the movetext ends ${m.movetext}`);
    }
    const unlisted = r.resultTagMismatches - r.firstResultTagMismatches.length;
    if (unlisted > 0 && r.firstResultTagMismatches.length > 0) lines.push(`  and ${unlisted} more (--errors N lists more)`);
    lines.push(
      `plies: ${r.plies.total} in all, mean ${r.plies.mean}, min ${r.plies.min}, max ${r.plies.max}`,
    );
    if (r.ratings.count > 0) {
      lines.push(
        `ratings: ${r.ratings.count} (both players rated in ${games(r.bothRated)}), ${r.ratings.min}..${r.ratings.max}, mean ${r.ratings.mean}`,
        `  ${Object.entries(r.ratings.ranges).map(([k, n]) => `${k}: ${n}`).join(', ')}`,
      );
    }
    if (r.years !== null) lines.push(`years: ${r.years.min}..${r.years.max}`);
    if (r.setupGames > 0) lines.push(`games from a [FEN] set-up: ${r.setupGames}`);
    return lines.join('\n');
  });
  // The counts above stop where any damage starts: a script must not take them for the whole file.
  checkRead(summary);
  if (opts.strict && summary.errors > 0) throw new CliError(`${summary.errors} broken game(s)`, 1);
}

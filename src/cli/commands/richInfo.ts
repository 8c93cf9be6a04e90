/**
 * `tabiya book info X.tbk`: the header (version, games, entries, build options, history), the
 * checksum check, and counts over the entries (positions, moves with user values, learned
 * moves, PostBook records).
 */
import { fastCrc32, openRichBook } from '../../book/node/richFile.js';
import { exportKind } from '../../book/rich/format.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';

export interface RichInfoCliOptions {
  json?: boolean;
}

export async function richInfoCommand(file: string, opts: RichInfoCliOptions): Promise<void> {
  const info = await bookErrors(() => {
    const { book, close } = openRichBook(file);
    try {
      const check = book.verify(fastCrc32);
      const h = book.header;
      let positions = 0;
      let userValues = 0;
      let learned = 0;
      let postBook = 0;
      let lastHi = -1;
      let lastLo = -1;
      for (let i = 0; i < book.size; i++) {
        const e = book.entry(i);
        if (e.keyHi !== lastHi || e.keyLo !== lastLo) positions++;
        lastHi = e.keyHi;
        lastLo = e.keyLo;
        if (e.userValue >= 0) userValues++;
        if (e.dynWins + e.dynDraws + e.dynLosses > 0) learned++;
        if (e.postBook) postBook++;
      }
      return {
        file,
        bytes: book.source.size,
        version: h.version,
        checksum: h.checksum.toString(16).padStart(8, '0'),
        checksumOk: check.ok,
        games: h.games,
        entries: h.entries,
        positions,
        maxPly: h.maxPly,
        minGames: h.minGames,
        polyglotExport: exportKind(h),
        learnedGames: h.learnedGames,
        changes: h.changes,
        movesWithUserValue: userValues,
        movesWithLearning: learned,
        postBookMoves: postBook,
        created: new Date(h.created * 1000).toISOString(),
        modified: new Date(h.modified * 1000).toISOString(),
        options: h.meta,
        problem: check.ok ? undefined : check.error.message,
      };
    } finally {
      close();
    }
  });
  report(opts.json, info, () =>
    [
      `${file}: .tbk version ${info.version}, ${info.bytes} bytes, checksum ${info.checksum} ${info.checksumOk ? 'ok' : 'MISMATCH'}`,
      `games                : ${info.games}`,
      `entries              : ${info.entries} in ${info.positions} positions`,
      `max-ply / min-games  : ${info.maxPly === 0 ? '-' : info.maxPly} / ${info.minGames}`,
      `polyglot export      : ${info.polyglotExport}`,
      `user values          : ${info.movesWithUserValue} moves`,
      `learning             : ${info.learnedGames} games learned, ${info.movesWithLearning} moves with results, ${info.postBookMoves} PostBook moves`,
      `changes              : ${info.changes} (created ${info.created}, modified ${info.modified})`,
    ].join('\n'),
  );
  if (!info.checksumOk) throw new CliError(info.problem!, 1);
}

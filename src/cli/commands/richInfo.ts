/**
 * `tabiya book info X.tbk`: the header (version, games, entries, build options, history), the
 * checksum check, and counts over the entries (positions, moves with user values, learned
 * moves, PostBook records).
 */
import { fastCrc32, openRichBook } from '../../book/node/richFile.js';
import { exportKind } from '../../book/rich/format.js';
import type { RichBook } from '../../book/rich/reader.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';

export interface RichInfoCliOptions {
  json?: boolean;
}

export async function richInfoCommand(file: string, opts: RichInfoCliOptions): Promise<void> {
  const info = await bookErrors(() => {
    // The checksum is reported here rather than refused at opening, so that a damaged book
    // still shows its header; its entries are not read then.
    const { book, close } = openRichBook(file, { verify: false });
    try {
      const check = book.verify(fastCrc32);
      const h = book.header;
      return {
        file,
        bytes: book.source.size,
        version: h.version,
        checksum: h.checksum.toString(16).padStart(8, '0'),
        checksumOk: check.ok,
        games: h.games,
        entries: h.entries,
        maxPly: h.maxPly,
        minGames: h.minGames,
        polyglotExport: exportKind(h),
        learnedGames: h.learnedGames,
        changes: h.changes,
        ...(check.ok ? countEntries(book) : {}),
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
      `entries              : ${info.entries}${info.positions === undefined ? '' : ` in ${info.positions} positions`}`,
      `max-ply / min-games  : ${info.maxPly === 0 ? '-' : info.maxPly} / ${info.minGames}`,
      `polyglot export      : ${info.polyglotExport}`,
      ...(info.positions === undefined
        ? []
        : [
            `user values          : ${info.movesWithUserValue} moves`,
            `learning             : ${info.learnedGames} games learned, ${info.movesWithLearning} moves with results, ${info.postBookMoves} PostBook moves`,
          ]),
      `changes              : ${info.changes} (created ${info.created}, modified ${info.modified})`,
    ].join('\n'),
  );
  if (!info.checksumOk) throw new CliError(info.problem!, 1);
}

/** Counts over the entries: positions, user values, learned moves, PostBook records. */
function countEntries(book: RichBook): { positions: number; movesWithUserValue: number; movesWithLearning: number; postBookMoves: number } {
  let positions = 0;
  let movesWithUserValue = 0;
  let movesWithLearning = 0;
  let postBookMoves = 0;
  let lastHi = -1;
  let lastLo = -1;
  for (let i = 0; i < book.size; i++) {
    const e = book.entry(i);
    if (e.keyHi !== lastHi || e.keyLo !== lastLo) positions++;
    lastHi = e.keyHi;
    lastLo = e.keyLo;
    if (e.userValue >= 0) movesWithUserValue++;
    if (e.dynWins + e.dynDraws + e.dynLosses > 0) movesWithLearning++;
    if (e.postBook) postBookMoves++;
  }
  return { positions, movesWithUserValue, movesWithLearning, postBookMoves };
}

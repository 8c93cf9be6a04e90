/**
 * `tabiya book info X.tbk`: the header (version, games, entries, build options, history), the
 * checksum check, and counts over the entries (positions, moves with user values, learned
 * moves, PostBook records).
 */
import { fastCrc32, openRichBook } from '../../book/node/richFile.js';
import { exportKind } from '../../book/rich/format.js';
import { countsGamesOnce } from '../../book/rich/container.js';
import type { RichBook } from '../../book/rich/reader.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { bookErrors, tbkFileVersion } from './richCommon.js';
import { FileReader } from '../../book/node/tbkFile.js';
import { TbkBook, sectionName } from '../../book/rich/tbkBook.js';

export interface RichInfoCliOptions {
  json?: boolean;
}

export async function richInfoCommand(file: string, opts: RichInfoCliOptions): Promise<void> {
  if (tbkFileVersion(file) === 2) return infoV2(file, opts);
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

/** `book info` of a version 2 book: the slot's fields, the sections and their checks, counts and notes. */
async function infoV2(file: string, opts: RichInfoCliOptions): Promise<void> {
  const info = await bookErrors(() => {
    const reader = new FileReader(file);
    try {
      const r = TbkBook.open(reader, file, fastCrc32);
      if (!r.ok) throw r.error;
      const book = r.value;
      const check = book.verify(fastCrc32);
      const f = book.fields;
      const counts = (book.meta.counts ?? {}) as Record<string, number>;
      let user = 0;
      let learned = 0;
      let postBook = 0;
      let nags = 0;
      let comments = 0;
      let forbidden = 0;
      let audited = 0;
      for (const n of book.notes.all()) {
        if (n.userValue >= 0) user++;
        if (n.postBook) postBook++;
        else if (n.dynWins + n.dynDraws + n.dynLosses > 0) learned++;
        if (n.nag !== 0) nags++;
        if (n.comment !== '') comments++;
        if (n.forbidden) forbidden++;
        if (n.audit !== undefined) audited++;
      }
      return {
        file,
        bytes: reader.size,
        version: 2,
        checksumOk: check.ok,
        partial: book.partial,
        games: f.games,
        storedPositions: counts.storedPositions,
        storedMoves: counts.storedMoves,
        singlePositions: counts.singlePositions,
        hotPositions: counts.hotPositions,
        entries: counts.storedMoves === undefined ? undefined : counts.storedMoves + (counts.singlePositions ?? 0),
        gamesKept: book.games?.count ?? 0,
        maxPly: f.maxPly,
        minGames: f.minGames,
        split: book.splits,
        polyglotExport: exportKind(f),
        gamesCountedOnce: countsGamesOnce(f),
        learnedGames: f.learnedGames,
        changes: f.changes,
        movesWithUserValue: user,
        movesWithLearning: learned,
        postBookMoves: postBook,
        nags,
        comments,
        forbidden,
        audited,
        sections: book.slot.sections.map((s) => ({ name: sectionName(s.id), bytes: s.length })),
        created: new Date(f.created * 1000).toISOString(),
        modified: new Date(f.modified * 1000).toISOString(),
        options: book.meta,
        problem: check.ok ? undefined : check.error.message,
      };
    } finally {
      reader.close();
    }
  });
  const splits = (['rating', 'speed', 'month'] as const).filter((k) => info.split[k]);
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  report(opts.json, info, () =>
    [
      `${file}: .tbk version 2${info.partial ? ' (partial book: one shard of a sharded build)' : ''}, ${info.bytes} bytes, checksums ${info.checksumOk ? 'ok' : 'MISMATCH'}`,
      `games                : ${info.games}${info.gamesKept > 0 ? ' (kept in the book)' : ''}`,
      info.entries === undefined ? '' : `entries              : ${info.entries}: ${info.storedMoves} moves in ${info.storedPositions} stored positions, ${info.singlePositions} positions seen in one game`,
      `max-ply / min-games  : ${info.maxPly === 0 ? '-' : info.maxPly} / ${info.minGames}`,
      `splits               : ${splits.length === 0 ? 'none' : splits.join(', ')}`,
      `polyglot export      : ${info.polyglotExport}`,
      info.games === 0 ? '' : `W/D/L                : ${info.gamesCountedOnce ? 'each game once a position, under its last move there (as the Lichess explorer)' : 'a repeated move counts each time it was played (made by an earlier version: book make counts each game once)'}`,
      `user values          : ${info.movesWithUserValue} moves${(info.nags ?? 0) > 0 ? `, ${plural(info.nags!, 'NAG')}` : ''}${info.comments > 0 ? `, ${plural(info.comments, 'comment')}` : ''}${info.forbidden > 0 ? `, ${info.forbidden} forbidden` : ''}${info.audited > 0 ? `, ${info.audited} audited` : ''}`,
      `learning             : ${info.learnedGames} games learned, ${info.movesWithLearning} moves with results, ${info.postBookMoves} PostBook moves`,
      `sections             : ${info.sections.map((s) => `${s.name} ${s.bytes}`).join(', ')}`,
      `changes              : ${info.changes} (created ${info.created}, modified ${info.modified})`,
    ]
      .filter((l) => l !== '')
      .join('\n'),
  );
  if (!info.checksumOk) throw new CliError(info.problem!, 1);
}

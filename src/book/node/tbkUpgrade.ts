/**
 * Version 1 `.tbk` books into version 2, losing nothing: every entry's statistics become a
 * stored position's move (in its first-seen order), make-book's counters where they differ from
 * the raw counts (halved) become the halved counters, and what people and the engine added
 * (user values, learning, PostBook records, evaluations, Polyglot learn fields) becomes notes.
 * A version 1 book keeps no games, so the result has none either: it can be probed, learned
 * into, annotated, exported and added to, and says so where games would have mattered.
 */
import { BookError } from '../polyglot/select.js';
import { SECTION, type BookFields } from '../rich/container.js';
import { FLAG_IMPORTED } from '../rich/format.js';
import { Notes, emptyNote, noteHasData } from '../rich/notes.js';
import { PositionWriter, type MoveStats, type StoredPosition } from '../rich/positions.js';
import type { RichBook, RichEntry } from '../rich/reader.js';
import { encodeHalved } from '../rich/tbkBook.js';
import { fastCrc32, openRichBook } from './richFile.js';
import { memorySection, writeTbkFile } from './tbkFile.js';
import { bookTime } from '../rich/clock.js';

export interface UpgradeSummary {
  input: string;
  output: string;
  entries: number;
  positions: number;
  notes: number;
  bytesWritten: number;
}

/** Writes the version 2 form of a version 1 book at `output` (which may be the book itself). */
export function upgradeV1(path: string, output: string): UpgradeSummary {
  const { book, close } = openRichBook(path, { memoryLimit: Infinity, verify: true });
  try {
    if (book.header.version !== 1) throw new BookError('ERR_TBK_VERSION', `${path}: not a version 1 book`);
    return writeUpgraded(book, path, output);
  } finally {
    close();
  }
}

/** Writes the version 2 form of an open version 1 book (for `book import`, which builds one in memory). */
export function writeUpgraded(book: RichBook, path: string, output: string): UpgradeSummary {
  const h = book.header;
  const parts: Uint8Array[] = [];
  const writer = new PositionWriter((b) => parts.push(b.slice()), fastCrc32);
  const notes = new Notes();
  const halved: { keyHi: number; keyLo: number; moves: Uint16Array; n: Uint16Array; sum: Uint16Array }[] = [];
  const imported = (h.flags & FLAG_IMPORTED) !== 0;
  let i = 0;
  while (i < book.size) {
    const group: RichEntry[] = [];
    const first = book.entry(i);
    while (i < book.size) {
      const e = book.entry(i);
      if (e.keyHi !== first.keyHi || e.keyLo !== first.keyLo) break;
      group.push(e);
      i++;
    }
    group.sort((a, b) => a.firstSeen - b.firstSeen);
    const moves: MoveStats[] = [];
    let halvedHere = false;
    for (const e of group) {
      const note = emptyNote(e.keyHi, e.keyLo, e.move, e.black);
      note.dynWins = e.dynWins;
      note.dynDraws = e.dynDraws;
      note.dynLosses = e.dynLosses;
      note.userValue = e.userValue;
      note.postBook = e.postBook;
      note.evalCp = e.evalCount > 0 ? e.evalCp : 0;
      note.evalCount = e.evalCount;
      note.learn = e.learn;
      const keepNote = (): void => {
        if (noteHasData(note)) Object.assign(notes.edit(e.keyHi, e.keyLo, e.move, e.black), note);
      };
      if (e.postBook) {
        keepNote();
        continue;
      }
      const finished = e.wins + e.draws + e.losses;
      const m: MoveStats = { move: e.move, cell: 0, wins: e.wins, draws: e.draws, losses: e.losses, unfinished: Math.max(0, e.pgN - finished), rated: e.ratedGames, ratingSum: e.eloSum };
      if (imported && finished === 0) {
        m.weight = e.pgSum;
        m.learn = e.learn;
        note.learn = 0;
      } else if (e.pgN !== finished + m.unfinished || e.pgSum !== 2 * e.wins + e.draws + m.unfinished) halvedHere = true;
      keepNote();
      if (finished + m.unfinished > 0 || m.weight !== undefined) moves.push(m);
    }
    if (halvedHere) {
      const kept = group.filter((e) => !e.postBook);
      halved.push({ keyHi: first.keyHi, keyLo: first.keyLo, moves: Uint16Array.from(kept.map((e) => e.move)), n: Uint16Array.from(kept.map((e) => e.pgN)), sum: Uint16Array.from(kept.map((e) => e.pgSum)) });
    }
    if (moves.length > 0) {
      const p: StoredPosition = { keyHi: first.keyHi, keyLo: first.keyLo, black: first.black, maxPly: 65535, moves };
      writer.write(p);
    }
  }
  const blocks = writer.finish();
  const positions = Buffer.concat(parts);
  const fields: BookFields = {
    flags: h.flags,
    games: h.games,
    maxPly: h.maxPly,
    minGames: h.minGames,
    learnedGames: h.learnedGames,
    changes: h.changes + 1,
    created: h.created,
    modified: bookTime(),
    splits: 0,
  };
  const meta = { ...h.meta, upgraded: { from: 1, at: fields.modified, entries: book.size } };
  const noteBytes = notes.encode();
  const sections = [
    memorySection(SECTION.META, new TextEncoder().encode(JSON.stringify(meta))),
    memorySection(SECTION.HALVED, encodeHalved(halved)),
    memorySection(SECTION.BLOCKS, blocks),
    memorySection(SECTION.POSITIONS, positions),
  ];
  if (noteBytes.length > 0) sections.push(memorySection(SECTION.NOTES, noteBytes));
  const bytes = writeTbkFile(output, fields, sections);
  return { input: path, output, entries: book.size, positions: writer.positions, notes: notes.size, bytesWritten: bytes };
}

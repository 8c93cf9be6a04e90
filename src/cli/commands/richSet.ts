/**
 * `tabiya book set X.tbk [--fen F] --moves "e2e4 c7c6" --move d2d4 --value V` (Terra's
 * bookeval): the user value of one move, 0..100, a glyph (!!, !, !?, ?!, ?, ??) or `clear`
 * (removes the user value and the learned statistics of the move). A move not in the book yet
 * is added with no games.
 */
import { updateRichBook, whenUnlocked } from '../../book/node/richFile.js';
import { parseUserValue, setUserValue } from '../../book/rich/annotate.js';
import { EF_POSTBOOK } from '../../book/rich/format.js';
import { makeFen } from '../../notation/fen.js';
import { makeSan, parseSan } from '../../notation/san.js';
import { makeUci, parseUci } from '../../notation/uci.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { positionOf } from './bookProbe.js';
import { bookErrors, tbkFileVersion } from './richCommon.js';
import { changeNotes } from '../../book/node/tbkFile.js';

export interface RichSetCliOptions {
  fen?: string;
  moves?: string;
  move?: string;
  value?: string;
  json?: boolean;
}

export async function richSetCommand(file: string, opts: RichSetCliOptions): Promise<void> {
  if (opts.move === undefined) throw new CliError('book set: --move is required (the move to set, UCI or SAN)', 2);
  if (opts.value === undefined) throw new CliError('book set: --value is required (0..100, !!, !, !?, ?!, ?, ?? or clear)', 2);
  const v = parseUserValue(opts.value);
  if (!v.ok) throw new CliError(`--value: ${v.error.message}`, 2);
  const pos = positionOf(opts.fen, opts.moves);
  const u = parseUci(pos, opts.move.trim());
  const m = u.ok ? u : parseSan(pos, opts.move.trim());
  if (!m.ok) throw new CliError(`--move: ${m.error.message}`, 2);
  const move = m.value;
  await whenUnlocked(file);
  const r = await bookErrors(() =>
    tbkFileVersion(file) === 2
      ? changeNotes(file, (book) => {
          const stats = book.movesOf(pos.keyHi, pos.keyLo).find((e) => e.move === move);
          const note = book.notes.edit(pos.keyHi, pos.keyLo, move, pos.turn === 1);
          if (v.value === 'clear') {
            // Terra: "Clear all User set values or Terra statistics for this move".
            Object.assign(note, { userValue: -1, dynWins: 0, dynDraws: 0, dynLosses: 0, evalCp: 0, evalCount: 0, postBook: false });
          } else {
            note.userValue = v.value;
            note.postBook = false;
          }
          const games = stats === undefined ? 0 : stats.wins + stats.draws + stats.losses;
          // Clearing adds nothing: a move the book did not have stays out of it, and a PostBook
          // record cleared of its learning is gone.
          return { result: { added: v.value !== 'clear' && (stats === undefined || (stats.postBook && games === 0)), games } };
        }, { verify: true })
      : updateRichBook(file, (t) => {
      // Clearing a move the book does not have changes nothing (and adds no empty row).
      if (v.value === 'clear' && t.find(pos.keyLo, pos.keyHi, move) < 0) return { added: false, games: 0 };
      const before = t.size;
      const row = setUserValue(t, pos.keyLo, pos.keyHi, move, pos.turn, v.value);
      // A hand-set value makes the move a book move, even where only the PostBook had it.
      if (v.value !== 'clear') t.flags[row]! &= ~EF_POSTBOOK;
      return { added: t.size > before, games: t.games(row) };
      }),
  );
  const value = { fen: makeFen(pos), uci: makeUci(move, pos.chess960), san: makeSan(pos, move), value: v.value === 'clear' ? null : v.value, added: r.added, games: r.games };
  report(opts.json, value, () => `${value.san} (${value.uci}): ${v.value === 'clear' ? 'user value and learned statistics cleared' : `user value ${v.value}`}${r.added ? ' (added to the book)' : ''}`);
}

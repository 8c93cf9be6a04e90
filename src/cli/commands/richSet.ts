/**
 * `tabiya book set X.tbk [--fen F] [--moves "e2e4 c7c6"] --move d2d4 [--value V] [--nag N]
 * [--comment TEXT] [--forbid | --allow] [--remove]`: the notes of one move from the command line,
 * what the explorer's edit controls set (docs/serve.md), so a repertoire can be kept by script.
 * - `--value` is Terra's bookeval: 0..100, a glyph (!!, !, !?, ?!, ?, ??) or `clear` (removes the
 *   user value and the learned statistics of the move).
 * - `--nag`, `--comment` and the forbidden mark are version 2 notes (a version 1 book keeps none).
 * - A move not in the book yet is added with no games; `--remove` takes such a move away again
 *   (a move that games played cannot go: it can be forbidden).
 * Everything is checked before the book is touched, and the change is one crash-safe commit.
 */
import { updateRichBook, whenUnlocked } from '../../book/node/richFile.js';
import { parseUserValue, setUserValue, type UserValue } from '../../book/rich/annotate.js';
import { EF_POSTBOOK } from '../../book/rich/format.js';
import { noteHasData } from '../../book/rich/notes.js';
import { commentProblem, commentText, nagSymbol, parseNag } from '../../book/rich/noteText.js';
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
  nag?: string;
  comment?: string;
  forbid?: boolean;
  allow?: boolean;
  remove?: boolean;
  json?: boolean;
}

/** What one run changes; undefined fields are left as the book has them. */
interface SetChange {
  value?: UserValue;
  nag?: number;
  comment?: string;
  forbidden?: boolean;
}

const WHAT = '--value, --nag, --comment, --forbid, --allow or --remove';

export async function richSetCommand(file: string, opts: RichSetCliOptions): Promise<void> {
  if (opts.move === undefined) throw new CliError('book set: --move is required (the move to set, UCI or SAN)', 2);
  const change: SetChange = {};
  if (opts.value !== undefined) {
    const v = parseUserValue(opts.value);
    if (!v.ok) throw new CliError(`--value: ${v.error.message}`, 2);
    change.value = v.value;
  }
  if (opts.nag !== undefined) {
    const n = parseNag(opts.nag);
    if (!n.ok) throw new CliError(`--nag: ${n.error.message}`, 2);
    change.nag = n.value;
  }
  if (opts.comment !== undefined) {
    const problem = commentProblem(opts.comment);
    if (problem !== undefined) throw new CliError(`--comment: ${problem}`, 2);
    change.comment = commentText(opts.comment);
  }
  if (opts.forbid && opts.allow) throw new CliError('book set: --forbid and --allow contradict each other: give one', 2);
  if (opts.forbid) change.forbidden = true;
  if (opts.allow) change.forbidden = false;
  const changes = Object.keys(change).length;
  if (opts.remove && changes > 0) throw new CliError(`book set: --remove takes the move away, so it cannot go with ${WHAT.replace(' or --remove', '')}`, 2);
  if (!opts.remove && changes === 0) throw new CliError(`book set: nothing to set: give ${WHAT}`, 2);
  const pos = positionOf(opts.fen, opts.moves);
  const u = parseUci(pos, opts.move.trim());
  const m = u.ok ? u : parseSan(pos, opts.move.trim());
  if (!m.ok) throw new CliError(`--move: ${m.error.message}`, 2);
  const move = m.value;
  const san = makeSan(pos, move);
  const uci = makeUci(move, pos.chess960);
  await whenUnlocked(file);
  const version = await bookErrors(() => tbkFileVersion(file));
  if (version === 1 && (change.nag !== undefined || change.comment !== undefined || change.forbidden !== undefined || opts.remove)) {
    throw new CliError(`${file}: a version 1 book keeps user values only (no NAGs, comments, forbidden marks or moves added by hand to remove); tabiya book upgrade ${file} converts it`, 1);
  }
  const r = await bookErrors(() =>
    version === 2
      ? changeNotes(file, (book) => {
          const stats = book.movesOf(pos.keyHi, pos.keyLo).find((e) => e.move === move);
          const games = stats === undefined ? 0 : stats.wins + stats.draws + stats.losses + (stats.unfinished ?? 0);
          if (opts.remove) {
            if (stats === undefined) throw new CliError(`${file}: ${san} (${uci}) is not in the book here`, 1);
            if (games > 0) throw new CliError(`${file}: ${san} (${uci}) was played in ${games} games of the book, so it cannot be removed: --forbid keeps the engine and the explorer from playing it`, 1);
            book.notes.remove(pos.keyHi, pos.keyLo, move);
            return { result: { added: false, games, gone: true } };
          }
          const note = book.notes.edit(pos.keyHi, pos.keyLo, move, pos.turn === 1);
          if (change.value === 'clear') {
            // Terra: "Clear all User set values or Terra statistics for this move".
            Object.assign(note, { userValue: -1, dynWins: 0, dynDraws: 0, dynLosses: 0, evalCp: 0, evalCount: 0, postBook: false });
          } else if (change.value !== undefined) note.userValue = change.value;
          if (change.nag !== undefined) note.nag = change.nag;
          if (change.comment !== undefined) note.comment = change.comment;
          if (change.forbidden !== undefined) note.forbidden = change.forbidden;
          // A hand-set note makes the move a book move, even where only the PostBook had it
          // (clearing a PostBook record's learning takes the record away).
          if (change.value !== 'clear') note.postBook = false;
          // A move no game played is in the book only through its note: one left empty is gone.
          const gone = games === 0 && !noteHasData(note);
          const added = !gone && (stats === undefined || (stats.postBook && games === 0));
          return { result: { added, games, gone: gone && stats !== undefined } };
        }, { verify: true })
      : updateRichBook(file, (t) => {
          // Clearing a move the book does not have changes nothing (and adds no empty row).
          if (change.value === 'clear' && t.find(pos.keyLo, pos.keyHi, move) < 0) return { added: false, games: 0, gone: false };
          const before = t.size;
          const row = setUserValue(t, pos.keyLo, pos.keyHi, move, pos.turn, change.value!);
          // A hand-set value makes the move a book move, even where only the PostBook had it.
          if (change.value !== 'clear') t.flags[row]! &= ~EF_POSTBOOK;
          return { added: t.size > before, games: t.games(row), gone: false };
        }),
  );
  const said: string[] = [];
  if (change.value === 'clear') said.push('user value and learned statistics cleared');
  else if (change.value !== undefined) said.push(`user value ${change.value}`);
  if (change.nag !== undefined) said.push(change.nag === 0 ? 'NAG cleared' : `NAG ${nagSymbol(change.nag)} ($${change.nag})`);
  if (change.comment !== undefined) said.push(change.comment === '' ? 'comment cleared' : `comment "${change.comment}"`);
  if (change.forbidden !== undefined) said.push(change.forbidden ? 'forbidden' : 'allowed');
  if (opts.remove) said.push('removed from the book');
  const value = {
    fen: makeFen(pos),
    uci,
    san,
    ...(change.value === undefined ? {} : { value: change.value === 'clear' ? null : change.value }),
    ...(change.nag === undefined ? {} : { nag: change.nag === 0 ? null : change.nag }),
    ...(change.comment === undefined ? {} : { comment: change.comment === '' ? null : change.comment }),
    ...(change.forbidden === undefined ? {} : { forbidden: change.forbidden }),
    added: r.added,
    removed: r.gone,
    games: r.games,
  };
  const tail = r.added ? ' (added to the book)' : r.gone && !opts.remove ? ' (no game played it and no note is left: it is no longer in the book)' : '';
  report(opts.json, value, () => `${san} (${uci}): ${said.join(', ')}${tail}`);
}

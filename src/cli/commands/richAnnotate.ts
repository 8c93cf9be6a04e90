/**
 * `tabiya book annotate X.tbk lines.pgn`: user values from the NAGs of a PGN of lines (Terra's
 * rules: a tag separates lines, the last NAG of a move wins, moves without a NAG keep their
 * value; see rich/annotate.ts). With --notes: the NAGs, comments, user values and forbidden marks
 * of every move of a PGN tree, as the explorer's PGN export writes them (rich/pgnNotes.ts).
 */
import { updateRichBook, whenUnlocked } from '../../book/node/richFile.js';
import { AnnotateVisitor } from '../../book/rich/annotate.js';
import { PgnNotesVisitor, isAnnotated } from '../../book/rich/pgnNotes.js';
import { loadOpenings } from '../../node/openingNames.js';
import { noteHasData, type Note } from '../../book/rich/notes.js';
import type { BookEntry } from '../../book/rich/tbkBook.js';
import { EF_POSTBOOK, USER_NONE } from '../../book/rich/format.js';
import { RichTable } from '../../book/rich/table.js';
import { checkOutputs } from '../../node/outputs.js';
import { readPgn } from '../../pgn/reader.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { checkInputs } from './pgnCommon.js';
import { PgnJob, bookErrors, tbkFileVersion } from './richCommon.js';
import { changeNotes } from '../../book/node/tbkFile.js';

export interface RichAnnotateCliOptions {
  errors?: string;
  /** Read the notes the explorer's PGN export writes, from every variation (pgnNotes.ts). */
  notes?: boolean;
  /** With `notes`: the PGN's notes replace the book's for every move of the PGN. */
  replace?: boolean;
  quiet?: boolean;
  json?: boolean;
}

export async function richAnnotateCommand(file: string, pgns: string[], opts: RichAnnotateCliOptions): Promise<void> {
  if (opts.replace && !opts.notes) throw new CliError('--replace replaces the notes that --notes reads: give both', 2);
  checkInputs(pgns);
  checkOutputs([{ path: file, kind: 'tbk', mode: 'update' }], pgns);
  if (opts.notes) return annotateNotes(file, pgns, opts);
  const job = new PgnJob('book annotate', opts);
  // The lines are read first into a scratch table (no lock held while reading), then applied.
  const scratch = new RichTable();
  const visitor = new AnnotateVisitor(scratch, job.onError);
  const summary = await readPgn(pgns, visitor, { onProgress: (p) => job.onProgress(p.bytes, p.totalBytes, p.games) }).finally(() => job.stop());
  // An input not read to its end (damaged gzip, zstd or bzip2) fails the run, as in book add and
  // book learn: the lines after the damage would be missing without a word.
  if (summary.unreadable.length > 0) throw new CliError(`${summary.unreadable.map((u) => u.message).join('; ')}; ${file} was not changed`, 1);
  // Nothing readable at all is the wrong file: say so rather than write an unchanged book.
  const first = job.skipped[0];
  if (visitor.stats.lines === 0) {
    throw new CliError(first === undefined ? `${pgns.join(', ')}: no line in it (empty, or only comments)` : `${first.file}: no readable line (first error at line ${first.line}, column ${first.column}: ${first.message})`, 1);
  }
  await whenUnlocked(file);
  const order = Array.from({ length: scratch.size }, (_, r) => r).sort((a, b) => scratch.seq[a]! - scratch.seq[b]!);
  const r = await bookErrors(() =>
    tbkFileVersion(file) === 2
      ? changeNotes(file, (book) => {
          let added = 0;
          for (const q of order) {
            if (scratch.user[q] === USER_NONE) continue;
            const hi = scratch.keyHi[q]!;
            const lo = scratch.keyLo[q]!;
            const move = scratch.move[q]!;
            // Added as book set counts it: a move the book lacked, or one only its PostBook had
            // (a move an earlier run added is in the book already).
            const e = book.movesOf(hi, lo).find((x) => x.move === move);
            if (e === undefined || (e.postBook && e.wins + e.draws + e.losses + e.unfinished === 0)) added++;
            const note = book.notes.edit(hi, lo, move, (scratch.flags[q]! & 1) === 1);
            note.userValue = scratch.user[q]!;
            note.postBook = false;
          }
          return { result: { moves: order.length, added } };
        }, { verify: true })
      : updateRichBook(file, (t) => {
      let added = 0;
      for (const q of order) {
        if (scratch.user[q] === USER_NONE) continue;
        const before = t.size;
        const row = t.findOrCreate(scratch.keyLo[q]!, scratch.keyHi[q]!, scratch.move[q]!, scratch.flags[q]! & 1);
        if (t.size > before) added++;
        t.user[row] = scratch.user[q]!;
        t.flags[row]! &= ~EF_POSTBOOK;
      }
      return { moves: order.length, added };
      }),
  );
  const s = visitor.stats;
  const value = { book: file, inputs: pgns, lines: s.lines, nags: s.values, moves: r.moves, added: r.added, skippedLines: s.skipped, skipped: job.skipped };
  report(opts.json, value, () => `${s.lines} lines, ${s.values} NAGs: user values on ${r.moves} moves (${r.added} added to the book)${s.skipped > 0 ? `; ${s.skipped} broken lines skipped` : ''}`);
}

/**
 * `book annotate X.tbk tree.pgn --notes`: every annotated move of the PGN's main lines and
 * variations gets the PGN's NAG, comment, user value and forbidden mark (the fields the PGN
 * gives; the others are left as they are), as the explorer's PGN export writes them. With
 * --replace every move of the PGN gets exactly what the PGN gives it, the rest cleared: a
 * repertoire exported, edited elsewhere (a comment deleted, a value taken away) and read back is
 * the book's again. A move that no game played is in the book only through its notes; one whose
 * notes would all go keeps them, and is named (its PGN still holds it).
 */
async function annotateNotes(file: string, pgns: string[], opts: RichAnnotateCliOptions): Promise<void> {
  if (tbkFileVersion(file) === 1) throw new CliError(`${file} is a version 1 book, which keeps no NAGs or comments: book upgrade converts it, then --notes can read them`, 1);
  const job = new PgnJob('book annotate', opts);
  const replace = opts.replace === true;
  // With the opening names, so that the names the export writes are not read back as comments.
  const visitor = new PgnNotesVisitor(job.onError, loadOpenings(), replace);
  const summary = await readPgn(pgns, visitor, { onProgress: (p) => job.onProgress(p.bytes, p.totalBytes, p.games) }).finally(() => job.stop());
  if (summary.unreadable.length > 0) throw new CliError(`${summary.unreadable.map((u) => u.message).join('; ')}; ${file} was not changed`, 1);
  const first = job.skipped[0];
  if (visitor.stats.lines === 0) {
    throw new CliError(first === undefined ? `${pgns.join(', ')}: no line in it (empty, or only comments)` : `${first.file}: no readable line (first error at line ${first.line}, column ${first.column}: ${first.message})`, 1);
  }
  const s = visitor.stats;
  if (s.unknown.length > 0) process.stderr.write(`tabiya: book annotate: [%tabiya] commands with words this version does not know, left out: ${s.unknown.join(', ')}\n`);
  await whenUnlocked(file);
  const r = await bookErrors(() =>
    changeNotes(
      file,
      (book) => {
        let added = 0;
        let cleared = 0;
        // Moves that lost some of their notes and keep others (a comment deleted, the value kept):
        // the summary says so, or a deletion made in the other program would pass unmentioned.
        let reduced = 0;
        const kept: string[] = [];
        for (const n of visitor.notes.values()) {
          const entry = book.movesOf(n.keyHi, n.keyLo).find((e) => e.move === n.move);
          if (!isAnnotated(n)) {
            // --replace: a move the PGN gives bare loses the notes it has; one without notes has nothing to clear.
            const had = book.notes.get(n.keyHi, n.keyLo, n.move);
            if (had === undefined || !hasUserNotes(had)) continue;
            const left = noteHasData({ ...had, userValue: -1, forbidden: false, nag: 0, comment: '' });
            if ((entry === undefined || heldOnlyByNotes(entry)) && !left) {
              kept.push(`${n.san ?? '?'} in game ${n.game ?? '?'}`);
              continue;
            }
          }
          if (entry === undefined) added++;
          const note = book.notes.edit(n.keyHi, n.keyLo, n.move, n.black);
          const before = replace && hasUserNotes(note) ? { ...note } : undefined;
          if (n.value !== undefined) {
            note.userValue = n.value;
            note.postBook = false;
          } else if (replace) note.userValue = -1;
          if (n.forbidden !== undefined || replace) note.forbidden = n.forbidden ?? false;
          if (n.nag !== undefined || replace) note.nag = n.nag ?? 0;
          if (n.comment !== undefined || replace) note.comment = n.comment ?? '';
          if (before !== undefined && !hasUserNotes(note)) cleared++;
          else if (before !== undefined && lostNote(before, note)) reduced++;
        }
        return { result: { added, cleared, reduced, kept } };
      },
      { verify: true },
    ),
  );
  if (r.kept.length > 0) {
    const names = r.kept.slice(0, 10).join(', ') + (r.kept.length > 10 ? `, and ${r.kept.length - 10} more` : '');
    process.stderr.write(`tabiya: book annotate: ${r.kept.length} move${r.kept.length === 1 ? '' : 's'} that no game played kept ${r.kept.length === 1 ? 'its' : 'their'} notes, though the PGN gives none: the book holds such a move only through its notes (${names}); set a user value or comment on it, or remove it in the explorer\n`);
  }
  const value = { book: file, inputs: pgns, lines: s.lines, moves: s.moves, added: r.added, ...(replace ? { cleared: r.cleared, reduced: r.reduced, kept: r.kept } : {}), skippedLines: s.skipped, skipped: job.skipped };
  report(opts.json, value, () => `${s.lines} lines: notes on ${s.moves} moves (${r.added} added to the book)${replace ? `; notes cleared from ${r.cleared} moves${r.reduced > 0 ? `, in part from ${r.reduced} more` : ''}` : ''}${s.skipped > 0 ? `; ${s.skipped} broken lines skipped` : ''}`);
}

/** Whether `after` lacks a note `before` had (user value, forbidden mark, NAG, comment). */
function lostNote(before: Note, after: Note): boolean {
  return (before.userValue >= 0 && after.userValue < 0) || (before.forbidden && !after.forbidden) || (before.nag !== 0 && after.nag === 0) || (before.comment !== '' && after.comment === '');
}

/** Whether a move has notes a PGN carries (user value, forbidden mark, NAG, comment). */
function hasUserNotes(n: Note): boolean {
  return n.userValue >= 0 || n.forbidden || n.nag !== 0 || n.comment !== '';
}

/** A move the book holds only through its notes (added by hand): no game, no weight, no make-book count. */
function heldOnlyByNotes(e: BookEntry): boolean {
  return e.wins + e.draws + e.losses + e.unfinished + e.weight + (e.pgN ?? 0) === 0;
}

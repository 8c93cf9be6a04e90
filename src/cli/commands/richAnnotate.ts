/**
 * `tabiya book annotate X.tbk lines.pgn`: user values from the NAGs of a PGN of lines (Terra's
 * rules: a tag separates lines, the last NAG of a move wins, moves without a NAG keep their
 * value; see rich/annotate.ts). With --notes: the NAGs, comments, user values and forbidden marks
 * of every move of a PGN tree, as the explorer's PGN export writes them (rich/pgnNotes.ts).
 */
import { updateRichBook, whenUnlocked } from '../../book/node/richFile.js';
import { AnnotateVisitor } from '../../book/rich/annotate.js';
import { PgnNotesVisitor } from '../../book/rich/pgnNotes.js';
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
  quiet?: boolean;
  json?: boolean;
}

export async function richAnnotateCommand(file: string, pgns: string[], opts: RichAnnotateCliOptions): Promise<void> {
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
            if (!book.movesOf(hi, lo).some((e) => e.move === move && e.wins + e.draws + e.losses + e.unfinished > 0)) added++;
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
 * gives; the others are left as they are), as the explorer's PGN export writes them.
 */
async function annotateNotes(file: string, pgns: string[], opts: RichAnnotateCliOptions): Promise<void> {
  if (tbkFileVersion(file) === 1) throw new CliError(`${file} is a version 1 book, which keeps no NAGs or comments: book upgrade converts it, then --notes can read them`, 1);
  const job = new PgnJob('book annotate', opts);
  const visitor = new PgnNotesVisitor(job.onError);
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
        for (const n of visitor.notes.values()) {
          if (!book.movesOf(n.keyHi, n.keyLo).some((e) => e.move === n.move && e.wins + e.draws + e.losses + e.unfinished > 0)) added++;
          const note = book.notes.edit(n.keyHi, n.keyLo, n.move, n.black);
          if (n.value !== undefined) {
            note.userValue = n.value;
            note.postBook = false;
          }
          if (n.forbidden !== undefined) note.forbidden = n.forbidden;
          if (n.nag !== undefined) note.nag = n.nag;
          if (n.comment !== undefined) note.comment = n.comment;
        }
        return { result: { added } };
      },
      { verify: true },
    ),
  );
  const value = { book: file, inputs: pgns, lines: s.lines, moves: s.moves, added: r.added, skippedLines: s.skipped, skipped: job.skipped };
  report(opts.json, value, () => `${s.lines} lines: notes on ${s.moves} moves (${r.added} added to the book)${s.skipped > 0 ? `; ${s.skipped} broken lines skipped` : ''}`);
}

/**
 * `tabiya book info BOOK [--exact]`: what a book holds (entries, positions, weights, learn
 * data, malformed moves) and PolyGlot's info-book counts, whose rows are printed exactly as
 * `polyglot info-book` prints them.
 */
import { loadBook } from '../../book/node/openBook.js';
import { bookInfo } from '../../book/polyglot/info.js';
import { formatLineCounts } from '../../book/polyglot/lines.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';

export interface BookInfoCliOptions {
  exact?: boolean;
  lines?: boolean;
  json?: boolean;
}

export async function bookInfoCommand(file: string, opts: BookInfoCliOptions): Promise<void> {
  let book;
  try {
    book = await loadBook(file);
  } catch (e) {
    throw e instanceof Error && 'code' in e ? new CliError(e.message, 1) : e;
  }
  if (!opts.json) for (const w of book.warnings) process.stderr.write(`warning: ${w}\n`);
  const info = bookInfo(book, { lines: opts.lines, exact: opts.exact });
  report(opts.json, { file, bytes: book.bytes.length, ...info, warnings: book.warnings }, () => {
    const w = info.weights;
    const lines = [
      `${file}: ${book.bytes.length} bytes, ${info.entries} entries, sorted`,
      `positions                      : ${String(info.positions).padStart(8)} (up to ${info.maxMovesPerPosition} moves each)`,
      `weights                        : ${w.min}..${w.max}, total ${w.total}${w.zero > 0 ? `, ${w.zero} entries of weight 0` : ''}`,
      `entries with learn data        : ${String(info.withLearn).padStart(8)}`,
    ];
    if (info.badMoves > 0) lines.push(`entries without a valid move   : ${String(info.badMoves).padStart(8)}`);
    if (info.lines !== undefined) lines.push(formatLineCounts(info.lines).trimEnd());
    return lines.join('\n');
  });
}

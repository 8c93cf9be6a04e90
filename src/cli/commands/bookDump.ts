/**
 * `tabiya book dump BOOK --color white|black [-o FILE]`: the lines of a book from the start
 * position, exactly as `polyglot dump-book` writes them (same order, shares, {cycle}/{trans}).
 */
import { loadBook } from '../../book/node/openBook.js';
import { writeFileAtomic } from '../../book/node/atomicWrite.js';
import { dumpLines } from '../../book/polyglot/lines.js';
import { checkOutputs } from '../../node/outputs.js';
import { BLACK, WHITE } from '../../core/types.js';
import { CliError } from '../errors.js';

export interface BookDumpCliOptions {
  color?: string;
  output?: string;
  force?: boolean;
}

export async function bookDumpCommand(file: string, opts: BookDumpCliOptions): Promise<void> {
  const colour = opts.color === 'white' ? WHITE : opts.color === 'black' ? BLACK : -1;
  if (colour < 0) throw new CliError(opts.color === undefined ? 'give --color white or --color black' : `--color: "${opts.color}" is not white or black`, 2);
  checkOutputs([{ path: opts.output ?? '-', kind: 'text' }], [file], { force: opts.force });
  try {
    const book = await loadBook(file);
    for (const w of book.warnings) process.stderr.write(`warning: ${w}\n`);
    await writeFileAtomic(opts.output ?? '-', dumpLines(book, colour, file));
  } catch (e) {
    throw e instanceof Error && 'code' in e ? new CliError(e.message, 1) : e;
  }
}

/**
 * `tabiya book export X.tbk -o X.bin [make-book's options]`: the Polyglot book of a rich book,
 * byte-identical to `polyglot make-book` on the same games when the book was counted in one
 * pass (see rich/export.ts); otherwise it says why it may differ, and --exact refuses. It takes
 * every option of `book make` that shapes a `.bin`, so that the same options give the same
 * bytes; --max-ply can only be the one the games were counted with (the games are not kept).
 */
import { openRichBook } from '../../book/node/richFile.js';
import { writeFileAtomic } from '../../book/node/atomicWrite.js';
import { exportPolyglot } from '../../book/rich/export.js';
import { checkOutputs } from '../../node/outputs.js';
import { CliError, intOption, numberOption } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';

export interface RichExportCliOptions {
  output: string;
  maxPly?: string;
  minGames?: string;
  minScore?: string;
  colour?: 'white' | 'black';
  uniform?: boolean;
  userValues?: boolean;
  exact?: boolean;
  json?: boolean;
  force?: boolean;
}

export async function richExportCommand(file: string, opts: RichExportCliOptions, given: (name: string) => boolean = () => true): Promise<void> {
  // A .bin under a .tbk name would then be refused by every .tbk command as "bad signature".
  if (opts.output.toLowerCase().endsWith('.tbk')) throw new CliError(`book export writes a Polyglot .bin book; ${opts.output} ends in .tbk`, 2);
  // Defaults are make-book's; only options the user gave can conflict with an imported book.
  const minGame = given('minGames') ? intOption('--min-games', opts.minGames, 0, 65535) : undefined;
  const maxPly = intOption('--max-ply', opts.maxPly, 0);
  const minScore = given('minScore') ? numberOption('--min-score', opts.minScore, 0, 100) : undefined;
  checkOutputs([{ path: opts.output, kind: 'polyglot' }], [file], { force: opts.force });
  const t0 = performance.now();
  const r = await bookErrors(async () => {
    const { book, close } = openRichBook(file, { memoryLimit: Infinity, verify: true });
    try {
      if (maxPly !== undefined && Math.min(maxPly, 0xffff) !== book.header.maxPly) throw new CliError(maxPlyRefusal(file, book.header.maxPly, maxPly), 1);
      const out = exportPolyglot(book, { minGame, minScore, colour: opts.colour ?? 'both', uniform: opts.uniform === true, userValues: opts.userValues === true });
      if (opts.exact && out.notes.length > 0) throw new CliError(`${file}: cannot export exactly: ${out.notes.join('; ')}`, 1);
      await writeFileAtomic(opts.output, out.bytes);
      return { kind: out.kind, notes: out.notes, entries: out.kept, bytes: out.bytes.length, maxPly: book.header.maxPly };
    } finally {
      close();
    }
  });
  const seconds = (performance.now() - t0) / 1000;
  const exact = r.notes.length === 0;
  if (!opts.json) for (const n of r.notes) process.stderr.write(`note: ${n}\n`);
  const value = { input: file, output: opts.output, exact, kind: r.kind, notes: r.notes, entries: r.entries, bytes: r.bytes, maxPly: r.maxPly, seconds };
  if (opts.output === '-') process.stderr.write((opts.json ? JSON.stringify(value) : summary()) + '\n');
  else report(opts.json, value, summary);
  function summary(): string {
    const same = exact && r.kind === 'exact' ? ` (= polyglot make-book${r.maxPly > 0 && r.maxPly !== 1024 ? ` -max-ply ${r.maxPly}` : ''} with these options on the same games)` : exact ? ' (the imported .bin, as it was)' : ' (approximate)';
    return `wrote ${opts.output}: ${r.entries} entries${same} in ${seconds.toFixed(2)} s`;
  }
}

/** Why an export cannot have another max-ply than the book's: the games are not in the book. */
function maxPlyRefusal(file: string, counted: number, asked: number): string {
  const how = counted === 0 ? 'was imported from a .bin, whose games are unknown' : `was counted with --max-ply ${counted}`;
  return `${file} ${how}: an export with --max-ply ${asked} needs the games again (tabiya book make GAMES -o X.bin --max-ply ${asked})`;
}

/**
 * `tabiya book import X.bin -o X.tbk`: a Polyglot book as a rich book (weights and learn fields
 * kept, moves resolved by walking the book from the start position; see rich/import.ts).
 */
import { loadBook } from '../../book/node/openBook.js';
import { fastCrc32 } from '../../book/node/richFile.js';
import { writeUpgraded } from '../../book/node/tbkUpgrade.js';
import { RichBook } from '../../book/rich/reader.js';
import { checkOutputs } from '../../node/outputs.js';
import { importPolyglot } from '../../book/rich/import.js';
import { encodeBook } from '../../book/rich/writer.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';

export interface RichImportCliOptions {
  output: string;
  json?: boolean;
  force?: boolean;
}

export async function richImportCommand(file: string, opts: RichImportCliOptions): Promise<void> {
  if (!opts.output.endsWith('.tbk')) throw new CliError(`book import writes a .tbk book; ${opts.output} does not end in .tbk`, 2);
  checkOutputs([{ path: opts.output, kind: 'tbk' }], [file], { force: opts.force });
  const t0 = performance.now();
  const r = await bookErrors(async () => {
    const bin = await loadBook(file);
    for (const w of bin.warnings) if (!opts.json) process.stderr.write(`warning: ${w}\n`);
    const imported = importPolyglot(bin, file);
    // Built as a version 1 book in memory, written as version 2 (every weight and learn field kept).
    const v1 = RichBook.open(encodeBook(imported.table, imported.info, undefined, fastCrc32), file);
    if (!v1.ok) throw v1.error;
    const up = writeUpgraded(v1.value, file, opts.output);
    return { entries: imported.entries, resolved: imported.resolved, unresolved: imported.unresolved, bytes: up.bytesWritten };
  });
  const seconds = (performance.now() - t0) / 1000;
  report(opts.json, { input: file, output: opts.output, ...r, seconds }, () =>
    [
      `imported ${file}: ${r.entries} entries, ${r.resolved} on lines from the start position${r.unresolved > 0 ? `, ${r.unresolved} off them (move read without its position)` : ''}`,
      `kept: weights and learn fields; a .bin has no game counts, results or ratings`,
      `wrote ${opts.output}: ${r.bytes} bytes in ${seconds.toFixed(2)} s`,
    ].join('\n'),
  );
}

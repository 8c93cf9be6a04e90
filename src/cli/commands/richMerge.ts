/**
 * `tabiya book merge A.tbk B.tbk [C.tbk…] -o OUT.tbk [--min-games N]` (Terra's mergebooks):
 * statistics added, the first book's user values win, moves below N fixed games left out.
 */
import { fastCrc32, openRichBook, replaceRichBook, type OpenedRichBook } from '../../book/node/richFile.js';
import { mergeRich } from '../../book/rich/merge.js';
import { checkOutputs } from '../../node/outputs.js';
import { MERGE_IN_PLACE } from './bookMerge.js';
import { encodeBook } from '../../book/rich/writer.js';
import { CliError, intOption } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';

export interface RichMergeCliOptions {
  output: string;
  minGames?: string;
  json?: boolean;
  force?: boolean;
}

export async function richMergeCommand(files: string[], opts: RichMergeCliOptions): Promise<void> {
  if (files.length < 2) throw new CliError('book merge needs at least two books', 2);
  for (const f of files) if (!f.endsWith('.tbk')) throw new CliError(`${f}: merging into a .tbk needs .tbk inputs (convert a .bin with book import)`, 2);
  const minGames = intOption('--min-games', opts.minGames ?? '0', 0)!;
  checkOutputs([{ path: opts.output, kind: 'tbk' }], files, { force: opts.force, sameFileHint: MERGE_IN_PLACE });
  const t0 = performance.now();
  const r = await bookErrors(() => {
    const opened: OpenedRichBook[] = [];
    try {
      for (const f of files) {
        const o = openRichBook(f, { memoryLimit: Infinity, verify: true });
        opened.push(o);
      }
      const m = mergeRich(
        opened.map((o) => o.book),
        minGames,
      );
      const bytes = encodeBook(m.table, m.info, m.keep, fastCrc32);
      replaceRichBook(opts.output, bytes);
      return { entries: new DataView(bytes.buffer, bytes.byteOffset).getUint32(20), shared: m.shared, dropped: m.dropped, games: m.info.games, bytes: bytes.length };
    } finally {
      for (const o of opened) o.close();
    }
  });
  const seconds = (performance.now() - t0) / 1000;
  report(opts.json, { output: opts.output, inputs: files, minGames, ...r, polyglotExport: 'approximate', seconds }, () =>
    [
      `merged ${files.join(' + ')}: ${r.games} games, ${r.shared} moves in more than one book`,
      minGames > 0 ? `${r.dropped} moves below ${minGames} games left out` : '',
      `wrote ${opts.output}: ${r.entries} entries, ${r.bytes} bytes in ${seconds.toFixed(2)} s`,
    ]
      .filter((l) => l !== '')
      .join('\n'),
  );
}

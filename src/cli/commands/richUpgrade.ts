/**
 * `tabiya book upgrade X.tbk [-o Y.tbk]`: a version 1 book as a version 2 book (tbkUpgrade.ts),
 * in place (crash-safely, under the book's lock) or into a new file. Nothing is lost: every
 * entry's statistics, make-book's counters, user values and learning carry over. A version 2
 * book made before repeats were kept apart (its W/D/L counted a repeated move each time) has its
 * games counted again, each once a position (tbkCombine.ts recountTbk).
 */
import { statSync } from 'node:fs';
import { whenUnlocked, withBookLock } from '../../book/node/richFile.js';
import { tbkFileVersion } from '../../book/node/openTbk.js';
import { upgradeV1 } from '../../book/node/tbkUpgrade.js';
import { openForRebuild, recountTbk } from '../../book/node/tbkCombine.js';
import { FLAG_GAMES_ONCE } from '../../book/rich/container.js';
import { checkOutputs } from '../../node/outputs.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';
import { ioReason } from '../../book/node/atomicWrite.js';

export interface RichUpgradeCliOptions {
  output?: string;
  force?: boolean;
  json?: boolean;
}

export async function richUpgradeCommand(file: string, opts: RichUpgradeCliOptions): Promise<void> {
  if (opts.output !== undefined && !/\.tbk$/i.test(opts.output)) throw new CliError(`book upgrade writes a .tbk book; ${opts.output} does not end in .tbk`, 2);
  const version = tbkFileVersion(file);
  if (version === 2) return recount(file, opts);
  if (version !== 1) {
    // Say why: a missing file or a directory is not "not a .tbk".
    let st;
    try {
      st = statSync(file);
    } catch (e) {
      throw new CliError((e as NodeJS.ErrnoException).code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read: ${ioReason(e)}`, 1);
    }
    throw new CliError(st.isDirectory() ? `${file}: is a directory, not a .tbk book` : `${file}: not a .tbk book`, 1);
  }
  const output = opts.output ?? file;
  if (output !== file) checkOutputs([{ path: output, kind: 'tbk' }], [file], { force: opts.force });
  if (output === file) await whenUnlocked(file);
  const s = await bookErrors(() => (output === file ? withBookLock(file, () => upgradeV1(file, file)) : upgradeV1(file, output)));
  report(opts.json, s, () => `upgraded ${file} to version 2: ${s.entries} entries, ${s.positions} positions, ${s.notes} notes; wrote ${s.output}: ${s.bytesWritten} bytes`);
}

/** A version 2 book whose W/D/L counted a repeated move each time, counted again. */
async function recount(file: string, opts: RichUpgradeCliOptions): Promise<void> {
  const output = opts.output ?? file;
  const once = await bookErrors(() => {
    const { book, file: reader } = openForRebuild(file);
    try {
      return (book.fields.flags & FLAG_GAMES_ONCE) !== 0;
    } finally {
      reader.close();
    }
  });
  if (once) throw new CliError(`${file} is already a version 2 book that counts each game once a position: nothing to upgrade`, 1);
  if (output !== file) checkOutputs([{ path: output, kind: 'tbk' }], [file], { force: opts.force });
  if (output === file) await whenUnlocked(file);
  const s = await bookErrors(() => (output === file ? withBookLock(file, () => recountTbk(file, file)) : recountTbk(file, output)));
  report(opts.json, s, () => `counted the ${s.games} games of ${file} again, each once a position: ${s.movesChanged} moves had counted a game that repeated a position; wrote ${s.output}: ${s.bytesWritten} bytes`);
}

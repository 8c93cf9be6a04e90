/**
 * `tabiya book upgrade X.tbk [-o Y.tbk]`: a version 1 book as a version 2 book (tbkUpgrade.ts),
 * in place (crash-safely, under the book's lock) or into a new file. Nothing is lost: every
 * entry's statistics, make-book's counters, user values and learning carry over.
 */
import { withBookLock } from '../../book/node/richFile.js';
import { tbkFileVersion } from '../../book/node/openTbk.js';
import { upgradeV1 } from '../../book/node/tbkUpgrade.js';
import { checkOutputs } from '../../node/outputs.js';
import { CliError } from '../errors.js';
import { report } from '../output.js';
import { bookErrors } from './richCommon.js';

export interface RichUpgradeCliOptions {
  output?: string;
  json?: boolean;
}

export async function richUpgradeCommand(file: string, opts: RichUpgradeCliOptions): Promise<void> {
  const version = tbkFileVersion(file);
  if (version === 2) throw new CliError(`${file} is already a version 2 book`, 1);
  if (version !== 1) throw new CliError(`${file}: not a .tbk book`, 1);
  const output = opts.output ?? file;
  if (output !== file) checkOutputs([{ path: output, kind: 'tbk' }], [file]);
  const s = await bookErrors(() => (output === file ? withBookLock(file, () => upgradeV1(file, file)) : upgradeV1(file, output)));
  report(opts.json, s, () => `upgraded ${file} to version 2: ${s.entries} entries, ${s.positions} positions, ${s.notes} notes; wrote ${s.output}: ${s.bytesWritten} bytes`);
}
